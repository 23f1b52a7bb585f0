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
)

// Register is PUT /meetings/{roomId}/registration: a reader of the forum
// who is not invited asks for a seat of an open Meet Up. With the Meet
// Up's row locked, the registered are counted: a free seat registers the
// caller, none puts them at the end of the waitlist. Registrations of one
// Meet Up thus commit one after another, and their responded_on (taken
// under the lock) is the order they committed in. Asked again, nothing
// changes.
func (s *Service) Register(ctx context.Context, a auth.Caller, roomID uuid.UUID) error {
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, _, err := lock(ctx, tx, a, roomID)
		if err != nil {
			return err
		}
		if !row.Open || row.CreatorID == a.UserID {
			return apperr.ErrForbidden
		}
		if s.over(row) {
			return ErrEnded
		}
		seat, err := seatOf(ctx, tx, roomID, a.UserID)
		if err != nil {
			return err
		}
		if seat != nil {
			if r := seat.Response; r != nil && (*r == responseReg || *r == responseWaitlist) {
				return nil
			}
			return apperr.ErrForbidden // invited already: a panelist takes no seat
		}
		mi := table.MeetingInvitees
		registered, err := db.Count(ctx, tx, mi, mi.MeetingID.EQ(UUID(roomID)).AND(mi.Response.EQ(String(responseReg))))
		if err != nil {
			return fmt.Errorf("meeting: registered: %w", err)
		}
		response := responseWaitlist
		if row.SeatCount != nil && registered < int(*row.SeatCount) {
			response = responseReg
		}
		if _, err := db.Exec(ctx, tx, mi.INSERT(mi.MeetingID, mi.UserID, mi.Role, mi.Response, mi.RespondedOn).
			VALUES(UUID(roomID), UUID(a.UserID), String(roleMember), String(response), TimestampzT(s.now()))); err != nil {
			return fmt.Errorf("meeting: register: %w", err)
		}
		return nil
	})
}

// Unregister is DELETE /meetings/{roomId}/registration: a registered or
// waitlisted member gives up their place; a freed seat goes to the first
// waitlisted member.
func (s *Service) Unregister(ctx context.Context, a auth.Caller, roomID uuid.UUID) error {
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, _, err := lock(ctx, tx, a, roomID)
		if err != nil {
			return err
		}
		seat, err := seatOf(ctx, tx, roomID, a.UserID)
		if err != nil {
			return err
		}
		if seat == nil || seat.Response == nil || (*seat.Response != responseReg && *seat.Response != responseWaitlist) {
			return apperr.ErrForbidden
		}
		if s.over(row) {
			return ErrEnded
		}
		mi := table.MeetingInvitees
		if _, err := db.Exec(ctx, tx, mi.DELETE().WHERE(mi.MeetingID.EQ(UUID(roomID)).AND(mi.UserID.EQ(UUID(a.UserID))))); err != nil {
			return fmt.Errorf("meeting: unregister: %w", err)
		}
		return promote(ctx, tx, row)
	})
}
