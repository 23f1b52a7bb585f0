package meetup

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// overdueBatch bounds the Meet Ups one sweep ends, so that its
// transaction stays short; the next sweep takes the rest.
const overdueBatch = 100

// EndOverdue ends the Meet Ups whose scheduled end has come and that
// nobody ended, as End does: ended_on at the scheduled end, breakouts
// closed, LiveKit rooms closed. A Meet Up nobody joined, or whose room
// never finished, would otherwise stay live. The row's change is what
// tells the browsers (meeting.ended) and the insights; a recording under
// way is compiled by its recorder, which stops at the same end, or by the
// minutes sweep when its node is gone. Every API node sweeps: a Meet Up
// is ended once, by whichever locks it first (another node's locked rows
// are skipped, not waited for). It returns how many it ended.
func (s *Service) EndOverdue(ctx context.Context) (int, error) {
	now := s.now()
	var rooms []string
	n := 0
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		m := table.Meetings
		rows, err := db.All[model.Meetings](ctx, tx, SELECT(m.ID, m.Breakouts).FROM(m).
			WHERE(m.EndedOn.IS_NULL().AND(access.MeetingEndedBy(m, now))).
			ORDER_BY(m.StartTime).LIMIT(overdueBatch).FOR(UPDATE().SKIP_LOCKED()))
		if err != nil {
			return fmt.Errorf("meeting: overdue: %w", err)
		}
		for _, r := range rows {
			if err := end(ctx, tx, r.ID, now); err != nil {
				return err
			}
			rooms = append(rooms, roomNames(r.ID, r.Breakouts)...)
		}
		n = len(rows)
		return nil
	})
	if err != nil {
		return 0, err
	}
	s.closeRooms(ctx, rooms)
	return n, nil
}
