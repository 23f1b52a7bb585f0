package feed

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/auth"
	"agora/internal/db"
)

// DeleteReply is DELETE /threads/{id}/replies/{replyId}.
type DeleteReply struct {
	ThreadID, ReplyID uuid.UUID
	Actor             auth.Caller
}

// DeleteReply lets the creator or a forum admin delete a comment (with its
// replies) or a reply.
func (s *Service) DeleteReply(ctx context.Context, in DeleteReply) error {
	return db.InTx(ctx, s.db, func(tx *sql.Tx) error {
		if _, err := loadReply(ctx, tx, in.Actor, in.ThreadID, in.ReplyID, true); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM replies WHERE id = $1`, in.ReplyID); err != nil {
			return fmt.Errorf("feed: delete reply: %w", err)
		}
		return nil
	})
}
