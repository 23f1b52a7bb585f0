package personalization

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// MaxBytes bounds a personalization, in bytes of JSON: the body of one
// PATCH and the whole stored object. It holds lists of dismissed ids and
// a time per conversation, never content.
const MaxBytes = 64 << 10

// Stored is the user's stored personalization object, {} when they have
// none.
func Stored(ctx context.Context, q db.Querier, user uuid.UUID) (json.RawMessage, error) {
	up := table.UserPersonalization
	var data []byte
	err := db.QueryRow(ctx, q, SELECT(up.Data).FROM(up).WHERE(up.UserID.EQ(UUID(user)))).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return json.RawMessage("{}"), nil
	}
	if err != nil {
		return nil, fmt.Errorf("personalization: %w", err)
	}
	return data, nil
}

// Merge is the one write of a personalization: the keys of set take their
// values, the keys of remove go, the others stay; a user with none gets
// one. It answers the stored object's size in bytes of JSON, or 0 when
// the merge changed nothing, which then writes nothing (so repeating a
// merge neither moves updated_on nor tells the user's tabs). The values
// are the caller's to check (Check).
func Merge(ctx context.Context, q db.Querier, user uuid.UUID, set map[string]json.RawMessage, remove []string, on time.Time) (int, error) {
	if set == nil {
		set = map[string]json.RawMessage{}
	}
	if remove == nil {
		remove = []string{} // jsonb - NULL is NULL: the object would be lost
	}
	setJSON, err := json.Marshal(set)
	if err != nil {
		return 0, fmt.Errorf("personalization: merge: %w", err)
	}
	var size int
	err = db.QueryRow(ctx, q, RawStatement(`INSERT INTO user_personalization (user_id, data, updated_on)
		VALUES (#user, #set::jsonb - #del::text[], #on)
		ON CONFLICT (user_id) DO UPDATE SET data = (user_personalization.data || #set::jsonb) - #del::text[], updated_on = #on
		WHERE (user_personalization.data || #set::jsonb) - #del::text[] IS DISTINCT FROM user_personalization.data
		RETURNING octet_length(data::text)`,
		RawArgs{"#user": user, "#set": string(setJSON), "#del": remove, "#on": on})).Scan(&size)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("personalization: merge: %w", err)
	}
	return size, nil
}
