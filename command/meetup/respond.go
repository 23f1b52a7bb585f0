package meetup

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
)

// Respond is PUT /threads/{threadId}/meeting/response.
type Respond struct {
	ThreadID uuid.UUID
	Actor    auth.Caller
	Response string
}

// Respond records an invitee's answer (yes or no), until the Meet Up has
// ended; a registration is not an invitation and has no answer.
func (s *Service) Respond(ctx context.Context, in Respond) error {
	if in.Response != "yes" && in.Response != "no" {
		return apperr.Fields{"response": "must be yes or no"}.Err()
	}
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, _, err := lockPost(ctx, tx, in.Actor, in.ThreadID)
		if err != nil {
			return err
		}
		seat, err := seatOf(ctx, tx, row.ID, in.Actor.UserID)
		if err != nil {
			return err
		}
		if seat == nil || (seat.Response != nil && (*seat.Response == responseReg || *seat.Response == responseWaitlist)) {
			return apperr.ErrForbidden
		}
		if s.over(row) {
			return ErrEnded
		}
		mi := table.MeetingInvitees
		if _, err := db.Exec(ctx, tx, mi.UPDATE(mi.Response, mi.RespondedOn).SET(String(in.Response), TimestampzT(s.now())).
			WHERE(mi.MeetingID.EQ(UUID(row.ID)).AND(mi.UserID.EQ(UUID(in.Actor.UserID))))); err != nil {
			return fmt.Errorf("meeting: respond: %w", err)
		}
		return nil
	})
}
