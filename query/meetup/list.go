package meetup

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

// MaxPageSize bounds a page of GET /meetings.
const MaxPageSize = 100

// List is GET /meetings.
type List struct {
	Viewer auth.Caller
	// SeriesID, when set, lists that forum's Meet Ups; otherwise the
	// viewer's own and the open ones of the forums they read.
	SeriesID *uuid.UUID
	paging.Request
}

// List answers the upcoming Meet Ups (not ended, their end to come),
// earliest start first.
func (q *Queries) List(ctx context.Context, in List) (paging.Page[*Meeting], error) {
	page := paging.Page[*Meeting]{Results: []*Meeting{}}
	bad := apperr.Fields{}
	in.Check(bad, MaxPageSize)
	if err := bad.Err(); err != nil {
		return page, err
	}
	m, s, mi := table.Meetings, table.Series, table.MeetingInvitees
	me := UUID(in.Viewer.UserID)
	member, admin := access.ForumRules(m.SeriesID, s.CommunityID, me, Bool(in.Viewer.Role == auth.RoleSuper))
	now := q.now()
	upcoming := NOT(access.MeetingEndedBy(m, now))
	var where BoolExpression
	if in.SeriesID != nil {
		if _, err := access.ReadForum(ctx, q.pool, in.Viewer.UserID, in.Viewer.Role, *in.SeriesID); err != nil {
			return page, err
		}
		where = upcoming.AND(m.SeriesID.EQ(UUID(*in.SeriesID)))
	} else {
		mine := m.CreatorID.EQ(me).OR(EXISTS(SELECT(mi.UserID).FROM(mi).WHERE(
			mi.MeetingID.EQ(m.ID).AND(mi.UserID.EQ(me)).
				AND(mi.Response.IS_NULL().OR(mi.Response.NOT_EQ(String("no")))))))
		where = upcoming.AND(member.OR(admin)).AND(mine.OR(m.Open))
	}
	from := m.INNER_JOIN(s, s.ID.EQ(m.SeriesID))
	ids, err := db.Values[uuid.UUID](ctx, q.pool, SELECT(m.ID).FROM(from).WHERE(where).
		ORDER_BY(m.StartTime, m.ID).LIMIT(int64(in.PageSize)).OFFSET(int64(in.Offset())))
	if err != nil {
		return page, fmt.Errorf("meeting: list: %w", err)
	}
	if page.Total, err = db.Count(ctx, q.pool, from, where); err != nil {
		return page, fmt.Errorf("meeting: count: %w", err)
	}
	all, err := load(ctx, q.pool, m.ID, ids, now)
	if err != nil {
		return page, err
	}
	for _, mt := range all {
		page.Results = append(page.Results, mt.For(in.Viewer.UserID))
	}
	return page, nil
}
