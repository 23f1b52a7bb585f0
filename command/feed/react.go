package feed

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db"
)

// ReactionKinds are the five reactions (spec 001 §3).
var ReactionKinds = []string{"liked", "loved", "smiled", "disliked", "neutral"}

// React is PUT /threads/{id}/reaction and PUT /threads/{id}/replies/{replyId}/reaction.
type React struct {
	ThreadID uuid.UUID
	// ReplyID is nil for a reaction on the post itself.
	ReplyID *uuid.UUID
	Actor   auth.Caller
	// Set is whether the body had the reaction field at all.
	Set bool
	// Kind is the reaction, nil to clear it. Choosing the same reaction
	// again to clear it is the client's toggle: the server sets what it is given.
	Kind *string
}

// React sets or clears the caller's reaction.
func (s *Service) React(ctx context.Context, in React) error {
	if !in.Set {
		return apperr.MissingParameters("reaction")
	}
	if in.Kind != nil && !validKind(*in.Kind) {
		return apperr.Invalid(map[string]string{"reaction": "must be liked, loved, smiled, disliked, neutral or null"})
	}
	return db.InTx(ctx, s.db, func(tx *sql.Tx) error {
		if in.ReplyID != nil {
			if _, err := loadReply(ctx, tx, in.Actor, in.ThreadID, *in.ReplyID, false); err != nil {
				return err
			}
		} else if _, _, err := loadThread(ctx, tx, in.Actor, in.ThreadID); err != nil {
			return err
		}
		var err error
		if in.Kind == nil {
			_, err = tx.ExecContext(ctx, `DELETE FROM reactions WHERE thread_id = $1 AND reply_id IS NOT DISTINCT FROM $2 AND user_id = $3`,
				in.ThreadID, in.ReplyID, in.Actor.UserID)
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO reactions (id, thread_id, reply_id, user_id, kind, created_on) VALUES ($1, $2, $3, $4, $5, $6)
				ON CONFLICT (thread_id, COALESCE(reply_id, '00000000-0000-0000-0000-000000000000'::uuid), user_id)
				DO UPDATE SET kind = EXCLUDED.kind, created_on = EXCLUDED.created_on`,
				newID(), in.ThreadID, in.ReplyID, in.Actor.UserID, *in.Kind, s.timestamp())
		}
		if err != nil {
			return fmt.Errorf("feed: react: %w", err)
		}
		return nil
	})
}

func validKind(k string) bool {
	for _, v := range ReactionKinds {
		if v == k {
			return true
		}
	}
	return false
}
