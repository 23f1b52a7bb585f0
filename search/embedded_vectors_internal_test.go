package search

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"agora/search/hnsw"
	"agora/search/hnsw/synthetic"
)

// TestEmbeddedVectorQueryAgainstExact holds the engine's graph search to
// exact scoring, the reference, through the real query path: recall@10,
// the filter never leaking, and deleted posts, edited posts and posts
// whose edit removed the vector never found by their old vectors, before
// and after the store is opened again (the graph rebuilt from disk).
// exactMin is lowered so that a few thousand posts are walked in the
// graph, not scored exactly.
func TestEmbeddedVectorQueryAgainstExact(t *testing.T) {
	defer func(old, oldCompact int) { exactMin, compactMin = old, oldCompact }(exactMin, compactMin)
	exactMin, compactMin = 0, 1
	n, dim := 3000, 64
	if underRace {
		n = 600
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(11, 12))
	m := synthetic.Default(dim, 20)
	m.Init(rng)
	dir := t.TempDir()
	s, err := OpenEmbedded(dir)
	if err != nil {
		t.Fatal(err)
	}
	posts := map[string]Post{}
	var batch []Post
	for i := range n {
		ch := "c1"
		if i%3 == 0 {
			ch = "c2"
		}
		p := Post{ID: fmt.Sprintf("p%05d", i), Kind: "thread", ChannelID: ch, ForumID: "f" + ch, Text: fmt.Sprintf("post %d", i), CreatedAt: int64(i), Vector: m.Vector(rng)}
		posts[p.ID] = p
		batch = append(batch, p)
	}
	if err := s.Posts().Upsert(ctx, batch...); err != nil {
		t.Fatal(err)
	}
	// exact is the reference: every post the filter admits, scored (the
	// generated vectors are of unit length already).
	exact := func(q []float32, admit func(Post) bool) []string {
		type hit struct {
			id    string
			score float32
		}
		var all []hit
		for _, p := range posts {
			if p.Vector != nil && admit(p) {
				all = append(all, hit{p.ID, dot(p.Vector, q)})
			}
		}
		slices.SortFunc(all, func(a, b hit) int { return cmp.Compare(b.score, a.score) })
		var ids []string
		for _, h := range all[:min(10, len(all))] {
			ids = append(ids, h.id)
		}
		return ids
	}
	check := func(label string, s Store, channels []string, queries [][]float32, gone map[string]bool) {
		t.Helper()
		admit := func(p Post) bool { return slices.Contains(channels, p.ChannelID) }
		found, of := 0, 0
		for _, q := range queries {
			r, err := s.Posts().Search(ctx, Query{Vector: q, Limit: 10, Filter: Filter{ReadableBy("u", channels...)}})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, h := range r.Hits {
				if gone[h.ID] {
					t.Fatalf("%s: %s returned, which has no vector any more", label, h.ID)
				}
				if !admit(posts[h.ID]) {
					t.Fatalf("%s: %s of channel %s leaked", label, h.ID, posts[h.ID].ChannelID)
				}
				got[h.ID] = true
			}
			for _, id := range exact(q, admit) {
				of++
				if got[id] {
					found++
				}
			}
		}
		r := float64(found) / float64(of)
		t.Logf("%s: recall@10 %.3f", label, r)
		if r < 0.95 {
			t.Errorf("%s: recall@10 %.3f < 0.95", label, r)
		}
	}
	queries := make([][]float32, 100)
	for i := range queries {
		queries[i] = m.Vector(rng)
	}
	check("all channels", s, []string{"c1", "c2"}, queries, nil)
	check("c2 only", s, []string{"c2"}, queries, nil)

	// Every fifth post deleted, every fifth edited to a new vector, every
	// fifth edited to none; their old vectors are the queries.
	gone := map[string]bool{}
	var old [][]float32
	var edits []Post
	var deletes []string
	for i := 0; i < n; i += 5 {
		id := fmt.Sprintf("p%05d", i)
		deletes = append(deletes, id)
		gone[id] = true
		old = append(old, posts[id].Vector)
		delete(posts, id)
		e := posts[fmt.Sprintf("p%05d", i+1)]
		old = append(old, e.Vector)
		e.Vector = m.Vector(rng)
		posts[e.ID] = e
		edits = append(edits, e)
		e = posts[fmt.Sprintf("p%05d", i+2)]
		old = append(old, e.Vector)
		e.Vector = nil
		posts[e.ID] = e
		gone[e.ID] = true
		edits = append(edits, e)
	}
	if err := s.Posts().Delete(ctx, deletes...); err != nil {
		t.Fatal(err)
	}
	if err := s.Posts().Upsert(ctx, edits...); err != nil {
		t.Fatal(err)
	}
	check("after edits", s, []string{"c1", "c2"}, old, gone)
	check("after edits, c2 only", s, []string{"c2"}, old, gone)

	// A second edit of the edited posts leaves more tombstones (1,800
	// deleted or replaced vectors, then 2,400) than live vectors (1,800):
	// the graph is built again without them.
	graph := func() *hnsw.Graph { return s.(*embedded).indexes[postSchema.name].vectors.graphs[dim] }
	if graph().Tombstones() == 0 {
		t.Fatal("no tombstones before the compaction")
	}
	var again []Post
	for _, e := range edits {
		if e.Vector != nil {
			old = append(old, e.Vector)
			e.Vector = m.Vector(rng)
			posts[e.ID] = e
			again = append(again, e)
		}
	}
	if err := s.Posts().Upsert(ctx, again...); err != nil {
		t.Fatal(err)
	}
	if g := graph(); g.Tombstones() != 0 || g.Len() != n-2*len(deletes) {
		t.Fatalf("after the second edits: %d tombstones, %d vectors; want 0 and %d", g.Tombstones(), g.Len(), n-2*len(deletes))
	}
	check("compacted", s, []string{"c1", "c2"}, old, gone)

	if _, err := Settle(ctx, s); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = OpenEmbedded(dir); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check("reopened", s, []string{"c1", "c2"}, old, gone)
}

// TestExactBelow: a filter of few documents, or of a small share of a
// large graph, is scored exactly; one of many is walked.
func TestExactBelow(t *testing.T) {
	for _, tc := range []struct {
		n, size int
		want    bool
	}{
		{100, 100, true},
		{20_000, 1_000_000, true},
		{49_000, 1_000_000, true},
		{60_000, 1_000_000, false},
		{30_000, 30_000, false},
		{5_000, 50_000, true},
		{6_000, 50_000, false},
	} {
		if got := exactBelow(tc.n, tc.size); got != tc.want {
			t.Errorf("exactBelow(%d, %d) = %v, want %v", tc.n, tc.size, got, tc.want)
		}
	}
}

// TestEmbeddedVectorQueryUnfiltered holds the unfiltered walk of a filter
// that admits most posts (nearestUnfiltered) to exact scoring: the same
// nearest, and a Total that counts only the admitted posts with a vector
// of the query's length (not those without one, nor those of another
// length). When the admitted posts are all far from the query, too few of
// the walk's candidates pass and the filtered path must answer instead.
func TestEmbeddedVectorQueryUnfiltered(t *testing.T) {
	// exactMin is lowered so that the walk, not exact scoring, answers.
	defer func(old int) { exactMin = old }(exactMin)
	exactMin = 0
	n, dim := 1200, 32
	if underRace {
		n = 600
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(21, 22))
	m := synthetic.Default(dim, 10)
	m.Init(rng)
	s, err := OpenEmbedded(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// near is a tight cluster of 45 % of the posts around target; the
	// other posts (channel far) are of the model's clusters, or have no
	// vector, or one of 16 dimensions.
	target := m.Vector(rng)
	nearTarget := func() []float32 {
		v := make([]float32, dim)
		for i := range v {
			v[i] = target[i] + 0.02*float32(rng.NormFloat64())
		}
		return unit(v)
	}
	posts := map[string]Post{}
	var batch []Post
	for i := range n {
		p := Post{ID: fmt.Sprintf("p%05d", i), Kind: "thread", ChannelID: "far", ForumID: "f", Text: fmt.Sprintf("post %d", i), CreatedAt: int64(i)}
		switch {
		case i%20 < 9:
			p.ChannelID, p.Vector = "near", nearTarget()
		case i%20 == 9:
		case i%20 == 10:
			p.Vector = unit(m.Vector(rng)[:16])
		default:
			p.Vector = m.Vector(rng)
		}
		posts[p.ID] = p
		batch = append(batch, p)
	}
	if err := s.Posts().Upsert(ctx, batch...); err != nil {
		t.Fatal(err)
	}
	bi := s.(*embedded).indexes[postSchema.name]
	g := bi.vectors.graphs[dim]
	// exact is the reference: the admitted posts with a vector of dim
	// dimensions, scored; and how many they are.
	exact := func(q []float32, channels []string) ([]string, int) {
		type hit struct {
			id    string
			score float32
		}
		var all []hit
		for _, p := range posts {
			if len(p.Vector) == dim && slices.Contains(channels, p.ChannelID) {
				all = append(all, hit{p.ID, dot(unit(p.Vector), q)})
			}
		}
		slices.SortFunc(all, func(a, b hit) int { return cmp.Compare(b.score, a.score) })
		var ids []string
		for _, h := range all[:min(10, len(all))] {
			ids = append(ids, h.id)
		}
		return ids, len(all)
	}
	for _, tc := range []struct {
		name       string
		channels   []string
		queries    func() []float32
		unfiltered bool
	}{
		{"all posts, walked unfiltered", []string{"near", "far"}, func() []float32 { return m.Vector(rng) }, true},
		{"all posts, near the cluster", []string{"near", "far"}, nearTarget, true},
		{"the far posts, near the cluster: filtered", []string{"far"}, nearTarget, false},
	} {
		filter := Filter{ReadableBy("u", tc.channels...)}
		found, of := 0, 0
		for range 50 {
			q := tc.queries()
			want, wantTotal := exact(q, tc.channels)
			_, _, ok, err := bi.nearestUnfiltered(ctx, postSchema, filter, g, q, 10)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.unfiltered {
				t.Fatalf("%s: answered unfiltered %v, want %v", tc.name, ok, tc.unfiltered)
			}
			r, err := s.Posts().Search(ctx, Query{Vector: q, Limit: 10, Filter: filter})
			if err != nil {
				t.Fatal(err)
			}
			if r.Total != wantTotal {
				t.Fatalf("%s: Total %d, want %d", tc.name, r.Total, wantTotal)
			}
			if len(r.Hits) != len(want) {
				t.Fatalf("%s: %d hits, want %d", tc.name, len(r.Hits), len(want))
			}
			got := map[string]bool{}
			for _, h := range r.Hits {
				if !slices.Contains(tc.channels, posts[h.ID].ChannelID) {
					t.Fatalf("%s: %s of channel %s leaked", tc.name, h.ID, posts[h.ID].ChannelID)
				}
				got[h.ID] = true
			}
			for _, id := range want {
				of++
				if got[id] {
					found++
				}
			}
		}
		if r := float64(found) / float64(of); r < 0.95 {
			t.Errorf("%s: recall@10 %.3f < 0.95", tc.name, r)
		}
	}
}
