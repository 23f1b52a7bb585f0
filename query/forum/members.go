package forum

import (
	"context"
	"fmt"
	"strings"
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
	"agora/internal/rules/access"
	"agora/internal/rules/membership"
)

// Member is a person of a forum (spec 001 §3 Assignable). Names and
// picture come from the person's account once the profile is joined to
// one.
type Member struct {
	membership.Person
	AssignedOn   jsontime.Time `json:"assignedOn"`
	IsSubscribed bool          `json:"isSubscribed"`
	IsExpert     bool          `json:"isExpert"`
	// Role is admin or member, with -expert appended for experts.
	Role string `json:"role"`
	// Status is membership.InvitationStatus: active, invited or
	// notInvited.
	Status string `json:"status"`
}

// Members is GET /series/{id}/members.
type Members struct {
	auth.Caller
	paging.Request
	SeriesID uuid.UUID
	// Sort is "" (by name) or "isExpert desc" (experts first, then by name).
	Sort string
	// RoleName keeps one role: admin, member, admin-expert or member-expert.
	RoleName string
}

// The people of a forum: its memberships, each with its profile and, when
// the profile has an account, the account's own person fields.
var (
	msm, mp, mu = table.SeriesMemberships.AS("sm"), table.Profiles.AS("p"), table.Users.AS("u")
	memberFrom  = msm.INNER_JOIN(mp, mp.ID.EQ(msm.ProfileID)).LEFT_JOIN(mu, mu.ID.EQ(mp.UserID))
)

func roleName(role string, expert bool) string {
	if expert {
		return role + "-expert"
	}
	return role
}

func scanMembers(rows pgx.Rows) ([]Member, error) {
	defer rows.Close()
	out := []Member{}
	for rows.Next() {
		var m Member
		var assigned time.Time
		var role string
		if err := rows.Scan(m.Person.Scan(&assigned, &m.IsSubscribed, &m.IsExpert, &role, &m.Status)...); err != nil {
			return nil, err
		}
		m.AssignedOn, m.Role = jsontime.Of(assigned), roleName(role, m.IsExpert)
		out = append(out, m)
	}
	return out, rows.Err()
}

// Members lists a forum's members (active and invited) for its readers.
func (q *Queries) Members(ctx context.Context, in Members) (paging.Page[Member], error) {
	f := apperr.Fields{}
	in.Request.Check(f, MaxPageSize)
	order := membership.ByName(mp, mu)
	switch in.Sort {
	case "":
	case "isExpert desc":
		order = append([]OrderByClause{msm.IsExpert.DESC()}, order...)
	default:
		f.Add("sort", "must be 'isExpert desc'")
	}
	where := msm.SeriesID.EQ(UUID(in.SeriesID))
	if in.RoleName != "" {
		r, e, ok := strings.Cut(in.RoleName, "-")
		if (r != "admin" && r != "member") || (ok && e != "expert") {
			f.Add("roleName", "must be admin, member, admin-expert or member-expert")
		}
		where = where.AND(msm.Role.EQ(String(r)))
		if ok {
			where = where.AND(msm.IsExpert.EQ(Bool(true)))
		}
	}
	if err := f.Err(); err != nil {
		return paging.Page[Member]{}, err
	}
	if _, err := q.reader(ctx, in.Caller, in.SeriesID); err != nil {
		return paging.Page[Member]{}, err
	}
	return q.memberPage(ctx, where, order, in.Request)
}

func (q *Queries) memberPage(ctx context.Context, where BoolExpression, order []OrderByClause, p paging.Request) (paging.Page[Member], error) {
	page := paging.Page[Member]{Results: []Member{}}
	if err := db.QueryRow(ctx, q.db, SELECT(COUNT(STAR)).FROM(memberFrom).WHERE(where)).Scan(&page.Total); err != nil {
		return page, fmt.Errorf("forum: members: %w", err)
	}
	// isSubscribed is the member's access to the forum itself (an admin's,
	// complimentary, free, or paid for), not the complimentary flag alone.
	paidUp := msm.Role.EQ(String("admin")).OR(access.ForumPaidUp(msm.SeriesID, mp.UserID, msm.IsSubscribed))
	cols := append(membership.PersonColumns(mp, mu), msm.AssignedOn, paidUp, msm.IsExpert, msm.Role,
		membership.InvitationStatus(mp, membership.StatusInvited))
	rows, err := db.Query(ctx, q.db, SELECT(cols[0], cols[1:]...).FROM(memberFrom).WHERE(where).
		ORDER_BY(order...).LIMIT(int64(p.PageSize)).OFFSET(int64(p.Offset())))
	if err != nil {
		return page, fmt.Errorf("forum: members: %w", err)
	}
	if page.Results, err = scanMembers(rows); err != nil {
		return page, fmt.Errorf("forum: members: %w", err)
	}
	return page, nil
}
