package forum

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/access"
	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db"
)

// Order is PUT /communities/{id}/series-order.
type Order struct {
	auth.Caller
	CommunityID uuid.UUID
	// IDs are every forum of the community, once each, in the new order.
	IDs []uuid.UUID
}

// Order sets the order of a community's forums, for its admins.
func (s *Service) Order(ctx context.Context, in Order) error {
	return db.InTx(ctx, s.db, func(tx *sql.Tx) error {
		c, err := access.InCommunity(ctx, tx, in.UserID, in.Role, in.CommunityID)
		if err != nil {
			return err
		}
		if !c.Admin {
			return ErrCommunityAdminOnly
		}
		rows, err := tx.QueryContext(ctx, `SELECT id FROM series WHERE community_id = $1 FOR UPDATE`, in.CommunityID)
		if err != nil {
			return fmt.Errorf("forum: order: %w", err)
		}
		have := map[uuid.UUID]bool{}
		for rows.Next() {
			var id uuid.UUID
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			have[id] = false
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		bad := len(in.IDs) != len(have)
		for _, id := range in.IDs {
			seen, ok := have[id]
			if !ok || seen {
				bad = true
				break
			}
			have[id] = true
		}
		if bad {
			return apperr.Invalid(map[string]string{"ids": "must list every forum of the community exactly once"})
		}
		for i, id := range in.IDs {
			if _, err := tx.ExecContext(ctx, `UPDATE series SET position = $2 WHERE id = $1`, id, i); err != nil {
				return fmt.Errorf("forum: order: %w", err)
			}
		}
		return nil
	})
}
