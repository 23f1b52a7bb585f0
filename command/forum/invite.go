package forum

import (
	"context"

	"fmt"
	"strings"

	. "github.com/go-jet/jet/v2/postgres"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db"
	"agora/internal/db/gen/table"
)

// Invite is POST /series/{id}/invitations.
type Invite struct {
	auth.Caller
	SeriesID   uuid.UUID
	ProfileIDs []string
}

// Invited counts what Invite did.
type Invited struct {
	// Invited are the people without an account, mailed an invitation.
	Invited int `json:"invited"`
	// Skipped already have an account: nothing is sent.
	Skipped int `json:"skipped"`
}

// Invite mails an invitation to each given member of the forum's
// community who has no account yet, for the forum's admins.
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
	if len(ids) > MaxAssignees {
		f.Add("profileIds", fmt.Sprintf("must name at most %d people", MaxAssignees))
	}
	if err := f.Err(); err != nil {
		return Invited{}, err
	}
	var out Invited
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		st, err := stagedState(ctx, tx, in.Caller, in.SeriesID, ids)
		if err != nil {
			if ae, ok := apperr.As(err); !ok || ae.Kind != apperr.BadInput {
				return err
			}
			return apperr.Invalid(map[string]string{"profileIds": "every person must be a member of the forum's community"})
		}
		var actor, org string
		u, o, p := table.Users, table.Organizations, table.Profiles
		if err := db.QueryRow(ctx, tx, SELECT(u.FirstName.CONCAT(String(" ")).CONCAT(u.LastName), o.Name).
			FROM(u.CROSS_JOIN(o)).
			WHERE(u.ID.EQ(UUID(in.UserID)).AND(o.ID.EQ(UUID(st.orgID))))).Scan(&actor, &org); err != nil {
			return fmt.Errorf("forum: invite: %w", err)
		}
		rows, err := db.Query(ctx, tx, SELECT(p.ID, p.Email, p.FirstName, p.UserID.IS_NOT_NULL()).
			FROM(p).WHERE(p.ID.IN(db.UUIDs(ids)...)).ORDER_BY(p.ID))
		if err != nil {
			return fmt.Errorf("forum: invite: %w", err)
		}
		type person struct {
			id           uuid.UUID
			email, first string
		}
		var todo []person
		for rows.Next() {
			var p person
			var joined bool
			if err := rows.Scan(&p.id, &p.email, &p.first, &joined); err != nil {
				rows.Close()
				return err
			}
			if joined {
				out.Skipped++
			} else {
				todo = append(todo, p)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, p := range todo {
			if err := s.inviter.Invite(ctx, tx, p.id, p.email, p.first, strings.TrimSpace(actor), org); err != nil {
				return fmt.Errorf("forum: invite: %w", err)
			}
			out.Invited++
		}
		return nil
	})
	return out, err
}
