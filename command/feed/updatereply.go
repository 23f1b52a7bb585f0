package feed

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
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
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		t, err := loadReply(ctx, tx, in.Actor, in.ThreadID, in.ReplyID, true)
		if err != nil {
			return err
		}
		fields := apperr.Fields{}
		raw := checkReplyText(in.Raw, fields)
		if err := fields.Err(); err != nil {
			return err
		}
		who, err := commentsOn(ctx, tx, t)
		if err != nil {
			return err
		}
		text, mentions, hashtags, err := parse(ctx, tx, who, raw)
		if err != nil {
			return err
		}
		raw = text
		r := table.Replies
		_, err = db.Exec(ctx, tx, r.UPDATE(r.Raw, r.Mentions, r.Hashtags, r.UpdatedOn).
			MODEL(model.Replies{Raw: raw, Mentions: mentions, Hashtags: hashtags, UpdatedOn: s.timestamp()}).
			WHERE(r.ID.EQ(UUID(in.ReplyID))))
		if err != nil {
			return fmt.Errorf("feed: update reply: %w", err)
		}
		return nil
	})
}
