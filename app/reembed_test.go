package app_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"agora/app"
	"agora/internal/plumbing/config"
	"agora/projections"
	"agora/projections/searchindex"
	"agora/search"
	"agora/search/wordvec"
)

// A data folder whose posts were embedded with the word vectors (100
// dimensions) is re-embedded when the sentence model (384) arrives: a
// question's vector then finds the old posts, and a second start leaves
// them be.
func TestMatchEmbedderReembedsOnAChangeOfModel(t *testing.T) {
	f := sentenceModelFiles(t)
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	store, err := app.OpenSearch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	old := func(seed float32) []float32 {
		v := make([]float32, 100)
		for i := range v {
			v[i] = seed + float32(i%7)
		}
		return v
	}
	posts := []search.Post{
		{ID: "p1", Kind: "thread", ChannelID: "c", ForumID: "f", CommunityID: "m", Text: "Grace Liu holds office hours every Thursday afternoon", CreatedAt: 1},
		{ID: "p2", Kind: "thread", ChannelID: "c", ForumID: "f", CommunityID: "m", Text: "Our refund policy covers annual plans only", CreatedAt: 2},
		{ID: "p3", Kind: "thread", ChannelID: "c", ForumID: "f", CommunityID: "m", Text: "", CreatedAt: 3},
	}
	posts[0].Vector, posts[1].Vector = old(1), old(2)
	if err := store.Posts().Upsert(context.Background(), posts...); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg.SearchDir(), "embedder"), []byte(wordvec.Model+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	cfg.Embeddings.SentenceModel, cfg.Embeddings.ONNXRuntime = f.Dir, f.Library
	e, err := app.StartEmbeddings(&cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	emb, err := app.NewEmbedder(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The projection reads Postgres only for changes; none come here.
	pool, err := pgxpool.New(context.Background(), "postgres://nobody@127.0.0.1:1/none")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	proj, err := searchindex.New(store, pool, nil, searchindex.WithEmbedder(emb))
	if err != nil {
		t.Fatal(err)
	}
	handlers := []projections.Handler{proj}

	nearest := func(q string) []string {
		t.Helper()
		v, err := emb.Embed(context.Background(), []string{q})
		if err != nil {
			t.Fatal(err)
		}
		res, err := store.Posts().Search(context.Background(), search.Query{Vector: v[0], Limit: 5, Filter: search.Filter{search.ReadableBy("u", "c")}})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, h := range res.Hits {
			ids = append(ids, h.ID)
		}
		return ids
	}
	if got := nearest("When can I talk to Grace?"); len(got) != 0 {
		t.Fatalf("before: a 384-dimension question matched 100-dimension posts %v", got)
	}
	var logs bytes.Buffer
	if err := app.MatchEmbedder(context.Background(), cfg, handlers, slog.New(slog.NewTextHandler(&logs, nil))); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "posts=3") || !strings.Contains(logs.String(), "from="+wordvec.Model) {
		t.Errorf("log %s", logs.String())
	}
	if got := nearest("When can I talk to Grace?"); len(got) != 2 || got[0] != "p1" {
		t.Errorf("after: nearest %v, want p1 first of the two posts with text", got)
	}
	if got := nearest("Can I get my money back?"); len(got) == 0 || got[0] != "p2" {
		t.Errorf("after: nearest %v, want p2 first", got)
	}
	if data, _ := os.ReadFile(filepath.Join(cfg.SearchDir(), "embedder")); strings.TrimSpace(string(data)) != cfg.Embeddings.Model {
		t.Errorf("record %q, want %q", data, cfg.Embeddings.Model)
	}
	logs.Reset()
	if err := app.MatchEmbedder(context.Background(), cfg, handlers, slog.New(slog.NewTextHandler(&logs, nil))); err != nil {
		t.Fatal(err)
	}
	if logs.Len() != 0 {
		t.Errorf("a second start with the same model re-embedded: %s", logs.String())
	}
}
