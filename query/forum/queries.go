// Package forum is the read side of forums (series): a forum, the forums
// of a community, trending forums, and the people of a forum.
package forum

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
	"agora/internal/rules/access"
	"agora/search"
)

// MaxPageSize is the largest page of every list (spec 001 §9: forum lists
// load with pageSize 9999).
const MaxPageSize = 9999

// Queries reads forums from Postgres.
type Queries struct {
	db *pgxpool.Pool
	// members is the search index the assignables' keyword is searched in.
	members search.Index[search.Member]
}

// New returns the forum queries over db, searching keywords in members.
func New(d *db.DB, members search.Index[search.Member]) (*Queries, error) {
	if d == nil || d.Pool == nil || members == nil {
		return nil, fmt.Errorf("forum.New: nil dependency")
	}
	return &Queries{db: d.Pool, members: members}, nil
}

// Forum is a forum as the caller sees it (spec 001 §3).
type Forum struct {
	ID           uuid.UUID `json:"id"`
	Name         string    `json:"name"`
	Description  string    `json:"description"`
	Image        *string   `json:"image"`
	Exclusivity  string    `json:"exclusivity"`
	ShareEnabled bool      `json:"shareEnabled"`
	Position     int       `json:"position"`
	Context      Context   `json:"context"`
	Role         string    `json:"role"`
	// IsSubscribed is access to the forum's content: false for a member
	// who has not paid for a paid forum or community (access.ForumRules).
	IsSubscribed bool `json:"isSubscribed"`
	// IsFree and Price (a month, in US cents) make the forum paid when it
	// is not free and its price is above 0.
	IsFree    bool          `json:"isFree"`
	Price     int           `json:"price"`
	Currency  string        `json:"currency"`
	CreatedOn jsontime.Time `json:"createdOn"`
	UpdatedOn jsontime.Time `json:"updatedOn"`
	// MainChannelID is the forum's feed; AdminChannelID its admins' channel,
	// given to admins only.
	MainChannelID  uuid.UUID  `json:"mainChannelId"`
	AdminChannelID *uuid.UUID `json:"adminChannelId"`
}

// Context ties a forum to its community.
type Context struct {
	CommunityID uuid.UUID `json:"communityId"`
}

// forumSelect reads Forum rows of the forums c reads, or is a member of
// without having paid for them (shown with isSubscribed false, the
// subscribe prompt's case), that match where; callers add ORDER BY and
// paging.
func forumSelect(c auth.Caller, where BoolExpression) SelectStatement {
	s := table.Series
	me := UUID(c.UserID)
	member, admin := access.ForumRules(s.ID, s.CommunityID, me, Bool(c.Role == auth.RoleSuper))
	mc, ac := table.Channels.AS("mc"), table.Channels.AS("ac")
	return SELECT(s.ID, s.Name, s.Description, s.Image, s.Exclusivity, s.ShareEnabled, s.Position, s.CommunityID,
		s.CreatedOn, s.UpdatedOn, s.IsFree, s.PriceCents, admin.AS("admin"), member.OR(admin).AS("is_subscribed"),
		mc.ID.AS("main_channel_id"), ac.ID.AS("admin_channel_id")).
		FROM(s.
			INNER_JOIN(mc, mc.SeriesID.EQ(s.ID).AND(mc.Kind.EQ(String("main")))).
			INNER_JOIN(ac, ac.SeriesID.EQ(s.ID).AND(ac.Kind.EQ(String("admin"))))).
		WHERE(access.ForumMembership(s.ID, me).OR(admin).AND(where))
}

// forumRow is a row of forumSelect, its columns by name.
type forumRow struct {
	model.Series
	Admin          bool
	IsSubscribed   bool
	MainChannelID  uuid.UUID
	AdminChannelID uuid.UUID
}

// readForums runs a forumSelect statement.
func readForums(ctx context.Context, q db.Querier, stmt SelectStatement) ([]Forum, error) {
	rows, err := db.All[forumRow](ctx, q, stmt)
	if err != nil {
		return nil, err
	}
	out := make([]Forum, 0, len(rows))
	for _, r := range rows {
		f := Forum{ID: r.ID, Name: r.Name, Description: r.Description, Image: r.Image, Exclusivity: r.Exclusivity,
			ShareEnabled: r.ShareEnabled, Position: int(r.Position), Context: Context{CommunityID: r.CommunityID},
			Role: "member", IsSubscribed: r.IsSubscribed, IsFree: r.IsFree, Price: int(r.PriceCents), Currency: "USD",
			CreatedOn: jsontime.Of(r.CreatedOn), UpdatedOn: jsontime.Of(r.UpdatedOn), MainChannelID: r.MainChannelID}
		if r.Admin {
			f.Role = "admin"
			f.AdminChannelID = &r.AdminChannelID
		}
		out = append(out, f)
	}
	return out, nil
}

// reader checks that the caller may read the forum: one they may not is
// access.ErrForumNotFound, as an unknown one is.
func (q *Queries) reader(ctx context.Context, c auth.Caller, seriesID uuid.UUID) (access.Forum, error) {
	return access.ReadForum(ctx, q.db, c.UserID, c.Role, seriesID)
}
