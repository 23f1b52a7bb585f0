// Package delivery is the write side of how notifications reach a member
// outside the app (spec 000 §7 "Notifications and personalization"): the
// browsers they turn push notifications on in, and the unsubscribe links of
// the e-mails, which turn one setting off without signing in. The sending
// itself is the delivery projection's (projections/delivery).
package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/adapters/webpush"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/outbound"
	"agora/internal/rules/personalization"
)

// ErrPushUnavailable answers the push calls of a server with no VAPID key
// pair (AGORA_VAPID_PUBLIC_KEY unset).
var ErrPushUnavailable = apperr.New(apperr.NotFound, "pushUnavailable", "push notifications are not configured on this server")

// ErrEndpointTaken is a push endpoint kept for another account, sent
// without that subscription's keys: not this browser's subscription to
// move. The web app subscribes the browser afresh, with a new endpoint.
var ErrEndpointTaken = apperr.New(apperr.Conflict, "pushEndpointTaken", "this push subscription belongs to another account; subscribe this browser again")

// ErrUnsubscribeInvalid answers an unsubscribe link that is not one of
// ours (or whose account is gone).
var ErrUnsubscribeInvalid = apperr.New(apperr.NotFound, "unsubscribeInvalid", "this unsubscribe link is not valid")

// Options configure the service.
type Options struct {
	// PushPublicKey is the VAPID public key; empty means push is off.
	PushPublicKey string
	// Guard refuses endpoints on addresses the server may not post to;
	// nil allows public ones only.
	Guard *outbound.Guard
}

// Service runs the delivery commands.
type Service struct {
	db   *pgxpool.Pool
	opts Options
	now  func() time.Time
}

// New builds the service.
func New(d *db.DB, o Options) (*Service, error) {
	if d == nil || d.Pool == nil {
		return nil, errors.New("delivery.New: nil dependency")
	}
	return &Service{db: d.Pool, opts: o, now: time.Now}, nil
}

// PushKey is GET /push/key: the VAPID public key browsers subscribe with.
func (s *Service) PushKey() (string, error) {
	if s.opts.PushPublicKey == "" {
		return "", ErrPushUnavailable
	}
	return s.opts.PushPublicKey, nil
}

// Subscribe is POST /push/subscriptions: a browser of the caller's.
type Subscribe struct {
	Actor                  auth.Caller
	Endpoint, P256dh, Auth string
}

// Subscribe keeps the browser's subscription for the caller. An endpoint
// is one browser's and belongs to one account: the caller's own is kept
// with its new keys; another account's is taken over only with the keys
// kept for it, the same browser subscription (another member signed in
// where the last one's sign-out could not forget it), since its auth
// secret never leaves the browser and this server. Knowing the endpoint
// alone is ErrEndpointTaken, and changes nothing.
func (s *Service) Subscribe(ctx context.Context, in Subscribe) error {
	if s.opts.PushPublicKey == "" {
		return ErrPushUnavailable
	}
	var missing []string
	for name, v := range map[string]string{"endpoint": in.Endpoint, "keys.p256dh": in.P256dh, "keys.auth": in.Auth} {
		if v == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return apperr.MissingParameters(missing...)
	}
	sub := webpush.Subscription{Endpoint: in.Endpoint, P256dh: in.P256dh, Auth: in.Auth}
	if len(in.Endpoint) > 2000 {
		return apperr.Invalid(map[string]string{"endpoint": "must be at most 2000 characters"})
	}
	if field, problem := sub.Problem(s.opts.Guard); field != "" {
		return apperr.Invalid(map[string]string{field: problem})
	}
	id, err := uuid.NewV7()
	if err != nil {
		return err
	}
	ps := table.PushSubscriptions
	tag, err := db.Exec(ctx, s.db, ps.INSERT(ps.ID, ps.UserID, ps.Endpoint, ps.P256dh, ps.Auth, ps.CreatedOn).
		VALUES(UUID(id), UUID(in.Actor.UserID), String(in.Endpoint), String(in.P256dh), String(in.Auth), TimestampzT(s.now())).
		ON_CONFLICT(ps.Endpoint).DO_UPDATE(SET(
		ps.UserID.SET(ps.EXCLUDED.UserID), ps.P256dh.SET(ps.EXCLUDED.P256dh), ps.Auth.SET(ps.EXCLUDED.Auth),
		ps.CreatedOn.SET(ps.EXCLUDED.CreatedOn), ps.LastUsedOn.SET(TimestampzExp(NULL))).
		WHERE(ps.UserID.EQ(ps.EXCLUDED.UserID).OR(ps.P256dh.EQ(ps.EXCLUDED.P256dh).AND(ps.Auth.EQ(ps.EXCLUDED.Auth))))))
	if err != nil {
		return fmt.Errorf("delivery: subscribe: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrEndpointTaken
	}
	return nil
}

// Unsubscribe is DELETE /push/subscriptions: the caller's browser stops
// receiving their notifications (sign-out calls it first). An endpoint
// that is not the caller's is left alone, and answered the same, so that
// the call tells nothing of other members' browsers.
func (s *Service) Unsubscribe(ctx context.Context, actor auth.Caller, endpoint string) error {
	if endpoint == "" {
		return apperr.MissingParameters("endpoint")
	}
	ps := table.PushSubscriptions
	_, err := db.Exec(ctx, s.db, ps.DELETE().WHERE(ps.Endpoint.EQ(String(endpoint)).AND(ps.UserID.EQ(UUID(actor.UserID)))))
	if err != nil {
		return fmt.Errorf("delivery: unsubscribe: %w", err)
	}
	return nil
}

// offValue is what each setting an e-mail's link names is set to.
var offValue = map[string]string{
	personalization.EmailMentions:     "false",
	personalization.EmailPrivateChats: "false",
	personalization.DigestFrequency:   `"` + personalization.Off + `"`,
	personalization.InsightsFrequency: `"` + personalization.Off + `"`,
}

// UnsubscribeSetting is GET /notifications/unsubscribe?token=…: the
// setting an e-mail's link would turn off, for the page that asks the
// member to confirm. It changes nothing: mail scanners follow links.
func (s *Service) UnsubscribeSetting(ctx context.Context, token string) (string, error) {
	_, setting, err := s.unsubscribeToken(ctx, token)
	return setting, err
}

// unsubscribeToken reads the member and the setting an e-mail's link
// names.
func (s *Service) unsubscribeToken(ctx context.Context, token string) (user uuid.UUID, setting string, err error) {
	if token == "" {
		return uuid.Nil, "", apperr.MissingParameters("token")
	}
	ut := table.UnsubscribeTokens
	err = db.QueryRow(ctx, s.db, SELECT(ut.UserID, ut.Setting).FROM(ut).
		WHERE(ut.TokenHash.EQ(Bytea(auth.HashToken(token))))).Scan(&user, &setting)
	if errors.Is(err, pgx.ErrNoRows) {
		return uuid.Nil, "", ErrUnsubscribeInvalid
	}
	if err != nil {
		return uuid.Nil, "", fmt.Errorf("delivery: unsubscribe link: %w", err)
	}
	if _, ok := offValue[setting]; !ok {
		return uuid.Nil, "", ErrUnsubscribeInvalid
	}
	return user, setting, nil
}

// UnsubscribeLink is POST /notifications/unsubscribe (the button of the
// link's page, or a mail client's one-click unsubscribe, RFC 8058): it
// turns the setting the token names off in the member's personalization,
// as if they had turned it off on their profile (their tabs hear
// user.personalization.updated). It answers the setting. The link is not
// used up: posting it again changes nothing and answers the same.
func (s *Service) UnsubscribeLink(ctx context.Context, token string) (setting string, err error) {
	user, setting, err := s.unsubscribeToken(ctx, token)
	if err != nil {
		return "", err
	}
	off := map[string]json.RawMessage{setting: json.RawMessage(offValue[setting])}
	if _, err = personalization.Merge(ctx, s.db, user, off, nil, s.now().UTC()); err != nil {
		return "", fmt.Errorf("delivery: unsubscribe link: %w", err)
	}
	return setting, nil
}
