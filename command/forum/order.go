package forum

import (
	"context"

	"fmt"

	. "github.com/go-jet/jet/v2/postgres"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
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
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		// One who may not read the community is told it does not exist.
		if _, err := access.ManageCommunity(ctx, tx, in.UserID, in.Role, in.CommunityID); err != nil {
			return err
		}
		s := table.Series
		ids, err := db.Values[uuid.UUID](ctx, tx, SELECT(s.ID).FROM(s).WHERE(s.CommunityID.EQ(UUID(in.CommunityID))).FOR(UPDATE()))
		if err != nil {
			return fmt.Errorf("forum: order: %w", err)
		}
		have := map[uuid.UUID]bool{}
		for _, id := range ids {
			have[id] = false
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
			if _, err := db.Exec(ctx, tx, s.UPDATE().SET(s.Position.SET(Int(int64(i)))).WHERE(s.ID.EQ(UUID(id)))); err != nil {
				return fmt.Errorf("forum: order: %w", err)
			}
		}
		return nil
	})
}
