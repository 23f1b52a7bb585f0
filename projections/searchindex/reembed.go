package searchindex

import (
	"context"
	"fmt"
	"runtime"
	gosync "sync"

	"agora/search"
)

// reembedBatch is how many posts Reembed embeds and writes at a time: a
// batch's texts go to the embedder in one call, as a change batch's do.
const reembedBatch = 256

// Reembed gives every post document of the store the vector of the
// projection's embedder (none without one), in place: for a change of
// embedding model, whose vectors are of another space (and often of
// another dimension: the word vectors' 100, the sentence model's 384),
// which a query's vector must not be compared with. The documents are
// read back from the index (their text is there) rather than from
// Postgres, so the rest of each document stays as the projection wrote
// it. It is run before the projection consumes, so that no change is
// written in between; it answers how many posts it rewrote.
//
// It embeds a batch per CPU at once: the local sentence model runs one
// batch on one core (one thread per call), and nothing else of the
// process runs yet (agora dev re-embeds before its API and projections
// start), so a forum's posts take half the time on two cores.
func (p *Projection) Reembed(ctx context.Context) (int, error) {
	posts := p.store.Posts()
	var all []search.Post
	if err := posts.All(ctx, func(d search.Post) error {
		all = append(all, d)
		return nil
	}); err != nil {
		return 0, fmt.Errorf("re-embed: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	starts := make(chan int)
	var (
		wg       gosync.WaitGroup
		mu       gosync.Mutex
		firstErr error
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for start := range starts {
				if err := p.reembed(ctx, all[start:min(start+reembedBatch, len(all))]); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("re-embed: posts from %d: %w", start, err)
					}
					mu.Unlock()
					cancel()
				}
			}
		})
	}
feed:
	for start := 0; start < len(all); start += reembedBatch {
		select {
		case starts <- start:
		case <-ctx.Done():
			break feed
		}
	}
	close(starts)
	wg.Wait()
	if firstErr != nil {
		return 0, firstErr
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("re-embed: %w", err)
	}
	if err := posts.Wait(ctx); err != nil {
		return 0, fmt.Errorf("re-embed: %w", err)
	}
	return len(all), nil
}

// reembed embeds one batch afresh and writes it.
func (p *Projection) reembed(ctx context.Context, batch []search.Post) error {
	for i := range batch {
		batch[i].Vector = nil
	}
	if err := p.embed(ctx, batch); err != nil {
		return err
	}
	return p.store.Posts().Upsert(ctx, batch...)
}
