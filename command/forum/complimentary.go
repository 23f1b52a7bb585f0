package forum

import (
	"context"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
	"agora/internal/rules/membership"
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
	m := table.SeriesMemberships
	of := membership.Membership{Table: m, ProfileID: m.ProfileID, Complimentary: m.IsSubscribed,
		Row: m.SeriesID.EQ(UUID(in.SeriesID)).AND(m.ProfileID.EQ(UUID(in.ProfileID)))}
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := forumAdmin(ctx, tx, in.Caller, in.SeriesID); err != nil {
			return err
		}
		return membership.SetComplimentary(ctx, tx, of, in.UserID, in.Given, access.ErrForumNotFound)
	})
}
