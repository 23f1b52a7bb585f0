package meetup

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
	"agora/internal/rules/access"
)

// Invite is PATCH /meetings/{roomId}/invite: userId → member, moderator,
// or nil to remove.
type Invite struct {
	RoomID   uuid.UUID
	Actor    auth.Caller
	Invitees map[string]*string
}

// Invite adds, changes or removes invitees of a private Meet Up, by its
// creator or a moderator (spec 002 §6 "add members"), until it has ended.
func (s *Service) Invite(ctx context.Context, in Invite) error {
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, _, err := lock(ctx, tx, in.Actor, in.RoomID)
		if err != nil {
			return err
		}
		role, err := roleIn(ctx, tx, row, in.Actor.UserID)
		if err != nil {
			return err
		}
		if !access.MeetingRuns(role) || row.Open {
			return apperr.ErrForbidden
		}
		if s.over(row) {
			return ErrEnded
		}
		bad := apperr.Fields{}
		if len(in.Invitees) == 0 {
			bad.Add("invitees", "must name at least one person")
		}
		set, removed := map[string]string{}, []uuid.UUID{}
		for key, v := range in.Invitees {
			if v != nil {
				set[key] = *v
				continue
			}
			id, err := uuid.Parse(key)
			if err != nil {
				bad.Add("invitees", "every key must be a user id")
				continue
			}
			removed = append(removed, id)
		}
		added, err := checkInvitees(ctx, tx, set, row.CreatorID, row.SeriesID, bad)
		if err != nil {
			return err
		}
		if err := bad.Err(); err != nil {
			return err
		}
		if len(removed) > 0 {
			mi := table.MeetingInvitees
			if _, err := db.Exec(ctx, tx, mi.DELETE().WHERE(mi.MeetingID.EQ(UUID(row.ID)).AND(db.Any(mi.UserID, removed)))); err != nil {
				return fmt.Errorf("meeting: remove invitees: %w", err)
			}
		}
		if err := addInvitees(ctx, tx, row.ID, added); err != nil {
			return err
		}
		return touch(ctx, tx, row.ID, s.now())
	})
}
