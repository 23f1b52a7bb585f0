package community

import (
	"context"
	"errors"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/access"
	"agora/internal/auth"
	"agora/internal/db"
	"agora/internal/db/gen/table"
	"agora/internal/membership"
)

// Complimentary is PUT (Given true) and DELETE (Given false)
// /communities/{id}/profiles/{profileId}/complimentary.
type Complimentary struct {
	auth.Caller
	CommunityID uuid.UUID
	ProfileID   uuid.UUID
	Given       bool
}

// Complimentary gives or takes a member's complimentary access to the
// community (its membership's is_subscribed, access.CommunityPaidUp),
// which spares them the payment, for those who manage the community. Their
// own is membership.ErrOwnAssignment; a person who is no member of it is
// access.ErrCommunityNotFound, as an unknown community is.
func (s *Service) Complimentary(ctx context.Context, in Complimentary) error {
	cm, p := table.CommunityMemberships, table.Profiles
	of := cm.CommunityID.EQ(UUID(in.CommunityID)).AND(cm.ProfileID.EQ(UUID(in.ProfileID)))
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := manager(ctx, tx, in.Caller, in.CommunityID); err != nil {
			return err
		}
		var owner *uuid.UUID
		err := db.QueryRow(ctx, tx, SELECT(p.UserID).FROM(cm.INNER_JOIN(p, p.ID.EQ(cm.ProfileID))).WHERE(of)).Scan(&owner)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return access.ErrCommunityNotFound
		case err != nil:
			return fmt.Errorf("community: complimentary: %w", err)
		case owner != nil && *owner == in.UserID:
			return membership.ErrOwnAssignment
		}
		// Only a change is written: the change stream carries no row that
		// changed nothing.
		if _, err := db.Exec(ctx, tx, cm.UPDATE(cm.IsSubscribed).SET(Bool(in.Given)).
			WHERE(of.AND(cm.IsSubscribed.IS_DISTINCT_FROM(Bool(in.Given))))); err != nil {
			return fmt.Errorf("community: complimentary: %w", err)
		}
		return nil
	})
}
