package aisearch

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// threadsOf returns the posts of the cited ids: a post is its own, a
// comment or reply names its post.
func (s *Service) threadsOf(ctx context.Context, cited []string) ([]string, error) {
	var ids []uuid.UUID
	for _, c := range cited {
		if id, err := uuid.Parse(c); err == nil {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	r := table.Replies
	rows, err := db.All[struct{ ThreadID uuid.UUID }](ctx, s.db, SELECT(r.ThreadID.AS("thread_id")).FROM(r).WHERE(db.Any(r.ID, ids)))
	if err != nil {
		return nil, fmt.Errorf("aisearch: cited posts: %w", err)
	}
	out := append([]string{}, cited...)
	for _, row := range rows {
		out = append(out, row.ThreadID.String())
	}
	return out, nil
}
