package feed

import (
	"context"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
	"agora/internal/plumbing/paging"
	"agora/internal/rules/access"
)

// NewPosts is GET /sharedposts/new (spec 001 §7, its answer "not shown"):
// for each forum the caller reads, the posts shared in its feed that are
// new to them, as the feed's unread marker counts (spec 001 §4: created
// after their last visit of the forum, and not by them), less those they
// have viewed on their own page since (a viewed activity). CommunityID,
// when set, keeps that community's forums.
type NewPosts struct {
	Caller      auth.Caller
	CommunityID *uuid.UUID
}

// NewInForum is one forum's new posts.
type NewInForum struct {
	SeriesID    uuid.UUID `json:"seriesId"`
	CommunityID uuid.UUID `json:"communityId"`
	// Count is how many posts are new; LatestOn is when the newest was
	// shared.
	Count    int           `json:"count"`
	LatestOn jsontime.Time `json:"latestOn"`
}

// NewPosts lists the forums with posts new to the caller, the most
// recently active first. A community the caller may not read, or one that
// does not exist, holds no forum of theirs: its list is empty either way.
func (q *Queries) NewPosts(ctx context.Context, in NewPosts) (paging.Page[NewInForum], error) {
	out := paging.Page[NewInForum]{Results: []NewInForum{}}
	me := UUID(in.Caller.UserID)
	s := table.Series
	member, admin := access.ForumRules(s.ID, s.CommunityID, me, Bool(in.Caller.Role == auth.RoleSuper))
	where := member.OR(admin)
	if in.CommunityID != nil {
		where = where.AND(s.CommunityID.EQ(UUID(*in.CommunityID)))
	}
	forums, err := db.Values[uuid.UUID](ctx, q.pool, SELECT(s.ID).FROM(s).WHERE(where))
	if err != nil {
		return out, fmt.Errorf("feed: new posts: forums: %w", err)
	}
	if len(forums) == 0 {
		return out, nil
	}
	t, ch, sv, a := table.Threads, table.Channels, table.SeriesVisits, table.Activities
	viewed := EXISTS(SELECT(a.ID).FROM(a).WHERE(a.ActorID.EQ(me).AND(a.ThreadID.EQ(t.ID)).AND(a.VerbType.EQ(String("viewed")))))
	stmt := SELECT(t.SeriesID.AS("series_id"), s.CommunityID.AS("community_id"), COUNT(STAR).AS("count"), MAX(t.CreatedOn).AS("latest_on")).
		FROM(t.
			INNER_JOIN(ch, ch.ID.EQ(t.ChannelID)).
			INNER_JOIN(s, s.ID.EQ(t.SeriesID)).
			LEFT_JOIN(sv, sv.SeriesID.EQ(t.SeriesID).AND(sv.UserID.EQ(me)))).
		WHERE(db.Any(t.SeriesID, forums).
			// The feed is the main channel; the admins' channel is theirs.
			AND(ch.Kind.EQ(String("main"))).
			AND(t.CreatorID.NOT_EQ(me)).
			AND(sv.VisitedOn.IS_NULL().OR(t.CreatedOn.GT(sv.VisitedOn))).
			AND(NOT(viewed))).
		GROUP_BY(t.SeriesID, s.CommunityID).
		ORDER_BY(MAX(t.CreatedOn).DESC(), t.SeriesID)
	rows, err := db.All[struct {
		SeriesID    uuid.UUID `db:"series_id"`
		CommunityID uuid.UUID `db:"community_id"`
		Count       int64     `db:"count"`
		LatestOn    time.Time `db:"latest_on"`
	}](ctx, q.pool, stmt)
	if err != nil {
		return out, fmt.Errorf("feed: new posts: %w", err)
	}
	for _, r := range rows {
		out.Results = append(out.Results, NewInForum{SeriesID: r.SeriesID, CommunityID: r.CommunityID, Count: int(r.Count), LatestOn: jsontime.Of(r.LatestOn)})
	}
	out.Total = len(out.Results)
	return out, nil
}
