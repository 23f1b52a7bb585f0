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
	"agora/internal/rules/membership"
)

// The rules of access management (spec 001 §4, §6).
var (
	// ErrOwnAssignment is a change of the actor's own row.
	ErrOwnAssignment = membership.ErrOwnAssignment
	// ErrLastAdmin is a change that would leave the forum without admins.
	ErrLastAdmin = apperr.New(apperr.BadInput, "lastAdmin", "the last admin of the forum cannot be changed")
	// ErrExclusivityOpen is a removal from an open forum.
	ErrExclusivityOpen = apperr.New(apperr.BadInput, "exclusivityOpen", "access to an open forum cannot be removed")
)

// Assign is POST /series/{id}/assignments.
type Assign struct {
	auth.Caller
	SeriesID    uuid.UUID
	Assignments []Staged
}

// Assign applies a staged state all at once, for the forum's admins: new
// people join (active when they have an account, invited otherwise),
// members change role or expert flag, and a nil role removes them.
func (s *Service) Assign(ctx context.Context, in Assign) error {
	f := apperr.Fields{}
	if len(in.Assignments) == 0 {
		f.Add("assignments", "must stage at least one change")
	}
	changes, order := parseStaged(f, in.Assignments)
	if err := f.Err(); err != nil {
		return err
	}
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := forumAdmin(ctx, tx, in.Caller, in.SeriesID); err != nil {
			return err
		}
		st, err := loadState(ctx, tx, in.Caller, in.SeriesID)
		if err != nil {
			return err
		}
		if _, own := changes[st.me]; own && st.me != uuid.Nil {
			return ErrOwnAssignment
		}
		if err := checkCommunity(ctx, tx, st, order); err != nil {
			return err
		}
		for _, c := range changes {
			if c.remove && st.exclusivity == Open {
				return ErrExclusivityOpen
			}
		}
		if len(st.admins) > 0 && len(st.adminsAfter(changes)) == 0 {
			return ErrLastAdmin
		}
		now := s.now()
		sm, p := table.SeriesMemberships, table.Profiles
		for _, id := range order {
			c := changes[id]
			if c.remove {
				if _, err := db.Exec(ctx, tx, sm.DELETE().WHERE(sm.SeriesID.EQ(UUID(in.SeriesID)).AND(sm.ProfileID.EQ(UUID(id))))); err != nil {
					return fmt.Errorf("forum: assign: %w", err)
				}
				continue
			}
			// assigned_by names who let a newcomer in: the notifications
			// projection tells them so (forum-access); a change of a
			// member's role keeps it, and tells nobody.
			if _, err := db.Exec(ctx, tx, sm.INSERT(sm.SeriesID, sm.ProfileID, sm.Role, sm.IsExpert, sm.Status, sm.AssignedOn, sm.AssignedBy).
				QUERY(SELECT(UUID(in.SeriesID), p.ID, String(c.role), Bool(c.expert), membership.JoinStatus(p), TimestampzT(now), UUID(in.UserID)).
					FROM(p).WHERE(p.ID.EQ(UUID(id)))).
				ON_CONFLICT(sm.SeriesID, sm.ProfileID).DO_UPDATE(SET(sm.Role.SET(sm.EXCLUDED.Role), sm.IsExpert.SET(sm.EXCLUDED.IsExpert)))); err != nil {
				return fmt.Errorf("forum: assign: %w", err)
			}
		}
		return nil
	})
}
