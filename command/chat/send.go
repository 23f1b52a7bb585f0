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
	"agora/internal/rules/access"
	"agora/internal/rules/message"
)

// Send is POST /threads/private: a message to one peer.
type Send struct {
	Actor auth.Caller
	// MemberIDs name the other member, exactly one.
	MemberIDs []string
	message.Content
}

// Send writes a message in the private channel of the caller and the other
// member, making the channel with the first message. It answers the
// message's id.
func (s *Service) Send(ctx context.Context, in Send) (uuid.UUID, error) {
	fields := apperr.Fields{}
	var other uuid.UUID
	if len(in.MemberIDs) != 1 {
		fields.Add("memberIds", "must name exactly one other member")
	} else if u, err := uuid.Parse(in.MemberIDs[0]); err != nil {
		fields.Add("memberIds", "must be a user id")
	} else if u == in.Actor.UserID {
		fields.Add("memberIds", "must name someone other than you")
	} else {
		other = u
	}
	id := newID()
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		check(&in.Content, fields)
		att, err := message.AttachUploads(ctx, tx, in.Actor.UserID, message.PrivateOwner(id), in.Content, uuid.Nil, uuid.Nil, fields)
		if err != nil {
			return err
		}
		if err := fields.Err(); err != nil {
			return err
		}
		// Anyone who is not a peer, an unknown id included, is refused alike.
		if ok, err := access.MayChat(ctx, tx, in.Actor.UserID, other); err != nil || !ok {
			if err == nil {
				err = apperr.ErrForbidden
			}
			return err
		}
		channelID, err := s.pairChannel(ctx, tx, in.Actor.UserID, other)
		if err != nil {
			return err
		}
		return s.insert(ctx, tx, id, channelID, in.Actor.UserID, in.Content, att)
	})
	return id, err
}

// insert writes the checked message id of creator in the channel, whose
// row the caller locked (which orders the channel's writers), and binds
// its uploads: the one write of a private conversation's and a Meet Up
// chat's messages.
func (s *Service) insert(ctx context.Context, tx pgx.Tx, id, channelID, creator uuid.UUID, c message.Content, att message.Attachments) error {
	image, file, err := att.Stored()
	if err != nil {
		return err
	}
	link, err := message.JSONOrNull(c.Link)
	if err != nil {
		return err
	}
	now, err := message.PrivateTime(ctx, tx, channelID, s.timestamp())
	if err != nil {
		return err
	}
	m := table.PrivateMessages
	if _, err := db.Exec(ctx, tx, m.INSERT(m.ID, m.ChannelID, m.CreatorID, m.Raw, m.Image, m.Link, m.File, m.CreatedOn, m.UpdatedOn).
		MODEL(model.PrivateMessages{ID: id, ChannelID: channelID, CreatorID: creator, Raw: c.Raw,
			Image: image, Link: link, File: file, CreatedOn: now, UpdatedOn: now})); err != nil {
		return fmt.Errorf("chat: send: %w", err)
	}
	_, err = att.Bind(ctx, tx, message.PrivateOwner(id), now)
	return err
}

// pairChannel finds or makes the private channel of users a and b and locks
// its row. The pair key makes one channel per pair when both write first
// at once: the second insert waits for the first and then finds its row.
func (s *Service) pairChannel(ctx context.Context, tx pgx.Tx, a, b uuid.UUID) (uuid.UUID, error) {
	key := PairKey(a, b)
	c, cm := table.Channels, table.ChannelMembers
	if _, err := db.Exec(ctx, tx, c.INSERT(c.ID, c.Kind, c.PairKey, c.CreatedOn).
		VALUES(newID(), "private", key, s.timestamp()).ON_CONFLICT(c.PairKey).DO_NOTHING()); err != nil {
		return uuid.Nil, fmt.Errorf("chat: channel: %w", err)
	}
	var id uuid.UUID
	if err := db.QueryRow(ctx, tx, SELECT(c.ID).FROM(c).WHERE(c.PairKey.EQ(String(key))).FOR(UPDATE())).Scan(&id); err != nil {
		return uuid.Nil, fmt.Errorf("chat: channel: %w", err)
	}
	if _, err := db.Exec(ctx, tx, cm.INSERT(cm.ChannelID, cm.UserID).VALUES(id, a).VALUES(id, b).
		ON_CONFLICT(cm.ChannelID, cm.UserID).DO_NOTHING()); err != nil {
		return uuid.Nil, fmt.Errorf("chat: channel members: %w", err)
	}
	return id, nil
}

// PairKey is the channels.pair_key of users a and b: their ids in order.
func PairKey(a, b uuid.UUID) string {
	x, y := a.String(), b.String()
	if y < x {
		x, y = y, x
	}
	return x + ":" + y
}
