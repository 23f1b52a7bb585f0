package feed

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

// UpdateThread is PATCH /threads/{id}. A nil field keeps its value; a Set
// field with a nil value clears it.
type UpdateThread struct {
	ThreadID uuid.UUID
	Actor    auth.Caller
	Raw      *string
	Image    nullable.Field[message.Image]
	File     nullable.Field[message.File]
	Link     nullable.Field[message.Link]
	// MeetingSet is a non-null meeting, refused here.
	MeetingSet bool
}

// UpdateThread lets the creator or a forum admin edit a post; the content
// rules are those of a new post.
func (s *Service) UpdateThread(ctx context.Context, in UpdateThread) error {
	var detached []uuid.UUID
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		t, f, err := loadThread(ctx, tx, in.Actor, in.ThreadID)
		if err != nil {
			return err
		}
		if t.CreatorID != in.Actor.UserID && !f.Admin {
			return apperr.ErrForbidden
		}
		if err := onlyCreatorOfMeetup(ctx, tx, t, in.Actor); err != nil {
			return err
		}
		var stored message.Stored
		th := table.Threads
		if err := db.QueryRow(ctx, tx, SELECT(th.Raw, th.Image, th.File, th.Link).FROM(th).WHERE(th.ID.EQ(UUID(t.ID))).FOR(UPDATE())).
			Scan(&stored.Raw, &stored.Image, &stored.File, &stored.Link); err != nil {
			return fmt.Errorf("feed: thread: %w", err)
		}
		c, prevImage, prevFile, err := stored.Edited(message.Edit{Raw: in.Raw, Image: in.Image, File: in.File, Link: in.Link})
		if err != nil {
			return err
		}
		fields := apperr.Fields{}
		checkPost(&c, fields)
		att, err := message.AttachUploads(ctx, tx, in.Actor.UserID, message.PostOwner(t.ID), c, prevImage, prevFile, fields)
		if err != nil {
			return err
		}
		if in.MeetingSet {
			fields.Add("meeting", "must be null: Meet Ups are edited separately")
		}
		if len(fields) > 0 {
			return ErrPostUpdating.With("fields", map[string]string(fields))
		}
		text, mentions, hashtags, err := parse(ctx, tx, mentionable{seriesID: t.SeriesID}, c.Raw)
		if err != nil {
			return err
		}
		c.Raw = text
		img, fl, err := att.Stored()
		if err != nil {
			return err
		}
		ln, err := message.JSONOrNull(c.Link)
		if err != nil {
			return err
		}
		now := s.timestamp()
		_, err = db.Exec(ctx, tx, th.UPDATE(th.Raw, th.Image, th.File, th.Link, th.Mentions, th.Hashtags, th.UpdatedOn).
			MODEL(model.Threads{Raw: c.Raw, Image: img, File: fl, Link: ln, Mentions: mentions, Hashtags: hashtags, UpdatedOn: now}).
			WHERE(th.ID.EQ(UUID(t.ID))))
		if err != nil {
			return fmt.Errorf("feed: update thread: %w", err)
		}
		// An upload the edit replaced or removed goes.
		detached, err = att.Bind(ctx, tx, message.PostOwner(t.ID), now)
		return err
	})
	if err == nil {
		s.removeBlobs(detached)
	}
	return err
}
