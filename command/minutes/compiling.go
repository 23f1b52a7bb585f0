package minutes

import (
	"context"
	"fmt"
	"strings"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// compileTimeout bounds the model's work on one Meet Up's minutes.
const compileTimeout = 5 * time.Minute

// compile turns a stopped recording into minutes: started → compiling →
// completed with the text, or failed. A cancel or a delete meanwhile wins:
// each step only moves on from the state the previous one left. It reports
// whether it moved the minutes from started.
func (s *Service) compile(ctx context.Context, id uuid.UUID) bool {
	ok, err := s.setState(ctx, s.db, id, ptr(StateCompiling), nil, StateStarted)
	if err != nil || !ok {
		if err != nil {
			s.log.Error("minutes: compiling", "room", id, "err", err)
		}
		return false
	}
	text, by, err := s.write(ctx, id)
	if err != nil {
		s.log.Error("minutes: compile failed", "room", id, "err", err)
		if _, err := s.setState(ctx, s.db, id, ptr(StateFailed), nil, StateCompiling); err != nil {
			s.log.Error("minutes: marking failed", "room", id, "err", err)
		}
		return true
	}
	if _, err := s.setState(ctx, s.db, id, ptr(StateCompleted), &text, StateCompiling); err != nil {
		s.log.Error("minutes: completing", "room", id, "err", err)
		return true
	}
	s.log.Info("minutes: compiled", "room", id, "by", by, "characters", len(text))
	return true
}

// write reads the agenda and the transcript, with each speaker's name, and
// compiles them.
func (s *Service) write(ctx context.Context, id uuid.UUID) (text, by string, err error) {
	ctx, cancel := context.WithTimeout(ctx, compileTimeout)
	defer cancel()
	agenda, err := db.Values[string](ctx, s.db, SELECT(table.Meetings.Agenda).FROM(table.Meetings).WHERE(table.Meetings.ID.EQ(UUID(id))))
	if err != nil || len(agenda) != 1 {
		return "", "", fmt.Errorf("minutes: agenda: %v", err)
	}
	mt, u := table.MeetingTranscripts, table.Users
	type row struct {
		Text      string
		SpokenOn  time.Time
		FirstName *string
		LastName  *string
	}
	rows, err := db.All[row](ctx, s.db, SELECT(mt.Text.AS("text"), mt.SpokenOn.AS("spoken_on"), u.FirstName.AS("first_name"), u.LastName.AS("last_name")).
		FROM(mt.LEFT_JOIN(u, u.ID.EQ(mt.SpeakerID))).
		WHERE(mt.MeetingID.EQ(UUID(id))).ORDER_BY(mt.SpokenOn, mt.Seq))
	if err != nil {
		return "", "", fmt.Errorf("minutes: transcript: %w", err)
	}
	lines := make([]Line, len(rows))
	for i, r := range rows {
		name := "Someone"
		if r.FirstName != nil {
			if n := strings.TrimSpace(*r.FirstName + " " + *r.LastName); n != "" {
				name = n
			}
		}
		lines[i] = Line{Speaker: name, Text: r.Text, At: r.SpokenOn}
	}
	return Compile(ctx, s.model, agenda[0], lines)
}
