package meetup

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
)

// Breakouts are a Meet Up's breakout rooms and who is in which.
type Breakouts struct {
	Open    bool              `json:"open"`
	Rooms   map[string]int    `json:"rooms"`
	Members map[string]string `json:"members"`
}

// Breakouts is GET /meetings/{roomId}/breakouts, for those who may join.
func (q *Queries) Breakouts(ctx context.Context, v auth.Caller, roomID uuid.UUID) (Breakouts, error) {
	m, _, err := q.read(ctx, v, roomID)
	if err != nil {
		return Breakouts{}, err
	}
	if m.RoleOf(v.UserID) == "" {
		return Breakouts{}, apperr.ErrForbidden
	}
	b := Breakouts{Open: m.Breakouts.Open, Rooms: m.Breakouts.Rooms, Members: map[string]string{}}
	bm := table.MeetingBreakoutMembers
	rows, err := db.All[model.MeetingBreakoutMembers](ctx, q.pool, SELECT(bm.AllColumns).FROM(bm).WHERE(bm.MeetingID.EQ(UUID(roomID))))
	if err != nil {
		return b, fmt.Errorf("meeting: breakout members: %w", err)
	}
	for _, r := range rows {
		b.Members[r.UserID.String()] = r.Room
	}
	return b, nil
}
