package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"

	"agora/search"
	"agora/search/hnsw"
	"agora/search/hnsw/synthetic"
)

// vectorsBench (-only search-vectors) measures the nearest-neighbour graph
// of the embedded engine (search/hnsw) on synthetic vectors: clustered
// unit vectors of the sentence model's 384 dimensions, drawn from a seeded
// generator (search/hnsw/synthetic), as no real corpus of a million posts
// is at hand. For each of -vectors-runs builds at -vectors-n vectors it
// prints the build time (on every CPU), the memory, and for several
// efSearch recall@10 against exact scoring and the query p50/p99 over
// -vectors-queries queries drawn apart from the indexed vectors; then the
// median and range over the runs, and whether the targets (recall@10 >=
// 0.95 and p99 <= 50 ms at the efSearch the engine walks a graph of that
// size with, hnsw.EF) are met. Then filtered
// searches at several shares admitted, walked and scored exactly, which
// is what the engine's choice between the two rests on; and a Vector
// query through the engine itself (search.OpenEmbedded, Bleve's filter
// and all) at -vectors-engine-n posts, with the open's rebuild of the
// graph.
var (
	vectorsN        = flag.Int("vectors-n", 1_000_000, "search-vectors: vectors in the graph")
	vectorsDim      = flag.Int("vectors-dim", 384, "search-vectors: dimensions")
	vectorsQueries  = flag.Int("vectors-queries", 200, "search-vectors: timed queries, each checked against exact scoring")
	vectorsRuns     = flag.Int("vectors-runs", 3, "search-vectors: builds of the graph, whose spread is printed")
	vectorsEngineN  = flag.Int("vectors-engine-n", 100_000, "search-vectors: posts of the engine's query path (0 to skip)")
	vectorsSweep    = []int{32, 64, hnsw.DefaultEF, 160, 224}
	vectorsTargetR  = 0.95
	vectorsTargetMS = 50.0
)

const vectorsSeed = 20261202

// vectorData draws n vectors on every CPU, each block of 4,096 from its
// own seeded stream, so that the data do not depend on the CPUs.
func vectorData(m *synthetic.Model, n int, stream uint64) [][]float32 {
	vs := make([][]float32, n)
	const block = 4096
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for b := range next {
				rng := rand.New(rand.NewPCG(vectorsSeed+stream, uint64(b)))
				for i := b * block; i < min(n, (b+1)*block); i++ {
					vs[i] = m.Vector(rng)
				}
			}
		})
	}
	for b := 0; b*block < n; b++ {
		next <- b
	}
	close(next)
	wg.Wait()
	return vs
}

type efFigures struct {
	recall   []float64
	p50, p99 []time.Duration
}

func vectorsBench(ctx context.Context, selected map[string]bool) error {
	if !selected["search-vectors"] {
		return nil
	}
	n, dim, nq, runs := *vectorsN, *vectorsDim, *vectorsQueries, *vectorsRuns
	if n < 1000 || dim < 1 || nq < 1 || runs < 1 {
		return fmt.Errorf("search-vectors: -vectors-n must be at least 1000, -vectors-dim, -vectors-queries and -vectors-runs positive")
	}
	m := synthetic.Default(dim, max(10, n/1000))
	m.Init(rand.New(rand.NewPCG(vectorsSeed, 0)))
	start := time.Now()
	vs := vectorData(m, n, 1)
	queries := vectorData(m, nq, 2)
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("v%07d", i)
	}
	fmt.Printf("\nsearch-vectors: %s SYNTHETIC vectors of %d dimensions (clustered: %d topics, %d directions each, spread %.2f, noise %.2f; normalised to unit length; seed %d), drawn in %.1f s; %d queries drawn apart; %d CPUs\n",
		thousands(int64(n)), dim, m.Clusters, m.Directions, m.Spread, m.Noise, vectorsSeed, time.Since(start).Seconds(), nq, runtime.GOMAXPROCS(0))
	ef := hnsw.EF(n)
	sweep := vectorsSweep
	if !slices.Contains(sweep, ef) {
		sweep = append(slices.Clone(sweep), ef)
		slices.Sort(sweep)
	}
	fmt.Printf("  graph: M %d, efConstruction %d, efSearch %d at this size (hnsw.EF); vectors alone %.0f MB\n",
		hnsw.DefaultM, hnsw.DefaultEFConstruction, ef, float64(n*dim*4)/1e6)

	var builds []time.Duration
	var mems []float64
	figs := map[int]*efFigures{}
	var exact [][]hnsw.Hit
	var g *hnsw.Graph
	for run := range runs {
		if err := ctx.Err(); err != nil {
			return err
		}
		g = nil
		runtime.GC()
		before := heapLive()
		start := time.Now()
		g = hnsw.New(dim, 0, 0, vectorsSeed+uint64(run))
		g.AddAll(keys, vs)
		build := time.Since(start)
		runtime.GC()
		// The vectors were allocated before: what grows is the graph.
		mem := float64(heapLive()-before) / 1e6
		builds = append(builds, build)
		// Only the first build's reading is the graph's: later ones read a
		// couple of MB, as if the graph before were still live when they
		// began (not tracked down), so they are not printed as its size.
		if run == 0 {
			mems = append(mems, mem)
		}
		if exact == nil {
			start := time.Now()
			exact = parallelExact(g, queries, nil)
			fmt.Printf("  exact reference: %d queries scored against every vector in %.1f s on every CPU\n", nq, time.Since(start).Seconds())
		}
		fmt.Printf("  run %d: build %.1f s (%.0f vectors/s)\n", run+1, build.Seconds(), float64(n)/build.Seconds())
		for _, ef := range sweep {
			r, lat := timedSearches(g, queries, exact, ef, nil)
			f := figs[ef]
			if f == nil {
				f = &efFigures{}
				figs[ef] = f
			}
			res := newResult(lat, 0)
			f.recall, f.p50, f.p99 = append(f.recall, r), append(f.p50, res.p(50)), append(f.p99, res.p(99))
			fmt.Printf("    efSearch %4d: recall@10 %.3f  p50 %6.2f ms  p99 %6.2f ms\n", ef, r, ms(res.p(50)), ms(res.p(99)))
		}
	}
	fmt.Printf("  %d runs, median (lowest–highest): build %s s; graph %.0f MB beyond the vectors (the first build's heap)\n", runs, spreadF(durSeconds(builds), 1), mems[0])
	for _, ef := range sweep {
		f := figs[ef]
		fmt.Printf("    efSearch %4d: recall@10 %s  p50 %s  p99 %s\n", ef, spreadF(f.recall, 3), spreadMS(f.p50), spreadMS(f.p99))
	}
	f := figs[ef]
	verdict := "met"
	if median(f.recall) < vectorsTargetR || ms(median(f.p99)) > vectorsTargetMS {
		verdict = "MISSED"
	}
	fmt.Printf("  target at %s vectors, efSearch %d: recall@10 >= %.2f and p99 <= %.0f ms: %s (median recall %.3f, median p99 %.2f ms)\n",
		thousands(int64(n)), ef, vectorsTargetR, vectorsTargetMS, verdict, median(f.recall), ms(median(f.p99)))

	// Filters: a set of a share of the vectors, walked with the set and
	// scored exactly, on the last graph.
	fmt.Printf("  filtered (last graph, efSearch %d): a share of the vectors admitted, walked vs scored exactly\n", ef)
	rng := rand.New(rand.NewPCG(vectorsSeed, 3))
	for _, share := range []float64{0.01, 0.05, 0.2, 0.5} {
		var members []string
		for _, k := range keys {
			if rng.Float64() < share {
				members = append(members, k)
			}
		}
		set := g.Among(members)
		ref := parallelExact(g, queries, set)
		rw, walk := timedSearches(g, queries, ref, ef, set)
		var scan []time.Duration
		for _, q := range queries {
			start := time.Now()
			g.Exact(q, 10, set)
			scan = append(scan, time.Since(start))
		}
		w, s := newResult(walk, 0), newResult(scan, 0)
		fmt.Printf("    %4.0f%% (%s): walk recall@10 %.3f p50 %6.2f ms p99 %6.2f ms; exact p50 %6.2f ms p99 %6.2f ms\n",
			share*100, thousands(int64(set.Len())), rw, ms(w.p(50)), ms(w.p(99)), ms(s.p(50)), ms(s.p(99)))
	}
	g, vs, exact = nil, nil, nil
	runtime.GC()
	if *vectorsEngineN > 0 {
		return vectorsEngine(ctx, m, *vectorsEngineN, queries, runs)
	}
	return nil
}

// vectorsEngine measures Vector queries through the embedded engine: the
// posts of 200 forums, searched by a member who reads all of them (the
// graph is walked) and by one who reads 20 (a tenth of the posts: scored
// exactly), against exact scoring of the posts the filter admits.
func vectorsEngine(ctx context.Context, m *synthetic.Model, n int, queries [][]float32, runs int) error {
	dir, err := os.MkdirTemp("", "agora-vectors-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	s, err := search.OpenEmbedded(dir)
	if err != nil {
		return err
	}
	const forums = 200
	vs := vectorData(m, n, 4)
	channel := func(i int) string { return fmt.Sprintf("c%03d", i%forums) }
	start := time.Now()
	for b := 0; b < n; b += 1000 {
		var posts []search.Post
		for i := b; i < min(n, b+1000); i++ {
			posts = append(posts, search.Post{ID: fmt.Sprintf("p%07d", i), Kind: "thread", ChannelID: channel(i), ForumID: "f" + channel(i),
				Text: fmt.Sprintf("post %d", i), CreatedAt: int64(i), Vector: vs[i]})
		}
		if err := s.Posts().Upsert(ctx, posts...); err != nil {
			s.Close()
			return err
		}
	}
	load := time.Since(start)
	if _, err := search.Settle(ctx, s); err != nil {
		s.Close()
		return err
	}
	if err := s.Close(); err != nil {
		return err
	}
	start = time.Now()
	if s, err = search.OpenEmbedded(dir); err != nil {
		return err
	}
	defer s.Close()
	open := time.Since(start)
	fmt.Printf("  engine: %s posts of %d forums loaded through Upsert (batches of 1,000) in %.1f s; reopening (graph rebuilt from the stored vectors) %.1f s\n",
		thousands(int64(n)), forums, load.Seconds(), open.Seconds())
	all := make([]string, forums)
	for i := range all {
		all[i] = channel(i)
	}
	for _, tc := range []struct {
		label    string
		channels []string
	}{{"reads all 200 forums", all}, {"reads 20 forums", all[:20]}} {
		reads := map[string]bool{}
		for _, c := range tc.channels {
			reads[c] = true
		}
		// The reference: the admitted posts scored one by one.
		ref := make([][]int, len(queries))
		for qi, q := range queries {
			type hit struct {
				i     int
				score float32
			}
			var hits []hit
			for i, v := range vs {
				if reads[channel(i)] {
					hits = append(hits, hit{i, hnsw.Dot(q, v)})
				}
			}
			slices.SortFunc(hits, func(a, b hit) int { return -cmpF(a.score, b.score) })
			for _, h := range hits[:10] {
				ref[qi] = append(ref[qi], h.i)
			}
		}
		var recalls []float64
		var p50s, p99s []time.Duration
		for range runs {
			found, of := 0, 0
			var lat []time.Duration
			for qi, q := range queries {
				start := time.Now()
				r, err := s.Posts().Search(ctx, search.Query{Vector: q, Limit: 10, Filter: search.Filter{search.ReadableBy("u1", tc.channels...)}})
				lat = append(lat, time.Since(start))
				if err != nil {
					return err
				}
				got := map[string]bool{}
				for _, h := range r.Hits {
					got[h.ID] = true
				}
				for _, i := range ref[qi] {
					of++
					if got[fmt.Sprintf("p%07d", i)] {
						found++
					}
				}
			}
			res := newResult(lat, 0)
			recalls, p50s, p99s = append(recalls, float64(found)/float64(of)), append(p50s, res.p(50)), append(p99s, res.p(99))
		}
		fmt.Printf("    %-22s %d runs of %d queries, median (lowest–highest): recall@10 %s  p50 %s  p99 %s\n",
			tc.label+":", runs, len(queries), spreadF(recalls, 3), spreadMS(p50s), spreadMS(p99s))
	}
	return nil
}

func cmpF(a, b float32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// parallelExact scores every query exactly, on every CPU.
func parallelExact(g *hnsw.Graph, queries [][]float32, set *hnsw.Set) [][]hnsw.Hit {
	out := make([][]hnsw.Hit, len(queries))
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(queries); i += workers {
				out[i] = g.Exact(queries[i], 10, set)
			}
		})
	}
	wg.Wait()
	return out
}

// timedSearches runs the queries one after another and returns their
// recall@10 against exact and their latencies.
func timedSearches(g *hnsw.Graph, queries [][]float32, exact [][]hnsw.Hit, ef int, set *hnsw.Set) (float64, []time.Duration) {
	found, of := 0, 0
	lat := make([]time.Duration, 0, len(queries))
	for i, q := range queries {
		start := time.Now()
		hits := g.Search(q, 10, ef, set)
		lat = append(lat, time.Since(start))
		got := map[string]bool{}
		for _, h := range hits {
			got[h.Key] = true
		}
		for _, h := range exact[i] {
			of++
			if got[h.Key] {
				found++
			}
		}
	}
	return float64(found) / float64(max(of, 1)), lat
}

// heapLive is the bytes of live objects, after a collection by the
// caller: HeapInuse would count spans the collector freed but kept.
func heapLive() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func durSeconds(ds []time.Duration) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = d.Seconds()
	}
	return out
}

// spreadF is a figure's median and range over the runs.
func spreadF(vs []float64, decimals int) string {
	return fmt.Sprintf("%.*f (%.*f–%.*f)", decimals, median(vs), decimals, slices.Min(vs), decimals, slices.Max(vs))
}
