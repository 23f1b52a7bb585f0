package forum

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
// /series/{id}/profiles/{profileId}/complimentary.
type Complimentary struct {
	auth.Caller
	SeriesID  uuid.UUID
	ProfileID uuid.UUID
	Given     bool
}

// Complimentary gives or takes a member's complimentary access to the
// forum (its membership's is_subscribed, access.ForumPaidUp), which spares
// them the forum's payment (not its community's), for the forum's admins.
// Their own is membership.ErrOwnAssignment; a person who is no member of
// it is access.ErrForumNotFound, as an unknown forum is.
func (s *Service) Complimentary(ctx context.Context, in Complimentary) error {
	sm, p := table.SeriesMemberships, table.Profiles
	of := sm.SeriesID.EQ(UUID(in.SeriesID)).AND(sm.ProfileID.EQ(UUID(in.ProfileID)))
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := forumAdmin(ctx, tx, in.Caller, in.SeriesID); err != nil {
			return err
		}
		var owner *uuid.UUID
		err := db.QueryRow(ctx, tx, SELECT(p.UserID).FROM(sm.INNER_JOIN(p, p.ID.EQ(sm.ProfileID))).WHERE(of)).Scan(&owner)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return access.ErrForumNotFound
		case err != nil:
			return fmt.Errorf("forum: complimentary: %w", err)
		case owner != nil && *owner == in.UserID:
			return membership.ErrOwnAssignment
		}
		// Only a change is written: the change stream carries no row that
		// changed nothing.
		if _, err := db.Exec(ctx, tx, sm.UPDATE(sm.IsSubscribed).SET(Bool(in.Given)).
			WHERE(of.AND(sm.IsSubscribed.IS_DISTINCT_FROM(Bool(in.Given))))); err != nil {
			return fmt.Errorf("forum: complimentary: %w", err)
		}
		return nil
	})
}
