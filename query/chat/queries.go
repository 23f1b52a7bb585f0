// Package chat is the read side of private chat (spec 002 §3, §4): a
// member's private channels, a conversation's messages, one message as the
// live events show it. A channel and its messages are read by its two
// members only; to anyone else they are unknown.
package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/adapters/blob"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
	"agora/internal/rules/access"
	"agora/internal/rules/message"
)

// Queries reads private chat from Postgres.
type Queries struct {
	db    *pgxpool.Pool
	links *blob.Links
}

// New builds the queries; links sign the URLs of the messages' uploads.
func New(d *db.DB, links *blob.Links) (*Queries, error) {
	if d == nil || d.Pool == nil || links == nil {
		return nil, errors.New("chat.New: nil dependency")
	}
	return &Queries{db: d.Pool, links: links}, nil
}

// Creator is the author of a message.
type Creator struct {
	UserID    uuid.UUID `json:"userId"`
	FirstName string    `json:"firstName"`
	LastName  string    `json:"lastName"`
	Avatar    *string   `json:"avatar"`
}

// Message is a ChatMessage (contract of issue 16): image, file and link as
// a post shows them, reactions by user id.
type Message struct {
	ID        uuid.UUID `json:"id"`
	ChannelID uuid.UUID `json:"channelId"`
	// RoomID is the Meet Up of a Meet Up chat's message, nil for a
	// private message.
	RoomID    *uuid.UUID        `json:"roomId"`
	CreatorID uuid.UUID         `json:"creatorId"`
	Creator   Creator           `json:"creator"`
	Raw       string            `json:"raw"`
	Image     json.RawMessage   `json:"image"`
	Link      json.RawMessage   `json:"link"`
	File      json.RawMessage   `json:"file"`
	CreatedOn jsontime.Time     `json:"createdOn"`
	UpdatedOn jsontime.Time     `json:"updatedOn"`
	Reactions map[string]string `json:"reactions"`
	// IsMine is whether the reader wrote it: set per reader.
	IsMine bool `json:"isMine"`
}

// For is m as reader sees it.
func (m Message) For(reader uuid.UUID) Message {
	m.IsMine = m.CreatorID == reader
	return m
}

var (
	mm, mu = table.PrivateMessages.AS("m"), table.Users.AS("mu")
	// mine is a channel membership of the reader.
	mine = table.ChannelMembers.AS("mine")
)

// selectMessages selects messages with their creators, their reactions
// (a JSON object of user id to reaction, null when none) and their
// channel's members; reader limits them to the reader's channels (nil:
// unchecked, for the live events, whose audience is the members read
// here). One statement a page, and one for a batch of the change stream's
// messages (see LiveMessages).
func selectMessages(reader *uuid.UUID, where BoolExpression) SelectStatement {
	from := mm.INNER_JOIN(mu, mu.ID.EQ(mm.CreatorID))
	if reader != nil {
		from = from.INNER_JOIN(mine, mine.ChannelID.EQ(mm.ChannelID).AND(mine.UserID.EQ(UUID(*reader))))
	}
	r := table.PrivateMessageReactions.AS("r")
	reactions := SELECT(Func("jsonb_object_agg", r.UserID, r.Reaction)).FROM(r).WHERE(r.MessageID.EQ(mm.ID))
	members := Func("ARRAY", access.ChannelReaders(mm.ChannelID))
	c := table.Channels.AS("mc")
	room := SELECT(c.MeetingID).FROM(c).WHERE(c.ID.EQ(mm.ChannelID))
	return SELECT(mm.ID.AS("id"), mm.ChannelID.AS("channel_id"), mm.CreatorID.AS("creator_id"), mu.FirstName.AS("first_name"),
		mu.LastName.AS("last_name"), mu.Avatar.AS("avatar"), mm.Raw.AS("raw"), mm.Image.AS("image"), mm.Link.AS("link"),
		mm.File.AS("file"), mm.CreatedOn.AS("created_on"), mm.UpdatedOn.AS("updated_on"), reactions.AS("reactions"),
		members.AS("members"), room.AS("room_id")).FROM(from).WHERE(where)
}

// messageRow is a row of selectMessages, its columns by name.
type messageRow struct {
	ID, ChannelID, CreatorID uuid.UUID
	FirstName, LastName      string
	Avatar                   *string
	Raw                      string
	Image, Link, File        []byte
	CreatedOn, UpdatedOn     time.Time
	// Reactions is a JSON object of user id to reaction, nil when none.
	Reactions []byte
	Members   []uuid.UUID
	RoomID    *uuid.UUID
}

// LiveMessage is a message for the live events, which set isMine per
// receiver, and the members of its channel, who alone receive them.
type LiveMessage struct {
	Message
	Members []uuid.UUID
}

// readMessages runs a selectMessages statement and completes its messages:
// signed attachments and isMine for reader (uuid.Nil: none).
func (q *Queries) readMessages(ctx context.Context, stmt Statement, reader uuid.UUID) ([]LiveMessage, error) {
	rows, err := db.All[messageRow](ctx, q.db, stmt)
	if err != nil {
		return nil, fmt.Errorf("chat: messages: %w", err)
	}
	out := make([]LiveMessage, len(rows))
	for i, r := range rows {
		m := LiveMessage{Members: r.Members, Message: Message{
			ID: r.ID, ChannelID: r.ChannelID, RoomID: r.RoomID, CreatorID: r.CreatorID,
			Creator: Creator{UserID: r.CreatorID, FirstName: r.FirstName, LastName: r.LastName, Avatar: r.Avatar},
			Raw:     r.Raw, Image: orNull(r.Image), Link: orNull(r.Link), File: orNull(r.File),
			CreatedOn: jsontime.Of(r.CreatedOn), UpdatedOn: jsontime.Of(r.UpdatedOn),
			Reactions: map[string]string{},
		}}
		if r.Reactions != nil {
			if err := json.Unmarshal(r.Reactions, &m.Reactions); err != nil {
				return nil, fmt.Errorf("chat: messages: %w", err)
			}
		}
		out[i] = m
	}
	for i := range out {
		if out[i].Image, out[i].File, err = message.Shown(q.links, out[i].Image, out[i].File); err != nil {
			return nil, err
		}
		out[i].Message = out[i].For(reader)
	}
	return out, nil
}

func orNull(b []byte) json.RawMessage {
	if b == nil {
		return json.RawMessage("null")
	}
	return b
}

// Message is one message as its reader sees it; a message of a channel the
// reader is not a member of is not found.
func (q *Queries) Message(ctx context.Context, reader auth.Caller, id uuid.UUID) (Message, error) {
	ms, err := q.readMessages(ctx, selectMessages(&reader.UserID, mm.ID.EQ(UUID(id))), reader.UserID)
	if err != nil {
		return Message{}, err
	}
	if len(ms) == 0 {
		return Message{}, apperr.ErrNotFound
	}
	return ms[0].Message, nil
}

// LiveMessages are the messages of ids that exist, in no particular order,
// without isMine: a message gone, or whose transaction is not visible yet,
// is missing. The realtime projection reads a batch of the change stream's
// messages with it in one statement.
func (q *Queries) LiveMessages(ctx context.Context, ids []uuid.UUID) ([]LiveMessage, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return q.readMessages(ctx, selectMessages(nil, db.Any(mm.ID, ids)), uuid.Nil)
}
