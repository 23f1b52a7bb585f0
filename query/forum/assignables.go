package forum

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"agora/internal/access"
	"agora/internal/apperr"
	"agora/internal/jsontime"
)

// Assignable is a member of the forum's community, as a forum admin sees
// them when managing access: the forum fields are null until assigned.
type Assignable struct {
	ID           uuid.UUID      `json:"id"`
	UserID       *uuid.UUID     `json:"userId"`
	FirstName    string         `json:"firstName"`
	LastName     string         `json:"lastName"`
	Email        string         `json:"email"`
	Avatar       *string        `json:"avatar"`
	JobTitle     string         `json:"jobTitle"`
	Company      string         `json:"company"`
	AssignedOn   *jsontime.Time `json:"assignedOn"`
	IsSubscribed bool           `json:"isSubscribed"`
	IsExpert     bool           `json:"isExpert"`
	Role         *string        `json:"role"`
	IsAssigned   bool           `json:"isAssigned"`
}

// Assignables is GET /series/{id}/assignables.
type Assignables struct {
	Caller
	Paging
	SeriesID uuid.UUID
	// Keyword matches first name, last name or email, case-insensitively.
	Keyword string
	// IsAssigned keeps the forum's members (true) or the others (false).
	IsAssigned *bool
}

// ErrForumAdminOnly is a forum call for its admins only.
var ErrForumAdminOnly = apperr.New(apperr.Forbidden, "forbidden", "only the forum's admins may do this")

// Check adds the parameters' problems to f, so that a transport can
// report them together with its own.
func (in Assignables) Check(f apperr.Fields) {
	in.Paging.check(f)
	if len([]rune(in.Keyword)) > 200 {
		f.Add("keyword", "must be at most 200 characters")
	}
}

// Assignables lists the members of the forum's community with whether
// they are assigned to the forum, by name; for the forum's admins.
func (q *Queries) Assignables(ctx context.Context, in Assignables) (Page[Assignable], error) {
	f := apperr.Fields{}
	in.Check(f)
	if err := f.Err(); err != nil {
		return Page[Assignable]{}, err
	}
	fa, err := access.InForum(ctx, q.db, in.UserID, in.Role, in.SeriesID)
	if err != nil {
		return Page[Assignable]{}, err
	}
	if !fa.Admin {
		return Page[Assignable]{}, ErrForumAdminOnly
	}
	from := ` FROM community_memberships cm JOIN profiles p ON p.id = cm.profile_id LEFT JOIN users u ON u.id = p.user_id
		LEFT JOIN series_memberships sm ON sm.series_id = $1 AND sm.profile_id = p.id
		WHERE cm.community_id = $2 AND ($3::boolean IS NULL OR (sm.profile_id IS NOT NULL) = $3)
		  AND ($4 = '' OR coalesce(u.first_name, p.first_name) ILIKE '%' || $4 || '%'
		       OR coalesce(u.last_name, p.last_name) ILIKE '%' || $4 || '%'
		       OR coalesce(u.email, p.email) ILIKE '%' || $4 || '%')`
	args := []any{in.SeriesID, fa.CommunityID, in.IsAssigned, likeEscaper.Replace(in.Keyword)}
	page := Page[Assignable]{Results: []Assignable{}}
	if err := q.db.QueryRowContext(ctx, `SELECT count(*)`+from, args...).Scan(&page.Total); err != nil {
		return page, fmt.Errorf("forum: assignables: %w", err)
	}
	rows, err := q.db.QueryContext(ctx, `SELECT p.id, p.user_id, coalesce(u.first_name, p.first_name), coalesce(u.last_name, p.last_name),
		coalesce(u.email, p.email), coalesce(u.avatar, p.avatar), coalesce(u.job_title, p.job_title), coalesce(u.company, p.company),
		sm.assigned_on, coalesce(sm.is_subscribed, false), coalesce(sm.is_expert, false), sm.role`+from+
		` ORDER BY `+byName+` LIMIT $5 OFFSET $6`, append(args, in.PageSize, in.offset())...)
	if err != nil {
		return page, fmt.Errorf("forum: assignables: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var a Assignable
		var assigned *time.Time
		var role *string
		if err := rows.Scan(&a.ID, &a.UserID, &a.FirstName, &a.LastName, &a.Email, &a.Avatar, &a.JobTitle, &a.Company,
			&assigned, &a.IsSubscribed, &a.IsExpert, &role); err != nil {
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
