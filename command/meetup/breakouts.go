package meetup

import (
	"context"
	"fmt"
	"slices"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// SetBreakouts is POST /meetings/{roomId}/open-breakouts (open) and
// .../close-breakouts: the host or a moderator of a Meet Up with breakout
// rooms opens or closes them; closing sends everyone back to the main room
// (the members' rooms are forgotten).
func (s *Service) SetBreakouts(ctx context.Context, a auth.Caller, roomID uuid.UUID, open bool) error {
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, _, err := lock(ctx, tx, a, roomID)
		if err != nil {
			return err
		}
		role, err := roleIn(ctx, tx, row, a.UserID)
		if err != nil {
			return err
		}
		if !access.MeetingRuns(role) || len(row.Breakouts) == 0 {
			return apperr.ErrForbidden
		}
		if s.over(row) {
			return ErrEnded
		}
		m, bm := table.Meetings, table.MeetingBreakoutMembers
		if !open {
			if _, err := db.Exec(ctx, tx, bm.DELETE().WHERE(bm.MeetingID.EQ(UUID(roomID)))); err != nil {
				return fmt.Errorf("meeting: close breakouts: %w", err)
			}
		}
		if row.BreakoutsOpen == open {
			return nil
		}
		if _, err := db.Exec(ctx, tx, m.UPDATE(m.BreakoutsOpen, m.UpdatedOn).SET(Bool(open), TimestampzT(s.now())).
			WHERE(m.ID.EQ(UUID(roomID)))); err != nil {
			return fmt.Errorf("meeting: breakouts: %w", err)
		}
		return nil
	})
}

// Move is POST /meetings/{roomId}/join-breakout-room (RoomName set) and
// .../leave-breakout-room (RoomName empty).
type Move struct {
	RoomID   uuid.UUID
	Actor    auth.Caller
	RoomName string
	PeerID   uuid.UUID
}

// Move puts a participant into a breakout room while they are open, or
// back into the main room: the caller themself, or anyone who may join
// when the caller is the host or a moderator. The answer is the caller's
// token for the room they go to: the peer's new room when they move
// themself, the main room when they move someone else (who asks for
// their own token, told by meeting.breakouts.updated).
func (s *Service) Move(ctx context.Context, in Move) (JoinToken, error) {
	var room, role, name string
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, _, err := lock(ctx, tx, in.Actor, in.RoomID)
		if err != nil {
			return err
		}
		if role, err = roleIn(ctx, tx, row, in.Actor.UserID); err != nil {
			return err
		}
		if role == "" {
			return apperr.ErrForbidden
		}
		if name, err = nameOf(ctx, tx, in.Actor.UserID); err != nil {
			return err
		}
		if in.PeerID != in.Actor.UserID {
			peer, err := roleIn(ctx, tx, row, in.PeerID)
			if err != nil {
				return err
			}
			if !access.MeetingRuns(role) || peer == "" {
				return apperr.ErrForbidden
			}
		}
		if s.over(row) {
			return ErrEnded
		}
		room = row.ID.String()
		bm := table.MeetingBreakoutMembers
		if in.RoomName == "" {
			_, err := db.Exec(ctx, tx, bm.DELETE().WHERE(bm.MeetingID.EQ(UUID(row.ID)).AND(bm.UserID.EQ(UUID(in.PeerID)))))
			if err != nil {
				return fmt.Errorf("meeting: leave breakout: %w", err)
			}
			return nil
		}
		i := slices.Index(row.Breakouts, in.RoomName)
		if i < 0 {
			return apperr.Fields{"roomName": "must be a breakout room of the Meet Up"}.Err()
		}
		if !row.BreakoutsOpen {
			return ErrBreakoutsClosed
		}
		if _, err := db.Exec(ctx, tx, bm.INSERT(bm.MeetingID, bm.UserID, bm.Room, bm.JoinedOn).
			MODEL(model.MeetingBreakoutMembers{MeetingID: row.ID, UserID: in.PeerID, Room: in.RoomName, JoinedOn: s.now()}).
			ON_CONFLICT(bm.MeetingID, bm.UserID).DO_UPDATE(SET(bm.Room.SET(bm.EXCLUDED.Room), bm.JoinedOn.SET(bm.EXCLUDED.JoinedOn)))); err != nil {
			return fmt.Errorf("meeting: join breakout: %w", err)
		}
		if in.PeerID == in.Actor.UserID {
			room = BreakoutRoom(row.ID, i)
		}
		return nil
	})
	if err != nil {
		return JoinToken{}, err
	}
	return s.token(room, in.Actor.UserID, name, role)
}
