package meetup

import (
	"context"
	"fmt"
	"sort"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// Edit is PUT /meetings/{roomId}.
type Edit struct {
	RoomID uuid.UUID
	Actor  auth.Caller
	Form
}

// Edit changes a Meet Up by its creator, until it has ended. Open or
// private is locked once scheduled; the seats may not go below the
// registered members, and more seats go to the waitlist's first. The
// invitees become the form's (registered and waitlisted members stay).
func (s *Service) Edit(ctx context.Context, in Edit) error {
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, _, err := lock(ctx, tx, in.Actor, in.RoomID)
		if err != nil {
			return err
		}
		if row.CreatorID != in.Actor.UserID {
			return apperr.ErrForbidden
		}
		if s.over(row) {
			return ErrEnded
		}
		bad := apperr.Fields{}
		if in.Open != row.Open {
			bad.Add("open", "cannot change once the Meet Up is scheduled")
		}
		c, err := s.check(ctx, tx, in.Form, row.CreatorID, row.SeriesID, bad)
		if err != nil {
			return err
		}
		mi := table.MeetingInvitees
		mine := mi.MeetingID.EQ(UUID(row.ID))
		if c.seats != nil {
			registered, err := db.Count(ctx, tx, mi, mine.AND(mi.Response.EQ(String(responseReg))))
			if err != nil {
				return fmt.Errorf("meeting: registered: %w", err)
			}
			if int(*c.seats) < registered {
				bad.Add("seatCount", fmt.Sprintf("must be at least the %d registered members", registered))
			}
		}
		if err := bad.Err(); err != nil {
			return err
		}
		m := table.Meetings
		if _, err := db.Exec(ctx, tx, m.UPDATE(m.Name, m.Agenda, m.StartTime, m.Duration, m.SeatCount, m.Breakouts, m.UpdatedOn).
			SET(String(c.name), String(c.agenda), TimestampzT(c.start), Int32(c.duration), seatsExpr(c.seats),
				textArray(c.breakouts), TimestampzT(s.now())).
			WHERE(m.ID.EQ(UUID(row.ID)))); err != nil {
			return fmt.Errorf("meeting: edit: %w", err)
		}
		// Invitees the form leaves out go; registrations are not the form's.
		keep := mi.Response.IS_NULL().OR(mi.Response.NOT_IN(String(responseReg), String(responseWaitlist)))
		if len(c.invitees) > 0 {
			keep = keep.AND(NOT(db.Any(mi.UserID, sortedIDs(c.invitees))))
		}
		if _, err := db.Exec(ctx, tx, mi.DELETE().WHERE(mine.AND(keep))); err != nil {
			return fmt.Errorf("meeting: drop invitees: %w", err)
		}
		if err := addInvitees(ctx, tx, row.ID, c.invitees); err != nil {
			return err
		}
		row.SeatCount = c.seats
		return promote(ctx, tx, row)
	})
}

func seatsExpr(n *int32) Expression {
	if n == nil {
		return NULL
	}
	return Int32(*n)
}

// textArray is a text[] literal bound as one parameter.
func textArray(v []string) Expression {
	return Raw("#names::text[]", RawArgs{"#names": v})
}

// sortedIDs is m's keys in order, so that rows are written (and locked)
// in one order by every transaction.
func sortedIDs[V any](m map[uuid.UUID]V) []uuid.UUID {
	out := make([]uuid.UUID, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}
