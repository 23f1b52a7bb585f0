package forum

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/jsontime"
)

// Member is a person of a forum (spec 001 §3 Assignable). Names and
// picture come from the person's account once the profile is joined to
// one.
type Member struct {
	ID           uuid.UUID     `json:"id"`
	UserID       *uuid.UUID    `json:"userId"`
	FirstName    string        `json:"firstName"`
	LastName     string        `json:"lastName"`
	Email        string        `json:"email"`
	Avatar       *string       `json:"avatar"`
	JobTitle     string        `json:"jobTitle"`
	Company      string        `json:"company"`
	AssignedOn   jsontime.Time `json:"assignedOn"`
	IsSubscribed bool          `json:"isSubscribed"`
	IsExpert     bool          `json:"isExpert"`
	// Role is admin or member, with -expert appended for experts.
	Role string `json:"role"`
}

// Members is GET /series/{id}/members.
type Members struct {
	auth.Caller
	Paging
	SeriesID uuid.UUID
	// Sort is "" (by name) or "isExpert desc" (experts first, then by name).
	Sort string
	// RoleName keeps one role: admin, member, admin-expert or member-expert.
	RoleName string
}

// memberColumns are the columns scanMembers reads, over series_memberships
// sm, profiles p and users u.
const memberColumns = `p.id, p.user_id, coalesce(u.first_name, p.first_name), coalesce(u.last_name, p.last_name),
	coalesce(u.email, p.email), coalesce(u.avatar, p.avatar), coalesce(u.job_title, p.job_title), coalesce(u.company, p.company),
	sm.assigned_on, sm.is_subscribed, sm.is_expert, sm.role`

const memberFrom = ` FROM series_memberships sm JOIN profiles p ON p.id = sm.profile_id LEFT JOIN users u ON u.id = p.user_id `

const byName = `lower(coalesce(u.last_name, p.last_name)), lower(coalesce(u.first_name, p.first_name)), p.id`

func roleName(role string, expert bool) string {
	if expert {
		return role + "-expert"
	}
	return role
}

func scanMembers(rows *sql.Rows) ([]Member, error) {
	defer rows.Close()
	out := []Member{}
	for rows.Next() {
		var m Member
		var assigned time.Time
		var role string
		if err := rows.Scan(&m.ID, &m.UserID, &m.FirstName, &m.LastName, &m.Email, &m.Avatar, &m.JobTitle, &m.Company,
			&assigned, &m.IsSubscribed, &m.IsExpert, &role); err != nil {
			return nil, err
		}
		m.AssignedOn, m.Role = jsontime.Of(assigned), roleName(role, m.IsExpert)
		out = append(out, m)
	}
	return out, rows.Err()
}

// Members lists a forum's members (active and invited) for its readers.
func (q *Queries) Members(ctx context.Context, in Members) (Page[Member], error) {
	f := apperr.Fields{}
	in.Paging.check(f)
	order := byName
	switch in.Sort {
	case "":
	case "isExpert desc":
		order = "sm.is_expert DESC, " + byName
	default:
		f.Add("sort", "must be 'isExpert desc'")
	}
	var role string
	var expert *bool
	if in.RoleName != "" {
		r, e, ok := strings.Cut(in.RoleName, "-")
		if (r != "admin" && r != "member") || (ok && e != "expert") {
			f.Add("roleName", "must be admin, member, admin-expert or member-expert")
		}
		role = r
		if ok {
			t := true
			expert = &t
		}
	}
	if err := f.Err(); err != nil {
		return Page[Member]{}, err
	}
	if _, err := q.reader(ctx, in.Caller, in.SeriesID); err != nil {
		return Page[Member]{}, err
	}
	where := `WHERE sm.series_id = $1 AND ($2 = '' OR sm.role = $2) AND ($3::boolean IS NULL OR sm.is_expert = $3)`
	return q.memberPage(ctx, where, order, in.Paging, in.SeriesID, role, expert)
}

func (q *Queries) memberPage(ctx context.Context, where, order string, p Paging, args ...any) (Page[Member], error) {
	page := Page[Member]{Results: []Member{}}
	if err := q.db.QueryRowContext(ctx, `SELECT count(*)`+memberFrom+where, args...).Scan(&page.Total); err != nil {
		return page, fmt.Errorf("forum: members: %w", err)
	}
	n := len(args)
	rows, err := q.db.QueryContext(ctx, `SELECT `+memberColumns+memberFrom+where+
		fmt.Sprintf(` ORDER BY %s LIMIT $%d OFFSET $%d`, order, n+1, n+2), append(args, p.PageSize, p.offset())...)
	if err != nil {
		return page, fmt.Errorf("forum: members: %w", err)
	}
	if page.Results, err = scanMembers(rows); err != nil {
		return page, fmt.Errorf("forum: members: %w", err)
	}
	return page, nil
}
