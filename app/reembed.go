package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"agora/internal/plumbing/config"
	"agora/projections"
	"agora/projections/searchindex"
)

// embedderFile records, in the embedded engine's folder, the embedding
// model whose vectors its posts hold: the index keeps vectors and not
// which model made them.
const embedderFile = "embedder"

// MatchEmbedder re-embeds the posts of the embedded search engine when
// they were embedded by another model than cfg's (the word vectors before
// the sentence model came, or an operator's model changed): a query's
// vector is compared only with vectors of its own model, so without it
// the posts indexed before the change would drop out of the dense side of
// the AI search until a rebuild. An index without a record (made before
// this was recorded) is taken as of an unknown model. agora dev and agora
// projector call it before the projections consume. With Meilisearch
// (MEILI_URL) it does nothing: the index is not this folder's.
func MatchEmbedder(ctx context.Context, cfg config.Config, handlers []projections.Handler, log *slog.Logger) error {
	if cfg.Search.MeiliURL != "" {
		return nil
	}
	var proj *searchindex.Projection
	for _, h := range handlers {
		if p, ok := h.(*searchindex.Projection); ok {
			proj = p
		}
	}
	if proj == nil {
		return nil
	}
	path := filepath.Join(cfg.SearchDir(), embedderFile)
	want := cfg.Embeddings.Model
	if !cfg.Embeddings.Enabled() {
		want = "" // no embedder: posts without vectors
	}
	data, err := os.ReadFile(path)
	switch {
	case err == nil && strings.TrimSpace(string(data)) == want:
		return nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("search: %w", err)
	}
	had := "unknown (no record)"
	if err == nil {
		had = strings.TrimSpace(string(data))
	}
	start := time.Now()
	n, err := proj.Reembed(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		log.Info("the embedding model changed: the search index's posts were embedded again", "from", had, "to", want, "posts", n, "took", time.Since(start).Round(time.Millisecond))
	}
	if err := os.WriteFile(path, []byte(want+"\n"), 0o644); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return nil
}
