package chat

import (
	"context"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
	"agora/internal/plumbing/paging"
	"agora/query/search"
)

// Page sizes of the private chat lists.
const (
	// MaxMessagePage is the largest page of a conversation (the client
	// reads 20).
	MaxMessagePage = 100
	// MaxChannelPage is the largest page of the channel list.
	MaxChannelPage = 100
)

// Conversation is GET /channels/private/{id}/threads: messages newest
// first, those created before CreatedBefore (exclusive) when set.
type Conversation struct {
	Reader        auth.Caller
	ChannelID     uuid.UUID
	PageSize      int
	CreatedBefore *time.Time
}

// Conversation reads a page of a channel the reader is a member of; any
// other channel is not found. Total counts the whole conversation.
func (q *Queries) Conversation(ctx context.Context, in Conversation) (paging.Page[Message], error) {
	page := paging.Page[Message]{Results: []Message{}}
	if err := checkMessagePage(in.PageSize); err != nil {
		return page, err
	}
	cm := table.ChannelMembers
	n, err := db.Count(ctx, q.db, cm, cm.ChannelID.EQ(UUID(in.ChannelID)).AND(cm.UserID.EQ(UUID(in.Reader.UserID))))
	if err != nil {
		return page, fmt.Errorf("chat: channel: %w", err)
	}
	if n == 0 {
		return page, apperr.ErrNotFound
	}
	return q.page(ctx, in.ChannelID, in.Reader.UserID, in.PageSize, in.CreatedBefore)
}

// Latest is a channel's latest message as the channel list shows it.
type Latest struct {
	ID        uuid.UUID     `json:"id"`
	CreatorID uuid.UUID     `json:"creatorId"`
	Raw       string        `json:"raw"`
	CreatedOn jsontime.Time `json:"createdOn"`
}

// Channel is a PrivateChannel (contract of issue 16).
type Channel struct {
	ID        uuid.UUID   `json:"id"`
	MemberIDs []uuid.UUID `json:"memberIds"`
	Peer      search.Peer `json:"peer"`
	// HasUnread is whether the latest message is the other member's and
	// newer than the reader's last look.
	HasUnread    bool           `json:"hasUnread"`
	LatestThread *Latest        `json:"latestThread"`
	LastSeenOn   *jsontime.Time `json:"lastSeenOn"`
	// LastActivityOn is what the reader's browser stored as
	// conversations.<id>.lastActivityOn in their personalization.
	LastActivityOn *jsontime.Time `json:"lastActivityOn"`
}

// channelRow is a row of the Channels statement, its columns by name.
type channelRow struct {
	ID, PeerID         uuid.UUID
	LastSeenOn         *time.Time
	LatestID, LatestBy *uuid.UUID
	LatestRaw          *string
	LatestOn           *time.Time
	// Activity is the reader's stored lastActivityOn of the conversation.
	Activity            *string
	FirstName, LastName string
	Avatar              *string
	Company, JobTitle   string
	InterestTags        []string
	OnlineOn            *time.Time
	Total               int
}

// channel is the row as reader sees the channel.
func (r channelRow) channel(reader uuid.UUID) Channel {
	p := search.Peer{ID: r.PeerID, UserID: r.PeerID, Name: r.FirstName + " " + r.LastName, FirstName: r.FirstName, LastName: r.LastName,
		Avatar: r.Avatar, Company: r.Company, JobTitle: r.JobTitle, InterestTags: r.InterestTags, Tags: r.InterestTags,
		Status: "offline", Presence: jsontime.Ptr(r.OnlineOn), LastMessageOn: jsontime.Ptr(r.LatestOn)}
	if r.OnlineOn != nil {
		p.Status = "online"
	}
	ch := Channel{ID: r.ID, Peer: p, MemberIDs: []uuid.UUID{reader, p.ID}, LastSeenOn: jsontime.Ptr(r.LastSeenOn)}
	if r.LatestID != nil {
		ch.LatestThread = &Latest{ID: *r.LatestID, CreatorID: *r.LatestBy, Raw: *r.LatestRaw, CreatedOn: jsontime.Of(*r.LatestOn)}
		ch.HasUnread = *r.LatestBy != reader && (r.LastSeenOn == nil || r.LatestOn.After(*r.LastSeenOn))
	}
	if r.Activity != nil {
		if t, err := time.Parse(time.RFC3339Nano, *r.Activity); err == nil {
			ch.LastActivityOn = jsontime.Ptr(&t)
		}
	}
	return ch
}

// Channels is GET /channels/private: the reader's channels, the latest
// activity (message, else the channel's making) first; with PeerID, only
// the one with that user, if any (a conversation finds its channel so,
// however many the reader has).
type Channels struct {
	Reader  auth.Caller
	Request paging.Request
	PeerID  *uuid.UUID
}

// Channels reads a page of the reader's channels.
func (q *Queries) Channels(ctx context.Context, in Channels) (paging.Page[Channel], error) {
	page := paging.Page[Channel]{Results: []Channel{}}
	reader, r := in.Reader, in.Request
	f := apperr.Fields{}
	r.Check(f, MaxChannelPage)
	if err := f.Err(); err != nil {
		return page, err
	}
	me := UUID(reader.UserID)
	c, other, u, o := table.Channels.AS("c"), table.ChannelMembers.AS("other"), table.Users.AS("u"), table.OnlineUsers.AS("o")
	pair := mine.INNER_JOIN(other, other.ChannelID.EQ(mine.ChannelID).AND(other.UserID.NOT_EQ(me)))
	where := mine.UserID.EQ(me)
	if in.PeerID != nil {
		where = where.AND(other.UserID.EQ(UUID(*in.PeerID)))
	}
	up := table.UserPersonalization.AS("up")
	l := table.PrivateMessages.AS("l")
	latest := LATERAL(SELECT(l.ID, l.CreatorID, l.Raw, l.CreatedOn).FROM(l).WHERE(l.ChannelID.EQ(mine.ChannelID)).
		ORDER_BY(l.CreatedOn.DESC(), l.ID.DESC()).LIMIT(1)).AS("latest")
	latestOn := l.CreatedOn.From(latest)
	activity := RawString("up.data ->> ('conversations.' || mine.channel_id || '.lastActivityOn')")
	stmt := SELECT(mine.ChannelID.AS("id"), other.UserID.AS("peer_id"), mine.LastSeenOn.AS("last_seen_on"),
		l.ID.From(latest).AS("latest_id"), l.CreatorID.From(latest).AS("latest_by"), l.Raw.From(latest).AS("latest_raw"),
		latestOn.AS("latest_on"), activity.AS("activity"), u.FirstName.AS("first_name"), u.LastName.AS("last_name"),
		u.Avatar.AS("avatar"), u.Company.AS("company"), u.JobTitle.AS("job_title"), u.InterestTags.AS("interest_tags"),
		o.OnlineOn.AS("online_on"), COUNT(STAR).OVER().AS("total")).
		FROM(pair.INNER_JOIN(c, c.ID.EQ(mine.ChannelID)).
			INNER_JOIN(u, u.ID.EQ(other.UserID)).
			LEFT_JOIN(o, o.UserID.EQ(u.ID)).
			LEFT_JOIN(up, up.UserID.EQ(me)).
			LEFT_JOIN(latest, Bool(true))).
		WHERE(where).
		ORDER_BY(COALESCE(latestOn, c.CreatedOn).DESC(), mine.ChannelID).
		LIMIT(int64(r.PageSize)).OFFSET(int64(r.Offset()))
	read := func() (paging.Page[Channel], error) {
		rows, err := db.All[channelRow](ctx, q.db, stmt)
		if err != nil {
			return page, fmt.Errorf("chat: channels: %w", err)
		}
		for _, row := range rows {
			page.Total = row.Total
			page.Results = append(page.Results, row.channel(reader.UserID))
		}
		return page, nil
	}
	return paging.Windowed(r, read, func() (int, error) {
		return db.Count(ctx, q.db, pair, where)
	})
}

// checkMessagePage refuses a page size of a conversation outside 1 to
// MaxMessagePage: a private one's and a Meet Up's alike.
func checkMessagePage(size int) error {
	if size < 1 || size > MaxMessagePage {
		return apperr.Invalid(map[string]string{"pageSize": fmt.Sprintf("must be 1 to %d", MaxMessagePage)})
	}
	return nil
}
