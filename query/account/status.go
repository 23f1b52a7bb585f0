package account

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// ChosenStatus is GET /users/me/status: what the member chose with PUT
// /users/me/status, do-not-disturb while its row is kept, else auto. It
// is the choice, not the status it makes (GET /peers tells that).
func (q *Queries) ChosenStatus(ctx context.Context, userID uuid.UUID) (string, error) {
	c := table.PresenceChoices
	chosen, err := db.Values[string](ctx, q.db, SELECT(c.Status).FROM(c).WHERE(c.UserID.EQ(UUID(userID))))
	if err != nil {
		return "", fmt.Errorf("account: chosen status: %w", err)
	}
	if len(chosen) == 0 {
		return "auto", nil
	}
	return chosen[0], nil
}
