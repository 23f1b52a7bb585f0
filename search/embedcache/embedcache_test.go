package embedcache_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"agora/search"
	"agora/search/embedcache"
	"agora/search/hnsw"
	"agora/search/searchtest"
	"agora/search/sentence"
	"agora/search/sentence/sentencetest"
)

// counting counts the calls that reach the embedder it wraps, and their
// texts.
type counting struct {
	inner        search.Embedder
	calls, texts atomic.Int64
}

func (c *counting) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.calls.Add(1)
	c.texts.Add(int64(len(texts)))
	return c.inner.Embed(ctx, texts)
}

func open(t *testing.T, inner search.Embedder, dir, model string, dims int) *embedcache.Cache {
	t.Helper()
	c, err := embedcache.Wrap(inner, dir, model, dims)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func embed(t *testing.T, e search.Embedder, texts ...string) [][]float32 {
	t.Helper()
	got, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(got), len(texts))
	}
	return got
}

// sameBits reports whether a and b are the same vector, bit for bit.
func sameBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// calls checks how many calls and texts reached the embedder.
func calls(t *testing.T, c *counting, wantCalls, wantTexts int64) {
	t.Helper()
	if c.calls.Load() != wantCalls || c.texts.Load() != wantTexts {
		t.Errorf("the embedder was called %d times for %d texts, want %d for %d", c.calls.Load(), c.texts.Load(), wantCalls, wantTexts)
	}
}

// The model's vectors come back from the folder bit for bit, to this
// process and to another that opens the folder afterwards; only the
// texts it has never seen reach the model, in one call, in order.
func TestAnotherProcessGetsTheModelsVectors(t *testing.T) {
	enc := sentencetest.Encoder(t)
	dir := t.TempDir()
	texts := []string{"How do I reset my password?", "The meetup is on Tuesday at the library", "I forgot my login and cannot get into my account"}
	first := &counting{inner: enc}
	c := open(t, first, dir, sentence.Model, sentence.Dim)
	want := embed(t, c, texts...)
	calls(t, first, 1, 3)
	again := embed(t, c, texts...)
	calls(t, first, 1, 3)

	second := &counting{inner: enc}
	other := open(t, second, dir, sentence.Model, sentence.Dim)
	got := embed(t, other, texts[2], "Where do we park for the meetup?", texts[0], "Is there a vegetarian option?", texts[1])
	calls(t, second, 1, 2)
	for i, g := range [][]float32{again[0], again[1], again[2], got[2], got[4], got[0]} {
		if !sameBits(g, want[i%3]) {
			t.Errorf("text %d from the cache: %v…, the model said %v…", i%3, g[:3], want[i%3][:3])
		}
	}
	fresh := embed(t, enc, "Where do we park for the meetup?", "Is there a vegetarian option?")
	for i, g := range [][]float32{got[1], got[3]} {
		if len(g) != sentence.Dim || hnsw.Dot(g, fresh[i]) < 0.9999 { // unit vectors: the dot is the cosine
			t.Errorf("new text %d: %v…, the model says %v…", i, g[:3], fresh[i][:3])
		}
	}
	if s := other.Stats(); s != (embedcache.Stats{Hits: 3, Misses: 2}) {
		t.Errorf("stats %+v", s)
	}
}

func sentences(from, to int) []string {
	var s []string
	for i := from; i < to; i++ {
		s = append(s, fmt.Sprintf("Post %d: the library opens at %d on weekdays", i, i%24))
	}
	return s
}

// Several writers on one folder at once, each its own process's cache or
// two goroutines sharing one, lose none of each other's vectors and
// corrupt none.
func TestConcurrentWritersLoseNothing(t *testing.T) {
	dir := t.TempDir()
	shared := open(t, searchtest.HashEmbedder{}, dir, "hash", searchtest.HashDimensions)
	var wg sync.WaitGroup
	for w := range 6 {
		c := shared
		if w < 4 {
			c = open(t, searchtest.HashEmbedder{}, dir, "hash", searchtest.HashDimensions)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Overlapping ranges: some texts are embedded by two writers.
			texts := sentences(w*100, w*100+150)
			for at := 0; at < len(texts); at += 10 {
				if _, err := c.Embed(context.Background(), texts[at:at+10]); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	texts := sentences(0, 650)
	after := &counting{inner: searchtest.HashEmbedder{}}
	got := embed(t, open(t, after, dir, "hash", searchtest.HashDimensions), texts...)
	calls(t, after, 0, 0)
	for i, g := range got {
		if !sameBits(g, searchtest.HashVector(texts[i])) {
			t.Fatalf("%q from the cache: %v", texts[i], g)
		}
	}
}

// shardFiles are the cache's files that hold records.
func shardFiles(t *testing.T, c *embedcache.Cache) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join(c.Dir(), "*"))
	if err != nil {
		t.Fatal(err)
	}
	var full []string
	for _, f := range all {
		if fi, err := os.Stat(f); err == nil && fi.Size() > 0 {
			full = append(full, f)
		}
	}
	return full
}

// A record cut short (its writer died inside the write) is not read: the
// text is embedded again, and kept for the next process.
func TestATornRecordIsEmbeddedAgain(t *testing.T) {
	dir := t.TempDir()
	text := "The meetup is on Tuesday at the library"
	c := open(t, searchtest.HashEmbedder{}, dir, "hash", searchtest.HashDimensions)
	embed(t, c, text)
	files := shardFiles(t, c)
	if len(files) != 1 {
		t.Fatalf("one text in %d files", len(files))
	}
	fi, _ := os.Stat(files[0])
	if err := os.Truncate(files[0], fi.Size()-7); err != nil {
		t.Fatal(err)
	}
	next := &counting{inner: searchtest.HashEmbedder{}}
	got := embed(t, open(t, next, dir, "hash", searchtest.HashDimensions), text)
	calls(t, next, 1, 1)
	if !sameBits(got[0], searchtest.HashVector(text)) {
		t.Errorf("after a torn record: %v", got[0])
	}
	last := &counting{inner: searchtest.HashEmbedder{}}
	got = embed(t, open(t, last, dir, "hash", searchtest.HashDimensions), text)
	calls(t, last, 0, 0)
	if !sameBits(got[0], searchtest.HashVector(text)) {
		t.Errorf("kept again: %v", got[0])
	}
}

// A record whose bytes changed is never answered: its text is embedded
// again, and the records after it are read as before.
func TestAGarbledRecordIsEmbeddedAgain(t *testing.T) {
	dir := t.TempDir()
	texts := sentences(0, 100)
	c := open(t, searchtest.HashEmbedder{}, dir, "hash", searchtest.HashDimensions)
	embed(t, c, texts...)
	files := shardFiles(t, c)
	// A bit of each file's first record's vector flipped.
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b[40] ^= 1
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	next := &counting{inner: searchtest.HashEmbedder{}}
	got := embed(t, open(t, next, dir, "hash", searchtest.HashDimensions), texts...)
	calls(t, next, 1, int64(len(files)))
	for i, g := range got {
		if !sameBits(g, searchtest.HashVector(texts[i])) {
			t.Errorf("%q after a garbled record: %v", texts[i], g)
		}
	}
	last := &counting{inner: searchtest.HashEmbedder{}}
	embed(t, open(t, last, dir, "hash", searchtest.HashDimensions), texts...)
	calls(t, last, 0, 0)
}

// shorter answers the first dims components of HashEmbedder's vectors: a
// model of another dimension.
type shorter struct{ dims int }

func (s shorter) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	vecs, err := searchtest.HashEmbedder{}.Embed(ctx, texts)
	for i := range vecs {
		vecs[i] = vecs[i][:s.dims]
	}
	return vecs, err
}

// Another model, or the same of another dimension, reads none of the
// vectors kept for the first.
func TestAnotherModelOrDimensionStartsAfresh(t *testing.T) {
	dir := t.TempDir()
	texts := sentences(0, 5)
	embed(t, open(t, searchtest.HashEmbedder{}, dir, "hash", searchtest.HashDimensions), texts...)
	for _, m := range []struct {
		model string
		dims  int
	}{{"another", searchtest.HashDimensions}, {"hash", 16}} {
		inner := &counting{inner: shorter{m.dims}}
		got := embed(t, open(t, inner, dir, m.model, m.dims), texts...)
		calls(t, inner, 1, 5)
		if len(got[0]) != m.dims {
			t.Errorf("%s: %d dimensions, want %d", m.model, len(got[0]), m.dims)
		}
	}
	same := &counting{inner: searchtest.HashEmbedder{}}
	embed(t, open(t, same, dir, "hash", searchtest.HashDimensions), texts...)
	calls(t, same, 0, 0)
}

// A folder that cannot be made is an error, for the caller to embed
// without the cache.
func TestAFolderThatCannotBeMadeIsAnError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if c, err := embedcache.Wrap(searchtest.HashEmbedder{}, filepath.Join(file, "cache"), "hash", searchtest.HashDimensions); err == nil {
		c.Close()
		t.Error("a cache under a file")
	}
}

// A full folder keeps nothing more but still answers: the vectors it
// could not keep are counted, and the next process embeds them again.
func TestAFullFolderKeepsNothingMore(t *testing.T) {
	dir := t.TempDir()
	texts := sentences(0, 5)
	c := open(t, searchtest.HashEmbedder{}, dir, "hash", searchtest.HashDimensions)
	embedcache.SetLimit(c, 0)
	for i, g := range embed(t, c, texts...) {
		if !sameBits(g, searchtest.HashVector(texts[i])) {
			t.Errorf("%q from a full cache: %v", texts[i], g)
		}
	}
	if s := c.Stats(); s != (embedcache.Stats{Misses: 5, Unkept: 5}) {
		t.Errorf("stats %+v", s)
	}
	next := &counting{inner: searchtest.HashEmbedder{}}
	embed(t, open(t, next, dir, "hash", searchtest.HashDimensions), texts...)
	calls(t, next, 1, 5)
}
