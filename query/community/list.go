package community

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
	"agora/internal/plumbing/paging"
	"agora/internal/rules/access"
	"agora/search"
)

// MaxPageSize is the largest page of communities (spec 000 §9: lists load
// with pageSize 9999).
const MaxPageSize = 9999

// List is GET /api/communities: by default the communities the caller is
// an active member of.
type List struct {
	auth.Caller
	paging.Request
	Keyword string
	// PresetFilter is "" (the caller's communities), new (never visited),
	// visited, or manageable (every community the caller manages, member or
	// not).
	PresetFilter string
	// Filters are comma-separated key:value pairs: organizationId:<uuid>,
	// role:admin or role:member.
	Filters string
	// Sort is name, latest or event, with an optional " asc" or " desc".
	Sort string
}

// Community is a community as the caller sees it (spec 000 §3), with the
// forums they may open.
type Community struct {
	ID             uuid.UUID `json:"id"`
	Name           string    `json:"name"`
	Description    string    `json:"description"`
	Image          *string   `json:"image"`
	Video          *string   `json:"video"`
	VideoCover     *string   `json:"videoCover"`
	SSOAccess      bool      `json:"ssoAccess"`
	MembershipType string    `json:"membershipType"`
	// Role is the caller's role; nil for a manager who is not a member.
	Role         *string `json:"role"`
	IsSubscribed bool    `json:"isSubscribed"`
	IsFree       bool    `json:"isFree"`
	Price        int     `json:"price"`
	Currency     string  `json:"currency"`
	// NumShares counts the people the community is shared with: its
	// active and pending memberships.
	NumShares     int                `json:"numShares"`
	Context       Context            `json:"context"`
	Organization  Organization       `json:"organization"`
	Permissions   access.Permissions `json:"permissions"`
	LastVisitedOn *jsontime.Time     `json:"lastVisitedOn"`
	CreatedOn     jsontime.Time      `json:"createdOn"`
	// AssignedOn is when the caller joined; nil for a non-member manager.
	AssignedOn *jsontime.Time `json:"assignedOn"`
	// Event is the next Meet Up of the community; always null until Meet
	// Ups exist, so that clients already sort by it.
	Event  *Event    `json:"event"`
	Series []MyForum `json:"series"`
}

// Context ties a community to its organization.
type Context struct {
	OrganizationID uuid.UUID `json:"organizationId"`
}

// Organization names a community's organization.
type Organization struct {
	ID   uuid.UUID `json:"id"`
	Name string    `json:"name"`
}

// Event is a community's next event.
type Event struct {
	Data struct {
		StartDateTime jsontime.Time `json:"startDateTime"`
	} `json:"data"`
}

// MyForum is a forum the caller may open.
type MyForum struct {
	ID          uuid.UUID `json:"id"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Image       *string   `json:"image"`
	Role        *string   `json:"role"`
	IsExpert    bool      `json:"isExpert"`
	// IsSubscribed is access to the forum's content (the Forum's).
	IsSubscribed bool          `json:"isSubscribed"`
	CreatedOn    jsontime.Time `json:"createdOn"`
}

// Queries reads communities from Postgres (the read pool).
type Queries struct {
	db *pgxpool.Pool
	// members is the search index a member list's keyword is searched in.
	members search.Index[search.Member]
}

// New returns the community queries over db and the member index.
func New(d *db.DB, members search.Index[search.Member]) (*Queries, error) {
	if d == nil || d.Pool == nil || members == nil {
		return nil, errors.New("community.New: nil dependency")
	}
	return &Queries{db: d.Pool, members: members}, nil
}

// view is how a caller sees communities: each community c with its
// organization o and the caller's active membership, if any (the lateral
// mine), and the conditions of access.CommunityRules for them.
type view struct {
	from                      ReadableTable
	member, admin             BoolExpression
	role                      StringExpression
	assignedOn, lastVisitedOn TimestampzExpression
	isSubscribed              BoolExpression
}

var lc, lo = table.Communities.AS("c"), table.Organizations.AS("o")

func viewOf(c auth.Caller) view {
	m, p := table.CommunityMemberships.AS("m"), table.Profiles.AS("p")
	mine := LATERAL(SELECT(m.Role, m.AssignedOn, m.LastVisitedOn).
		FROM(m.INNER_JOIN(p, p.ID.EQ(m.ProfileID))).
		WHERE(m.CommunityID.EQ(lc.ID).AND(p.UserID.EQ(UUID(c.UserID))).AND(m.Status.EQ(String("active")))).
		ORDER_BY(m.Role).LIMIT(1)).AS("mine")
	v := view{
		from:       lc.INNER_JOIN(lo, lo.ID.EQ(lc.OrganizationID)).LEFT_JOIN(mine, Bool(true)),
		role:       m.Role.From(mine),
		assignedOn: m.AssignedOn.From(mine), lastVisitedOn: m.LastVisitedOn.From(mine),
		// Access, not the membership's complimentary flag: a manager has
		// it, a member of a paid community who has not paid does not.
		isSubscribed: access.CommunityAccess(lc.ID, UUID(c.UserID), Bool(c.Role == auth.RoleSuper)),
	}
	v.member, v.admin = access.CommunityRules(lc.ID, UUID(c.UserID), Bool(c.Role == auth.RoleSuper))
	return v
}

// selectCommunities is the one statement of GET /communities and GET
// /communities/{id}: the communities where keeps, in order, one page
// (limit 0: all).
func (v view) selectCommunities(where BoolExpression, order []OrderByClause, limit, offset int64) SelectStatement {
	n := table.CommunityMemberships.AS("n")
	numShares := SELECT(COUNT(STAR)).FROM(n).WHERE(n.CommunityID.EQ(lc.ID))
	stmt := SELECT(lc.ID.AS("id"), lc.Name.AS("name"), lc.Description.AS("description"), lc.Image.AS("image"),
		lc.Video.AS("video"), lc.VideoCover.AS("video_cover"), lc.SsoAccess.AS("sso_access"), lc.MembershipType.AS("membership_type"),
		lc.OrganizationID.AS("organization_id"), lo.Name.AS("organization_name"), lc.IsFree.AS("is_free"),
		lc.PriceCents.AS("price_cents"), lc.Currency.AS("currency"), lc.CreatedOn.AS("created_on"),
		v.role.AS("role"), v.isSubscribed.AS("is_subscribed"), v.assignedOn.AS("assigned_on"), v.lastVisitedOn.AS("last_visited_on"),
		numShares.AS("num_shares"), v.admin.AS("admin"), COUNT(STAR).OVER().AS("total")).
		FROM(v.from).WHERE(where).ORDER_BY(order...)
	if limit > 0 {
		stmt = stmt.LIMIT(limit).OFFSET(offset)
	}
	return stmt
}

// communityRow is a row of selectCommunities, its columns by name; the
// caller's role and membership times are null where they are no member.
type communityRow struct {
	ID                        uuid.UUID
	Name, Description         string
	Image, Video, VideoCover  *string
	SSOAccess                 bool
	MembershipType            string
	OrganizationID            uuid.UUID
	OrganizationName          string
	IsFree                    bool
	PriceCents                int32
	Currency                  string
	CreatedOn                 time.Time
	Role                      *string
	IsSubscribed              bool
	AssignedOn, LastVisitedOn *time.Time
	NumShares                 int
	Admin                     bool
	Total                     int
}

// read runs a selectCommunities statement and adds to each community the
// forums the caller may open.
func (q *Queries) read(ctx context.Context, c auth.Caller, stmt SelectStatement) (paging.Page[Community], error) {
	page := paging.Page[Community]{Results: []Community{}}
	rows, err := db.All[communityRow](ctx, q.db, stmt)
	if err != nil {
		return page, fmt.Errorf("community: list: %w", err)
	}
	index := map[uuid.UUID]int{}
	var ids []uuid.UUID
	for _, r := range rows {
		page.Total = r.Total
		x := Community{ID: r.ID, Name: r.Name, Description: r.Description, Image: r.Image, Video: r.Video, VideoCover: r.VideoCover,
			SSOAccess: r.SSOAccess, MembershipType: r.MembershipType, Role: r.Role, IsSubscribed: r.IsSubscribed,
			IsFree: r.IsFree, Price: int(r.PriceCents), Currency: r.Currency, NumShares: r.NumShares,
			Context: Context{OrganizationID: r.OrganizationID}, Organization: Organization{ID: r.OrganizationID, Name: r.OrganizationName},
			Permissions: access.PermissionsOf(r.Admin), CreatedOn: jsontime.Of(r.CreatedOn),
			AssignedOn: jsontime.Ptr(r.AssignedOn), LastVisitedOn: jsontime.Ptr(r.LastVisitedOn), Series: []MyForum{}}
		index[x.ID] = len(page.Results)
		page.Results = append(page.Results, x)
		ids = append(ids, x.ID)
	}
	if len(ids) == 0 {
		return page, nil
	}
	err = q.forums(ctx, c, ids, func(community uuid.UUID, f MyForum) {
		x := &page.Results[index[community]]
		x.Series = append(x.Series, f)
	})
	return page, err
}

// forums calls add with each forum of the communities that the caller may
// open (access.ForumRules: a reader of it) or is a member of without having
// paid for it (isSubscribed false), in each community's order.
func (q *Queries) forums(ctx context.Context, c auth.Caller, communities []uuid.UUID, add func(uuid.UUID, MyForum)) error {
	s, x, p := table.Series, table.SeriesMemberships.AS("x"), table.Profiles.AS("p")
	sm := LATERAL(SELECT(x.Role, x.IsExpert).FROM(x.INNER_JOIN(p, p.ID.EQ(x.ProfileID))).
		WHERE(x.SeriesID.EQ(s.ID).AND(p.UserID.EQ(UUID(c.UserID))).AND(x.Status.EQ(String("active")))).
		ORDER_BY(x.Role).LIMIT(1)).AS("sm")
	role, expert := x.Role.From(sm), x.IsExpert.From(sm)
	member, admin := access.ForumRules(s.ID, s.CommunityID, UUID(c.UserID), Bool(c.Role == auth.RoleSuper))
	forums, err := db.Query(ctx, q.db, SELECT(s.ID, s.CommunityID, s.Name, s.Description, s.Image, s.CreatedOn, role, COALESCE(expert, Bool(false)),
		member.OR(admin)).
		FROM(s.LEFT_JOIN(sm, Bool(true))).
		WHERE(s.CommunityID.IN(db.UUIDs(communities)...).AND(access.ForumMembership(s.ID, UUID(c.UserID)).OR(admin))).
		ORDER_BY(s.CommunityID, s.Position, s.Name, s.ID))
	if err != nil {
		return fmt.Errorf("community: forums: %w", err)
	}
	defer forums.Close()
	for forums.Next() {
		var f MyForum
		var community uuid.UUID
		var created time.Time
		if err := forums.Scan(&f.ID, &community, &f.Name, &f.Description, &f.Image, &created, &f.Role, &f.IsExpert, &f.IsSubscribed); err != nil {
			return fmt.Errorf("community: forums: %w", err)
		}
		f.CreatedOn = jsontime.Of(created)
		add(community, f)
	}
	if err := forums.Err(); err != nil {
		return fmt.Errorf("community: forums: %w", err)
	}
	return nil
}

// The list's parameters (spec 000 §4, §7).
var (
	presets = map[string]bool{"": true, "new": true, "visited": true, "manageable": true}
	// sortKeys are the sorts and their own direction, which a suffix
	// reverses: event soonest first, latest newest first.
	sortKeys = map[string]bool{"name": true, "latest": false, "event": true} // true: ascending
)

// where turns the list's parameters into a condition, adding to bad what
// is not understood.
func (in List) where(v view, bad apperr.Fields) BoolExpression {
	where := v.member
	switch in.PresetFilter {
	case "new":
		where = where.AND(v.lastVisitedOn.IS_NULL())
	case "visited":
		where = where.AND(v.lastVisitedOn.IS_NOT_NULL())
	case "manageable":
		where = v.admin
	}
	if !presets[in.PresetFilter] {
		bad.Add("presetFilter", "must be new, visited or manageable")
	}
	if in.Keyword != "" {
		where = where.AND(db.Contains(in.Keyword, "c.name"))
	}
	for _, f := range strings.Split(in.Filters, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		key, value, _ := strings.Cut(f, ":")
		switch key {
		case "organizationId":
			id, err := uuid.Parse(value)
			if err != nil {
				bad.Add("filters", "organizationId must be a UUID")
				continue
			}
			where = where.AND(lc.OrganizationID.EQ(UUID(id)))
		case "role":
			switch value {
			case "admin":
				where = where.AND(v.role.IN(String("admin"), String("cascadingAdmin")))
			case "member":
				where = where.AND(v.role.EQ(String("member")))
			default:
				bad.Add("filters", "role must be admin or member")
			}
		default:
			bad.Add("filters", "keys are organizationId and role")
		}
	}
	return where
}

// order is the list's sort: name, latest or event with an optional
// direction; default name asc. Ties go by id, so pages do not overlap.
func (in List) order(v view, bad apperr.Fields) []OrderByClause {
	key, dir, _ := strings.Cut(strings.TrimSpace(in.Sort), " ")
	if key == "" {
		key = "name"
	}
	asc, ok := sortKeys[key]
	switch dir = strings.TrimSpace(dir); {
	case !ok:
		bad.Add("sort", "must be name, latest or event, with an optional asc or desc")
		return nil
	case dir == "asc":
		asc = true
	case dir == "desc":
		asc = false
	case dir != "":
		bad.Add("sort", "the direction must be asc or desc")
		return nil
	}
	by := func(e OrderByClause, up OrderByClause) OrderByClause {
		if asc {
			return up
		}
		return e
	}
	switch key {
	case "latest":
		return []OrderByClause{by(lc.CreatedOn.DESC(), lc.CreatedOn.ASC()), lc.ID}
	case "event":
		// Meet Ups do not exist yet: every event start is null, so the
		// sort is by assignedOn then createdOn, newest first (spec 000 §4).
		return []OrderByClause{by(v.assignedOn.ASC().NULLS_FIRST(), v.assignedOn.DESC().NULLS_LAST()),
			by(lc.CreatedOn.ASC(), lc.CreatedOn.DESC()), lc.ID}
	}
	return []OrderByClause{by(LOWER(lc.Name).DESC(), LOWER(lc.Name).ASC()), lc.ID}
}

// List lists communities as the caller asks (List), with their forums.
func (q *Queries) List(ctx context.Context, in List) (paging.Page[Community], error) {
	bad := apperr.Fields{}
	in.Request.Check(bad, MaxPageSize)
	paging.CheckKeyword(bad, in.Keyword)
	v := viewOf(in.Caller)
	where, order := in.where(v, bad), in.order(v, bad)
	if err := bad.Err(); err != nil {
		return paging.Page[Community]{}, err
	}
	return paging.Windowed(in.Request, func() (paging.Page[Community], error) {
		return q.read(ctx, in.Caller, v.selectCommunities(where, order, int64(in.PageSize), int64(in.Offset())))
	}, func() (int, error) {
		n, err := db.Count(ctx, q.db, v.from, where)
		if err != nil {
			return 0, fmt.Errorf("community: list: %w", err)
		}
		return n, nil
	})
}

// Get is GET /communities/{id}.
type Get struct {
	auth.Caller
	CommunityID uuid.UUID
}

// Get reads one community for its readers (members and managers); to
// anyone else it is unknown.
func (q *Queries) Get(ctx context.Context, in Get) (Community, error) {
	v := viewOf(in.Caller)
	page, err := q.read(ctx, in.Caller, v.selectCommunities(lc.ID.EQ(UUID(in.CommunityID)).AND(v.member.OR(v.admin)), []OrderByClause{lc.ID}, 0, 0))
	if err != nil {
		return Community{}, err
	}
	if len(page.Results) == 0 {
		return Community{}, access.ErrCommunityNotFound
	}
	return page.Results[0], nil
}
