package forum

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/auth"
	"agora/internal/db"
)

// Delete is DELETE /series/{id}.
type Delete struct {
	auth.Caller
	SeriesID uuid.UUID
}

// Delete removes a forum with its memberships and channels (cascade), for
// its admins.
func (s *Service) Delete(ctx context.Context, in Delete) error {
	return db.InTx(ctx, s.db, func(tx *sql.Tx) error {
		if _, err := forumAdmin(ctx, tx, in.Caller, in.SeriesID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM series WHERE id = $1`, in.SeriesID); err != nil {
			return fmt.Errorf("forum: delete: %w", err)
		}
		return nil
	})
}
