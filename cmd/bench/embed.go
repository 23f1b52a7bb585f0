package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"agora/app/seed"
	"agora/search/embedcache"
	"agora/search/sentence"
)

var (
	embedRunsN      = flag.Int("embed-runs", 3, "runs of the embed benchmark, whose spread it prints")
	embedQuestionsN = flag.Int("embed-questions", 300, "timed single-question embeds per run of the embed benchmark")
)

// embedBench times the local sentence model (search/sentence) as agora
// dev runs it, in process and without the loopback API's HTTP round
// trip: one question at a time (what an AI search waits for before it
// ranks), and the demo forums' posts in batches (what the search
// projection does for a change batch or a re-embed). The texts are the
// demo discussions' posts and content-gap questions, written by people,
// so their token counts are a forum's. Then the same posts again through
// the on-disk cache agora dev keeps them in (search/embedcache), as the
// next start reads them: a fresh cache on the filled folder each run.
// Each figure is given as the median of -embed-runs runs and their range.
func embedBench(ctx context.Context, selected map[string]bool) error {
	if !selected["embed"] {
		return nil
	}
	if *embedRunsN < 1 || *embedQuestionsN < 1 {
		return fmt.Errorf("embed: -embed-runs and -embed-questions must be positive")
	}
	files, err := sentence.Installed()
	if err != nil {
		return err
	}
	enc, err := sentence.Open(files)
	if err != nil {
		return fmt.Errorf("embed: %w (scripts/install-deps.sh sentencemodel)", err)
	}
	defer enc.Close()
	ds, err := seed.Discussions()
	if err != nil {
		return err
	}
	var posts, questions []string
	for _, d := range ds {
		for _, t := range d.Threads {
			posts = append(posts, t.Body)
			for _, c := range t.Comments {
				posts = append(posts, c.Body)
				for _, r := range c.Replies {
					posts = append(posts, r.Body)
				}
			}
		}
		for _, g := range d.Gaps {
			questions = append(questions, g.Question)
		}
	}
	// Questions are short: the threads' own first sentences stand in
	// for more of them beside the content gaps'.
	for _, d := range ds {
		for _, t := range d.Threads {
			if len(t.Body) <= 160 {
				questions = append(questions, t.Body)
			}
		}
	}
	tokens := 0
	for _, p := range posts {
		tokens += len(enc.Tokenizer().Encode(p))
	}
	fmt.Printf("embed: %s in process (ONNX Runtime %s, 1 thread per call), %d demo posts (%.0f tokens each on average), %d questions; %d runs\n",
		sentence.Model, sentence.RuntimeVersion, len(posts), float64(tokens)/float64(len(posts)), len(questions), *embedRunsN)
	// Warm-up: the first runs allocate the session's buffers.
	if _, err := enc.Embed(ctx, posts[:min(64, len(posts))]); err != nil {
		return err
	}
	var p50, p99 []time.Duration
	var rate []float64
	for range *embedRunsN {
		lat := make([]time.Duration, 0, *embedQuestionsN)
		start := time.Now()
		for i := range *embedQuestionsN {
			t0 := time.Now()
			if _, err := enc.Embed(ctx, questions[i%len(questions):i%len(questions)+1]); err != nil {
				return err
			}
			lat = append(lat, time.Since(t0))
		}
		r := newResult(lat, time.Since(start))
		p50, p99 = append(p50, r.p(50)), append(p99, r.p(99))
		t0 := time.Now()
		for at := 0; at < len(posts); at += 256 {
			if _, err := enc.Embed(ctx, posts[at:min(at+256, len(posts))]); err != nil {
				return err
			}
		}
		rate = append(rate, float64(len(posts))/time.Since(t0).Seconds())
	}
	fmt.Printf("  one question: p50 %s, p99 %s (%d embeds per run; median of the runs, range)\n", spreadMS(p50), spreadMS(p99), *embedQuestionsN)
	fmt.Printf("  posts in batches of 256: %s posts/s\n", spreadRate(rate))
	dir, err := os.MkdirTemp("", "agora-bench-embedcache-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	batches := func(c *embedcache.Cache) error {
		for at := 0; at < len(posts); at += 256 {
			if _, err := c.Embed(ctx, posts[at:min(at+256, len(posts))]); err != nil {
				return err
			}
		}
		return c.Close()
	}
	fill, err := embedcache.Wrap(enc, dir, sentence.Model, sentence.Dim)
	if err != nil {
		return err
	}
	if err := batches(fill); err != nil {
		return err
	}
	var cached []float64
	for range *embedRunsN {
		t0 := time.Now()
		c, err := embedcache.Wrap(enc, dir, sentence.Model, sentence.Dim)
		if err != nil {
			return err
		}
		if err := batches(c); err != nil {
			return err
		}
		if s := c.Stats(); s.Misses > 0 {
			return fmt.Errorf("embed: %d posts missed the filled cache", s.Misses)
		}
		cached = append(cached, float64(len(posts))/time.Since(t0).Seconds())
	}
	fmt.Printf("  the same posts from the on-disk cache, opened afresh: %s posts/s\n", spreadRate(cached))
	return nil
}
