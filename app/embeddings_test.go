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
	"agora/httpapi"
	"agora/internal/plumbing/config"
	"agora/search/sentence"
	"agora/search/wordvec"
)

// agora dev serves word vectors on loopback when no embeddings API is
// configured, and the embedder built from its cfg embeds through them.
func TestStartEmbeddingsServesWordVectors(t *testing.T) {
	path := twoWordVectors(t)
	// An empty cache: no sentence model.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
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
	// Said in the log and in /readyz's embedder: why not the model.
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), sentence.ModelFile) {
		t.Errorf("the log does not warn why the model cannot load: %s", logs.String())
	}
	if e.Embedder.Kind != app.EmbedderWordVectors || e.Embedder.Model != wordvec.Model || !strings.Contains(e.Embedder.Fallback, sentence.ModelFile) {
		t.Errorf("embedder %+v", e.Embedder)
	}
	emb, err := app.NewEmbedder(cfg)
	if err != nil || emb == nil {
		t.Fatalf("embedder %v, %v", emb, err)
	}
	got, err := emb.Embed(context.Background(), []string{"The server", "a recipe", "nothing known"})
	if err != nil {
		t.Fatal(err)
	}
	vecs, err := wordvec.Open(path)
	if err != nil {
		t.Fatal(err)
	}
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
	for _, want := range []string{"level=WARN", "keyword ranking only", "scripts/install-deps.sh sentencemodel", wordvec.FileName, sentence.ModelFile} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log %q lacks %q", logs.String(), want)
		}
	}
	if emb, err := app.NewEmbedder(cfg); emb != nil || err != nil {
		t.Errorf("embedder %v, %v; want none", emb, err)
	}
	if e.Embedder.Kind != app.EmbedderNone || e.Embedder.Fallback == "" {
		t.Errorf("embedder %+v", e.Embedder)
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
	if e.Embedder != (httpapi.Embedder{Kind: app.EmbedderAPI, Model: "nomic-embed-text"}) {
		t.Errorf("embedder %+v", e.Embedder)
	}
}

// sentenceModelFiles are the model and runtime scripts/install-deps.sh
// sentencemodel installs; the test skips when they are absent.
func sentenceModelFiles(t *testing.T) sentence.Files {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skip("no cache folder: the sentence model is not installed")
	}
	f := sentence.Files{
		Dir:     filepath.Join(cache, "agora", "sentencemodel-"+sentence.ModelVersion),
		Library: filepath.Join(cache, "agora", "onnxruntime-"+sentence.RuntimeVersion, sentence.LibraryFile),
	}
	for _, p := range []string{filepath.Join(f.Dir, sentence.ModelFile), f.Library} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("the sentence model is not installed (no %s): scripts/install-deps.sh sentencemodel", p)
		}
	}
	return f
}

// With the model installed, agora dev serves it rather than the word
// vectors (installed too, or not: the model comes first), and the
// embedder built from its cfg embeds with the model over loopback.
func TestStartEmbeddingsServesTheSentenceModel(t *testing.T) {
	f := sentenceModelFiles(t)
	// The model named by configuration, in a cache that holds nothing:
	// AGORA_SENTENCE_MODEL and AGORA_ONNXRUNTIME are honoured.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	cfg := config.Default()
	cfg.Embeddings.SentenceModel, cfg.Embeddings.ONNXRuntime = f.Dir, f.Library
	var logs bytes.Buffer
	e, err := app.StartEmbeddings(&cfg, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Embedder != (httpapi.Embedder{Kind: app.EmbedderModel, Model: sentence.Model}) || cfg.Embeddings.Model != sentence.Model || cfg.Embeddings.URL != e.Local {
		t.Fatalf("embedder %+v, cfg %+v", e.Embedder, cfg.Embeddings)
	}
	if strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "sentence model") {
		t.Errorf("log %s", logs.String())
	}
	emb, err := app.NewEmbedder(cfg)
	if err != nil || emb == nil {
		t.Fatalf("embedder %v, %v", emb, err)
	}
	texts := []string{"How do I reset my password?", "I forgot my login and cannot get into my account", "The meetup is on Tuesday"}
	got, err := emb.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	m, err := sentence.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	want, _ := m.Embed(context.Background(), texts)
	for i := range texts {
		if len(got[i]) != sentence.Dim {
			t.Fatalf("%d components over the API", len(got[i]))
		}
		for d := range got[i] {
			if diff := got[i][d] - want[i][d]; diff > 1e-5 || diff < -1e-5 {
				t.Fatalf("text %d: over the local API %v…, directly %v…", i, got[i][:3], want[i][:3])
			}
		}
	}
	// The vectors are kept in the cache folder for the next start.
	cache := filepath.Join(os.Getenv("XDG_CACHE_HOME"), "agora", "embeddings", fmt.Sprintf("%s-%d", sentence.Model, sentence.Dim))
	if !strings.Contains(logs.String(), "cache="+cache) || folderBytes(t, cache) == 0 {
		t.Errorf("nothing kept in %s; log %s", cache, logs.String())
	}
}

// folderBytes is the size of the files in dir.
func folderBytes(t *testing.T, dir string) int64 {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	var n int64
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// An embeddings cache that cannot open (its folder under a file, as a
// read-only home would) is warned of, and the model serves without it.
func TestStartEmbeddingsWithoutItsCache(t *testing.T) {
	f := sentenceModelFiles(t)
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Embeddings.SentenceModel, cfg.Embeddings.ONNXRuntime, cfg.Embeddings.Cache = f.Dir, f.Library, filepath.Join(file, "cache")
	var logs bytes.Buffer
	e, err := app.StartEmbeddings(&cfg, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Embedder.Kind != app.EmbedderModel || !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "AGORA_EMBEDDINGS_CACHE") {
		t.Errorf("embedder %+v, log %s", e.Embedder, logs.String())
	}
	emb, err := app.NewEmbedder(cfg)
	if err != nil || emb == nil {
		t.Fatalf("embedder %v, %v", emb, err)
	}
	if got, err := emb.Embed(context.Background(), []string{"The meetup is on Tuesday"}); err != nil || len(got) != 1 || len(got[0]) != sentence.Dim {
		t.Errorf("embedded %d vectors, %v", len(got), err)
	}
}

// A model folder that holds no model falls back to the word vectors.
func TestStartEmbeddingsFallsBackWhenTheModelCannotLoad(t *testing.T) {
	path := twoWordVectors(t)
	broken := t.TempDir()
	if err := os.WriteFile(filepath.Join(broken, sentence.ModelFile), []byte("not an onnx graph"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Embeddings.WordVectors, cfg.Embeddings.SentenceModel = path, broken
	var logs bytes.Buffer
	e, err := app.StartEmbeddings(&cfg, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Embedder.Kind != app.EmbedderWordVectors || cfg.Embeddings.Model != wordvec.Model || !strings.Contains(e.Embedder.Fallback, sentence.TokenizerFile) {
		t.Errorf("embedder %+v, cfg %+v", e.Embedder, cfg.Embeddings)
	}
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "the sentence model cannot load") {
		t.Errorf("log %s", logs.String())
	}
}

// twoWordVectors writes a word-vector file of two words and answers its path.
func twoWordVectors(t *testing.T) string {
	t.Helper()
	var buf bytes.Buffer
	if err := wordvec.Write(&buf, 2, []string{"recipe", "server"}, [][]float32{{1, 0.2}, {0.1, 1}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), wordvec.FileName)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
