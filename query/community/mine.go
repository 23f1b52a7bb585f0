package community

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"agora/internal/apperr"
	"agora/internal/jsontime"
)

// MaxPageSize is the largest page of communities (spec 000 §9: lists load
// with pageSize 9999).
const MaxPageSize = 9999

// Mine is the query for the caller's communities (GET /api/communities).
type Mine struct {
	UserID   uuid.UUID
	Page     int
	PageSize int
	Keyword  string
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

// Page is one page of results and the total count.
type Page[T any] struct {
	Results []T `json:"results"`
	Total   int `json:"total"`
}

// Queries reads communities from Postgres (the read pool).
type Queries struct {
	db *sql.DB
}

// New returns the community queries over db.
func New(db *sql.DB) *Queries {
	if db == nil {
		panic("community.New: nil db")
	}
	return &Queries{db: db}
}

// validate reports every out-of-range parameter at once.
func (m Mine) validate() error {
	fields := map[string]string{}
	if m.Page < 1 {
		fields["page"] = "must be 1 or more"
	}
	if m.PageSize < 1 || m.PageSize > MaxPageSize {
		fields["pageSize"] = fmt.Sprintf("must be 1 to %d", MaxPageSize)
	}
	if len([]rune(m.Keyword)) > 200 {
		fields["keyword"] = "must be at most 200 characters"
	}
	if len(fields) > 0 {
		return apperr.Invalid(fields)
	}
	return nil
}

// likeEscaper makes a keyword literal inside ILIKE.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// Mine lists the communities the user is an active member of, by name,
// with their forums: those the user is an active member of, and all of
// them in communities the user administers.
func (q *Queries) Mine(ctx context.Context, in Mine) (Page[MyCommunity], error) {
	if err := in.validate(); err != nil {
		return Page[MyCommunity]{}, err
	}
	page := Page[MyCommunity]{Results: []MyCommunity{}}
	rows, err := q.db.QueryContext(ctx, `
		SELECT c.id, c.name, c.description, c.image, c.membership_type, c.organization_id, c.is_free,
		       c.price_cents, c.currency, c.created_on, m.role, m.is_subscribed, m.assigned_on,
		       m.last_visited_on, count(*) OVER ()
		FROM community_memberships m
		JOIN profiles p ON p.id = m.profile_id
		JOIN communities c ON c.id = m.community_id
		WHERE p.user_id = $1 AND m.status = 'active'
		  AND ($2 = '' OR c.name ILIKE '%' || $2 || '%')
		ORDER BY c.name, c.id
		LIMIT $3 OFFSET $4`,
		in.UserID, likeEscaper.Replace(in.Keyword), in.PageSize, (in.Page-1)*in.PageSize)
	if err != nil {
		return page, fmt.Errorf("community: mine: %w", err)
	}
	defer rows.Close()
	index := map[uuid.UUID]int{}
	var ids, administered []string
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
		ids = append(ids, c.ID.String())
		if c.Role == "admin" || c.Role == "cascadingAdmin" {
			administered = append(administered, c.ID.String())
		}
	}
	if err := rows.Err(); err != nil {
		return page, fmt.Errorf("community: mine: %w", err)
	}
	if len(ids) == 0 {
		if in.Page > 1 && page.Total == 0 {
			// A page past the end: count the communities for the total.
			if err := q.db.QueryRowContext(ctx, `
				SELECT count(*) FROM community_memberships m JOIN profiles p ON p.id = m.profile_id
				JOIN communities c ON c.id = m.community_id
				WHERE p.user_id = $1 AND m.status = 'active' AND ($2 = '' OR c.name ILIKE '%' || $2 || '%')`,
				in.UserID, likeEscaper.Replace(in.Keyword)).Scan(&page.Total); err != nil {
				return page, fmt.Errorf("community: mine: %w", err)
			}
		}
		return page, nil
	}
	forums, err := q.db.QueryContext(ctx, `
		SELECT s.id, s.community_id, s.name, s.description, s.image, s.created_on, sm.role, coalesce(sm.is_expert, false)
		FROM series s
		LEFT JOIN LATERAL (
			SELECT x.role, x.is_expert FROM series_memberships x JOIN profiles p ON p.id = x.profile_id
			WHERE x.series_id = s.id AND p.user_id = $1 AND x.status = 'active'
			ORDER BY x.role LIMIT 1
		) sm ON true
		WHERE s.community_id = ANY($2::uuid[])
		  AND (sm.role IS NOT NULL OR s.community_id = ANY($3::uuid[]))
		ORDER BY s.community_id, s.position, s.name, s.id`,
		in.UserID, ids, administered)
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
