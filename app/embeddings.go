package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"time"

	"agora/httpapi"
	"agora/internal/plumbing/config"
	"agora/internal/standins/childproc"
	"agora/search"
	"agora/search/embedcache"
	"agora/search/embedding"
	"agora/search/sentence"
	"agora/search/wordvec"
)

// Embeddings is what embeds for the AI search: AGORA_EMBEDDINGS_URL's
// API, a local server over the sentence model or the word vectors that
// this process started, or nothing.
type Embeddings struct {
	// Local is the local server's base URL, empty when none runs.
	Local string
	// Words is how many words the local server has vectors for, when it
	// serves word vectors.
	Words int
	// Embedder is what /readyz says embeds, and why not the model when
	// the word vectors stand in.
	Embedder httpapi.Embedder
	srv      *http.Server
	model    *sentence.Encoder
	cache    *embedcache.Cache // in front of the model, when it opened
	log      *slog.Logger
}

// The kinds of embedder /readyz names.
const (
	EmbedderAPI         = "api"
	EmbedderModel       = "sentenceModel"
	EmbedderWordVectors = "wordVectors"
	EmbedderNone        = "none"
)

// StartEmbeddings serves, when no embeddings API is configured, the
// sentence-embedding model (AGORA_SENTENCE_MODEL and AGORA_ONNXRUNTIME,
// else those scripts/install-deps.sh sentencemodel installs) behind the
// OpenAI-compatible embeddings API on a free loopback port, in process,
// or, when the model cannot load, the word vectors (AGORA_WORD_VECTORS,
// else the installed ones), warning why; and names it in cfg.Embeddings
// so that everything built from cfg afterwards (the API, the search
// projection) embeds through the same client as with a provider. Without
// either it warns that the AI search ranks by keywords only. The model's
// vectors are kept on disk (AGORA_EMBEDDINGS_CACHE), so that what an
// earlier start embedded, such as the demo posts, is not embedded again.
// agora dev calls it before building the API and the projections.
func StartEmbeddings(cfg *config.Config, log *slog.Logger) (*Embeddings, error) {
	if cfg.Embeddings.Enabled() {
		log.Info("AI search embeds with an embeddings API", "url", cfg.Embeddings.URL, "model", cfg.Embeddings.Model)
		return &Embeddings{Embedder: httpapi.Embedder{Kind: EmbedderAPI, Model: cfg.Embeddings.Model}}, nil
	}
	start := time.Now()
	model, files, modelErr := openSentenceModel(cfg.Embeddings)
	if modelErr == nil {
		e := &Embeddings{Embedder: httpapi.Embedder{Kind: EmbedderModel, Model: sentence.Model}, model: model, log: log}
		emb, cacheDir := e.cached(cfg.Embeddings.Cache, model)
		if err := e.serve(cfg, log, emb, sentence.Model); err != nil {
			model.Close()
			if e.cache != nil {
				e.cache.Close()
			}
			return nil, err
		}
		log.Info("AI search embeds with a local sentence model in process, served on loopback by the embeddings API (no AGORA_EMBEDDINGS_URL)",
			"url", e.Local, "model", sentence.Model, "dir", files.Dir, "onnxRuntime", files.Library, "cache", cacheDir, "took", time.Since(start).Round(time.Millisecond))
		return e, nil
	}
	why := modelErr.Error()
	path, ok := cfg.Embeddings.WordVectors, true
	if path == "" {
		path, ok = childproc.CachedFile("wordvectors", wordvec.Version, wordvec.FileName)
	}
	if !ok {
		log.Warn("no embeddings API, the sentence model cannot load and there are no word vectors: the AI search runs without embeddings (keyword ranking only)",
			"why", why, "wordVectors", path, "install", "scripts/install-deps.sh sentencemodel (or set AGORA_EMBEDDINGS_URL)")
		return &Embeddings{Embedder: httpapi.Embedder{Kind: EmbedderNone, Fallback: why}}, nil
	}
	vecs, err := wordvec.Open(path)
	if err != nil {
		return nil, err
	}
	log.Warn("the sentence model cannot load: the AI search embeds with word vectors, which read paraphrases far worse",
		"why", why, "install", "scripts/install-deps.sh sentencemodel")
	e := &Embeddings{Words: vecs.Len(), Embedder: httpapi.Embedder{Kind: EmbedderWordVectors, Model: wordvec.Model, Fallback: why}}
	if err := e.serve(cfg, log, vecs, wordvec.Model); err != nil {
		return nil, err
	}
	log.Info("AI search embeds with local word vectors, served on loopback by the embeddings API (no AGORA_EMBEDDINGS_URL)",
		"url", e.Local, "model", wordvec.Model, "file", path, "words", vecs.Len(), "took", time.Since(start).Round(time.Millisecond))
	return e, nil
}

// openSentenceModel loads the configured or installed model, or says why
// it cannot.
func openSentenceModel(c config.EmbeddingsConfig) (*sentence.Encoder, sentence.Files, error) {
	f := sentence.Files{Dir: c.SentenceModel, Library: c.ONNXRuntime}
	if f.Dir == "" {
		p, _ := childproc.CachedFile("sentencemodel", sentence.ModelVersion, sentence.ModelFile)
		f.Dir = filepath.Dir(p)
	}
	if f.Library == "" {
		f.Library, _ = childproc.CachedFile("onnxruntime", sentence.RuntimeVersion, sentence.LibraryFile)
	}
	m, err := sentence.Open(f)
	return m, f, err
}

// cached puts the on-disk cache of the model's vectors in front of it,
// in AGORA_EMBEDDINGS_CACHE or ($XDG_CACHE_HOME or ~/.cache)/agora/
// embeddings, unless that is "off", and says which folder. A cache that
// cannot open (a read-only home) is warned of: the model serves uncached.
func (e *Embeddings) cached(dir string, model search.Embedder) (search.Embedder, string) {
	if dir == config.EmbeddingsCacheOff {
		return model, dir
	}
	var err error
	if dir == "" {
		dir, err = childproc.CacheDir("embeddings")
	}
	if err == nil {
		e.cache, err = embedcache.Wrap(model, dir, sentence.Model, sentence.Dim)
	}
	if err != nil {
		e.log.Warn("the embeddings cache cannot open: the sentence model embeds every text at every start",
			"why", err, "set", "AGORA_EMBEDDINGS_CACHE (off keeps none)")
		return model, config.EmbeddingsCacheOff
	}
	return e.cache, e.cache.Dir()
}

// serve starts the embeddings API over emb on a free loopback port and
// names it, as model, in cfg.
func (e *Embeddings) serve(cfg *config.Config, log *slog.Logger, emb search.Embedder, model string) error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("embeddings: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/v1"+embedding.Path, embedding.Handler(emb))
	e.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := e.srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("the local embeddings server stopped", "err", err)
		}
	}()
	e.Local = "http://" + l.Addr().String() + "/v1"
	cfg.Embeddings.URL, cfg.Embeddings.Model = e.Local, model
	return nil
}

// CacheStats is what the on-disk cache in front of the local model has
// served since the start (texts answered from it, texts the model
// embedded), and false when there is none: an embeddings API, the word
// vectors, or a cache that is off or could not open.
func (e *Embeddings) CacheStats() (embedcache.Stats, bool) {
	if e.cache == nil {
		return embedcache.Stats{}, false
	}
	return e.cache.Stats(), true
}

// Close stops the local server, if any, letting requests under way end
// for up to 5 s, then releases the model and its cache, saying what the
// cache served.
func (e *Embeddings) Close() error {
	if e.srv == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := e.srv.Shutdown(ctx)
	if e.model != nil {
		err = errors.Join(err, e.model.Close())
	}
	if e.cache != nil {
		s := e.cache.Stats()
		if s.Unkept > 0 {
			e.log.Warn("the embeddings cache could not keep some vectors (full, or a disk error): those texts will be embedded again at the next start",
				"unkept", s.Unkept, "cache", e.cache.Dir(), "max", embedcache.MaxBytes)
		}
		e.log.Info("the embeddings cache served", "hits", s.Hits, "embedded", s.Misses, "cache", e.cache.Dir())
		err = errors.Join(err, e.cache.Close())
	}
	return err
}
