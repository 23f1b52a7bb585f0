package minutes

import (
	"context"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// SweepAfter is how long after its Meet Up ended a recording still marked
// started is taken as orphaned: its recorder's node stopped (a restart, a
// crash) before it compiled. A live recorder compiles within its poll of
// the end, so the sweep never races one still writing its last utterances.
const SweepAfter = 2 * time.Minute

// Sweep compiles the minutes of the Meet Ups whose recording was left
// started by a node that went away: ended (for all, or at their scheduled
// end) at least SweepAfter ago. Every node may sweep: each minutes is
// compiled once, by whichever moves it from started first. It returns how
// many it compiled.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	m := table.Meetings
	ids, err := db.Values[uuid.UUID](ctx, s.db, SELECT(m.ID).FROM(m).WHERE(
		m.MinutesState.EQ(String(StateStarted)).AND(access.MeetingEndedBy(m, s.now().Add(-SweepAfter)))))
	if err != nil {
		return 0, fmt.Errorf("minutes: sweep: %w", err)
	}
	n := 0
	for _, id := range ids {
		if s.Recording(id) {
			continue
		}
		if s.compile(ctx, id) {
			n++
		}
	}
	return n, nil
}
