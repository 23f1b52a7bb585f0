package app_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agora/app"
	"agora/internal/plumbing/config"
	"agora/search/wordvec"
)

// agora dev serves word vectors on loopback when no embeddings API is
// configured, and the embedder built from its cfg embeds through them.
func TestStartEmbeddingsServesWordVectors(t *testing.T) {
	var buf bytes.Buffer
	if err := wordvec.Write(&buf, 2, []string{"recipe", "server"}, [][]float32{{1, 0.2}, {0.1, 1}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), wordvec.FileName)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Embeddings.WordVectors = path
	var logs bytes.Buffer
	e, err := app.StartEmbeddings(&cfg, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Local == "" || cfg.Embeddings.URL != e.Local || cfg.Embeddings.Model != wordvec.Model || e.Words != 2 {
		t.Fatalf("local %q, %d words; cfg %+v", e.Local, e.Words, cfg.Embeddings)
	}
	if !strings.HasPrefix(e.Local, "http://127.0.0.1:") || !strings.Contains(logs.String(), "local word vectors") {
		t.Errorf("local %q, log %s", e.Local, logs.String())
	}
	emb, err := app.NewEmbedder(cfg)
	if err != nil || emb == nil {
		t.Fatalf("embedder %v, %v", emb, err)
	}
	got, err := emb.Embed(context.Background(), []string{"The server", "a recipe", "nothing known"})
	if err != nil {
		t.Fatal(err)
	}
	vecs, _ := wordvec.Parse(buf.Bytes())
	want, _ := vecs.Embed(context.Background(), []string{"The server", "a recipe", "nothing known"})
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("over the local API %v, directly %v", got, want)
	}
}

// Without the file, agora dev says that the AI search ranks by keywords
// only and how to install the word vectors; there is no embedder.
func TestStartEmbeddingsWithoutWordVectors(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	cfg := config.Default()
	var logs bytes.Buffer
	e, err := app.StartEmbeddings(&cfg, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Local != "" || cfg.Embeddings.URL != "" {
		t.Errorf("a server without word vectors: %q, %+v", e.Local, cfg.Embeddings)
	}
	for _, want := range []string{"level=WARN", "keyword ranking only", "scripts/install-deps.sh wordvectors", wordvec.FileName} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log %q lacks %q", logs.String(), want)
		}
	}
	if emb, err := app.NewEmbedder(cfg); emb != nil || err != nil {
		t.Errorf("embedder %v, %v; want none", emb, err)
	}
}

// With an embeddings API configured, nothing local starts and the
// embedder is the API's client.
func TestStartEmbeddingsWithAProvider(t *testing.T) {
	cfg := config.Default()
	cfg.Embeddings = config.EmbeddingsConfig{URL: "http://127.0.0.1:1/v1", Model: "nomic-embed-text"}
	e, err := app.StartEmbeddings(&cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Local != "" || cfg.Embeddings.URL != "http://127.0.0.1:1/v1" {
		t.Errorf("local %q, cfg %+v", e.Local, cfg.Embeddings)
	}
	if emb, err := app.NewEmbedder(cfg); emb == nil || err != nil {
		t.Errorf("embedder %v, %v", emb, err)
	}
}
