package app

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"agora/internal/plumbing/config"
	"agora/internal/standins/childproc"
	"agora/search/embedding"
	"agora/search/wordvec"
)

// Embeddings is what embeds for the AI search: AGORA_EMBEDDINGS_URL's
// API, a local word-vector server that this process started, or nothing.
type Embeddings struct {
	// Local is the local server's base URL, empty when none runs.
	Local string
	// Words is how many words the local server has vectors for.
	Words int
	srv   *http.Server
}

// StartEmbeddings serves the word vectors (AGORA_WORD_VECTORS, else those
// scripts/install-deps.sh installs) behind the OpenAI-compatible
// embeddings API on a free loopback port, in process, when no embeddings
// API is configured, and names it in cfg.Embeddings so that everything
// built from cfg afterwards (the API, the search projection) embeds
// through the same client as with a provider. Without the file it warns
// that the AI search ranks by keywords only. agora dev calls it before
// building the API and the projections.
func StartEmbeddings(cfg *config.Config, log *slog.Logger) (*Embeddings, error) {
	if cfg.Embeddings.Enabled() {
		log.Info("AI search embeds with an embeddings API", "url", cfg.Embeddings.URL, "model", cfg.Embeddings.Model)
		return &Embeddings{}, nil
	}
	path, ok := cfg.Embeddings.WordVectors, true
	if path == "" {
		path, ok = childproc.CachedFile("wordvectors", wordvec.Version, wordvec.FileName)
	}
	if !ok {
		log.Warn("no embeddings API and no word vectors: the AI search runs without embeddings (keyword ranking only)",
			"wordVectors", path, "install", "scripts/install-deps.sh wordvectors (or set AGORA_EMBEDDINGS_URL)")
		return &Embeddings{}, nil
	}
	start := time.Now()
	vecs, err := wordvec.Open(path)
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/v1"+embedding.Path, embedding.Handler(vecs))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("the local embeddings server stopped", "err", err)
		}
	}()
	base := "http://" + l.Addr().String() + "/v1"
	cfg.Embeddings.URL, cfg.Embeddings.Model = base, wordvec.Model
	log.Info("AI search embeds with local word vectors, served on loopback by the embeddings API (no AGORA_EMBEDDINGS_URL)",
		"url", base, "model", wordvec.Model, "file", path, "words", vecs.Len(), "took", time.Since(start).Round(time.Millisecond))
	return &Embeddings{Local: base, Words: vecs.Len(), srv: srv}, nil
}

// Close stops the local server, if any, letting requests under way end
// for up to 5 s.
func (e *Embeddings) Close() error {
	if e.srv == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return e.srv.Shutdown(ctx)
}
