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
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/nullable"
	"agora/internal/rules/message"
)

// Edit is PATCH /threads/private/{id}: a nil field keeps its value, a Set
// field with a nil value clears it.
type Edit struct {
	MessageID uuid.UUID
	Actor     auth.Caller
	// RoomID, when set, is the Meet Up whose chat holds the message
	// (PATCH /meetings/{roomId}/chat/threads/{id}).
	RoomID *uuid.UUID
	Raw    *string
	Image  nullable.Field[message.Image]
	File   nullable.Field[message.File]
	Link   nullable.Field[message.Link]
}

// Edit lets the author change their message; the content rules are those
// of a new message.
func (s *Service) Edit(ctx context.Context, in Edit) error {
	var detached []uuid.UUID
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		_, creator, err := s.lockedMessage(ctx, tx, in.Actor, in.RoomID, in.MessageID)
		if err != nil {
			return err
		}
		if creator != in.Actor.UserID {
			return apperr.ErrForbidden
		}
		var stored message.Stored
		m := table.PrivateMessages
		if err := db.QueryRow(ctx, tx, SELECT(m.Raw, m.Image, m.File, m.Link).FROM(m).WHERE(m.ID.EQ(UUID(in.MessageID)))).
			Scan(&stored.Raw, &stored.Image, &stored.File, &stored.Link); err != nil {
			return fmt.Errorf("chat: message: %w", err)
		}
		c, prevImage, prevFile, err := stored.Edited(message.Edit{Raw: in.Raw, Image: in.Image, File: in.File, Link: in.Link})
		if err != nil {
			return err
		}
		fields := apperr.Fields{}
		check(&c, fields)
		owner := message.PrivateOwner(in.MessageID)
		att, err := message.AttachUploads(ctx, tx, in.Actor.UserID, owner, c, prevImage, prevFile, fields)
		if err != nil {
			return err
		}
		if err := fields.Err(); err != nil {
			return err
		}
		img, fl, err := att.Stored()
		if err != nil {
			return err
		}
		ln, err := message.JSONOrNull(c.Link)
		if err != nil {
			return err
		}
		now := s.timestamp()
		if _, err := db.Exec(ctx, tx, m.UPDATE(m.Raw, m.Image, m.File, m.Link, m.UpdatedOn).
			MODEL(model.PrivateMessages{Raw: c.Raw, Image: img, File: fl, Link: ln, UpdatedOn: now}).
			WHERE(m.ID.EQ(UUID(in.MessageID)))); err != nil {
			return fmt.Errorf("chat: edit: %w", err)
		}
		detached, err = att.Bind(ctx, tx, owner, now)
		return err
	})
	if err == nil {
		s.removeBlobs(detached)
	}
	return err
}

// Delete is DELETE /threads/private/{id} (room nil) and DELETE
// /meetings/{roomId}/chat/threads/{id}: the author removes their message
// with its uploads and reactions.
func (s *Service) Delete(ctx context.Context, actor auth.Caller, room *uuid.UUID, messageID uuid.UUID) error {
	var detached []uuid.UUID
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		_, creator, err := s.lockedMessage(ctx, tx, actor, room, messageID)
		if err != nil {
			return err
		}
		if creator != actor.UserID {
			return apperr.ErrForbidden
		}
		if detached, err = message.DetachAll(ctx, tx, message.PrivateOwner(messageID)); err != nil {
			return err
		}
		m := table.PrivateMessages
		if _, err := db.Exec(ctx, tx, m.DELETE().WHERE(m.ID.EQ(UUID(messageID)))); err != nil {
			return fmt.Errorf("chat: delete: %w", err)
		}
		return nil
	})
	if err == nil {
		s.removeBlobs(detached)
	}
	return err
}

// React is PUT /threads/private/{id}/reaction.
type React struct {
	MessageID uuid.UUID
	Actor     auth.Caller
	// RoomID, when set, is the Meet Up whose chat holds the message.
	RoomID *uuid.UUID
	// Reaction is the reaction, null to clear it; it must be sent.
	Reaction nullable.Field[string]
}

// React sets or clears the caller's reaction on the other member's
// message. Unlike a post's, the same reaction sent again clears it (spec
// 002 §4): the server toggles, so that two tabs agree.
func (s *Service) React(ctx context.Context, in React) error {
	if err := message.CheckReaction(in.Reaction); err != nil {
		return err
	}
	kind := in.Reaction.Value
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		_, creator, err := s.lockedMessage(ctx, tx, in.Actor, in.RoomID, in.MessageID)
		if err != nil {
			return err
		}
		if creator == in.Actor.UserID {
			return ErrOwnReaction
		}
		r := table.PrivateMessageReactions
		mine := r.MessageID.EQ(UUID(in.MessageID)).AND(r.UserID.EQ(UUID(in.Actor.UserID)))
		var current *string
		if kinds, err := db.Values[string](ctx, tx, SELECT(r.Reaction).FROM(r).WHERE(mine)); err != nil {
			return fmt.Errorf("chat: reaction: %w", err)
		} else if len(kinds) > 0 {
			current = &kinds[0]
		}
		if kind == nil || current != nil && *current == *kind {
			_, err = db.Exec(ctx, tx, r.DELETE().WHERE(mine))
		} else {
			_, err = db.Exec(ctx, tx, r.INSERT(r.MessageID, r.UserID, r.Reaction, r.CreatedOn).
				VALUES(in.MessageID, in.Actor.UserID, *kind, s.timestamp()).
				ON_CONFLICT(r.MessageID, r.UserID).DO_UPDATE(SET(r.Reaction.SET(r.EXCLUDED.Reaction), r.CreatedOn.SET(r.EXCLUDED.CreatedOn))))
		}
		if err != nil {
			return fmt.Errorf("chat: react: %w", err)
		}
		return nil
	})
}

// Seen is POST /channels/private/{id}/seen: the caller opened the
// conversation now.
func (s *Service) Seen(ctx context.Context, actor auth.Caller, channelID uuid.UUID) error {
	cm := table.ChannelMembers
	tag, err := db.Exec(ctx, s.db, cm.UPDATE(cm.LastSeenOn).SET(TimestampzT(s.timestamp())).
		WHERE(cm.ChannelID.EQ(UUID(channelID)).AND(cm.UserID.EQ(UUID(actor.UserID)))))
	if err != nil {
		return fmt.Errorf("chat: seen: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return apperr.ErrNotFound
	}
	return nil
}
