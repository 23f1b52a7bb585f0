package search_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/char/asciifolding"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/mapping"

	"agora/search"
)

func TestEmbeddedKeepsItsIndexesOnDisk(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	s, err := search.OpenEmbedded(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Posts().Upsert(ctx, search.Post{ID: "p1", ChannelID: "c1", Text: "durable words"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "posts-v1.bleve")); err != nil {
		t.Fatalf("index folder: %v", err)
	}

	s, err = search.OpenEmbedded(dir)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	r, err := s.Posts().Search(ctx, search.Query{Text: "durable", Filter: search.Filter{search.ReadableBy("u", "c1")}})
	if err != nil || len(r.Hits) != 1 || r.Hits[0].Text != "durable words" {
		t.Fatalf("after reopen: %+v, %v", r, err)
	}
	// A reopened index analyzes new documents as the first open did.
	if err := s.Posts().Upsert(ctx, search.Post{ID: "p2", ChannelID: "c1", Text: "lasting phrases"}); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"lasting", "lasting phra", "phrases", "lastinq"} {
		r, err := s.Posts().Search(ctx, search.Query{Text: text, Filter: search.Filter{search.ReadableBy("u", "c1")}})
		if err != nil || len(r.Hits) != 1 || r.Hits[0].ID != "p2" {
			t.Errorf("%q after reopen: %+v, %v; want p2", text, r, err)
		}
	}
}

// TestEmbeddedKeepsVectorsOnDisk: the vectors in memory are loaded again
// when the store reopens, without the ones deleted or replaced.
func TestEmbeddedKeepsVectorsOnDisk(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	s, err := search.OpenEmbedded(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Posts().Upsert(ctx,
		search.Post{ID: "p1", ChannelID: "c1", Text: "one", Vector: []float32{1, 0}},
		search.Post{ID: "p2", ChannelID: "c1", Text: "two", Vector: []float32{1, 1}},
		search.Post{ID: "p3", ChannelID: "c1", Text: "three", Vector: []float32{0, 1}},
		search.Post{ID: "p4", ChannelID: "c1", Text: "four", Vector: []float32{1, 0.1}},
	); err != nil {
		t.Fatal(err)
	}
	if err := s.Posts().Delete(ctx, "p1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Posts().Upsert(ctx, search.Post{ID: "p4", ChannelID: "c1", Text: "four, no vector"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = search.OpenEmbedded(dir)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	r, err := s.Posts().Search(ctx, search.Query{Vector: []float32{1, 0}, Filter: search.Filter{search.ReadableBy("u", "c1")}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range r.Hits {
		got = append(got, h.ID)
	}
	if fmt.Sprint(got) != "[p2 p3]" {
		t.Errorf("after reopen: %v, want [p2 p3]", got)
	}
}

func TestEmbeddedIsSafeForConcurrentUse(t *testing.T) {
	s, err := search.OpenEmbedded(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range 10 {
				id := fmt.Sprintf("m%d-%d", w, i)
				errs <- s.Members().Upsert(ctx, search.Member{ID: id, FirstName: "Writer", LastName: id})
			}
		}()
		go func() {
			defer wg.Done()
			for range 10 {
				_, err := s.Members().Search(ctx, search.Query{Text: "writer", Limit: 5})
				errs <- err
			}
		}()
	}
	wg.Add(1)
	go func() { defer wg.Done(); errs <- s.Hashtags().Rebuild(ctx) }()
	go func() { wg.Wait(); close(errs) }()
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	r, err := s.Members().Search(ctx, search.Query{Text: "writer"})
	if err != nil || r.Total != 40 {
		t.Fatalf("after concurrent writes: total %d, %v; want 40", r.Total, err)
	}
}

func TestEmbeddedClosedStoreRefuses(t *testing.T) {
	s, err := search.OpenEmbedded(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := s.Members().Search(context.Background(), search.Query{}); err == nil {
		t.Fatal("search of a closed store succeeded")
	}
	if err := s.Members().Rebuild(context.Background()); err == nil {
		t.Fatal("rebuild of a closed store succeeded")
	}
}

// TestEmbeddedNumbersSortAsNumbers: the embedded engine keeps numbers as
// sortable text; 9 must still come before 10, and 0 last.
func TestEmbeddedNumbersSortAsNumbers(t *testing.T) {
	s, err := search.OpenEmbedded(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	var tags []search.Hashtag
	for _, n := range []int{9, 100, 0, 10, 2, 1 << 40} {
		name := fmt.Sprintf("tag%d", n)
		tags = append(tags, search.Hashtag{ID: search.HashtagID("f", name), Name: name, ForumID: "f", Count: n})
	}
	if err := s.Hashtags().Upsert(ctx, tags...); err != nil {
		t.Fatal(err)
	}
	r, err := s.Hashtags().Search(ctx, search.Query{Text: "tag", Sort: []search.Sort{{Field: "count", Desc: true}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, h := range r.Hits {
		got = append(got, h.Count)
	}
	if want := []int{1 << 40, 100, 10, 9, 2, 0}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("by count, descending: %v, want %v", got, want)
	}
}

// TestEmbeddedServesAnIndexOfTheFirstLayout opens an index written with the
// mapping of the engine's first version (no prefix fields, Bleve numbers):
// prefixes, sorts and writes still work on it until a Rebuild, which
// recreates it with the current mapping.
func TestEmbeddedServesAnIndexOfTheFirstLayout(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	idx, err := bleve.New(filepath.Join(dir, "hashtags-v1.bleve"), firstLayoutHashtags(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []search.Hashtag{
		{ID: search.HashtagID("fA", "java"), Name: "java", ForumID: "fA", CommunityID: "c1", Count: 9},
		{ID: search.HashtagID("fA", "golang"), Name: "golang", ForumID: "fA", CommunityID: "c1", Count: 7},
	} {
		raw, _ := json.Marshal(h)
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		m["_src"] = string(raw)
		if err := idx.Index(h.ID, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := idx.Close(); err != nil {
		t.Fatal(err)
	}

	s, err := search.OpenEmbedded(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// A write through the store into the old index.
	if err := s.Hashtags().Upsert(ctx, search.Hashtag{ID: search.HashtagID("fA", "javascript"), Name: "javascript", ForumID: "fA", CommunityID: "c1", Count: 10}); err != nil {
		t.Fatal(err)
	}
	check := func(what string) {
		t.Helper()
		r, err := s.Hashtags().Search(ctx, search.Query{Text: "ja", Filter: search.Filter{search.In("forumId", "fA")},
			Sort: []search.Sort{{Field: "count", Desc: true}}})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		var names []string
		for _, h := range r.Hits {
			names = append(names, h.Name)
		}
		if fmt.Sprint(names) != "[javascript java]" {
			t.Errorf("%s: ja by count: %v, want [javascript java]", what, names)
		}
	}
	check("first layout")

	if err := s.Hashtags().Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Hashtags().Upsert(ctx,
		search.Hashtag{ID: search.HashtagID("fA", "java"), Name: "java", ForumID: "fA", Count: 9},
		search.Hashtag{ID: search.HashtagID("fA", "javascript"), Name: "javascript", ForumID: "fA", Count: 10},
	); err != nil {
		t.Fatal(err)
	}
	check("rebuilt")
}

// firstLayoutHashtags is the hashtags mapping of the engine's first
// version, as it was written.
func firstLayoutHashtags(t *testing.T) *mapping.IndexMappingImpl {
	im := bleve.NewIndexMapping()
	im.ScoringModel = "bm25"
	if err := im.AddCustomAnalyzer("agora_text", map[string]any{
		"type":          custom.Name,
		"char_filters":  []string{asciifolding.Name},
		"tokenizer":     unicode.Name,
		"token_filters": []string{lowercase.Name},
	}); err != nil {
		t.Fatal(err)
	}
	im.DefaultAnalyzer = "agora_text"
	im.IndexDynamic, im.StoreDynamic, im.DocValuesDynamic = false, false, false
	dm := bleve.NewDocumentStaticMapping()
	name := bleve.NewTextFieldMapping()
	name.Analyzer = "agora_text"
	name.Store, name.IncludeInAll, name.IncludeTermVectors, name.DocValues = false, false, false, false
	kwName := bleve.NewKeywordFieldMapping()
	kwName.Name = "kw_name"
	kwName.Store, kwName.IncludeInAll, kwName.IncludeTermVectors, kwName.DocValues = false, false, false, true
	dm.AddFieldMappingsAt("name", name, kwName)
	for _, f := range []string{"forumId", "communityId"} {
		fm := bleve.NewKeywordFieldMapping()
		fm.Store, fm.IncludeInAll, fm.IncludeTermVectors, fm.DocValues = false, false, false, false
		dm.AddFieldMappingsAt(f, fm)
	}
	count := bleve.NewNumericFieldMapping()
	count.Store, count.IncludeInAll, count.DocValues = false, false, true
	dm.AddFieldMappingsAt("count", count)
	src := bleve.NewTextFieldMapping()
	src.Index, src.Store, src.IncludeInAll, src.IncludeTermVectors, src.DocValues = false, true, false, false, false
	dm.AddFieldMappingsAt("_src", src)
	im.DefaultMapping = dm
	return im
}

// TestEmbeddedCommonWordsStillMatch: in a large index a very common word is
// matched without being scored (see bleveQuery); it must still be required,
// and a query of common words only must still find what holds them all.
func TestEmbeddedCommonWordsStillMatch(t *testing.T) {
	s, err := search.OpenEmbedded(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	// 12,000 documents hold "the" and "filler": both are common words of
	// an index this size (a tenth of it, and at least 10,000).
	const filler = 12_000
	posts := make([]search.Post, 0, filler)
	for i := range filler {
		posts = append(posts, search.Post{ID: fmt.Sprintf("f%d", i), ChannelID: "c1", Text: fmt.Sprintf("the filler number %d", i)})
	}
	posts = append(posts,
		search.Post{ID: "a", ChannelID: "c1", Text: "the rare zebra"},
		search.Post{ID: "b", ChannelID: "c1", Text: "rare zebra without an article"},
		search.Post{ID: "c", ChannelID: "c1", Text: "the zebra"},
	)
	for i := 0; i < len(posts); i += 3000 {
		if err := s.Posts().Upsert(ctx, posts[i:min(i+3000, len(posts))]...); err != nil {
			t.Fatal(err)
		}
	}
	readable := search.Filter{search.ReadableBy("u", "c1")}
	ids := func(text string) (string, int) {
		t.Helper()
		r, err := s.Posts().Search(ctx, search.Query{Text: text, Filter: readable, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range r.Hits {
			got = append(got, h.ID)
		}
		sort.Strings(got)
		return strings.Join(got, ","), r.Total
	}
	for text, want := range map[string]string{
		"the zebra":      "a,c", // b has no "the"
		"the rare zebra": "a",
		"the zeb":        "a,c", // the last word as a prefix
		"zebra the":      "a,c",
	} {
		if got, _ := ids(text); got != want {
			t.Errorf("%q found %s, want %s", text, got, want)
		}
	}
	if _, total := ids("the filler"); total != filler {
		t.Errorf(`"the filler" matched %d, want %d`, total, filler)
	}
	// The scored words still rank: the exact number above its one-typo
	// neighbours.
	r, err := s.Posts().Search(ctx, search.Query{Text: "the filler number 11999", Filter: readable, Limit: 1})
	if err != nil || len(r.Hits) != 1 || r.Hits[0].ID != "f11999" {
		t.Errorf(`"the filler number 11999": %+v, %v; want f11999 first`, r.Hits, err)
	}
}

// TestEmbeddedRefusesASecondOpener: an index is one process's; a second
// opener is told so within the lock wait instead of hanging.
func TestEmbeddedRefusesASecondOpener(t *testing.T) {
	dir := t.TempDir()
	s, err := search.OpenEmbedded(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start := time.Now()
	second, err := search.OpenEmbedded(dir)
	if err == nil {
		second.Close()
		t.Fatal("a second open of the same folder succeeded")
	}
	if !strings.Contains(err.Error(), "another process has it open") {
		t.Errorf("error %q does not say why", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("refused after %v", took)
	}
	// The first store is unharmed.
	if err := s.Posts().Upsert(context.Background(), search.Post{ID: "p", ChannelID: "c", Text: "still here"}); err != nil {
		t.Fatal(err)
	}
}
