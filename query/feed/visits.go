package feed

import (
	"context"
	"errors"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
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
	sv := table.SeriesVisits
	err := db.QueryRow(ctx, q.pool, SELECT(sv.VisitedOn).FROM(sv).
		WHERE(sv.SeriesID.EQ(UUID(seriesID)).AND(sv.UserID.EQ(UUID(v.UserID))))).Scan(&at)
	if errors.Is(err, pgx.ErrNoRows) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("feed: visit: %w", err)
	}
	out.PreviouslyVisitedOn = jsontime.Ptr(&at)
	return out, nil
}
