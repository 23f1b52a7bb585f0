package access

import (
	"context"
	"errors"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/apperr"
	"agora/internal/db"
	"agora/internal/db/gen/table"
)

// Self checks that actor is user, for what belongs to a user alone (their
// personalization): another user is refused (forbidden), and an unknown
// user is not found.
func Self(ctx context.Context, q db.Querier, actor, user uuid.UUID) error {
	if actor == user {
		return nil
	}
	u := table.Users
	var id uuid.UUID
	err := db.QueryRow(ctx, q, SELECT(u.ID).FROM(u).WHERE(u.ID.EQ(UUID(user)))).Scan(&id)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return apperr.ErrNotFound
	case err != nil:
		return fmt.Errorf("access: user: %w", err)
	}
	return apperr.ErrForbidden
}
