package community

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
	"agora/internal/rules/membership"
)

// Invite is POST /communities/{id}/invitations.
type Invite struct {
	auth.Caller
	CommunityID uuid.UUID
	ProfileIDs  []string
}

// Invite mails an invitation to each given member of the community (active
// or pending) who has no account yet, and skips the others, for those who
// manage the community.
func (s *Service) Invite(ctx context.Context, in Invite) (membership.Invited, error) {
	ids, err := membership.ParseIDs("profileIds", in.ProfileIDs)
	if err != nil {
		return membership.Invited{}, err
	}
	var out membership.Invited
	err = db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		c, err := manager(ctx, tx, in.Caller, in.CommunityID)
		if err != nil {
			return err
		}
		cm := table.CommunityMemberships
		var n int
		if err := db.QueryRow(ctx, tx, SELECT(COUNT(STAR)).FROM(cm).
			WHERE(cm.CommunityID.EQ(UUID(in.CommunityID)).AND(db.Any(cm.ProfileID, ids)))).Scan(&n); err != nil {
			return fmt.Errorf("community: invite: %w", err)
		}
		if n != len(ids) {
			return apperr.Invalid(map[string]string{"profileIds": "every person must be a member of the community"})
		}
		out, err = membership.InvitePending(ctx, tx, s.inviter, in.UserID, membership.Into{Organization: c.OrganizationID, Community: &in.CommunityID}, ids)
		return err
	})
	return out, err
}
