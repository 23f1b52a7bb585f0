package organization

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db"
	"agora/internal/db/gen/table"
)

// MaxInvitees bounds one invitation call.
const MaxInvitees = 1000

// Invite is POST /organizations/{id}/invitations.
type Invite struct {
	auth.Caller
	OrganizationID uuid.UUID
	ProfileIDs     []string
}

// Invited counts what Invite did.
type Invited struct {
	// Invited are the people without an account, mailed an invitation.
	Invited int `json:"invited"`
	// Skipped already have an account: nothing is sent.
	Skipped int `json:"skipped"`
}

// Invite mails an invitation to each given person of the organization who
// has no account yet, for its admins and super users.
func (s *Service) Invite(ctx context.Context, in Invite) (Invited, error) {
	if in.ProfileIDs == nil {
		return Invited{}, apperr.MissingParameters("profileIds")
	}
	f := apperr.Fields{}
	seen := map[uuid.UUID]bool{}
	var ids []uuid.UUID
	for _, s := range in.ProfileIDs {
		id, err := uuid.Parse(s)
		if err != nil {
			f.Add("profileIds", "must be profile ids (UUIDs)")
			continue
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		f.Add("profileIds", "must name at least one person")
	}
	if len(ids) > MaxInvitees {
		f.Add("profileIds", fmt.Sprintf("must name at most %d people", MaxInvitees))
	}
	if err := f.Err(); err != nil {
		return Invited{}, err
	}
	var out Invited
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := manage(ctx, tx, in.Caller, in.OrganizationID); err != nil {
			return err
		}
		p := table.Profiles
		type person struct {
			ID        uuid.UUID
			Email     string
			FirstName string
			Joined    bool
		}
		var people []person
		rows, err := db.Query(ctx, tx, SELECT(p.ID, p.Email, p.FirstName, p.UserID.IS_NOT_NULL()).
			FROM(p).WHERE(p.ID.IN(db.UUIDs(ids)...).AND(p.OrganizationID.EQ(UUID(in.OrganizationID)))).ORDER_BY(p.ID))
		if err == nil {
			people, err = pgx.CollectRows(rows, pgx.RowToStructByPos[person])
		}
		if err != nil {
			return fmt.Errorf("organization: invite: %w", err)
		}
		if len(people) != len(ids) {
			return apperr.Invalid(map[string]string{"profileIds": "every person must be a person of the organization"})
		}
		actor, org, err := inviterOf(ctx, tx, in.UserID, in.OrganizationID)
		if err != nil {
			return err
		}
		for _, p := range people {
			if p.Joined {
				out.Skipped++
				continue
			}
			if err := s.inviter.Invite(ctx, tx, p.ID, p.Email, p.FirstName, actor, org); err != nil {
				return fmt.Errorf("organization: invite: %w", err)
			}
			out.Invited++
		}
		return nil
	})
	return out, err
}
