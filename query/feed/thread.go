package feed

import (
	"context"
	"database/sql"
	"errors"

	"github.com/google/uuid"

	"agora/internal/apperr"
)

// Thread reads one post with all its comments and their replies
// (GET /threads/{id}).
func (q *Queries) Thread(ctx context.Context, v Viewer, id uuid.UUID) (*Thread, error) {
	t, err := scanThread(q.db.QueryRowContext(ctx, `SELECT `+threadCols+` FROM threads t JOIN users u ON u.id = t.creator_id WHERE t.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	f, err := readForum(ctx, q.db, v, t.SeriesID)
	if err != nil {
		return nil, err
	}
	var kind string
	if err := q.db.QueryRowContext(ctx, `SELECT kind FROM channels WHERE id = $1`, t.ChannelID).Scan(&kind); err != nil {
		return nil, err
	}
	if kind == "admin" && !f.Admin {
		return nil, apperr.ErrForbidden
	}
	if err := q.fill(ctx, v, f, []*Thread{t}, true); err != nil {
		return nil, err
	}
	return t, nil
}

// Reply reads one comment or reply of a thread, with its replies.
func (q *Queries) Reply(ctx context.Context, v Viewer, threadID, replyID uuid.UUID) (*Reply, error) {
	t, err := q.Thread(ctx, v, threadID)
	if err != nil {
		return nil, err
	}
	for _, c := range t.Replies {
		if c.ID == replyID {
			return c, nil
		}
		for _, r := range c.Replies {
			if r.ID == replyID {
				return r, nil
			}
		}
	}
	return nil, apperr.ErrNotFound
}
