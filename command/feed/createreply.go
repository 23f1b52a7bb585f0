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
)

// CreateReply is POST /threads/{id}/replies: a comment, or with ParentID a
// reply to a comment.
type CreateReply struct {
	ThreadID uuid.UUID
	Actor    auth.Caller
	Raw      *string
	ParentID *string
}

// CreateReply lets any reader of the forum comment. Nesting is one level:
// a reply to a reply is refused.
func (s *Service) CreateReply(ctx context.Context, in CreateReply) (uuid.UUID, error) {
	if in.Raw == nil {
		return uuid.Nil, apperr.MissingParameters("raw")
	}
	id := newID()
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		t, _, err := loadThread(ctx, tx, in.Actor, in.ThreadID)
		if err != nil {
			return err
		}
		fields := apperr.Fields{}
		raw := checkReplyText(in.Raw, fields)
		var parent *uuid.UUID
		if in.ParentID != nil {
			pid, err := uuid.Parse(*in.ParentID)
			if err != nil {
				fields.Add("parentId", "must be a UUID")
			} else {
				var grand *uuid.UUID
				r := table.Replies
				err := db.QueryRow(ctx, tx, SELECT(r.ParentID).FROM(r).WHERE(r.ID.EQ(UUID(pid)).AND(r.ThreadID.EQ(UUID(t.ID))))).Scan(&grand)
				switch {
				case errors.Is(err, pgx.ErrNoRows):
					fields.Add("parentId", "must be a comment of this post")
				case err != nil:
					return fmt.Errorf("feed: parent: %w", err)
				case grand != nil:
					fields.Add("parentId", "a reply cannot be replied to: reply to its comment")
				default:
					parent = &pid
				}
			}
		}
		if err := fields.Err(); err != nil {
			return err
		}
		who, err := commentsOn(ctx, tx, t)
		if err != nil {
			return err
		}
		text, mentions, hashtags, err := parse(ctx, tx, who, raw)
		if err != nil {
			return err
		}
		raw = text
		now := s.timestamp()
		_, err = db.Exec(ctx, tx, table.Replies.INSERT(table.Replies.AllColumns).
			MODEL(model.Replies{ID: id, ThreadID: t.ID, ParentID: parent, CreatorID: in.Actor.UserID, Raw: raw,
				Mentions: mentions, Hashtags: hashtags, CreatedOn: now, UpdatedOn: now}))
		if err != nil {
			return fmt.Errorf("feed: create reply: %w", err)
		}
		return nil
	})
	return id, err
}
