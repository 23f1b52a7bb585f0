package organization

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
)

// Profile is a person of an organization as its admins manage them
// (contract of issue 15, OrgProfile). Once the person has registered, the
// names, address and person fields are their account's.
type Profile struct {
	ID        uuid.UUID  `json:"id"`
	UserID    *uuid.UUID `json:"userId"`
	FirstName string     `json:"firstName"`
	LastName  string     `json:"lastName"`
	Email     string     `json:"email"`
	Role      string     `json:"role"`
	Tags      []string   `json:"tags"`
	JobTitle  string     `json:"jobTitle"`
	Company   string     `json:"company"`
	Avatar    *string    `json:"avatar"`
	// Status is membership.InvitationStatus: active, invited or
	// notInvited.
	Status string `json:"status"`
}

// Profiles is GET /organizations/{id}/profiles.
type Profiles struct {
	auth.Caller
	paging.Request
	OrganizationID uuid.UUID
	// Keyword matches first, last or full name, or the address.
	Keyword string
	// Sort is name (last, then first name; the default), email or
	// createdOn, with an optional asc or desc.
	Sort string
}

// Profiles lists an organization's people, for its admins and super
// users; its other members are refused, and those who may not see it get
// the 404 of an unknown id.
func (q *Queries) Profiles(ctx context.Context, in Profiles) (paging.Page[Profile], error) {
	f := apperr.Fields{}
	in.Request.Check(f, MaxPageSize)
	paging.CheckKeyword(f, in.Keyword)
	field, desc := sortOrder(f, in.Sort, "name", "email", "createdOn")
	if err := f.Err(); err != nil {
		return paging.Page[Profile]{}, err
	}
	o, err := access.SeeOrganization(ctx, q.db, in.UserID, in.Role, in.OrganizationID)
	if err != nil {
		return paging.Page[Profile]{}, err
	}
	if !o.Admin {
		return paging.Page[Profile]{}, apperr.ErrForbidden
	}
	p, u := table.Profiles.AS("p"), table.Users.AS("u")
	first, last, email := StringExp(COALESCE(u.FirstName, p.FirstName)), StringExp(COALESCE(u.LastName, p.LastName)), StringExp(COALESCE(u.Email, p.Email))
	where := p.OrganizationID.EQ(UUID(in.OrganizationID))
	if in.Keyword != "" {
		// A part of the first or the last name is a part of the full name.
		where = where.AND(db.Contains(in.Keyword,
			"coalesce(u.first_name, p.first_name) || ' ' || coalesce(u.last_name, p.last_name)", "coalesce(u.email, p.email)"))
	}
	dir := func(e Expression) OrderByClause {
		if desc {
			return e.DESC()
		}
		return e.ASC()
	}
	var order []OrderByClause
	switch field {
	case "email":
		order = []OrderByClause{dir(LOWER(email))}
	case "createdOn":
		order = []OrderByClause{dir(p.CreatedOn)}
	default:
		order = []OrderByClause{dir(LOWER(last)), dir(LOWER(first))}
	}
	from := p.LEFT_JOIN(u, u.ID.EQ(p.UserID))
	// Without a keyword the total is counted apart, on the index, which
	// costs less than a window count over every person; with one, a window
	// counts the few that match in the same pass as the page, rather than
	// matching every person twice (cmd/bench -only organizations).
	cols := ProjectionList{p.ID, p.UserID, first, last, email, p.Role, p.InterestTags,
		COALESCE(u.JobTitle, p.JobTitle), COALESCE(u.Company, p.Company), COALESCE(u.Avatar, p.Avatar),
		membership.InvitationStatus(p, membership.StatusInvited)}
	windowed := in.Keyword != ""
	if windowed {
		cols = append(cols, COUNT(STAR).OVER())
	}
	read := func() (page paging.Page[Profile], err error) {
		page.Results, err = db.Collect(ctx, q.db, SELECT(cols[0], cols[1:]...).
			FROM(from).WHERE(where).ORDER_BY(append(order, p.ID.ASC())...).
			LIMIT(int64(in.PageSize)).OFFSET(int64(in.Offset())),
			func(r pgx.Row) (Profile, error) {
				var v Profile
				dst := []any{&v.ID, &v.UserID, &v.FirstName, &v.LastName, &v.Email, &v.Role, &v.Tags, &v.JobTitle, &v.Company, &v.Avatar, &v.Status}
				if windowed {
					dst = append(dst, &page.Total)
				}
				if err := r.Scan(dst...); err != nil {
					return v, err
				}
				if v.Tags == nil {
					v.Tags = []string{}
				}
				return v, nil
			})
		return page, err
	}
	count := func() (int, error) { return db.Count(ctx, q.db, from, where) }
	var page paging.Page[Profile]
	if windowed {
		page, err = paging.Windowed(in.Request, read, count)
	} else {
		var total int
		if total, err = count(); err == nil {
			page, err = read()
			page.Total = total
		}
	}
	if err != nil {
		return page, fmt.Errorf("organization: profiles: %w", err)
	}
	return page, nil
}
