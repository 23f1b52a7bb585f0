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

// DeleteThread is DELETE /threads/{id}.
type DeleteThread struct {
	ThreadID uuid.UUID
	Actor    auth.Caller
}

// DeleteThread lets the creator or a forum admin delete a post, with its
// comments and reactions.
func (s *Service) DeleteThread(ctx context.Context, in DeleteThread) error {
	return db.InTx(ctx, s.db, func(tx *sql.Tx) error {
		t, f, err := loadThread(ctx, tx, in.Actor, in.ThreadID)
		if err != nil {
			return err
		}
		if t.CreatorID != in.Actor.UserID && !f.Admin {
			return apperr.ErrForbidden
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM threads WHERE id = $1`, t.ID); err != nil {
			return fmt.Errorf("feed: delete thread: %w", err)
		}
		return nil
	})
}
