package forum

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db"
)

// The rules of access management (spec 001 §4, §6).
var (
	// ErrOwnAssignment is a change of the actor's own row.
	ErrOwnAssignment = apperr.New(apperr.BadInput, "ownAssignment", "you cannot change your own access")
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
	return db.InTx(ctx, s.db, func(tx *sql.Tx) error {
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
		for _, id := range order {
			c := changes[id]
			if c.remove {
				if _, err := tx.ExecContext(ctx, `DELETE FROM series_memberships WHERE series_id = $1 AND profile_id = $2`, in.SeriesID, id); err != nil {
					return fmt.Errorf("forum: assign: %w", err)
				}
				continue
			}
			if _, err := tx.ExecContext(ctx, `
				INSERT INTO series_memberships (series_id, profile_id, role, is_expert, status, assigned_on)
				SELECT $1, p.id, $3, $4, CASE WHEN p.user_id IS NULL THEN 'pending' ELSE 'active' END, $5
				FROM profiles p WHERE p.id = $2
				ON CONFLICT (series_id, profile_id) DO UPDATE SET role = EXCLUDED.role, is_expert = EXCLUDED.is_expert`,
				in.SeriesID, id, c.role, c.expert, now); err != nil {
				return fmt.Errorf("forum: assign: %w", err)
			}
		}
		return nil
	})
}
