package forum

import (
	"context"
	"fmt"

	"agora/internal/apperr"
	"agora/internal/auth"
)

// Trending is GET /trending/series.
type Trending struct {
	auth.Caller
	Paging
}

// Trending lists the forums the caller may read, most active first. Until
// posts exist, activity is the number of members who joined in the last 30
// days; ties go to the newest forum.
func (q *Queries) Trending(ctx context.Context, in Trending) (Page[Forum], error) {
	f := apperr.Fields{}
	in.Paging.check(f)
	if err := f.Err(); err != nil {
		return Page[Forum]{}, err
	}
	page := Page[Forum]{Results: []Forum{}}
	base := forumSelect()
	super := in.Role == "super"
	if err := q.db.QueryRowContext(ctx, `SELECT count(*) FROM (`+base+`) f`, in.UserID, super).Scan(&page.Total); err != nil {
		return page, fmt.Errorf("forum: trending: %w", err)
	}
	rows, err := q.db.QueryContext(ctx, base+`
		ORDER BY (SELECT count(*) FROM series_memberships j WHERE j.series_id = s.id AND j.assigned_on > now() - interval '30 days') DESC,
		         s.created_on DESC, s.id
		LIMIT $3 OFFSET $4`, in.UserID, super, in.PageSize, in.offset())
	if err != nil {
		return page, fmt.Errorf("forum: trending: %w", err)
	}
	if page.Results, err = scanForums(rows); err != nil {
		return page, fmt.Errorf("forum: trending: %w", err)
	}
	return page, nil
}
