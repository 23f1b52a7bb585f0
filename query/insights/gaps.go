package insights

import (
	"context"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
	"agora/internal/plumbing/paging"
)

// ContentGap is a question the forum's AI search could not answer, as
// many times as it was asked (the same question however cased, spaced or
// punctuated). Who asked is not kept.
type ContentGap struct {
	ID           uuid.UUID     `json:"id"`
	Question     string        `json:"question"`
	AskedCount   int           `json:"askedCount"`
	FirstAskedOn jsontime.Time `json:"firstAskedOn"`
	LastAskedOn  jsontime.Time `json:"lastAskedOn"`
}

// GapsRequest is GET {insights base}/list/content-gaps/{seriesId}: a page
// of the forum's content gaps, sorted by Sort: "latest" (the default, the
// most recently asked first) or "mostAsked".
type GapsRequest struct {
	Caller   auth.Caller
	SeriesID uuid.UUID
	Sort     string
	Page     paging.Request
}

// ContentGaps lists the forum's content gaps for its admins (the
// reports' rule). They live in Postgres, not the warehouse: a gap is
// counted up and dismissed in place, which the warehouse's facts are not.
func (q *Queries) ContentGaps(ctx context.Context, r GapsRequest) (paging.Page[ContentGap], error) {
	bad := apperr.Fields{}
	r.Page.Check(bad, MaxPageSize)
	g := table.ContentGaps
	var order []OrderByClause
	switch r.Sort {
	case "", "latest":
		order = []OrderByClause{g.LastAskedOn.DESC(), g.AskedCount.DESC()}
	case "mostAsked":
		order = []OrderByClause{g.AskedCount.DESC(), g.LastAskedOn.DESC()}
	default:
		bad.Add("sort", "must be 'latest' or 'mostAsked'")
	}
	if err := bad.Err(); err != nil {
		return paging.Page[ContentGap]{}, err
	}
	if _, err := q.admin(ctx, r.Caller, r.SeriesID); err != nil {
		return paging.Page[ContentGap]{}, err
	}
	order = append(order, g.ID.DESC())
	where := g.SeriesID.EQ(UUID(r.SeriesID))
	page, err := paging.Windowed(r.Page, func() (page paging.Page[ContentGap], err error) {
		page.Results, err = db.Collect(ctx, q.db, SELECT(g.ID, g.Question, g.AskedCount, g.FirstAskedOn, g.LastAskedOn, COUNT(STAR).OVER()).
			FROM(g).WHERE(where).ORDER_BY(order...).LIMIT(int64(r.Page.PageSize)).OFFSET(int64(r.Page.Offset())),
			func(row pgx.Row) (c ContentGap, err error) {
				var first, last time.Time
				err = row.Scan(&c.ID, &c.Question, &c.AskedCount, &first, &last, &page.Total)
				c.FirstAskedOn, c.LastAskedOn = jsontime.Of(first), jsontime.Of(last)
				return c, err
			})
		return page, err
	}, func() (int, error) { return db.Count(ctx, q.db, g, where) })
	if err != nil {
		return page, fmt.Errorf("insights: content gaps: %w", err)
	}
	return page, nil
}
