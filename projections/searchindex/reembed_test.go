package searchindex_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"agora/projections/searchindex"
	"agora/search"
)

// oneHot embeds "post N" as the unit vector of dimension N, so that every
// post's vector is nearest to its own alone; it counts the texts of its
// calls and fails the calls it is told to.
type oneHot struct {
	dims  int
	mu    sync.Mutex
	sizes []int
	fail  int
}

func (o *oneHot) vector(text string) []float32 {
	var i int
	if _, err := fmt.Sscanf(text, "post %d", &i); err != nil || i >= o.dims {
		panic(fmt.Sprintf("oneHot: text %q", text))
	}
	v := make([]float32, o.dims)
	v[i] = 1
	return v
}

func (o *oneHot) Embed(_ context.Context, texts []string) ([][]float32, error) {
	o.mu.Lock()
	o.sizes = append(o.sizes, len(texts))
	failing := o.fail > 0
	o.fail = max(0, o.fail-1)
	o.mu.Unlock()
	if failing {
		return nil, errors.New("the embedding model is down")
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = o.vector(t)
	}
	return out, nil
}

// TestReembedGivesEveryBatchItsVectors: Reembed embeds its batches side
// by side; every post of every batch is written back with the vector of
// its own text, each text embedded once, and an embedder's error in any
// batch fails the whole re-embed.
func TestReembedGivesEveryBatchItsVectors(t *testing.T) {
	store, err := search.OpenEmbedded(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	// More than two batches of 256, so that the CPUs' workers share them.
	const n = 2*256 + 8
	posts := make([]search.Post, n)
	for i := range posts {
		posts[i] = search.Post{ID: fmt.Sprintf("p%03d", i), Kind: "thread", ChannelID: "c", ForumID: "f", CommunityID: "m",
			Text: fmt.Sprintf("post %d", i), CreatedAt: int64(i + 1)}
	}
	if err := store.Posts().Upsert(t.Context(), posts...); err != nil {
		t.Fatal(err)
	}
	// Reembed reads Postgres for nothing: the documents come from the store.
	pool, err := pgxpool.New(t.Context(), "postgres://nobody@127.0.0.1:1/none")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	emb := &oneHot{dims: n}
	proj, err := searchindex.New(store, pool, nil, searchindex.WithEmbedder(emb))
	if err != nil {
		t.Fatal(err)
	}
	got, err := proj.Reembed(t.Context())
	if err != nil || got != n {
		t.Fatalf("Reembed: %d, %v; want %d", got, err, n)
	}
	texts := 0
	for _, size := range emb.sizes {
		if size > 256 {
			t.Errorf("a call of %d texts, more than a batch", size)
		}
		texts += size
	}
	if texts != n {
		t.Errorf("%d texts embedded, want %d (each once)", texts, n)
	}
	for _, p := range posts {
		res, err := store.Posts().Search(t.Context(), search.Query{Vector: emb.vector(p.Text), Limit: 1,
			Filter: search.Filter{search.ReadableBy("u", "c")}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 || res.Hits[0].ID != p.ID {
			t.Fatalf("nearest to %q: %v, want %s", p.Text, res.Hits, p.ID)
		}
	}

	emb.mu.Lock()
	emb.fail = 1
	emb.mu.Unlock()
	if _, err := proj.Reembed(t.Context()); err == nil {
		t.Error("Reembed with a failing batch: no error")
	}
}
