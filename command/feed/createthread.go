package feed

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"agora/internal/access"
	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db"
)

// CreateThread is POST /series/{id}/threads: a post or a question.
type CreateThread struct {
	SeriesID  uuid.UUID
	Actor     auth.Caller
	ChannelID *string
	Content
	// Type is "post" (the default), "question" or "shared-ai-chat".
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
	err := db.InTx(ctx, s.db, func(tx *sql.Tx) error {
		f, err := access.InForum(ctx, tx, in.Actor.UserID, in.Actor.Role, in.SeriesID)
		if err != nil {
			return err
		}
		if !f.Read() {
			return apperr.ErrForbidden
		}
		fields := apperr.Fields{}
		channelID, perr := uuid.Parse(*in.ChannelID)
		var kind string
		if perr != nil {
			fields.Add("channelId", "must be a UUID")
		} else {
			err := tx.QueryRowContext(ctx, `SELECT kind FROM channels WHERE id = $1 AND series_id = $2`, channelID, in.SeriesID).Scan(&kind)
			if errors.Is(err, sql.ErrNoRows) {
				fields.Add("channelId", "must be a channel of this forum")
			} else if err != nil {
				return fmt.Errorf("feed: channel: %w", err)
			}
		}
		if kind == "admin" && !f.Admin {
			return apperr.ErrForbidden
		}
		in.Content.check(fields)
		if err := attachUploads(ctx, tx, in.Actor.UserID, &in.Content, Content{}, fields); err != nil {
			return err
		}
		typ, as := in.Type, in.CreatorAs
		if typ == "" {
			typ = "post"
		}
		if typ != "post" && typ != "question" && typ != "shared-ai-chat" {
			fields.Add("type", "must be post, question or shared-ai-chat")
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
		mentions, hashtags, err := parse(ctx, tx, in.SeriesID, in.Raw)
		if err != nil {
			return err
		}
		image, err := jsonOrNull(in.Image)
		if err != nil {
			return err
		}
		file, err := jsonOrNull(in.File)
		if err != nil {
			return err
		}
		link, err := jsonOrNull(in.Link)
		if err != nil {
			return err
		}
		// Posts of a channel get distinct times, in order: the feed's cursor is
		// a createdOn alone, so two posts in one millisecond could straddle a
		// page and one be skipped. The channel row lock orders its writers.
		now := s.timestamp()
		var last *time.Time
		if err := tx.QueryRowContext(ctx, `SELECT (SELECT max(created_on) FROM threads WHERE channel_id = c.id) FROM channels c WHERE c.id = $1 FOR UPDATE`, channelID).
			Scan(&last); err != nil {
			return fmt.Errorf("feed: channel lock: %w", err)
		}
		if last != nil && !now.After(*last) {
			now = last.Add(time.Millisecond)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO threads (id, channel_id, series_id, creator_id, creator_as, type, raw, image, file, link, mentions, hashtags, created_on, updated_on)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::text[]::uuid[], $12, $13, $13)`,
			id, channelID, in.SeriesID, in.Actor.UserID, as, typ, in.Raw, image, file, link, mentions, hashtags, now)
		if err != nil {
			return fmt.Errorf("feed: create thread: %w", err)
		}
		return nil
	})
	return id, err
}
