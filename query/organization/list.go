package organization

import (
	"context"
	"errors"
	"fmt"
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
)

// Organization is an organization as its people see it (contract of issue
// 15): the caller's role in it, and whether single sign-on is on.
type Organization struct {
	ID    uuid.UUID `json:"id"`
	Name  string    `json:"name"`
	Image *string   `json:"image"`
	// Role is the caller's: super for a super user, else their profile's
	// role (admin or member).
	Role string `json:"role"`
	// IdentityClient is the issuer URL of the organization's single
	// sign-on, null when it has none; the client's secret is never read.
	IdentityClient *string       `json:"identityClient"`
	NumCommunities int           `json:"numCommunities"`
	NumMembers     int           `json:"numMembers"`
	CreatedOn      jsontime.Time `json:"createdOn"`
}

// List is GET /organizations.
type List struct {
	auth.Caller
	paging.Request
	Keyword string
	// Sort is name (the default) or createdOn, with an optional asc or desc.
	Sort string
}

// List lists the organizations the caller has a profile in (all of them
// for a super user), by name unless asked otherwise.
func (q *Queries) List(ctx context.Context, in List) (paging.Page[Organization], error) {
	f := apperr.Fields{}
	in.Request.Check(f, MaxPageSize)
	paging.CheckKeyword(f, in.Keyword)
	field, desc := sortOrder(f, in.Sort, "name", "createdOn")
	if err := f.Err(); err != nil {
		return paging.Page[Organization]{}, err
	}
	o := table.Organizations.AS("o")
	me, super := user(in.Caller)
	member, _ := access.OrganizationRules(o.ID, me, super)
	where := super.OR(member)
	if in.Keyword != "" {
		where = where.AND(db.Contains(in.Keyword, "o.name"))
	}
	var order OrderByClause = o.Name.ASC()
	if field == "createdOn" {
		order = o.CreatedOn.ASC()
		if desc {
			order = o.CreatedOn.DESC()
		}
	} else if desc {
		order = o.Name.DESC()
	}
	page, err := paging.Windowed(in.Request, func() (page paging.Page[Organization], err error) {
		page.Results, err = db.Collect(ctx, q.db, selectOrganizations(in.Caller, o).WHERE(where).ORDER_BY(order, o.ID.ASC()).
			LIMIT(int64(in.PageSize)).OFFSET(int64(in.Offset())),
			func(r pgx.Row) (Organization, error) { return scanOrganization(r, &page.Total) })
		return page, err
	}, func() (int, error) { return db.Count(ctx, q.db, o, where) })
	if err != nil {
		return page, fmt.Errorf("organization: list: %w", err)
	}
	return page, nil
}

// Get is GET /organizations/{id}, for those who may see it: one they may
// not is as unknown as an unknown id.
func (q *Queries) Get(ctx context.Context, c auth.Caller, id uuid.UUID) (Organization, error) {
	if _, err := access.SeeOrganization(ctx, q.db, c.UserID, c.Role, id); err != nil {
		return Organization{}, err
	}
	o := table.Organizations.AS("o")
	var total int
	v, err := scanOrganization(db.QueryRow(ctx, q.db, selectOrganizations(c, o).WHERE(o.ID.EQ(UUID(id)))), &total)
	if errors.Is(err, pgx.ErrNoRows) {
		return Organization{}, apperr.ErrNotFound
	}
	if err != nil {
		return Organization{}, fmt.Errorf("organization: get: %w", err)
	}
	return v, nil
}

// selectOrganizations selects what scanOrganization reads, with the
// window's total last.
func selectOrganizations(c auth.Caller, o *table.OrganizationsTable) SelectStatement {
	xp, xc := table.Profiles.AS("xp"), table.Communities.AS("xc")
	var role StringExpression = String("super")
	if c.Role != auth.RoleSuper {
		_, admin := access.OrganizationRules(o.ID, UUID(c.UserID), Bool(false))
		role = StringExp(CASE().WHEN(admin).THEN(String("admin")).ELSE(String("member")))
	}
	return SELECT(o.ID, o.Name, o.Image, role, o.IdentityClient, o.CreatedOn,
		IntExp(SELECT(COUNT(STAR)).FROM(xc).WHERE(xc.OrganizationID.EQ(o.ID))),
		IntExp(SELECT(COUNT(STAR)).FROM(xp).WHERE(xp.OrganizationID.EQ(o.ID))),
		COUNT(STAR).OVER()).
		FROM(o)
}

func scanOrganization(r pgx.Row, total *int) (Organization, error) {
	var v Organization
	var created time.Time
	err := r.Scan(&v.ID, &v.Name, &v.Image, &v.Role, &v.IdentityClient, &created, &v.NumCommunities, &v.NumMembers, total)
	v.CreatedOn = jsontime.Of(created)
	return v, err
}
