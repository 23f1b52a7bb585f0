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
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/message"
)

// DeleteThread is DELETE /threads/{id}.
type DeleteThread struct {
	ThreadID uuid.UUID
	Actor    auth.Caller
}

// DeleteThread lets the creator or a forum admin delete a post (a Meet
// Up's post: its creator alone), with its
// comments and reactions, and its uploads: their blobs are removed, so
// that a URL given out for them no longer serves them.
func (s *Service) DeleteThread(ctx context.Context, in DeleteThread) error {
	var detached []uuid.UUID
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		t, f, err := loadThread(ctx, tx, in.Actor, in.ThreadID)
		if err != nil {
			return err
		}
		if t.CreatorID != in.Actor.UserID && !f.Admin {
			return apperr.ErrForbidden
		}
		// Its Meet Up's rows go with it.
		if err := onlyCreatorOfMeetup(ctx, tx, t, in.Actor); err != nil {
			return err
		}
		if detached, err = message.DetachAll(ctx, tx, message.PostOwner(t.ID)); err != nil {
			return err
		}
		if _, err := db.Exec(ctx, tx, table.Threads.DELETE().WHERE(table.Threads.ID.EQ(UUID(t.ID)))); err != nil {
			return fmt.Errorf("feed: delete thread: %w", err)
		}
		return nil
	})
	if err == nil {
		s.removeBlobs(detached)
	}
	return err
}
