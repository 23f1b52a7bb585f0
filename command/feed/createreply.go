package feed

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db"
)

// CreateReply is POST /threads/{id}/replies: a comment, or with ParentID a
// reply to a comment.
type CreateReply struct {
	ThreadID uuid.UUID
	Actor    auth.Caller
	Raw      *string
	ParentID *string
}

// CreateReply lets any reader of the forum comment. Nesting is one level:
// a reply to a reply is refused.
func (s *Service) CreateReply(ctx context.Context, in CreateReply) (uuid.UUID, error) {
	if in.Raw == nil {
		return uuid.Nil, apperr.MissingParameters("raw")
	}
	id := newID()
	err := db.InTx(ctx, s.db, func(tx *sql.Tx) error {
		t, _, err := loadThread(ctx, tx, in.Actor, in.ThreadID)
		if err != nil {
			return err
		}
		fields := apperr.Fields{}
		raw := checkReplyText(in.Raw, fields)
		var parent *uuid.UUID
		if in.ParentID != nil {
			pid, err := uuid.Parse(*in.ParentID)
			if err != nil {
				fields.Add("parentId", "must be a UUID")
			} else {
				var grand *uuid.UUID
				err := tx.QueryRowContext(ctx, `SELECT parent_id FROM replies WHERE id = $1 AND thread_id = $2`, pid, t.ID).Scan(&grand)
				switch {
				case errors.Is(err, sql.ErrNoRows):
					fields.Add("parentId", "must be a comment of this post")
				case err != nil:
					return fmt.Errorf("feed: parent: %w", err)
				case grand != nil:
					fields.Add("parentId", "a reply cannot be replied to: reply to its comment")
				default:
					parent = &pid
				}
			}
		}
		if err := fields.Err(); err != nil {
			return err
		}
		mentions, hashtags, err := parse(ctx, tx, t.SeriesID, raw)
		if err != nil {
			return err
		}
		now := s.timestamp()
		_, err = tx.ExecContext(ctx, `INSERT INTO replies (id, thread_id, parent_id, creator_id, raw, mentions, hashtags, created_on, updated_on)
			VALUES ($1, $2, $3, $4, $5, $6::text[]::uuid[], $7, $8, $8)`, id, t.ID, parent, in.Actor.UserID, raw, mentions, hashtags, now)
		if err != nil {
			return fmt.Errorf("feed: create reply: %w", err)
		}
		return nil
	})
	return id, err
}

// loadReply finds a reply of a thread and checks the actor may manage it.
func loadReply(ctx context.Context, tx *sql.Tx, a auth.Caller, threadID, replyID uuid.UUID, manage bool) (threadRef, error) {
	t, f, err := loadThread(ctx, tx, a, threadID)
	if err != nil {
		return t, err
	}
	var creator uuid.UUID
	err = tx.QueryRowContext(ctx, `SELECT creator_id FROM replies WHERE id = $1 AND thread_id = $2`, replyID, threadID).Scan(&creator)
	if errors.Is(err, sql.ErrNoRows) {
		return t, apperr.ErrNotFound
	}
	if err != nil {
		return t, fmt.Errorf("feed: reply: %w", err)
	}
	if manage && creator != a.UserID && !f.Admin {
		return t, apperr.ErrForbidden
	}
	return t, nil
}
