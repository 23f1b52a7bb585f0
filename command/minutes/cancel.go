package minutes

import (
	"context"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// Cancel is POST /meetings/{roomId}/minutes/cancel.
type Cancel struct {
	auth.Caller
	RoomID uuid.UUID
}

// Cancel stops the AI notes: the state becomes canceled, what was
// transcribed is deleted and this node's recorder leaves the room (one on
// another node sees the state and leaves too). Canceling again changes
// nothing.
func (s *Service) Cancel(ctx context.Context, in Cancel) error {
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		m, err := meeting(ctx, tx, in.Caller, table.Meetings.ID.EQ(UUID(in.RoomID)))
		if err != nil {
			return err
		}
		switch {
		case m.MinutesState == nil:
			return ErrNotRecording
		case *m.MinutesState == StateCanceled:
			return nil
		case *m.MinutesState != StateStarted && *m.MinutesState != StateCompiling:
			return ErrNotRecording
		}
		if err := deleteTranscript(ctx, tx, m.ID); err != nil {
			return err
		}
		_, err = s.setState(ctx, tx, m.ID, ptr(StateCanceled), nil)
		return err
	})
	if err != nil {
		return err
	}
	s.stopRecorder(in.RoomID, stopCanceled)
	return nil
}
