package hnsw_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"agora/search/hnsw"
	"agora/search/hnsw/synthetic"
)

// data draws n clustered unit vectors of dim dimensions and their keys.
func data(rng *rand.Rand, m *synthetic.Model, n int) ([]string, [][]float32) {
	keys, vs := make([]string, n), make([][]float32, n)
	for i := range n {
		keys[i], vs[i] = fmt.Sprintf("k%06d", i), m.Vector(rng)
	}
	return keys, vs
}

// recall is the share of the exact hits the approximate ones hold.
func recall(exact, approx []hnsw.Hit) (found, of int) {
	in := map[string]bool{}
	for _, h := range approx {
		in[h.Key] = true
	}
	for _, h := range exact {
		if in[h.Key] {
			found++
		}
	}
	return found, len(exact)
}

// TestRecallAgainstExact: on clustered vectors of the sentence model's
// 384 dimensions, the default parameters find at least 0.95 of the exact
// ten nearest, over 200 queries drawn apart from the indexed vectors.
func TestRecallAgainstExact(t *testing.T) {
	n, dim, queries := 20_000, 384, 200
	if underRace {
		n = 2000
	}
	rng := rand.New(rand.NewPCG(1, 2))
	m := synthetic.Default(dim, 50)
	m.Init(rng)
	keys, vs := data(rng, m, n)
	g := hnsw.New(dim, 0, 0, 7)
	g.AddAll(keys, vs)
	if g.Len() != n {
		t.Fatalf("Len %d, want %d", g.Len(), n)
	}
	found, of := 0, 0
	for range queries {
		q := m.Vector(rng)
		f, o := recall(g.Exact(q, 10, nil), g.Search(q, 10, hnsw.DefaultEF, nil))
		found, of = found+f, of+o
	}
	r := float64(found) / float64(of)
	t.Logf("recall@10 %.3f over %d queries, %d vectors", r, queries, n)
	if r < 0.95 {
		t.Errorf("recall@10 %.3f < 0.95", r)
	}
}

// TestDeletesAndEditsNeverReturned: a deleted key never comes back, even
// for a query equal to its vector, and an edited key comes back only with
// its new vector's score; the others are still found.
func TestDeletesAndEditsNeverReturned(t *testing.T) {
	const n, dim = 6000, 64
	rng := rand.New(rand.NewPCG(3, 4))
	m := synthetic.Default(dim, 20)
	m.Init(rng)
	keys, vs := data(rng, m, n)
	g := hnsw.New(dim, 0, 0, 1)
	g.AddAll(keys, vs)
	deleted := map[string]bool{}
	edited := map[string][]float32{}
	var old [][]float32
	for i := 0; i < n; i += 3 {
		g.Delete(keys[i])
		deleted[keys[i]] = true
		old = append(old, vs[i])
		if i+1 < n {
			nv := m.Vector(rng)
			g.Add(keys[i+1], nv)
			edited[keys[i+1]] = nv
			old = append(old, vs[i+1])
		}
	}
	if want := n - len(deleted); g.Len() != want {
		t.Fatalf("Len %d, want %d", g.Len(), want)
	}
	if _, ok := g.Vector(keys[0]); ok {
		t.Errorf("deleted %s still has a vector", keys[0])
	}
	found, of := 0, 0
	for i, q := range old {
		hits := g.Search(q, 10, hnsw.DefaultEF, nil)
		for _, h := range hits {
			if deleted[h.Key] {
				t.Fatalf("query %d: deleted %s returned", i, h.Key)
			}
			if nv, ok := edited[h.Key]; ok && h.Score != dotOf(q, nv) {
				t.Fatalf("query %d: edited %s returned with its old vector's score", i, h.Key)
			}
		}
		for _, h := range g.Exact(q, 10, nil) {
			if deleted[h.Key] {
				t.Fatalf("Exact returned deleted %s", h.Key)
			}
		}
		f, o := recall(g.Exact(q, 10, nil), hits)
		found, of = found+f, of+o
	}
	if r := float64(found) / float64(of); r < 0.95 {
		t.Errorf("recall@10 after deletes and edits %.3f < 0.95", r)
	}
}

func dotOf(a, b []float32) float32 {
	// The package's own order of sums, so that scores compare equal.
	return hnsw.Dot(a, b)
}

// TestFilterNeverLeaks: with a set, only its members come back, from the
// walk and from Exact, at every selectivity; and at one in ten the walk
// still finds 0.9 of the exact nearest members.
func TestFilterNeverLeaks(t *testing.T) {
	const n, dim = 8000, 64
	rng := rand.New(rand.NewPCG(5, 6))
	m := synthetic.Default(dim, 20)
	m.Init(rng)
	keys, vs := data(rng, m, n)
	g := hnsw.New(dim, 0, 0, 2)
	g.AddAll(keys, vs)
	for _, share := range []int{2, 10, 100} {
		var members []string
		in := map[string]bool{}
		for i, k := range keys {
			if i%share == 0 {
				members = append(members, k)
				in[k] = true
			}
		}
		// A key without a vector is no member.
		set := g.Among(append(members, "nobody"))
		if set.Len() != len(members) {
			t.Fatalf("set of %d, want %d", set.Len(), len(members))
		}
		found, of := 0, 0
		for range 100 {
			q := m.Vector(rng)
			hits := g.Search(q, 10, hnsw.DefaultEF, set)
			exact := g.Exact(q, 10, set)
			for _, h := range append(hits, exact...) {
				if !in[h.Key] {
					t.Fatalf("1 in %d: %s is not in the set", share, h.Key)
				}
			}
			f, o := recall(exact, hits)
			found, of = found+f, of+o
		}
		r := float64(found) / float64(of)
		t.Logf("1 in %d admitted: recall@10 %.3f", share, r)
		if share <= 10 && r < 0.9 {
			t.Errorf("1 in %d admitted: recall@10 %.3f < 0.9", share, r)
		}
	}
}

// TestConcurrentAddsDeletesAndSearches runs adds, deletes and searches at
// once (for -race), then checks that none of the deleted keys is found.
func TestConcurrentAddsDeletesAndSearches(t *testing.T) {
	const n, dim = 4000, 32
	rng := rand.New(rand.NewPCG(7, 8))
	m := synthetic.Default(dim, 10)
	m.Init(rng)
	keys, vs := data(rng, m, n)
	queries := make([][]float32, 200)
	for i := range queries {
		queries[i] = m.Vector(rng)
	}
	g := hnsw.New(dim, 0, 0, 3)
	g.AddAll(keys[:n/2], vs[:n/2])
	var wg sync.WaitGroup
	wg.Go(func() { g.AddAll(keys[n/2:], vs[n/2:]) })
	wg.Go(func() {
		for i := 0; i < n/2; i += 2 {
			g.Delete(keys[i])
		}
	})
	for w := range 2 {
		wg.Go(func() {
			for i := w; i < len(queries); i += 2 {
				if len(g.Search(queries[i], 10, 32, nil)) == 0 {
					t.Error("a search found nothing")
				}
			}
		})
	}
	wg.Wait()
	if want := n - n/4; g.Len() != want {
		t.Fatalf("Len %d, want %d", g.Len(), want)
	}
	for _, q := range queries {
		for _, h := range g.Search(q, 10, 32, nil) {
			var i int
			fmt.Sscanf(h.Key, "k%d", &i)
			if i < n/2 && i%2 == 0 {
				t.Fatalf("deleted %s returned", h.Key)
			}
		}
	}
}
