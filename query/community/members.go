package community

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/paging"
	"agora/internal/rules/access"
	"agora/internal/rules/membership"
	"agora/search"
)

// Member is a person of a community (spec 000 §3 Community member). Names
// and picture come from the person's account once the profile is joined to
// one.
type Member struct {
	ID           uuid.UUID  `json:"id"`
	UserID       *uuid.UUID `json:"userId"`
	FirstName    string     `json:"firstName"`
	LastName     string     `json:"lastName"`
	Avatar       *string    `json:"avatar"`
	JobTitle     string     `json:"jobTitle"`
	Company      string     `json:"company"`
	IsSubscribed bool       `json:"isSubscribed"`
	IsExpert     bool       `json:"isExpert"`
	// AssignmentStatus is membership.InvitationStatus: active, pending
	// (an invitation was mailed, not yet taken up) or notInvited.
	AssignmentStatus string `json:"assignmentStatus"`
	Role             string `json:"role"`
}

// Members is GET /communities/{id}/members.
type Members struct {
	auth.Caller
	paging.Request
	CommunityID uuid.UUID
	// Keyword keeps the people whose name it finds in the member index
	// (first, last or full name, a typo forgiven), best match first.
	Keyword string
	// Sort is "" or "isExpert desc" (the caller, experts, then by name),
	// or "name" (the caller, then by name).
	Sort string
}

// The people of a community: its memberships, each with its profile and,
// when the profile has an account, the account's own person fields.
var (
	mcm, mp, mu = table.CommunityMemberships.AS("cm"), table.Profiles.AS("p"), table.Users.AS("u")
	memberFrom  = mcm.INNER_JOIN(mp, mp.ID.EQ(mcm.ProfileID)).LEFT_JOIN(mu, mu.ID.EQ(mp.UserID))
	firstName   = StringExp(COALESCE(mu.FirstName, mp.FirstName))
	lastName    = StringExp(COALESCE(mu.LastName, mp.LastName))
	// paidUp is a member's access to the community (isSubscribed): a
	// manager's, complimentary, free, or paid for; not the complimentary
	// flag alone.
	paidUp = mcm.Role.IN(String("admin"), String("cascadingAdmin")).OR(access.CommunityPaidUp(mcm.CommunityID, mp.UserID, mcm.IsSubscribed))
)

func memberColumns() []Projection {
	return []Projection{mp.ID, mp.UserID, firstName, lastName, COALESCE(mu.Avatar, mp.Avatar), COALESCE(mu.JobTitle, mp.JobTitle),
		COALESCE(mu.Company, mp.Company), paidUp, mp.IsExpert, membership.InvitationStatus(mp, membership.StatusPending), mcm.Role}
}

func scanMember(row pgx.Row, extra ...any) (Member, error) {
	var m Member
	err := row.Scan(append([]any{&m.ID, &m.UserID, &m.FirstName, &m.LastName, &m.Avatar, &m.JobTitle, &m.Company,
		&m.IsSubscribed, &m.IsExpert, &m.AssignmentStatus, &m.Role}, extra...)...)
	return m, err
}

// Members lists a community's people (active and invited) for its readers:
// on page 1 the caller first, then experts, then by last and first name;
// with a keyword, those the member index finds, best match first.
func (q *Queries) Members(ctx context.Context, in Members) (paging.Page[Member], error) {
	bad := apperr.Fields{}
	in.Request.Check(bad, MaxPageSize)
	paging.CheckKeyword(bad, in.Keyword)
	me := mu.ID.EQ(UUID(in.UserID))
	order := []OrderByClause{COALESCE(me, Bool(false)).DESC()}
	switch in.Sort {
	case "", "isExpert desc":
		order = append(order, mp.IsExpert.DESC())
	case "name", "name asc":
	default:
		bad.Add("sort", "must be 'isExpert desc' or 'name'")
	}
	order = append(order, LOWER(lastName), LOWER(firstName), mp.ID)
	if err := bad.Err(); err != nil {
		return paging.Page[Member]{}, err
	}
	if _, err := access.ReadCommunity(ctx, q.db, in.UserID, in.Role, in.CommunityID); err != nil {
		return paging.Page[Member]{}, err
	}
	where := mcm.CommunityID.EQ(UUID(in.CommunityID))
	if in.Keyword != "" {
		return q.membersMatching(ctx, in, where)
	}
	page, err := paging.Windowed(in.Request, func() (page paging.Page[Member], err error) {
		cols := append(memberColumns(), COUNT(STAR).OVER())
		page.Results, err = db.Collect(ctx, q.db, SELECT(cols[0], cols[1:]...).FROM(memberFrom).WHERE(where).
			ORDER_BY(order...).LIMIT(int64(in.PageSize)).OFFSET(int64(in.Offset())),
			func(r pgx.Row) (Member, error) { return scanMember(r, &page.Total) })
		return page, err
	}, func() (int, error) { return db.Count(ctx, q.db, memberFrom, where) })
	if err != nil {
		return page, fmt.Errorf("community: members: %w", err)
	}
	return page, nil
}

// membersMatching is Members with a keyword: the index finds one page of the
// community's people by name, by relevance, and Postgres reads them in that
// order (the index is a moment behind a membership just ended, which the
// join to the community's memberships leaves out).
func (q *Queries) membersMatching(ctx context.Context, in Members, where BoolExpression) (paging.Page[Member], error) {
	page := paging.Page[Member]{Results: []Member{}}
	if !search.HasWords(in.Keyword) {
		return page, nil
	}
	res, err := q.members.Search(ctx, search.CommunityMembersNamed(in.Keyword, in.CommunityID.String(), in.PageSize, in.Offset()))
	if err != nil {
		return page, fmt.Errorf("community: members: %w", err)
	}
	page.Total = res.Total
	ids := search.DocIDs(res.Hits)
	if len(ids) == 0 {
		return page, nil
	}
	page.Results, err = db.Collect(ctx, q.db, SELECT(memberColumns()[0], memberColumns()[1:]...).FROM(memberFrom).
		WHERE(where.AND(db.Any(mp.ID, ids))).ORDER_BY(db.UUIDPosition(ids, mp.ID)),
		func(r pgx.Row) (Member, error) { return scanMember(r) })
	if err != nil {
		return page, fmt.Errorf("community: members: %w", err)
	}
	return page, nil
}

// MaxHighlighted is the most communities one highlighted-members call
// asks about.
const MaxHighlighted = 100

// Highlighted is POST /communities/get-highlighted-members.
type Highlighted struct {
	auth.Caller
	CommunityIDs []uuid.UUID
}

// HighlightedMembers are a community's first people and how many it has.
type HighlightedMembers struct {
	Total              int      `json:"total"`
	HighlightedMembers []Member `json:"highlightedMembers"`
}

// Highlighted returns, for each community the caller may read, its number
// of people and up to three of them, admins and experts first (the avatar
// preview of spec 000 §9); the others are left out.
func (q *Queries) Highlighted(ctx context.Context, in Highlighted) (map[uuid.UUID]HighlightedMembers, error) {
	if len(in.CommunityIDs) > MaxHighlighted {
		return nil, apperr.Fields{"communityIds": fmt.Sprintf("must have at most %d ids", MaxHighlighted)}.Err()
	}
	out := map[uuid.UUID]HighlightedMembers{}
	if len(in.CommunityIDs) == 0 {
		return out, nil
	}
	v := viewOf(in.Caller)
	readable := SELECT(lc.ID).FROM(lc).WHERE(lc.ID.IN(db.UUIDs(in.CommunityIDs)...).AND(v.member.OR(v.admin)))
	rank := ROW_NUMBER().OVER(PARTITION_BY(mcm.CommunityID).ORDER_BY(mcm.Role.IN(String("admin"), String("cascadingAdmin")).DESC(),
		mp.IsExpert.DESC(), LOWER(lastName), LOWER(firstName), mp.ID))
	total := COUNT(STAR).OVER(PARTITION_BY(mcm.CommunityID))
	cols := append(memberColumns(), mcm.CommunityID, total.AS("total"), rank.AS("rank"))
	ranked := SELECT(cols[0], cols[1:]...).FROM(memberFrom).WHERE(mcm.CommunityID.IN(readable)).AsTable("ranked")
	rows, err := db.Query(ctx, q.db, SELECT(STAR).FROM(ranked).WHERE(IntegerColumn("rank").From(ranked).LT_EQ(Int(3))))
	if err != nil {
		return nil, fmt.Errorf("community: highlighted: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var community uuid.UUID
		var n, r int
		m, err := scanMember(rows, &community, &n, &r)
		if err != nil {
			return nil, fmt.Errorf("community: highlighted: %w", err)
		}
		h := out[community]
		h.Total, h.HighlightedMembers = n, append(h.HighlightedMembers, m)
		out[community] = h
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("community: highlighted: %w", err)
	}
	// A readable community without people still answers, with none.
	ids, err := db.Values[uuid.UUID](ctx, q.db, readable)
	if err != nil {
		return nil, fmt.Errorf("community: highlighted: %w", err)
	}
	for _, id := range ids {
		if _, ok := out[id]; !ok {
			out[id] = HighlightedMembers{HighlightedMembers: []Member{}}
		}
	}
	return out, nil
}
