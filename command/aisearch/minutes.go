package aisearch

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/search"
)

// meetupPosts shows each Meet Up's minutes that were retrieved as the Meet
// Up post they belong to (what the member opens from the answer): the
// post's id, kind and channel, with the minutes' text. The minutes are
// retrieved only for their readers (their document names them); a post
// retrieved twice, itself and by its minutes, is kept once.
func (s *Service) meetupPosts(ctx context.Context, hits []search.Post) ([]search.Post, error) {
	var threads []uuid.UUID
	for _, h := range hits {
		if h.Kind == search.KindMinutes {
			if id, err := uuid.Parse(h.ThreadID); err == nil {
				threads = append(threads, id)
			}
		}
	}
	if len(threads) == 0 {
		return hits, nil
	}
	type row struct {
		ID        uuid.UUID
		ChannelID uuid.UUID
		Type      string
	}
	t := table.Threads
	rows, err := db.All[row](ctx, s.db, SELECT(t.ID.AS("id"), t.ChannelID.AS("channel_id"), t.Type.AS("type")).
		FROM(t).WHERE(db.Any(t.ID, threads)))
	if err != nil {
		return nil, fmt.Errorf("aisearch: meetup posts: %w", err)
	}
	posts := map[string]row{}
	for _, r := range rows {
		posts[r.ID.String()] = r
	}
	out := make([]search.Post, 0, len(hits))
	seen := map[string]bool{}
	for _, h := range hits {
		if h.Kind == search.KindMinutes {
			p, ok := posts[h.ThreadID]
			if !ok {
				continue // the post is gone; its minutes go from the index next
			}
			h.ID, h.Kind, h.ChannelID = h.ThreadID, p.Type, p.ChannelID.String()
		}
		if !seen[h.ID] {
			seen[h.ID] = true
			out = append(out, h)
		}
	}
	return out, nil
}
