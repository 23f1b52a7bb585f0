package runtime

import (
	"context"
	"log/slog"

	"agora/internal/config"
	"agora/internal/db"
	"agora/projections"
	"agora/projections/searchindex"
	"agora/search"
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
