package meetup

import (
	"context"
	"errors"
	"fmt"
	"strings"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/adapters/sfu"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// ErrBadWebhook is a webhook whose signature does not verify.
var ErrBadWebhook = apperr.New(apperr.Unauthorized, "tokenInvalid", "the webhook's signature does not verify")

// Webhook is POST /livekit/webhook: LiveKit's signed events. A participant
// joining or leaving a Meet Up's room (or one of its breakout rooms)
// writes attendance, one row per participant session (LiveKit's
// participant SID); the Meet Up's own room finishing after its scheduled
// end ends it. LiveKit retries deliveries, so each event may come twice:
// a join is keyed by its session, a leave closes that session alone. A
// member who joins from a second device is a second session, and the
// first device's leave, which LiveKit sends after the second's join
// (spec 002 §4: the earlier session leaves), must not close it. Events
// of other rooms and participants (the recorder) are acknowledged and
// ignored.
func (s *Service) Webhook(ctx context.Context, body []byte, authHeader string) error {
	if s.rooms == nil {
		return ErrBadWebhook
	}
	ev, err := s.rooms.ReceiveWebhook(body, authHeader)
	if err != nil {
		return ErrBadWebhook.Wrap(err)
	}
	base, _, breakout := strings.Cut(ev.Room, ":")
	roomID, err := uuid.Parse(base)
	if err != nil {
		return nil
	}
	user, userErr := uuid.Parse(ev.Identity)
	m, at := table.Meetings, table.MeetingAttendance
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		switch ev.Kind {
		case sfu.EventParticipantJoined:
			if userErr != nil || ev.ParticipantSID == "" {
				return nil
			}
			u := table.Users
			_, err := db.Exec(ctx, tx, at.INSERT(at.ID, at.MeetingID, at.UserID, at.Room, at.JoinedOn).
				QUERY(SELECT(String(ev.ParticipantSID), m.ID, u.ID, String(ev.Room), TimestampzT(ev.At)).
					FROM(m, u).WHERE(m.ID.EQ(UUID(roomID)).AND(u.ID.EQ(UUID(user))))).
				ON_CONFLICT(at.ID).DO_NOTHING())
			return wrapErr("attendance", err)
		case sfu.EventParticipantLeft:
			if userErr != nil || ev.ParticipantSID == "" {
				return nil
			}
			_, err := db.Exec(ctx, tx, at.UPDATE(at.LeftOn).SET(TimestampzT(ev.At)).
				WHERE(at.ID.EQ(String(ev.ParticipantSID)).AND(at.MeetingID.EQ(UUID(roomID))).AND(at.UserID.EQ(UUID(user))).AND(at.LeftOn.IS_NULL())))
			return wrapErr("attendance left", err)
		case sfu.EventRoomFinished:
			if breakout {
				return nil
			}
			if _, err := db.Exec(ctx, tx, at.UPDATE(at.LeftOn).SET(TimestampzT(ev.At)).
				WHERE(at.MeetingID.EQ(UUID(roomID)).AND(at.LeftOn.IS_NULL()))); err != nil {
				return wrapErr("attendance finished", err)
			}
			var id uuid.UUID
			err := db.QueryRow(ctx, tx, SELECT(m.ID).FROM(m).WHERE(m.ID.EQ(UUID(roomID)).AND(m.EndedOn.IS_NULL()).
				AND(access.MeetingEndedBy(m, ev.At))).
				FOR(UPDATE())).Scan(&id)
			if errors.Is(err, pgx.ErrNoRows) {
				return nil // not over yet: members may come back
			}
			if err != nil {
				return wrapErr("room finished", err)
			}
			return end(ctx, tx, id, ev.At)
		}
		return nil
	})
}

func wrapErr(what string, err error) error {
	if err != nil {
		return fmt.Errorf("meeting: webhook: %s: %w", what, err)
	}
	return nil
}
