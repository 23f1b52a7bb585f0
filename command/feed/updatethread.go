package feed

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db"
)

// UpdateThread is PATCH /threads/{id}. A nil field keeps its value; a Set
// field with a nil value clears it.
type UpdateThread struct {
	ThreadID uuid.UUID
	Actor    auth.Caller
	Raw      *string
	Image    Optional[Image]
	File     Optional[File]
	Link     Optional[Link]
	// MeetingSet is a non-null meeting, refused here.
	MeetingSet bool
}

// Optional is a field of an edit: Set when sent, Value nil when cleared.
type Optional[T any] struct {
	Set   bool
	Value *T
}

// UpdateThread lets the creator or a forum admin edit a post; the content
// rules are those of a new post.
func (s *Service) UpdateThread(ctx context.Context, in UpdateThread) error {
	return db.InTx(ctx, s.db, func(tx *sql.Tx) error {
		t, f, err := loadThread(ctx, tx, in.Actor, in.ThreadID)
		if err != nil {
			return err
		}
		if t.CreatorID != in.Actor.UserID && !f.Admin {
			return apperr.ErrForbidden
		}
		var c Content
		var image, file, link []byte
		if err := tx.QueryRowContext(ctx, `SELECT raw, image, file, link FROM threads WHERE id = $1 FOR UPDATE`, t.ID).
			Scan(&c.Raw, &image, &file, &link); err != nil {
			return fmt.Errorf("feed: thread: %w", err)
		}
		for _, u := range []struct {
			b   []byte
			dst any
		}{{image, &c.Image}, {file, &c.File}, {link, &c.Link}} {
			if u.b != nil {
				if err := json.Unmarshal(u.b, u.dst); err != nil {
					return fmt.Errorf("feed: thread content: %w", err)
				}
			}
		}
		prev := c
		if in.Raw != nil {
			c.Raw = *in.Raw
		}
		if in.Image.Set {
			c.Image = in.Image.Value
		}
		if in.File.Set {
			c.File = in.File.Value
		}
		if in.Link.Set {
			c.Link = in.Link.Value
		}
		fields := apperr.Fields{}
		c.check(fields)
		if err := attachUploads(ctx, tx, in.Actor.UserID, &c, prev, fields); err != nil {
			return err
		}
		if in.MeetingSet {
			fields.Add("meeting", "must be null: Meet Ups are edited separately")
		}
		if len(fields) > 0 {
			return ErrPostUpdating.With("fields", map[string]string(fields))
		}
		mentions, hashtags, err := parse(ctx, tx, t.SeriesID, c.Raw)
		if err != nil {
			return err
		}
		img, err := jsonOrNull(c.Image)
		if err != nil {
			return err
		}
		fl, err := jsonOrNull(c.File)
		if err != nil {
			return err
		}
		ln, err := jsonOrNull(c.Link)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE threads SET raw = $2, image = $3, file = $4, link = $5,
			mentions = $6::text[]::uuid[], hashtags = $7, updated_on = $8 WHERE id = $1`,
			t.ID, c.Raw, img, fl, ln, mentions, hashtags, s.timestamp())
		if err != nil {
			return fmt.Errorf("feed: update thread: %w", err)
		}
		return nil
	})
}
