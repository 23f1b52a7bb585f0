package feed

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/google/uuid"

	"agora/internal/auth"
	"agora/internal/jsontime"
)

// VisitView is the answer of the visit calls.
type VisitView struct {
	PreviouslyVisitedOn *jsontime.Time `json:"previouslyVisitedOn"`
}

// LastVisit reads when the viewer last visited the forum (GET
// /series/{id}/visits): null before the first visit.
func (q *Queries) LastVisit(ctx context.Context, v auth.Caller, seriesID uuid.UUID) (VisitView, error) {
	var out VisitView
	if _, err := readForum(ctx, q.pool, v, seriesID); err != nil {
		return out, err
	}
	var at time.Time
	err := q.pool.QueryRow(ctx, `SELECT visited_on FROM series_visits WHERE series_id = $1 AND user_id = $2`, seriesID, v.UserID).Scan(&at)
	if errors.Is(err, pgx.ErrNoRows) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("feed: visit: %w", err)
	}
	out.PreviouslyVisitedOn = jsontime.Ptr(&at)
	return out, nil
}
