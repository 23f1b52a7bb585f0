package minutes

import (
	"context"
	"strings"
	"unicode/utf8"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// Edit is PATCH /threads/{threadId}/meeting/minutes.
type Edit struct {
	auth.Caller
	ThreadID uuid.UUID
	Content  string
}

// Edit replaces the minutes of a Meet Up post with the caller's text
// (state completed). Minutes still being recorded or compiled are not
// edited: the compiler would overwrite the edit.
func (s *Service) Edit(ctx context.Context, in Edit) (uuid.UUID, error) {
	content := strings.TrimSpace(in.Content)
	var f apperr.Fields
	switch {
	case content == "":
		f = apperr.Fields{"content": "must not be blank"}
	case utf8.RuneCountInString(content) > MaxContent:
		f = apperr.Fields{"content": "must be at most 20000 characters"}
	}
	var id uuid.UUID
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		m, err := meeting(ctx, tx, in.Caller, table.Meetings.ThreadID.EQ(UUID(in.ThreadID)))
		if err != nil {
			return err
		}
		if err := f.Err(); err != nil {
			return err
		}
		if m.MinutesState != nil && (*m.MinutesState == StateStarted || *m.MinutesState == StateCompiling) {
			return ErrStillRecording
		}
		id = m.ID
		_, err = s.setState(ctx, tx, m.ID, ptr(StateCompleted), &content)
		return err
	})
	return id, err
}

// Delete is DELETE /threads/{threadId}/meeting/minutes.
type Delete struct {
	auth.Caller
	ThreadID uuid.UUID
}

// Delete removes the minutes of a Meet Up post and their transcript: state
// and content become null, as if never recorded. A recording under way is
// stopped.
func (s *Service) Delete(ctx context.Context, in Delete) error {
	var id uuid.UUID
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		m, err := meeting(ctx, tx, in.Caller, table.Meetings.ThreadID.EQ(UUID(in.ThreadID)))
		if err != nil {
			return err
		}
		id = m.ID
		if err := deleteTranscript(ctx, tx, m.ID); err != nil {
			return err
		}
		_, err = s.setState(ctx, tx, m.ID, nil, nil)
		return err
	})
	if err != nil {
		return err
	}
	s.stopRecorder(id, stopCanceled)
	return nil
}
