package search

import (
	"context"

	"agora/internal/config"
)

// Open chooses the search store from the configuration: Meilisearch when
// MEILI_URL is set, the embedded engine under the data folder's search/
// otherwise.
func Open(ctx context.Context, c config.Config) (Store, error) {
	if c.Search.MeiliURL != "" {
		return OpenMeili(ctx, MeiliConfig{URL: c.Search.MeiliURL, Key: c.Search.MeiliMasterKey})
	}
	return OpenEmbedded(c.SearchDir())
}
