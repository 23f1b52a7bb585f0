package chat

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/message"
)

// SendInMeetUp is POST /meetings/{roomId}/chat/threads: a message in the
// Meet Up's chat.
type SendInMeetUp struct {
	Actor  auth.Caller
	RoomID uuid.UUID
	message.Content
}

// SendInMeetUp writes a message in the chat of a Meet Up the actor may
// join, until it ends, making its channel with the first message. The
// content rules, uploads and order are a private message's. It answers
// the message's id.
func (s *Service) SendInMeetUp(ctx context.Context, in SendInMeetUp) (uuid.UUID, error) {
	id := newID()
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := s.meetingChat(ctx, tx, in.Actor, in.RoomID); err != nil {
			return err
		}
		fields := apperr.Fields{}
		check(&in.Content, fields)
		att, err := message.AttachUploads(ctx, tx, in.Actor.UserID, message.PrivateOwner(id), in.Content, uuid.Nil, uuid.Nil, fields)
		if err != nil {
			return err
		}
		if err := fields.Err(); err != nil {
			return err
		}
		channelID, err := s.meetupChannel(ctx, tx, in.RoomID)
		if err != nil {
			return err
		}
		return s.insert(ctx, tx, id, channelID, in.Actor.UserID, in.Content, att)
	})
	return id, err
}

// meetupChannel finds or makes the Meet Up's chat channel and locks its
// row; meeting_id is unique, so two first messages at once make one.
func (s *Service) meetupChannel(ctx context.Context, tx pgx.Tx, room uuid.UUID) (uuid.UUID, error) {
	c := table.Channels
	if _, err := db.Exec(ctx, tx, c.INSERT(c.ID, c.Kind, c.MeetingID, c.CreatedOn).
		VALUES(newID(), "meetup", room, s.timestamp()).ON_CONFLICT(c.MeetingID).DO_NOTHING()); err != nil {
		return uuid.Nil, fmt.Errorf("chat: meetup channel: %w", err)
	}
	var id uuid.UUID
	if err := db.QueryRow(ctx, tx, SELECT(c.ID).FROM(c).WHERE(c.MeetingID.EQ(UUID(room))).FOR(UPDATE())).Scan(&id); err != nil {
		return uuid.Nil, fmt.Errorf("chat: meetup channel: %w", err)
	}
	return id, nil
}
