package account

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"

	"agora/internal/plumbing/auth"
	"agora/internal/rules/access"
	"agora/internal/rules/personalization"
)

// Personalization is GET /users/{id}/personalization: the user's stored
// object, {} when none; only the user themself reads it.
func (q *Queries) Personalization(ctx context.Context, reader auth.Caller, userID uuid.UUID) (json.RawMessage, error) {
	if err := access.Self(reader.UserID, userID); err != nil {
		return nil, err
	}
	return personalization.Stored(ctx, q.db, userID)
}
