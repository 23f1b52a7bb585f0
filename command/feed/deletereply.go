package feed

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// DeleteReply is DELETE /threads/{id}/replies/{replyId}.
type DeleteReply struct {
	ThreadID, ReplyID uuid.UUID
	Actor             auth.Caller
}

// DeleteReply lets the creator or a forum admin delete a comment (with its
// replies) or a reply.
func (s *Service) DeleteReply(ctx context.Context, in DeleteReply) error {
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := loadReply(ctx, tx, in.Actor, in.ThreadID, in.ReplyID, true); err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, table.Replies.DELETE().WHERE(table.Replies.ID.EQ(UUID(in.ReplyID)))); err != nil {
			return fmt.Errorf("feed: delete reply: %w", err)
		}
		return nil
	})
}
