package community

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
	m := table.CommunityMemberships
	of := membership.Membership{Table: m, ProfileID: m.ProfileID, Complimentary: m.IsSubscribed,
		Row: m.CommunityID.EQ(UUID(in.CommunityID)).AND(m.ProfileID.EQ(UUID(in.ProfileID)))}
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := manager(ctx, tx, in.Caller, in.CommunityID); err != nil {
			return err
		}
		return membership.SetComplimentary(ctx, tx, of, in.UserID, in.Given, access.ErrCommunityNotFound)
	})
}
