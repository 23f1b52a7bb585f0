// Package chat is the write side of chat (spec 002 §4): messages between
// two peers in their private channel, made with the first message, their
// edits, deletions and reactions, and each member's last look at the
// conversation; and the same for a Meet Up's chat, a channel of the Meet
// Up's (meetup.go). Only the two members of a private channel may touch
// it; to anyone else its channel and messages are unknown (404), so that
// they do not learn it exists. A Meet Up's chat is for those who may join
// the Meet Up.
package chat

import (
	"context"
	"errors"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/adapters/blob"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
	"agora/internal/rules/message"
)

// MaxText is the longest message text, in characters (spec 002 §4).
const MaxText = 800

// ErrOwnReaction refuses a reaction on one's own message.
var ErrOwnReaction = apperr.New(apperr.BadInput, "ownReaction", "you cannot react to your own message")

// Service runs the private chat commands.
type Service struct {
	db *pgxpool.Pool
	// store holds the messages' uploads, removed with their messages.
	store *blob.Store
	now   func() time.Time
}

// New builds the service.
func New(d *db.DB, store *blob.Store) (*Service, error) {
	if d == nil || d.Pool == nil || store == nil {
		return nil, errors.New("chat.New: nil dependency")
	}
	return &Service{db: d.Pool, store: store, now: time.Now}, nil
}

// timestamp is now to the millisecond, the precision of the wire: a
// conversation's createdBefore cursor is a createdOn read back from the API.
func (s *Service) timestamp() time.Time { return s.now().UTC().Truncate(time.Millisecond) }

// check trims the text and validates the content, adding to f: the rules
// of every message (message.Content.Check), and text unless an image or a
// file is attached (a link alone is not a message).
func check(c *message.Content, f apperr.Fields) {
	c.Check(f, MaxText)
	if c.Raw == "" && c.Image == nil && c.File == nil {
		f.Add("raw", "a message needs text, an image or a file")
	}
}

// lockedMessage reads and locks a message the actor may change: with room
// nil, one of a private channel they are a member of; with a room, one of
// that Meet Up's chat while the actor may join it and it has not ended
// (access.ReadMeetingChat). Any other message is not found.
func (s *Service) lockedMessage(ctx context.Context, tx pgx.Tx, actor auth.Caller, room *uuid.UUID, messageID uuid.UUID) (channelID, creatorID uuid.UUID, err error) {
	m, cm := table.PrivateMessages, table.ChannelMembers
	stmt := SELECT(m.ChannelID, m.CreatorID).
		FROM(m.INNER_JOIN(cm, cm.ChannelID.EQ(m.ChannelID).AND(cm.UserID.EQ(UUID(actor.UserID))))).
		WHERE(m.ID.EQ(UUID(messageID))).FOR(UPDATE().OF(m))
	if room != nil {
		chat, err := s.meetingChat(ctx, tx, actor, *room)
		if err != nil {
			return channelID, creatorID, err
		}
		if chat.ChannelID == nil {
			return channelID, creatorID, apperr.ErrNotFound
		}
		stmt = SELECT(m.ChannelID, m.CreatorID).FROM(m).
			WHERE(m.ID.EQ(UUID(messageID)).AND(m.ChannelID.EQ(UUID(*chat.ChannelID)))).FOR(UPDATE())
	}
	err = db.QueryRow(ctx, tx, stmt).Scan(&channelID, &creatorID)
	if errors.Is(err, pgx.ErrNoRows) {
		return channelID, creatorID, apperr.ErrNotFound
	}
	if err != nil {
		return channelID, creatorID, fmt.Errorf("chat: message: %w", err)
	}
	return channelID, creatorID, nil
}

// meetingChat is the Meet Up's chat for an actor about to write in it:
// one who may join it (access.ReadMeetingChat), before it ends.
func (s *Service) meetingChat(ctx context.Context, tx pgx.Tx, actor auth.Caller, room uuid.UUID) (access.MeetingChat, error) {
	chat, err := access.ReadMeetingChat(ctx, tx, actor, room, s.now())
	if err == nil && chat.Ended {
		err = access.ErrMeetingEnded
	}
	return chat, err
}

// removeBlobs removes the blobs of uploads whose rows a committed
// transaction deleted; one that stays is no longer served, its row being
// gone: it is only disk, so the message's change stands.
func (s *Service) removeBlobs(ids []uuid.UUID) { _ = s.store.RemoveAll(ids) }

func newID() uuid.UUID {
	id, err := uuid.NewV7()
	if err != nil {
		panic(err) // only when the system's random source fails
	}
	return id
}
