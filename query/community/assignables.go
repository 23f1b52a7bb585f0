package community

import (
	"context"
	"fmt"
	"strings"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/jsontime"
	"agora/internal/plumbing/paging"
	"agora/internal/rules/access"
	"agora/internal/rules/membership"
)

// Role is a role a community's share dialog gives.
type Role struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// shareRoles are the roles of the share dialog, sorted by name (spec 000
// §5: no account manager).
var shareRoles = []Role{{ID: membership.RoleAdmin, Name: "Admin"}, {ID: membership.RoleMember, Name: "Member"}}

// Roles is GET /communities/{id}/roles, for those who manage the
// community.
func (q *Queries) Roles(ctx context.Context, c auth.Caller, communityID uuid.UUID) ([]Role, error) {
	if _, err := access.ManageCommunity(ctx, q.db, c.UserID, c.Role, communityID); err != nil {
		return nil, err
	}
	return append([]Role(nil), shareRoles...), nil
}

// Assignable is a person of the community's organization as its share
// dialog lists them: the membership fields are null until they are
// assigned.
type Assignable struct {
	membership.Person
	// AssignmentStatus is the member's membership.InvitationStatus
	// (active, pending or notInvited), null for one not assigned.
	AssignmentStatus *string        `json:"assignmentStatus"`
	Role             *Role          `json:"role"`
	AssignedOn       *jsontime.Time `json:"assignedOn"`
	// IsMe is the caller's own profile, which the dialog shows without a
	// menu.
	IsMe bool `json:"isMe"`
	// IsComplimentary is the membership's complimentary access (its
	// is_subscribed), which a manager gives or takes; false until assigned.
	IsComplimentary bool `json:"isComplimentary"`
}

// Assignables is GET /communities/{id}/assignables.
type Assignables struct {
	auth.Caller
	paging.Request
	CommunityID uuid.UUID
	membership.Selection
	// Sort is name (the default), email or assignedOn, with an optional
	// " asc" or " desc".
	Sort string
}

// DefaultAssignablesPage is the share dialog's page (spec 000 §9).
const DefaultAssignablesPage = 50

// Check adds the parameters' problems to f.
func (in Assignables) Check(f apperr.Fields) {
	in.Request.Check(f, MaxPageSize)
	in.Selection.Check(f)
	if _, ok := in.order(uuid.Nil); !ok {
		f.Add("sort", "must be name, email or assignedOn, optionally followed by asc or desc")
	}
}

// order is the ORDER BY of the sort: the caller's own profile me first,
// then the sort, then by name.
func (in Assignables) order(me uuid.UUID) ([]OrderByClause, bool) {
	p, u, cm := membership.SelProfile, membership.SelUser, membership.SelMembership
	key, dir, _ := strings.Cut(strings.TrimSpace(in.Sort), " ")
	desc := false
	switch strings.TrimSpace(dir) {
	case "", "asc":
	case "desc":
		desc = true
	default:
		return nil, false
	}
	by := func(e Expression) OrderByClause {
		if desc {
			return e.DESC().NULLS_LAST()
		}
		return e.ASC().NULLS_LAST()
	}
	out := []OrderByClause{p.ID.EQ(UUID(me)).DESC()}
	switch key {
	case "", "name":
		out = append(out, by(LOWER(StringExp(COALESCE(u.LastName, p.LastName)))), by(LOWER(StringExp(COALESCE(u.FirstName, p.FirstName)))))
	case "email":
		out = append(out, by(LOWER(StringExp(COALESCE(u.Email, p.Email)))))
	case "assignedOn":
		out = append(out, by(cm.AssignedOn))
	default:
		return nil, false
	}
	return append(out, membership.ByName(p, u)...), true
}

// Assignables lists the people of the community's organization with
// their membership of it, the caller's own profile first, for those who
// manage the community.
func (q *Queries) Assignables(ctx context.Context, in Assignables) (paging.Page[Assignable], error) {
	f := apperr.Fields{}
	in.Check(f)
	if err := f.Err(); err != nil {
		return paging.Page[Assignable]{}, err
	}
	c, err := access.ManageCommunity(ctx, q.db, in.UserID, in.Role, in.CommunityID)
	if err != nil {
		return paging.Page[Assignable]{}, err
	}
	page := paging.Page[Assignable]{Results: []Assignable{}}
	from, where := membership.From(in.CommunityID), in.Selection.Where(c.OrganizationID)
	if err := db.QueryRow(ctx, q.db, SELECT(COUNT(STAR)).FROM(from).WHERE(where)).Scan(&page.Total); err != nil {
		return page, fmt.Errorf("community: assignables: %w", err)
	}
	p, u, cm := membership.SelProfile, membership.SelUser, membership.SelMembership
	order, _ := in.order(c.ProfileID)
	// Not a member: no status.
	status := CASE().WHEN(cm.ProfileID.IS_NULL()).THEN(NULL).ELSE(membership.InvitationStatus(p, membership.StatusPending))
	cols := append(membership.PersonColumns(p, u), status, cm.Role, cm.AssignedOn, COALESCE(cm.IsSubscribed, Bool(false)))
	rows, err := db.Query(ctx, q.db, SELECT(cols[0], cols[1:]...).FROM(from).WHERE(where).
		ORDER_BY(order...).LIMIT(int64(in.PageSize)).OFFSET(int64(in.Offset())))
	if err != nil {
		return page, fmt.Errorf("community: assignables: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var a Assignable
		var role *string
		var assigned *time.Time
		if err := rows.Scan(a.Person.Scan(&a.AssignmentStatus, &role, &assigned, &a.IsComplimentary)...); err != nil {
			return page, fmt.Errorf("community: assignables: %w", err)
		}
		a.AssignedOn, a.IsMe = jsontime.Ptr(assigned), c.ProfileID != uuid.Nil && a.ID == c.ProfileID
		if role != nil {
			r := shareRoles[1]
			if *role == "admin" || *role == "cascadingAdmin" {
				r = shareRoles[0]
			}
			a.Role = &r
		}
		page.Results = append(page.Results, a)
	}
	if err := rows.Err(); err != nil {
		return page, fmt.Errorf("community: assignables: %w", err)
	}
	return page, nil
}
