package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/access"
	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db"
)

// MaxPersonalization bounds a personalization, in bytes of JSON: the body
// of one PATCH and the whole stored object. It holds lists of dismissed
// ids and a time per conversation, never content.
const MaxPersonalization = 64 << 10

// personalizationKey is a dotted key: its first segment names what the
// browser keeps (spec 000 §2 "Personalization per user"); the feed keeps
// one key, the link confirmation's "don't ask again".
var (
	personalizationKey  = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
	personalizationOf   = map[string]bool{"reminders": true, "conversations": true, "notifications": true}
	personalizationAlso = map[string]bool{"feed.webLink.dontConfirmNavigation": true}
)

// Personalize is PATCH /users/{id}/personalization: keys set to a value,
// keys set to null removed, other keys kept. The object is flat, a value
// per dotted key, so that the merge is the keys sent.
type Personalize struct {
	Actor  auth.Caller
	UserID uuid.UUID
	Data   map[string]json.RawMessage
}

// Personalize merges the data into the user's personalization.
func (s *Service) Personalize(ctx context.Context, in Personalize) error {
	fields := apperr.Fields{}
	if b, err := json.Marshal(in.Data); err != nil || len(b) > MaxPersonalization {
		fields.Add("data", fmt.Sprintf("must be at most %d bytes", MaxPersonalization))
	}
	set, del := map[string]json.RawMessage{}, []string{}
	for k, v := range in.Data {
		first, _, _ := strings.Cut(k, ".")
		if !personalizationKey.MatchString(k) || (!personalizationOf[first] && !personalizationAlso[k]) {
			fields.Add(k, "keys are letters, digits, _ . - and begin with reminders, conversations or notifications, or are feed.webLink.dontConfirmNavigation")
			continue
		}
		if string(v) == "null" {
			del = append(del, k)
		} else {
			set[k] = v
		}
	}
	return db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if err := access.Self(ctx, tx, in.Actor.UserID, in.UserID); err != nil {
			return err
		}
		if err := fields.Err(); err != nil {
			return err
		}
		setJSON, err := json.Marshal(set)
		if err != nil {
			return err
		}
		var size int
		err = db.QueryRow(ctx, tx, RawStatement(`INSERT INTO user_personalization (user_id, data, updated_on)
			VALUES (#user, #set::jsonb - #del::text[], #on)
			ON CONFLICT (user_id) DO UPDATE SET data = (user_personalization.data || #set::jsonb) - #del::text[], updated_on = #on
			RETURNING octet_length(data::text)`,
			RawArgs{"#user": in.UserID, "#set": string(setJSON), "#del": del, "#on": s.timestamp()})).Scan(&size)
		if err != nil {
			return fmt.Errorf("chat: personalize: %w", err)
		}
		if size > MaxPersonalization {
			return apperr.Invalid(map[string]string{"data": fmt.Sprintf("the personalization would exceed %d bytes", MaxPersonalization)})
		}
		return nil
	})
}
