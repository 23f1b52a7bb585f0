package access

import (
	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
)

// Self checks that actor is user, for what belongs to a user alone (their
// personalization): no one else may read it, so another user's is not
// found, as an unknown user's is (a 403 once told the one from the other).
func Self(actor, user uuid.UUID) error {
	if actor != user {
		return apperr.ErrNotFound
	}
	return nil
}
