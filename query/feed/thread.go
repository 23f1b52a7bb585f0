package feed

import (
	"context"

	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
)

// threadSQL reads the thread $1 with all its comments and their replies.
var threadSQL = threadsSQL(`SELECT channel_id FROM threads WHERE id = $1`,
	`SELECT t.* FROM acc, threads t WHERE acc.reads AND t.id = $1`, true)

// Thread reads one post with all its comments and their replies
// (GET /threads/{id}).
func (q *Queries) Thread(ctx context.Context, v auth.Caller, id uuid.UUID) (*Thread, error) {
	threads, err := q.threadRows(ctx, v, threadSQL, [16]byte(id), [16]byte(v.UserID), v.Role == auth.RoleSuper)
	if err != nil {
		return nil, err
	}
	if len(threads) == 0 {
		// Not reached: one statement reads the rights and the thread in
		// one snapshot.
		return nil, apperr.ErrNotFound
	}
	return threads[0], nil
}

// Reply reads one comment or reply of a thread, with its replies.
func (q *Queries) Reply(ctx context.Context, v auth.Caller, threadID, replyID uuid.UUID) (*Reply, error) {
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
