package forum

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/paging"
)

// Trending is GET /trending/series.
type Trending struct {
	auth.Caller
	paging.Request
}

// Trending lists the forums the caller may read, most active first. Until
// posts exist, activity is the number of members who joined in the last 30
// days; ties go to the newest forum.
func (q *Queries) Trending(ctx context.Context, in Trending) (paging.Page[Forum], error) {
	f := apperr.Fields{}
	in.Request.Check(f, MaxPageSize)
	if err := f.Err(); err != nil {
		return paging.Page[Forum]{}, err
	}
	page := paging.Page[Forum]{Results: []Forum{}}
	s, j := table.Series, table.SeriesMemberships.AS("j")
	if err := db.QueryRow(ctx, q.db, SELECT(COUNT(STAR)).FROM(forumSelect(in.Caller, Bool(true)).AsTable("f"))).Scan(&page.Total); err != nil {
		return page, fmt.Errorf("forum: trending: %w", err)
	}
	// The cast (count is a bigint already) makes jet parenthesize the
	// subquery, which it does not do for a bare ORDER BY item.
	joined := CAST(SELECT(COUNT(STAR)).FROM(j).
		WHERE(j.SeriesID.EQ(s.ID).AND(j.AssignedOn.GT(NOW().SUB(INTERVAL(30, DAY)))))).AS_BIGINT()
	var err error
	if page.Results, err = readForums(ctx, q.db, forumSelect(in.Caller, Bool(true)).
		ORDER_BY(joined.DESC(), s.CreatedOn.DESC(), s.ID).
		LIMIT(int64(in.PageSize)).OFFSET(int64(in.Offset()))); err != nil {
		return page, fmt.Errorf("forum: trending: %w", err)
	}
	return page, nil
}
