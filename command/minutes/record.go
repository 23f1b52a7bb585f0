package minutes

import (
	"context"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// Record is POST /live-streams/record/{roomId}.
type Record struct {
	auth.Caller
	RoomID uuid.UUID
}

// Record starts the AI notes of a live Meet Up: the minutes' state becomes
// started, the transcript starts afresh, and a recorder of this node joins
// the room. Asking again while recording changes nothing.
func (s *Service) Record(ctx context.Context, in Record) error {
	start := false
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		m, err := meeting(ctx, tx, in.Caller, table.Meetings.ID.EQ(UUID(in.RoomID)))
		if err != nil {
			return err
		}
		now := s.now()
		if s.sfu == nil {
			return ErrNoSFU
		}
		if err := access.MeetingRoomOpen(m.EndedOn, m.StartTime, int(m.Duration), now); err != nil {
			return err
		}
		if m.Duration > MaxDuration {
			return ErrTooLong
		}
		if m.MinutesState != nil && (*m.MinutesState == StateStarted || *m.MinutesState == StateCompiling) {
			// Already recording; a recorder lost to a restart of its node
			// is started again here.
			start = *m.MinutesState == StateStarted
			return nil
		}
		if err := deleteTranscript(ctx, tx, m.ID); err != nil {
			return err
		}
		start = true
		_, err = s.setState(ctx, tx, m.ID, ptr(StateStarted), nil)
		return err
	})
	if err != nil || !start {
		return err
	}
	if s.Recording(in.RoomID) {
		return nil
	}
	// Recording already, perhaps on another node: a second recorder would
	// take the first one's identity, and with it its room.
	ps, err := s.sfu.Participants(ctx, in.RoomID.String())
	if err != nil {
		return err
	}
	for _, p := range ps {
		if p.Identity == RecorderIdentity(in.RoomID) {
			return nil
		}
	}
	return s.startRecorder(in.RoomID)
}
