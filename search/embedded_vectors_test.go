package search_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"agora/search"
)

// BenchmarkEmbeddedVectorQuery measures a Vector query (100 dimensions,
// the first page) over one forum of n posts, and how long reopening the
// store takes to load their vectors:
//
//	go test ./search -run '^$' -bench EmbeddedVectorQuery -benchtime 50x
func BenchmarkEmbeddedVectorQuery(b *testing.B) {
	const dimensions = 100
	rng := rand.New(rand.NewPCG(1, 2))
	vector := func() []float32 {
		v := make([]float32, dimensions)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return v
	}
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("posts=%d", n), func(b *testing.B) {
			ctx := context.Background()
			dir := b.TempDir()
			s, err := search.OpenEmbedded(dir)
			if err != nil {
				b.Fatal(err)
			}
			for start := 0; start < n; start += 1000 {
				var posts []search.Post
				for i := start; i < min(start+1000, n); i++ {
					posts = append(posts, search.Post{
						ID: fmt.Sprintf("p%06d", i), Kind: "thread", ForumID: "f1", ChannelID: "c1",
						Text: fmt.Sprintf("post number %d about topic %d", i, i%97), CreatedAt: int64(i), Vector: vector(),
					})
				}
				if err := s.Posts().Upsert(ctx, posts...); err != nil {
					b.Fatal(err)
				}
			}
			if _, err := search.Settle(ctx, s); err != nil {
				b.Fatal(err)
			}
			if err := s.Close(); err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			if s, err = search.OpenEmbedded(dir); err != nil {
				b.Fatal(err)
			}
			opened := time.Since(start)
			defer s.Close()
			q := search.Query{Filter: search.Filter{search.ReadableBy("u1", "c1"), search.In("forumId", "f1")}}
			b.ResetTimer()
			for b.Loop() {
				q.Vector = vector()
				r, err := s.Posts().Search(ctx, q)
				if err != nil || len(r.Hits) != search.DefaultLimit {
					b.Fatalf("%d hits, %v", len(r.Hits), err)
				}
			}
			b.ReportMetric(float64(opened.Milliseconds()), "open-ms")
		})
	}
}
