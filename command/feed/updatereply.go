package feed

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db"
)

// UpdateReply is PATCH /threads/{id}/replies/{replyId}.
type UpdateReply struct {
	ThreadID, ReplyID uuid.UUID
	Actor             auth.Caller
	Raw               *string
}

// UpdateReply lets the creator or a forum admin edit a comment's text.
func (s *Service) UpdateReply(ctx context.Context, in UpdateReply) error {
	if in.Raw == nil {
		return apperr.MissingParameters("raw")
	}
	return db.InTx(ctx, s.db, func(tx *sql.Tx) error {
		t, err := loadReply(ctx, tx, in.Actor, in.ThreadID, in.ReplyID, true)
		if err != nil {
			return err
		}
		fields := apperr.Fields{}
		raw := checkReplyText(in.Raw, fields)
		if err := fields.Err(); err != nil {
			return err
		}
		mentions, hashtags, err := parse(ctx, tx, t.SeriesID, raw)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE replies SET raw = $2, mentions = $3::text[]::uuid[], hashtags = $4, updated_on = $5 WHERE id = $1`,
			in.ReplyID, raw, mentions, hashtags, s.timestamp())
		if err != nil {
			return fmt.Errorf("feed: update reply: %w", err)
		}
		return nil
	})
}
