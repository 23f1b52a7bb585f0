package account

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/rules/access"
	"agora/internal/rules/personalization"
)

// removableKey is the syntax of any dotted key: null removes one even when
// it is no longer a personalization key (a browser's older key), which is
// harmless; setting one takes a key of internal/rules/personalization.
var removableKey = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// Personalize is PATCH /users/{id}/personalization: keys set to a value,
// keys set to null removed, other keys kept. The object is flat, a value
// per dotted key, so that the merge is the keys sent; each key and its
// value are checked by internal/rules/personalization.
type Personalize struct {
	Actor  auth.Caller
	UserID uuid.UUID
	Data   map[string]json.RawMessage
}

// Personalize merges the data into the user's personalization.
func (s *Service) Personalize(ctx context.Context, in Personalize) error {
	limit := personalization.MaxBytes
	fields := apperr.Fields{}
	if b, err := json.Marshal(in.Data); err != nil || len(b) > limit {
		fields.Add("data", fmt.Sprintf("must be at most %d bytes", limit))
	}
	set, del := map[string]json.RawMessage{}, []string{}
	for k, v := range in.Data {
		if string(v) == "null" && removableKey.MatchString(k) {
			del = append(del, k)
			continue
		}
		if why := personalization.Check(k, v); why != "" {
			fields.Add(k, why)
			continue
		}
		set[k] = v
	}
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if err := access.Self(in.Actor.UserID, in.UserID); err != nil {
			return err
		}
		if err := fields.Err(); err != nil {
			return err
		}
		// The wire's precision is the millisecond.
		size, err := personalization.Merge(ctx, tx, in.UserID, set, del, s.now().UTC().Truncate(time.Millisecond))
		if err != nil {
			return fmt.Errorf("account: personalize: %w", err)
		}
		if size > limit {
			return apperr.Invalid(map[string]string{"data": fmt.Sprintf("the personalization would exceed %d bytes", limit)})
		}
		return nil
	})
}
