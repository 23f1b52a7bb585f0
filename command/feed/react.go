package feed

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/nullable"
	"agora/internal/rules/message"
)

// React is PUT /threads/{id}/reaction and PUT /threads/{id}/replies/{replyId}/reaction.
type React struct {
	ThreadID uuid.UUID
	// ReplyID is nil for a reaction on the post itself.
	ReplyID *uuid.UUID
	Actor   auth.Caller
	// Reaction is the reaction, null to clear it; it must be sent.
	// Choosing the same reaction again to clear it is the client's toggle:
	// the server sets what it is given.
	Reaction nullable.Field[string]
}

// React sets or clears the caller's reaction.
func (s *Service) React(ctx context.Context, in React) error {
	if err := message.CheckReaction(in.Reaction); err != nil {
		return err
	}
	kind := in.Reaction.Value
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if in.ReplyID != nil {
			if _, err := loadReply(ctx, tx, in.Actor, in.ThreadID, *in.ReplyID, false); err != nil {
				return err
			}
		} else if _, _, err := loadThread(ctx, tx, in.Actor, in.ThreadID); err != nil {
			return err
		}
		var err error
		r := table.Reactions
		if kind == nil {
			reply := StringExp(NULL)
			if in.ReplyID != nil {
				reply = UUID(*in.ReplyID)
			}
			_, err = db.Exec(ctx, tx, r.DELETE().WHERE(r.ThreadID.EQ(UUID(in.ThreadID)).
				AND(r.ReplyID.IS_NOT_DISTINCT_FROM(reply)).AND(r.UserID.EQ(UUID(in.Actor.UserID)))))
		} else {
			// The conflict target is the expression index reactions_one
			// (a thread's own reactions have no reply_id), which jet's
			// ON_CONFLICT cannot name: it takes columns only. So this one
			// statement is jet's RawStatement, with named arguments.
			_, err = db.Exec(ctx, tx, RawStatement(`INSERT INTO reactions (id, thread_id, reply_id, user_id, kind, created_on)
				VALUES (#id, #thread, #reply, #user, #kind, #on)
				ON CONFLICT (thread_id, COALESCE(reply_id, '00000000-0000-0000-0000-000000000000'::uuid), user_id)
				DO UPDATE SET kind = EXCLUDED.kind, created_on = EXCLUDED.created_on`,
				RawArgs{"#id": newID(), "#thread": in.ThreadID, "#reply": in.ReplyID, "#user": in.Actor.UserID,
					"#kind": *kind, "#on": s.timestamp()}))
		}
		if err != nil {
			return fmt.Errorf("feed: react: %w", err)
		}
		return nil
	})
}
