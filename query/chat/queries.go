// Package chat is the read side of private chat (spec 002 §3, §4): a
// member's private channels, a conversation's messages, one message as the
// live events show it, and a user's personalization. A channel and its
// messages are read by its two members only; to anyone else they are
// unknown.
package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/blob"
	"agora/internal/db"
	"agora/internal/db/gen/table"
	"agora/internal/jsontime"
	qfeed "agora/query/feed"
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
	ID        uuid.UUID         `json:"id"`
	ChannelID uuid.UUID         `json:"channelId"`
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

// selectMessages selects messages with their creators; readers are the
// reader's channels (nil: unchecked, for the live events, whose audience
// is decided apart).
func selectMessages(reader *uuid.UUID, where BoolExpression) SelectStatement {
	from := mm.INNER_JOIN(mu, mu.ID.EQ(mm.CreatorID))
	if reader != nil {
		from = from.INNER_JOIN(mine, mine.ChannelID.EQ(mm.ChannelID).AND(mine.UserID.EQ(UUID(*reader))))
	}
	return SELECT(mm.ID, mm.ChannelID, mm.CreatorID, mu.FirstName, mu.LastName, mu.Avatar, mm.Raw, mm.Image, mm.Link, mm.File,
		mm.CreatedOn, mm.UpdatedOn).FROM(from).WHERE(where)
}

// readMessages runs a selectMessages statement and completes its messages:
// reactions, signed attachments and isMine for reader (uuid.Nil: none).
func (q *Queries) readMessages(ctx context.Context, stmt Statement, reader uuid.UUID) ([]Message, error) {
	out, err := db.Collect(ctx, q.db, stmt, func(r pgx.Row) (Message, error) {
		var m Message
		var image, link, file []byte
		var created, updated time.Time
		err := r.Scan(&m.ID, &m.ChannelID, &m.CreatorID, &m.Creator.FirstName, &m.Creator.LastName, &m.Creator.Avatar,
			&m.Raw, &image, &link, &file, &created, &updated)
		m.Creator.UserID, m.Image, m.Link, m.File = m.CreatorID, orNull(image), orNull(link), orNull(file)
		m.CreatedOn, m.UpdatedOn = jsontime.Of(created), jsontime.Of(updated)
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("chat: messages: %w", err)
	}
	if len(out) == 0 {
		return []Message{}, nil
	}
	ids := make([]uuid.UUID, len(out))
	at := map[uuid.UUID]int{}
	for i := range out {
		ids[i], at[out[i].ID] = out[i].ID, i
		out[i].Reactions = map[string]string{}
		if out[i].Image, out[i].File, err = qfeed.SignStored(q.links, out[i].Image, out[i].File); err != nil {
			return nil, err
		}
		out[i] = out[i].For(reader)
	}
	r := table.PrivateMessageReactions
	rows, err := db.Query(ctx, q.db, SELECT(r.MessageID, r.UserID, r.Reaction).FROM(r).WHERE(db.Any(r.MessageID, ids)))
	if err != nil {
		return nil, fmt.Errorf("chat: reactions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var msg, user uuid.UUID
		var kind string
		if err := rows.Scan(&msg, &user, &kind); err != nil {
			return nil, fmt.Errorf("chat: reactions: %w", err)
		}
		out[at[msg]].Reactions[user.String()] = kind
	}
	return out, rows.Err()
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
	return ms[0], nil
}

// LiveMessage is one message for the live events, which set isMine per
// receiver: pgx.ErrNoRows when it is gone.
func (q *Queries) LiveMessage(ctx context.Context, id uuid.UUID) (Message, error) {
	ms, err := q.readMessages(ctx, selectMessages(nil, mm.ID.EQ(UUID(id))), uuid.Nil)
	if err != nil {
		return Message{}, err
	}
	if len(ms) == 0 {
		return Message{}, pgx.ErrNoRows
	}
	return ms[0], nil
}
