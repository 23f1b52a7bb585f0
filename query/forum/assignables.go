package forum

import (
	"context"
	"fmt"
	"slices"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
	"agora/internal/plumbing/paging"
	"agora/internal/rules/access"
	"agora/internal/rules/membership"
	"agora/search"
)

// Assignable is a member of the forum's community, as a forum admin sees
// them when managing access: the forum fields are null until assigned.
type Assignable struct {
	membership.Person
	AssignedOn   *jsontime.Time `json:"assignedOn"`
	IsSubscribed bool           `json:"isSubscribed"`
	IsExpert     bool           `json:"isExpert"`
	Role         *string        `json:"role"`
	IsAssigned   bool           `json:"isAssigned"`
	// IsComplimentary is the membership's complimentary access (its
	// is_subscribed), which the admin gives or takes; false until assigned.
	IsComplimentary bool `json:"isComplimentary"`
	// Status is membership.InvitationStatus: active, invited or
	// notInvited.
	Status string `json:"status"`
}

// Assignables is GET /series/{id}/assignables.
type Assignables struct {
	auth.Caller
	paging.Request
	SeriesID uuid.UUID
	// Keyword matches first name, last name, full name or email, as the
	// member search does (each word; the last as a prefix; typos forgiven).
	Keyword string
	// IsAssigned keeps the forum's members (true) or the others (false).
	IsAssigned *bool
}

// ErrForumAdminOnly is a forum call for its admins only.
var ErrForumAdminOnly = apperr.New(apperr.Forbidden, "forbidden", "only the forum's admins may do this")

// Check adds the parameters' problems to f, so that a transport can
// report them together with its own.
func (in Assignables) Check(f apperr.Fields) {
	in.Request.Check(f, MaxPageSize)
	paging.CheckKeyword(f, in.Keyword)
}

// Assignables lists the members of the forum's community with whether
// they are assigned to the forum, by name; for the forum's admins.
func (q *Queries) Assignables(ctx context.Context, in Assignables) (paging.Page[Assignable], error) {
	f := apperr.Fields{}
	in.Check(f)
	if err := f.Err(); err != nil {
		return paging.Page[Assignable]{}, err
	}
	fa, err := q.reader(ctx, in.Caller, in.SeriesID)
	if err != nil {
		return paging.Page[Assignable]{}, err
	}
	if !fa.Admin {
		return paging.Page[Assignable]{}, ErrForumAdminOnly
	}
	page := paging.Page[Assignable]{Results: []Assignable{}}
	// A keyword is searched in the member index (names and email, typos
	// forgiven); the page is then read from Postgres in the index's order.
	// Without one, Postgres lists the community by name.
	var matched []string
	if in.Keyword != "" {
		if !search.HasWords(in.Keyword) {
			return page, nil
		}
		if matched, page.Total, err = q.keywordPage(ctx, in, fa.CommunityID); err != nil || len(matched) == 0 {
			return page, err
		}
	}
	cm, sm := table.CommunityMemberships.AS("cm"), table.SeriesMemberships.AS("sm")
	from := cm.INNER_JOIN(mp, mp.ID.EQ(cm.ProfileID)).LEFT_JOIN(mu, mu.ID.EQ(mp.UserID)).
		LEFT_JOIN(sm, sm.SeriesID.EQ(UUID(in.SeriesID)).AND(sm.ProfileID.EQ(mp.ID)))
	where := cm.CommunityID.EQ(UUID(fa.CommunityID))
	if in.IsAssigned != nil {
		where = where.AND(sm.ProfileID.IS_NOT_NULL().EQ(Bool(*in.IsAssigned)))
	}
	// isSubscribed is a member's access to the forum itself (members.go).
	paidUp := sm.ProfileID.IS_NOT_NULL().AND(sm.Role.EQ(String("admin")).OR(access.ForumPaidUp(sm.SeriesID, mp.UserID, sm.IsSubscribed)))
	cols := append(membership.PersonColumns(mp, mu), sm.AssignedOn, paidUp, COALESCE(sm.IsExpert, Bool(false)), sm.Role,
		COALESCE(sm.IsSubscribed, Bool(false)), membership.InvitationStatus(mp, membership.StatusInvited))
	stmt := SELECT(cols[0], cols[1:]...).FROM(from)
	if matched != nil {
		ids := make([]uuid.UUID, len(matched))
		for i, id := range matched {
			var err error
			if ids[i], err = uuid.Parse(id); err != nil {
				return page, fmt.Errorf("forum: assignables: %w", err)
			}
		}
		// The index's order: jet has no array literals, so this one
		// expression is raw SQL over the matched ids.
		stmt = stmt.WHERE(where.AND(mp.ID.IN(db.UUIDs(ids)...))).
			ORDER_BY(RawInt("array_position(#ids::uuid[], p.id)", RawArgs{"#ids": matched}))
	} else {
		if err := db.QueryRow(ctx, q.db, SELECT(COUNT(STAR)).FROM(from).WHERE(where)).Scan(&page.Total); err != nil {
			return page, fmt.Errorf("forum: assignables: %w", err)
		}
		stmt = stmt.WHERE(where).ORDER_BY(membership.ByName(mp, mu)...).LIMIT(int64(in.PageSize)).OFFSET(int64(in.Offset()))
	}
	rows, err := db.Query(ctx, q.db, stmt)
	if err != nil {
		return page, fmt.Errorf("forum: assignables: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var a Assignable
		var assigned *time.Time
		var role *string
		if err := rows.Scan(a.Person.Scan(&assigned, &a.IsSubscribed, &a.IsExpert, &role, &a.IsComplimentary, &a.Status)...); err != nil {
			return page, fmt.Errorf("forum: assignables: %w", err)
		}
		a.AssignedOn, a.IsAssigned = jsontime.Ptr(assigned), role != nil
		if role != nil {
			r := roleName(*role, a.IsExpert)
			a.Role = &r
		}
		page.Results = append(page.Results, a)
	}
	if err := rows.Err(); err != nil {
		return page, fmt.Errorf("forum: assignables: %w", err)
	}
	return page, nil
}

// keywordPage asks the member index for one page of the community's
// members matching the keyword, assigned to the forum or not as asked, by
// relevance: their profile ids and how many match in all.
func (q *Queries) keywordPage(ctx context.Context, in Assignables, communityID uuid.UUID) ([]string, int, error) {
	if q.members == nil {
		return nil, 0, fmt.Errorf("forum: assignables: no member index")
	}
	f := search.Filter{search.In("communityIds", communityID.String())}
	if in.IsAssigned != nil {
		c := search.In("forumIds", in.SeriesID.String())
		if !*in.IsAssigned {
			c = search.NotIn("forumIds", in.SeriesID.String())
		}
		f = append(f, c)
	}
	res, err := q.members.Search(ctx, search.Query{
		Text: in.Keyword, Fields: append(slices.Clip(search.MemberNameFields), "email"), Filter: f,
		Limit: in.PageSize, Offset: in.Offset(),
	})
	if err != nil {
		return nil, 0, fmt.Errorf("forum: assignables: %w", err)
	}
	return search.DocIDs(res.Hits), res.Total, nil
}
