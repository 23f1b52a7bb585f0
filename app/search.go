package app

import (
	"context"
	"log/slog"

	"agora/internal/plumbing/config"
	"agora/search"
	"agora/search/answer"
	"agora/search/embedding"
)

// OpenSearch opens the search store of the configuration: Meilisearch when
// MEILI_URL is set, the embedded engine under the data folder's search/
// otherwise.
func OpenSearch(ctx context.Context, cfg config.Config) (search.Store, error) {
	if cfg.Search.MeiliURL != "" {
		return search.OpenMeili(ctx, search.MeiliConfig{URL: cfg.Search.MeiliURL, Key: cfg.Search.MeiliMasterKey})
	}
	return search.OpenEmbedded(cfg.SearchDir())
}

// apiSearch is the API's store (WithSearch, or the configuration's) and
// what releases it.
func apiSearch(cfg config.Config, o apiOptions) (search.Store, func(), error) {
	if o.search != nil {
		return o.search, func() {}, nil
	}
	store, err := OpenSearch(context.Background(), cfg)
	if err != nil {
		return nil, nil, err
	}
	return store, func() { _ = store.Close() }, nil
}

// newAnswerer is what answers the AI search: the configured model, or the
// extractive answerer when none is configured. This is the one place that
// default is made.
func newAnswerer(cfg config.Config, log *slog.Logger) (answer.Answerer, error) {
	m, err := newModel(cfg)
	if err != nil || m == nil {
		return answer.Extractive{}, err
	}
	log.Info("AI search answers with a model", "answerer", m.Name(), "url", cfg.AI.ModelURL)
	return m, nil
}

// newModel is the configured language model (AGORA_AI_*), or nil when none
// is: what answers the AI search and writes Meet Up minutes.
func newModel(cfg config.Config) (*answer.Model, error) {
	provider := cfg.AI.ModelProvider()
	if provider == "" {
		return nil, nil
	}
	return answer.NewModel(answer.Config{
		Provider: provider, BaseURL: cfg.AI.ModelURL, Model: cfg.AI.Model,
		Token: cfg.AI.APIKey, MaxTokens: cfg.AI.MaxTokens,
	}, nil)
}

// NewEmbedder is what embeds posts and AI search questions: the
// configured embeddings API (AGORA_EMBEDDINGS_*, or agora dev's local word
// vectors, which StartEmbeddings names in cfg), or nil when there is none
// and the AI search ranks by keywords only. The search projection and the
// API build theirs from the same cfg, so that posts and questions are
// embedded by one model.
func NewEmbedder(cfg config.Config) (search.Embedder, error) {
	if !cfg.Embeddings.Enabled() {
		return nil, nil
	}
	c, err := embedding.New(embedding.Config{BaseURL: cfg.Embeddings.URL, Model: cfg.Embeddings.Model, Token: cfg.Embeddings.APIKey}, nil)
	if err != nil {
		return nil, err
	}
	return c, nil
}
