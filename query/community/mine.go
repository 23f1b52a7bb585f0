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

	"agora/internal/apperr"
	"agora/internal/db"
	"agora/internal/db/gen/table"
	"agora/internal/jsontime"
	"agora/internal/paging"
)

// MaxPageSize is the largest page of communities (spec 000 §9: lists load
// with pageSize 9999).
const MaxPageSize = 9999

// Mine is the query for the caller's communities (GET /api/communities).
type Mine struct {
	UserID uuid.UUID
	paging.Request
	Keyword string
}

// MyCommunity is a community of the caller, with the forums they may open.
type MyCommunity struct {
	ID             uuid.UUID      `json:"id"`
	Name           string         `json:"name"`
	Description    string         `json:"description"`
	Image          *string        `json:"image"`
	MembershipType string         `json:"membershipType"`
	Role           string         `json:"role"`
	IsSubscribed   bool           `json:"isSubscribed"`
	IsFree         bool           `json:"isFree"`
	Price          int            `json:"price"`
	Currency       string         `json:"currency"`
	Context        Context        `json:"context"`
	LastVisitedOn  *jsontime.Time `json:"lastVisitedOn"`
	CreatedOn      jsontime.Time  `json:"createdOn"`
	AssignedOn     jsontime.Time  `json:"assignedOn"`
	// Event is the next Meet Up of the community; always null until Meet
	// Ups exist, so that clients already sort by it.
	Event  *Event    `json:"event"`
	Series []MyForum `json:"series"`
}

// Context ties a community to its organization.
type Context struct {
	OrganizationID uuid.UUID `json:"organizationId"`
}

// Event is a community's next event.
type Event struct {
	Data struct {
		StartDateTime jsontime.Time `json:"startDateTime"`
	} `json:"data"`
}

// MyForum is a forum the caller may open.
type MyForum struct {
	ID          uuid.UUID     `json:"id"`
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Image       *string       `json:"image"`
	Role        *string       `json:"role"`
	IsExpert    bool          `json:"isExpert"`
	CreatedOn   jsontime.Time `json:"createdOn"`
}

// Queries reads communities from Postgres (the read pool).
type Queries struct {
	db *pgxpool.Pool
}

// New returns the community queries over db.
func New(d *db.DB) (*Queries, error) {
	if d == nil || d.Pool == nil {
		return nil, errors.New("community.New: nil dependency")
	}
	return &Queries{db: d.Pool}, nil
}

// myMemberships are the user's active community memberships whose
// community's name contains keyword (escaped for LIKE), as FROM and WHERE.
func myMemberships(userID uuid.UUID, keyword string) (ReadableTable, BoolExpression) {
	m, p, c := table.CommunityMemberships.AS("m"), table.Profiles.AS("p"), table.Communities.AS("c")
	where := p.UserID.EQ(UUID(userID)).AND(m.Status.EQ(String("active")))
	if keyword != "" {
		// jet has no ILIKE; this one condition is raw SQL.
		where = where.AND(RawBool("c.name ILIKE '%' || #keyword || '%'", RawArgs{"#keyword": keyword}))
	}
	return m.INNER_JOIN(p, p.ID.EQ(m.ProfileID)).INNER_JOIN(c, c.ID.EQ(m.CommunityID)), where
}

// validate reports every out-of-range parameter at once.
func (m Mine) validate() error {
	bad := apperr.Fields{}
	m.Request.Check(bad, MaxPageSize)
	if len([]rune(m.Keyword)) > 200 {
		bad.Add("keyword", "must be at most 200 characters")
	}
	return bad.Err()
}

// likeEscaper makes a keyword literal inside ILIKE.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// Mine lists the communities the user is an active member of, by name,
// with their forums: those the user is an active member of, and all of
// them in communities the user administers.
func (q *Queries) Mine(ctx context.Context, in Mine) (paging.Page[MyCommunity], error) {
	if err := in.validate(); err != nil {
		return paging.Page[MyCommunity]{}, err
	}
	page := paging.Page[MyCommunity]{Results: []MyCommunity{}}
	m, c := table.CommunityMemberships.AS("m"), table.Communities.AS("c")
	from, where := myMemberships(in.UserID, likeEscaper.Replace(in.Keyword))
	rows, err := db.Query(ctx, q.db, SELECT(c.ID, c.Name, c.Description, c.Image, c.MembershipType, c.OrganizationID, c.IsFree,
		c.PriceCents, c.Currency, c.CreatedOn, m.Role, m.IsSubscribed, m.AssignedOn,
		m.LastVisitedOn, COUNT(STAR).OVER()).
		FROM(from).WHERE(where).
		ORDER_BY(c.Name, c.ID).
		LIMIT(int64(in.PageSize)).OFFSET(int64((in.Page-1)*in.PageSize)))
	if err != nil {
		return page, fmt.Errorf("community: mine: %w", err)
	}
	defer rows.Close()
	index := map[uuid.UUID]int{}
	var ids, administered []uuid.UUID
	for rows.Next() {
		var c MyCommunity
		var created, assigned time.Time
		var visited *time.Time
		if err := rows.Scan(&c.ID, &c.Name, &c.Description, &c.Image, &c.MembershipType, &c.Context.OrganizationID,
			&c.IsFree, &c.Price, &c.Currency, &created, &c.Role, &c.IsSubscribed, &assigned, &visited, &page.Total); err != nil {
			return page, fmt.Errorf("community: mine: %w", err)
		}
		c.CreatedOn, c.AssignedOn, c.LastVisitedOn = jsontime.Of(created), jsontime.Of(assigned), jsontime.Ptr(visited)
		c.Series = []MyForum{}
		index[c.ID] = len(page.Results)
		page.Results = append(page.Results, c)
		ids = append(ids, c.ID)
		if c.Role == "admin" || c.Role == "cascadingAdmin" {
			administered = append(administered, c.ID)
		}
	}
	if err := rows.Err(); err != nil {
		return page, fmt.Errorf("community: mine: %w", err)
	}
	if len(ids) == 0 {
		if in.Page > 1 && page.Total == 0 {
			// A page past the end: count the communities for the total.
			if err := db.QueryRow(ctx, q.db, SELECT(COUNT(STAR)).FROM(from).WHERE(where)).Scan(&page.Total); err != nil {
				return page, fmt.Errorf("community: mine: %w", err)
			}
		}
		return page, nil
	}
	s, x, p := table.Series, table.SeriesMemberships.AS("x"), table.Profiles.AS("p")
	sm := LATERAL(SELECT(x.Role, x.IsExpert).FROM(x.INNER_JOIN(p, p.ID.EQ(x.ProfileID))).
		WHERE(x.SeriesID.EQ(s.ID).AND(p.UserID.EQ(UUID(in.UserID))).AND(x.Status.EQ(String("active")))).
		ORDER_BY(x.Role).LIMIT(1)).AS("sm")
	role, expert := x.Role.From(sm), x.IsExpert.From(sm)
	visible := role.IS_NOT_NULL()
	if len(administered) > 0 {
		visible = visible.OR(s.CommunityID.IN(db.UUIDs(administered)...))
	}
	forums, err := db.Query(ctx, q.db, SELECT(s.ID, s.CommunityID, s.Name, s.Description, s.Image, s.CreatedOn, role, COALESCE(expert, Bool(false))).
		FROM(s.LEFT_JOIN(sm, Bool(true))).
		WHERE(s.CommunityID.IN(db.UUIDs(ids)...).AND(visible)).
		ORDER_BY(s.CommunityID, s.Position, s.Name, s.ID))
	if err != nil {
		return page, fmt.Errorf("community: mine forums: %w", err)
	}
	defer forums.Close()
	for forums.Next() {
		var f MyForum
		var community uuid.UUID
		var created time.Time
		if err := forums.Scan(&f.ID, &community, &f.Name, &f.Description, &f.Image, &created, &f.Role, &f.IsExpert); err != nil {
			return page, fmt.Errorf("community: mine forums: %w", err)
		}
		f.CreatedOn = jsontime.Of(created)
		c := &page.Results[index[community]]
		c.Series = append(c.Series, f)
	}
	if err := forums.Err(); err != nil {
		return page, fmt.Errorf("community: mine forums: %w", err)
	}
	return page, nil
}
