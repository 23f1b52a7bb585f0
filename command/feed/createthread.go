package feed

import (
	"context"
	"errors"
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

// CreateThread is POST /series/{id}/threads: a post or a question.
type CreateThread struct {
	SeriesID  uuid.UUID
	Actor     auth.Caller
	ChannelID *string
	message.Content
	// Type is "post" (the default) or "question"; a "shared-ai-chat" post
	// is made by command/aisearch's ShareChat, with its chat.
	Type string
	// CreatorAs is "author" (the default) or, for a question, "anonymous".
	CreatorAs string
	// MeetingSet is a non-null meeting, which only Meet Up scheduling may make.
	MeetingSet bool
}

// CreateThread checks the caller may post in the channel and writes the
// post with the mentions and hashtags read from its text.
func (s *Service) CreateThread(ctx context.Context, in CreateThread) (uuid.UUID, error) {
	if in.ChannelID == nil {
		return uuid.Nil, apperr.MissingParameters("channelId")
	}
	id := newID()
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		f, err := access.ReadForum(ctx, tx, in.Actor.UserID, in.Actor.Role, in.SeriesID)
		if err != nil {
			return err
		}
		fields := apperr.Fields{}
		channelID, perr := uuid.Parse(*in.ChannelID)
		var kind string
		if perr != nil {
			fields.Add("channelId", "must be a UUID")
		} else {
			c := table.Channels
			err := db.QueryRow(ctx, tx, SELECT(c.Kind).FROM(c).WHERE(c.ID.EQ(UUID(channelID)).AND(c.SeriesID.EQ(UUID(in.SeriesID))))).Scan(&kind)
			switch {
			case errors.Is(err, pgx.ErrNoRows) || (kind == "admin" && !f.Admin):
				// The admin channel is its admins'; to others it is as
				// unknown as any other id.
				fields.Add("channelId", "must be a channel of this forum")
			case err != nil:
				return fmt.Errorf("feed: channel: %w", err)
			}
		}
		checkPost(&in.Content, fields)
		att, err := message.AttachUploads(ctx, tx, in.Actor.UserID, message.PostOwner(id), in.Content, uuid.Nil, uuid.Nil, fields)
		if err != nil {
			return err
		}
		typ, as := in.Type, in.CreatorAs
		if typ == "" {
			typ = "post"
		}
		switch typ {
		case "post", "question":
		case "shared-ai-chat":
			// Such a post is its chat (spec 001: "type shared-ai-chat with a
			// chat"), which only sharing an AI search supplies.
			fields.Add("type", "a shared-ai-chat post is made by sharing an AI search (POST /api/ai-response/share-chat)")
		default:
			fields.Add("type", "must be post or question")
		}
		if as == "" {
			as = "author"
		}
		switch {
		case as != "author" && as != "anonymous":
			fields.Add("creatorAs", "must be author or anonymous")
		case as == "anonymous" && typ != "question":
			fields.Add("creatorAs", "only a question may be anonymous")
		}
		if in.MeetingSet {
			fields.Add("meeting", "must be null: Meet Ups are scheduled separately")
		}
		if len(fields) > 0 {
			return ErrPostCreating.With("fields", map[string]string(fields))
		}
		text, mentions, hashtags, err := parse(ctx, tx, mentionable{seriesID: in.SeriesID}, in.Raw)
		if err != nil {
			return err
		}
		in.Raw = text
		image, file, err := att.Stored()
		if err != nil {
			return err
		}
		link, err := message.JSONOrNull(in.Link)
		if err != nil {
			return err
		}
		now, err := message.PostTime(ctx, tx, channelID, s.timestamp())
		if err != nil {
			return err
		}
		t := table.Threads
		_, err = db.Exec(ctx, tx, t.INSERT(t.ID, t.ChannelID, t.SeriesID, t.CreatorID, t.CreatorAs, t.Type, t.Raw, t.Image, t.File, t.Link,
			t.Mentions, t.Hashtags, t.CreatedOn, t.UpdatedOn).
			MODEL(model.Threads{ID: id, ChannelID: channelID, SeriesID: in.SeriesID, CreatorID: in.Actor.UserID, CreatorAs: as, Type: typ,
				Raw: in.Raw, Image: image, File: file, Link: link, Mentions: mentions, Hashtags: hashtags, CreatedOn: now, UpdatedOn: now}))
		if err != nil {
			return fmt.Errorf("feed: create thread: %w", err)
		}
		// A new post had no uploads: nothing is detached.
		_, err = att.Bind(ctx, tx, message.PostOwner(id), now)
		return err
	})
	return id, err
}
