package searchindex

import (
	"context"
	"fmt"

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
func (p *Projection) Reembed(ctx context.Context) (int, error) {
	posts := p.store.Posts()
	var all []search.Post
	if err := posts.All(ctx, func(d search.Post) error {
		all = append(all, d)
		return nil
	}); err != nil {
		return 0, fmt.Errorf("re-embed: %w", err)
	}
	for start := 0; start < len(all); start += reembedBatch {
		batch := all[start:min(start+reembedBatch, len(all))]
		for i := range batch {
			batch[i].Vector = nil
		}
		if err := p.embed(ctx, batch); err != nil {
			return start, fmt.Errorf("re-embed: %w", err)
		}
		if err := posts.Upsert(ctx, batch...); err != nil {
			return start, fmt.Errorf("re-embed: %w", err)
		}
	}
	if err := posts.Wait(ctx); err != nil {
		return 0, fmt.Errorf("re-embed: %w", err)
	}
	return len(all), nil
}
