package app

import (
	"context"
	"log/slog"

	"agora/internal/config"
	"agora/internal/db"
	"agora/projections"
	"agora/projections/searchindex"
	"agora/search"
	"agora/search/answer"
)

// WithSearch gives the API the search store to read: agora dev shares one
// store between its API and its search projection (the embedded engine is
// one process's). Without it the API opens the store of the configuration
// (Meilisearch with MEILI_URL, else the data folder's embedded engine) and
// closes it on shutdown.
func WithSearch(store search.Store) APIOption {
	return func(o *apiOptions) { o.search = store }
}

// apiSearch is the API's store and what releases it.
func apiSearch(cfg config.Config, opts []APIOption) (search.Store, func(), error) {
	var o apiOptions
	for _, f := range opts {
		f(&o)
	}
	if o.search != nil {
		return o.search, func() {}, nil
	}
	store, err := search.Open(context.Background(), cfg)
	if err != nil {
		return nil, nil, err
	}
	return store, func() { _ = store.Close() }, nil
}

// searchProjection is the projection that fills store.
func searchProjection(store search.Store, d *db.DB, log *slog.Logger) projections.Handler {
	return searchindex.New(store, d.Pool, log.With("part", "search"))
}

// newAnswerer is what answers the AI search: the configured model, or the
// extractive answerer when none is configured.
func newAnswerer(cfg config.Config, log *slog.Logger) (answer.Answerer, error) {
	provider := cfg.AI.ModelProvider()
	if provider == "" {
		return answer.Extractive{}, nil
	}
	m, err := answer.NewModel(answer.Config{
		Provider: provider, BaseURL: cfg.AI.ModelURL, Model: cfg.AI.Model,
		Token: cfg.AI.APIKey, MaxTokens: cfg.AI.MaxTokens,
	}, nil)
	if err != nil {
		return nil, err
	}
	log.Info("AI search answers with a model", "answerer", m.Name(), "url", cfg.AI.ModelURL)
	return m, nil
}
