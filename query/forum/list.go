package forum

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/paging"
	"agora/internal/rules/access"
)

// List is GET /series?communityId=: the forums of a community that the
// caller may read, in the community's order.
type List struct {
	auth.Caller
	paging.Request
	// CommunityID is required (spec 001 §8: parametersMissingException).
	CommunityID *uuid.UUID
}

// List returns one page of the community's forums the caller may read. An
// unknown community is not found; a community whose forums the caller may
// not read is an empty page.
func (q *Queries) List(ctx context.Context, in List) (paging.Page[Forum], error) {
	if in.CommunityID == nil {
		return paging.Page[Forum]{}, apperr.MissingParameters("communityId")
	}
	f := apperr.Fields{}
	in.Request.Check(f, MaxPageSize)
	if err := f.Err(); err != nil {
		return paging.Page[Forum]{}, err
	}
	if _, err := access.InCommunity(ctx, q.db, in.UserID, in.Role, *in.CommunityID); err != nil {
		return paging.Page[Forum]{}, err
	}
	page := paging.Page[Forum]{Results: []Forum{}}
	s := table.Series
	base := func() SelectStatement { return forumSelect(in.Caller, s.CommunityID.EQ(UUID(*in.CommunityID))) }
	if err := db.QueryRow(ctx, q.db, SELECT(COUNT(STAR)).FROM(base().AsTable("f"))).Scan(&page.Total); err != nil {
		return page, fmt.Errorf("forum: list: %w", err)
	}
	var err error
	if page.Results, err = readForums(ctx, q.db, base().ORDER_BY(s.Position, s.CreatedOn, s.ID).
		LIMIT(int64(in.PageSize)).OFFSET(int64(in.Offset()))); err != nil {
		return page, fmt.Errorf("forum: list: %w", err)
	}
	return page, nil
}
