package meetup

import (
	"context"
	"fmt"
	"strconv"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// End is POST /meetings/{roomId}/end: its host or a moderator ends the Meet
// Up for everyone; its breakouts close and its LiveKit rooms are closed
// (the participants are sent away). Ending it again changes nothing; one
// past its scheduled end that the sweep has not reached yet is ended as
// the sweep would.
func (s *Service) End(ctx context.Context, a auth.Caller, roomID uuid.UUID) error {
	var rooms []string
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, _, err := lock(ctx, tx, a, roomID)
		if err != nil {
			return err
		}
		role, err := roleIn(ctx, tx, row, a.UserID)
		if err != nil {
			return err
		}
		if !access.MeetingRuns(role) {
			return apperr.ErrForbidden
		}
		if row.EndedOn != nil {
			return nil
		}
		rooms = roomNames(row.ID, row.Breakouts)
		return end(ctx, tx, roomID, s.now())
	})
	if err != nil {
		return err
	}
	s.closeRooms(ctx, rooms)
	return nil
}

// end marks the Meet Up ended at now, or at its scheduled end when that
// came first (access.MeetingEndedOn), and closes its breakouts.
func end(ctx context.Context, tx pgx.Tx, roomID uuid.UUID, now time.Time) error {
	m, bm := table.Meetings, table.MeetingBreakoutMembers
	if _, err := db.Exec(ctx, tx, m.UPDATE(m.EndedOn, m.BreakoutsOpen, m.UpdatedOn).
		SET(LEAST(TimestampzT(now), access.MeetingEndSQL(m)), Bool(false), TimestampzT(now)).
		WHERE(m.ID.EQ(UUID(roomID)).AND(m.EndedOn.IS_NULL()))); err != nil {
		return fmt.Errorf("meeting: end: %w", err)
	}
	if _, err := db.Exec(ctx, tx, bm.DELETE().WHERE(bm.MeetingID.EQ(UUID(roomID)))); err != nil {
		return fmt.Errorf("meeting: end breakouts: %w", err)
	}
	return nil
}

// roomNames are the LiveKit rooms of a Meet Up: its own and one per
// breakout room, "<roomId>:<index>".
func roomNames(roomID uuid.UUID, breakouts []string) []string {
	out := []string{roomID.String()}
	for i := range breakouts {
		out = append(out, BreakoutRoom(roomID, i))
	}
	return out
}

// BreakoutRoom is the LiveKit room of breakout room i of the Meet Up.
func BreakoutRoom(roomID uuid.UUID, i int) string { return roomID.String() + ":" + strconv.Itoa(i) }
