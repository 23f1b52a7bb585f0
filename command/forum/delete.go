package forum

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

// Delete is DELETE /series/{id}.
type Delete struct {
	auth.Caller
	SeriesID uuid.UUID
}

// Delete removes a forum with its memberships and channels (cascade), for
// its admins.
func (s *Service) Delete(ctx context.Context, in Delete) error {
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := forumAdmin(ctx, tx, in.Caller, in.SeriesID); err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, table.Series.DELETE().WHERE(table.Series.ID.EQ(UUID(in.SeriesID)))); err != nil {
			return fmt.Errorf("forum: delete: %w", err)
		}
		return nil
	})
}
