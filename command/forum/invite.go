package forum

import (
	"context"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/rules/membership"
)

// Invite is POST /series/{id}/invitations.
type Invite struct {
	auth.Caller
	SeriesID   uuid.UUID
	ProfileIDs []string
}

// Invited counts what Invite did.
type Invited = membership.Invited

// Invite mails an invitation to each given member of the forum's
// community who has no account yet, for the forum's admins.
func (s *Service) Invite(ctx context.Context, in Invite) (Invited, error) {
	ids, err := membership.ParseIDs("profileIds", in.ProfileIDs)
	if err != nil {
		return Invited{}, err
	}
	var out Invited
	err = db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		st, err := stagedState(ctx, tx, in.Caller, in.SeriesID, ids)
		if err != nil {
			if ae, ok := apperr.As(err); !ok || ae.Kind != apperr.BadInput {
				return err
			}
			return apperr.Invalid(map[string]string{"profileIds": "every person must be a member of the forum's community"})
		}
		into := membership.Into{Organization: st.orgID, Community: &st.communityID, Forum: &in.SeriesID}
		out, err = membership.InvitePending(ctx, tx, s.inviter, in.UserID, into, ids)
		return err
	})
	return out, err
}
