package forum

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/access"
	"agora/internal/apperr"
	"agora/internal/auth"
)

// List is GET /series?communityId=: the forums of a community that the
// caller may read, in the community's order.
type List struct {
	auth.Caller
	Paging
	// CommunityID is required (spec 001 §8: parametersMissingException).
	CommunityID *uuid.UUID
}

// List returns one page of the community's forums the caller may read. An
// unknown community is not found; a community whose forums the caller may
// not read is an empty page.
func (q *Queries) List(ctx context.Context, in List) (Page[Forum], error) {
	if in.CommunityID == nil {
		return Page[Forum]{}, apperr.MissingParameters("communityId")
	}
	f := apperr.Fields{}
	in.Paging.check(f)
	if err := f.Err(); err != nil {
		return Page[Forum]{}, err
	}
	if _, err := access.InCommunity(ctx, q.db, in.UserID, in.Role, *in.CommunityID); err != nil {
		return Page[Forum]{}, err
	}
	page := Page[Forum]{Results: []Forum{}}
	base := forumSelect() + ` AND s.community_id = $3`
	super := in.Role == "super"
	if err := q.db.QueryRowContext(ctx, `SELECT count(*) FROM (`+base+`) f`, in.UserID, super, *in.CommunityID).Scan(&page.Total); err != nil {
		return page, fmt.Errorf("forum: list: %w", err)
	}
	rows, err := q.db.QueryContext(ctx, base+` ORDER BY s.position, s.created_on, s.id LIMIT $4 OFFSET $5`,
		in.UserID, super, *in.CommunityID, in.PageSize, in.offset())
	if err != nil {
		return page, fmt.Errorf("forum: list: %w", err)
	}
	if page.Results, err = scanForums(rows); err != nil {
		return page, fmt.Errorf("forum: list: %w", err)
	}
	return page, nil
}
