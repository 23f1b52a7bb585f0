package account

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// The statuses a member may choose (PUT /users/me/status): do-not-disturb,
// or auto for the status their tabs make (online or away).
const (
	StatusDoNotDisturb = "do-not-disturb"
	StatusAuto         = "auto"
)

// SetStatus keeps the member's choice until they choose again, across
// sessions; the presence triggers (migration 0017) apply it to their
// status while they are connected.
func (s *Service) SetStatus(ctx context.Context, userID uuid.UUID, status string) error {
	c := table.PresenceChoices
	var stmt Statement
	switch status {
	case StatusDoNotDisturb:
		stmt = c.INSERT(c.UserID, c.Status).VALUES(UUID(userID), String(status)).ON_CONFLICT(c.UserID).DO_NOTHING()
	case StatusAuto:
		stmt = c.DELETE().WHERE(c.UserID.EQ(UUID(userID)))
	default:
		return apperr.Invalid(map[string]string{"status": "must be do-not-disturb or auto"})
	}
	if _, err := db.Exec(ctx, s.db, stmt); err != nil {
		return fmt.Errorf("account: set status: %w", err)
	}
	return nil
}
