package organization

import (
	"context"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/rules/membership"
)

// Invite is POST /organizations/{id}/invitations.
type Invite struct {
	auth.Caller
	OrganizationID uuid.UUID
	ProfileIDs     []string
}

// Invited counts what Invite did.
type Invited = membership.Invited

// Invite mails an invitation to each given person of the organization who
// has no account yet, for its admins and super users.
func (s *Service) Invite(ctx context.Context, in Invite) (Invited, error) {
	ids, err := membership.ParseIDs("profileIds", in.ProfileIDs)
	if err != nil {
		return Invited{}, err
	}
	var out Invited
	err = db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := manage(ctx, tx, in.Caller, in.OrganizationID); err != nil {
			return err
		}
		out, err = membership.InvitePending(ctx, tx, s.inviter, in.UserID, membership.Into{Organization: in.OrganizationID}, ids)
		return err
	})
	return out, err
}
