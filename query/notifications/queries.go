// Package notifications is the read side of a member's notifications
// (spec 000 §3 "Notification", §7 "Notifications and personalization"):
// GET /notifications, the bell's list. The rows are the notifications
// projection's (projections/notifications); what the member did with them
// (read, dismissed, last looked) is in their personalization.
package notifications

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
	"agora/internal/plumbing/paging"
	"agora/internal/rules/access"
	"agora/internal/rules/notice"
	"agora/internal/rules/personalization"
)

// MaxPage is the largest page of the list.
const MaxPage = 100

// Queries reads notifications from Postgres.
type Queries struct {
	db *pgxpool.Pool
}

// New builds the queries.
func New(d *db.DB) (*Queries, error) {
	if d == nil || d.Pool == nil {
		return nil, errors.New("notifications.New: nil dependency")
	}
	return &Queries{db: d.Pool}, nil
}

// Author is who wrote what a notification is about; null when anonymous.
type Author struct {
	UserID    uuid.UUID `json:"userId"`
	FirstName string    `json:"firstName"`
	LastName  string    `json:"lastName"`
	Avatar    *string   `json:"avatar"`
}

// Context is the community and forum a notification comes from; a
// community-join has no forum (SeriesID and SeriesName null).
type Context struct {
	CommunityID   uuid.UUID  `json:"communityId"`
	CommunityName string     `json:"communityName"`
	SeriesID      *uuid.UUID `json:"seriesId"`
	SeriesName    *string    `json:"seriesName"`
}

// Notification is one item of the bell's list.
type Notification struct {
	ID        uuid.UUID     `json:"id"`
	Type      string        `json:"type"`
	CreatedOn jsontime.Time `json:"createdOn"`
	Author    *Author       `json:"author"`
	// Raw is the source's preview: plain text, mentions as names.
	Raw     string  `json:"raw"`
	Context Context `json:"context"`
	// PostID is the post it is about; nil for forum-access, which is
	// about the forum, and for community-join.
	PostID *uuid.UUID `json:"postId"`
	// ReplyID is the comment or reply of the post it points at
	// (notice.ReplyOf), which the bell's View scrolls to.
	ReplyID  *uuid.UUID `json:"replyId"`
	IsRead   bool       `json:"isRead"`
	IsUnread bool       `json:"isUnread"`
}

// Page is a page of the list, with the number of unread ones in the whole
// list (the bell's dot).
type Page struct {
	paging.Page[Notification]
	Unread int `json:"unread"`
}

// List is GET /notifications: the reader's comments, mentions, Meet Up
// notifications (invitations, open Meet Ups, seats given), forums they
// were given access to and the communities they were added to, newest
// first, but those they dismissed, those of forums they can no longer read
// and of communities they are no longer members of; replies are not listed
// (spec 000 §7) and messages live in the chat.
func (q *Queries) List(ctx context.Context, reader auth.Caller, r paging.Request) (Page, error) {
	page := Page{Page: paging.Page[Notification]{Results: []Notification{}}}
	f := apperr.Fields{}
	r.Check(f, MaxPage)
	if err := f.Err(); err != nil {
		return page, err
	}
	// What the member did with their notifications (read, dismissed, last
	// looked) is in their personalization.
	stored, err := personalization.Stored(ctx, q.db, reader.UserID)
	if err != nil {
		return page, fmt.Errorf("notifications: %w", err)
	}
	s := personalization.Read(stored)
	me := UUID(reader.UserID)
	n, fo, co, u := table.Notifications.AS("n"), table.Series.AS("f"), table.Communities.AS("co"), table.Users.AS("u")
	// The kinds the bell lists (internal/rules/notice): those of a forum,
	// listed while the member may read its channel, and those of a
	// community, while they are its member.
	forumKind := n.Kind.IN(db.Strings(notice.Names(func(k notice.Kind) bool { return k.Listed && k.About != notice.Community }))...)
	joinKind := n.Kind.IN(db.Strings(notice.Names(func(k notice.Kind) bool { return k.Listed && k.About == notice.Community }))...)
	listed := n.UserID.EQ(me).AND(forumKind.OR(joinKind))
	newer := Bool(true)
	if !s.LastSeenAt.IsZero() {
		newer = n.CreatedOn.GT(TimestampzT(s.LastSeenAt.UTC()))
	}
	// One pass over the member's notifications counts them by channel (a
	// community-join, which has none, by community); who reads a forum is
	// then asked once per channel, not once per notification (a member has
	// thousands from a few channels), and who is a member of a community
	// once per community.
	type perChannel struct {
		ChannelID   *uuid.UUID
		CommunityID *uuid.UUID
		All, Newer  int
	}
	// A channel is of one community: grouping by both is grouping by
	// channel, and by community where there is no channel.
	counts, err := db.All[perChannel](ctx, q.db, SELECT(n.ChannelID.AS("channel_id"), n.CommunityID.AS("community_id"), COUNT(STAR).AS("all"),
		COUNT(CASE().WHEN(newer).THEN(Int32(1))).AS("newer")).FROM(n).WHERE(listed).GROUP_BY(n.ChannelID, n.CommunityID))
	if err != nil {
		return page, fmt.Errorf("notifications: count: %w", err)
	}
	if len(counts) == 0 {
		return page, nil
	}
	var told, joined []uuid.UUID
	for _, pc := range counts {
		switch {
		case pc.ChannelID != nil:
			told = append(told, *pc.ChannelID)
		case pc.CommunityID != nil:
			joined = append(joined, *pc.CommunityID)
		}
	}
	var readable, memberOf []uuid.UUID
	if len(told) > 0 {
		c, cf := table.Channels.AS("c"), table.Series.AS("cf")
		readable, err = db.Values[uuid.UUID](ctx, q.db, SELECT(c.ID).FROM(c.INNER_JOIN(cf, cf.ID.EQ(c.SeriesID))).
			WHERE(db.Any(c.ID, told).AND(access.ChannelRead(c.Kind, cf.ID, cf.CommunityID, me, Bool(reader.Role == auth.RoleSuper)))))
		if err != nil {
			return page, fmt.Errorf("notifications: channels: %w", err)
		}
	}
	if len(joined) > 0 {
		// Told of a community they are still a member of.
		jc := table.Communities.AS("jc")
		member, _ := access.CommunityRules(jc.ID, me, Bool(false))
		memberOf, err = db.Values[uuid.UUID](ctx, q.db, SELECT(jc.ID).FROM(jc).WHERE(db.Any(jc.ID, joined).AND(member)))
		if err != nil {
			return page, fmt.Errorf("notifications: communities: %w", err)
		}
	}
	if len(readable) == 0 && len(memberOf) == 0 {
		return page, nil
	}
	var all, allNewer, gone, goneNewer int
	for _, pc := range counts {
		if pc.ChannelID != nil && slices.Contains(readable, *pc.ChannelID) ||
			pc.ChannelID == nil && pc.CommunityID != nil && slices.Contains(memberOf, *pc.CommunityID) {
			all, allNewer = all+pc.All, allNewer+pc.Newer
		}
	}
	base := n.UserID.EQ(me).AND(forumKind.AND(db.Any(n.ChannelID, readable)).
		OR(joinKind.AND(n.ChannelID.IS_NULL()).AND(db.Any(n.CommunityID, memberOf))))
	// What the lists take away: their rows are read by primary key (one
	// array, which Postgres looks up in the index), never matched row by
	// row against the member's thousands.
	if marked := append(slices.Clone(s.Dismissed), s.Read...); len(marked) > 0 {
		type mark struct {
			ID    uuid.UUID
			Newer bool
		}
		ms, err := db.All[mark](ctx, q.db, SELECT(n.ID.AS("id"), newer.AS("newer")).FROM(n).
			WHERE(db.Any(n.ID, marked).AND(base)))
		if err != nil {
			return page, fmt.Errorf("notifications: count: %w", err)
		}
		isDismissed := map[uuid.UUID]bool{}
		for _, id := range s.Dismissed {
			isDismissed[id] = true
		}
		for _, m := range ms {
			// A read one is in the list but not unread; a dismissed one in
			// neither.
			if isDismissed[m.ID] {
				gone++
			}
			if m.Newer {
				goneNewer++
			}
		}
	}
	page.Total, page.Unread = all-gone, allNewer-goneNewer
	if page.Total <= r.Offset() {
		return page, nil
	}
	isRead := db.Any(n.ID, s.Read)
	where := base.AND(NOT(db.Any(n.ID, s.Dismissed)))
	unread := newer.AND(NOT(isRead))
	rows, err := db.All[listRow](ctx, q.db, SELECT(n.ID.AS("id"), n.Kind.AS("kind"), n.CreatedOn.AS("created_on"),
		n.AuthorID.AS("author_id"), u.FirstName.AS("first_name"), u.LastName.AS("last_name"), u.Avatar.AS("avatar"),
		n.Preview.AS("preview"), co.ID.AS("community_id"), co.Name.AS("community_name"), fo.ID.AS("series_id"),
		fo.Name.AS("series_name"), n.PostID.AS("post_id"), n.SourceID.AS("source_id"), isRead.AS("is_read"), unread.AS("is_unread")).
		FROM(n.LEFT_JOIN(fo, fo.ID.EQ(n.SeriesID)).
			INNER_JOIN(co, co.ID.EQ(StringExp(COALESCE(fo.CommunityID, n.CommunityID)))).
			LEFT_JOIN(u, u.ID.EQ(n.AuthorID))).WHERE(where).
		ORDER_BY(n.CreatedOn.DESC(), n.ID.DESC()).LIMIT(int64(r.PageSize)).OFFSET(int64(r.Offset())))
	if err != nil {
		return page, fmt.Errorf("notifications: list: %w", err)
	}
	for _, row := range rows {
		it := Notification{ID: row.ID, Type: row.Kind, CreatedOn: jsontime.Of(row.CreatedOn), Raw: row.Preview,
			Context: Context{CommunityID: row.CommunityID, CommunityName: row.CommunityName, SeriesID: row.SeriesID, SeriesName: row.SeriesName},
			PostID:  row.PostID, ReplyID: notice.ReplyOf(row.Kind, row.SourceID, row.PostID), IsRead: row.IsRead, IsUnread: row.IsUnread}
		if row.AuthorID != nil && row.FirstName != nil {
			it.Author = &Author{UserID: *row.AuthorID, FirstName: *row.FirstName, LastName: deref(row.LastName), Avatar: row.Avatar}
		}
		page.Results = append(page.Results, it)
	}
	return page, nil
}

// listRow is a row of the list's statement, its columns by name; the
// author's are null for a notification without one (or whose author is
// gone), the forum's for one about a community.
type listRow struct {
	ID                  uuid.UUID
	Kind                string
	CreatedOn           time.Time
	AuthorID            *uuid.UUID
	FirstName, LastName *string
	Avatar              *string
	Preview             string
	CommunityID         uuid.UUID
	CommunityName       string
	SeriesID            *uuid.UUID
	SeriesName          *string
	PostID              *uuid.UUID
	SourceID            uuid.UUID
	IsRead, IsUnread    bool
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Live is the Notification of a row just written, as the list shows it to
// its recipient: new, so unread. The row comes from the change stream; the
// author's name and the forum's are read now (they were committed before
// it).
func (q *Queries) Live(ctx context.Context, n model.Notifications) (Notification, error) {
	it := Notification{ID: n.ID, Type: n.Kind, CreatedOn: jsontime.Of(n.CreatedOn), Raw: n.Preview, IsUnread: true,
		PostID: n.PostID, ReplyID: notice.ReplyOf(n.Kind, n.SourceID, n.PostID)}
	if n.SeriesID == nil && n.CommunityID == nil {
		return it, nil
	}
	it.Context.SeriesID = n.SeriesID
	fo, co, u := table.Series, table.Communities, table.Users
	author, series, community := UUID(uuid.Nil), UUID(uuid.Nil), UUID(uuid.Nil)
	if n.AuthorID != nil {
		author = UUID(*n.AuthorID)
	}
	if n.SeriesID != nil {
		series = UUID(*n.SeriesID)
	}
	if n.CommunityID != nil {
		community = UUID(*n.CommunityID)
	}
	var first, last *string
	var avatar *string
	// One row whichever of the forum and the author there is: the
	// community is the forum's, or the row's own for a community-join.
	err := db.QueryRow(ctx, q.db, SELECT(co.ID, co.Name, fo.Name, u.FirstName, u.LastName, u.Avatar).
		FROM(co.LEFT_JOIN(fo, fo.ID.EQ(series)).LEFT_JOIN(u, u.ID.EQ(author))).
		WHERE(co.ID.EQ(StringExp(COALESCE(fo.CommunityID, community))))).
		Scan(&it.Context.CommunityID, &it.Context.CommunityName, &it.Context.SeriesName, &first, &last, &avatar)
	if err != nil {
		return it, fmt.Errorf("notifications: live: %w", err)
	}
	if n.AuthorID != nil && first != nil {
		it.Author = &Author{UserID: *n.AuthorID, FirstName: *first, LastName: deref(last), Avatar: avatar}
	}
	return it, nil
}

// ReplyParent is the comment a reply answers; nil for a comment. A reply
// gone is pgx.ErrNoRows.
func (q *Queries) ReplyParent(ctx context.Context, replyID uuid.UUID) (*uuid.UUID, error) {
	r := table.Replies
	var parent *uuid.UUID
	if err := db.QueryRow(ctx, q.db, SELECT(r.ParentID).FROM(r).WHERE(r.ID.EQ(UUID(replyID)))).Scan(&parent); err != nil {
		return nil, err
	}
	return parent, nil
}
