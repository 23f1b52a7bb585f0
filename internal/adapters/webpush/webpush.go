// Package webpush sends Web Push messages (RFC 8030) to the browsers that
// subscribed, encrypted for each browser (RFC 8291, aes128gcm) and signed
// with the server's VAPID key (RFC 8292), through
// github.com/SherClockHolmes/webpush-go.
package webpush

import (
	"context"
	"crypto/ecdh"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	wp "github.com/SherClockHolmes/webpush-go"

	"agora/internal/plumbing/outbound"
	"agora/internal/plumbing/vapid"
)

// LoadOrCreate reads the key pair kept in the file at path, making and
// keeping one the first time (agora dev keeps its pair in its data folder,
// so a browser's subscription outlives a restart).
func LoadOrCreate(path string) (vapid.Keys, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		var k vapid.Keys
		if err := json.Unmarshal(b, &k); err != nil {
			return vapid.Keys{}, fmt.Errorf("webpush: %s: %w", path, err)
		}
		if err := k.Check(); err != nil {
			return vapid.Keys{}, fmt.Errorf("webpush: %s: %w", path, err)
		}
		return k, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return vapid.Keys{}, fmt.Errorf("webpush: %w", err)
	}
	k, err := vapid.GenerateKeys()
	if err != nil {
		return vapid.Keys{}, err
	}
	b, _ = json.Marshal(k)
	// The folder is the caller's (agora dev's data folder, which others
	// must be able to traverse); the file alone is private.
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return vapid.Keys{}, fmt.Errorf("webpush: %w", err)
	}
	return k, nil
}

// decode reads base64url with or without padding, as browsers and key
// generators write it.
func decode(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}

// Subscription is a browser's PushSubscription: where to post and its
// keys, base64url.
type Subscription struct {
	Endpoint string
	P256dh   string
	Auth     string
}

// Problem says what is wrong with a subscription a browser sent, or "": an
// https endpoint (plain http only to an address guard allows exactly, a
// test's push service on loopback), not on an address guard refuses, and
// the browser's keys (a P-256 point and a 16-byte secret).
func (s Subscription) Problem(guard *outbound.Guard) (field, problem string) {
	u, err := url.Parse(s.Endpoint)
	switch {
	case err != nil || u.Host == "" || u.User != nil || (u.Scheme != "https" && !(u.Scheme == "http" && guard.AllowedURL(u))):
		return "endpoint", "must be an https URL"
	case guard.RefusesHost(u):
		return "endpoint", "must not be a private or loopback address"
	}
	if p, err := decode(s.P256dh); err != nil || len(p) != 65 {
		return "keys.p256dh", "must be a base64url P-256 public key"
	} else if _, err := ecdh.P256().NewPublicKey(p); err != nil {
		return "keys.p256dh", "must be a base64url P-256 public key"
	}
	if a, err := decode(s.Auth); err != nil || len(a) != 16 {
		return "keys.auth", "must be a base64url 16-byte secret"
	}
	return "", ""
}

// Message is what the service worker (web/public/sw.js) shows: a title, a
// body, the page a click opens, and a tag naming what it is about. Push
// services deliver at least once and a failed send is retried, so a
// message sent again under the same tag replaces the one shown instead of
// stacking beside it.
type Message struct {
	Title string `json:"title"`
	Body  string `json:"body"`
	URL   string `json:"url"`
	Tag   string `json:"tag,omitempty"`
}

// ErrGone is a push service's answer that the subscription no longer
// exists (404 or 410): the subscription is to be dropped.
var ErrGone = errors.New("webpush: subscription gone")

// Sender posts messages to push services.
type Sender struct {
	keys    vapid.Keys
	subject string
	client  *http.Client
}

// NewSender signs with keys for subject (AGORA_VAPID_SUBJECT: a mailto: or
// https: URL the push service may contact). It dials only what guard
// permits, so a subscription cannot make the server post into its own
// network, and follows no redirect: a push service answers the post itself,
// a redirect would send the message elsewhere.
func NewSender(keys vapid.Keys, subject string, guard *outbound.Guard) (*Sender, error) {
	if err := keys.Check(); err != nil {
		return nil, fmt.Errorf("webpush.NewSender: %w", err)
	}
	if subject == "" {
		return nil, errors.New("webpush.NewSender: no subject")
	}
	if guard == nil {
		return nil, errors.New("webpush.NewSender: no outbound guard")
	}
	return &Sender{keys: keys, subject: subject, client: guard.Client(outbound.Options{Timeout: 30 * time.Second})}, nil
}

// PublicKey is the application server key browsers subscribe with.
func (s *Sender) PublicKey() string { return s.keys.Public }

// Send encrypts m for the subscription and posts it. A 404 or 410 is
// ErrGone; another answer outside 2xx an error to retry.
func (s *Sender) Send(ctx context.Context, sub Subscription, m Message) error {
	payload, err := json.Marshal(m)
	if err != nil {
		return err
	}
	// webpush-go writes "mailto:" before a subject that is not an https
	// URL itself.
	subscriber := strings.TrimPrefix(s.subject, "mailto:")
	res, err := wp.SendNotificationWithContext(ctx, payload, &wp.Subscription{
		Endpoint: sub.Endpoint, Keys: wp.Keys{P256dh: sub.P256dh, Auth: sub.Auth},
	}, &wp.Options{
		HTTPClient: s.client, Subscriber: subscriber, TTL: 24 * 60 * 60, Urgency: wp.UrgencyNormal,
		VAPIDPublicKey: s.keys.Public, VAPIDPrivateKey: s.keys.Private,
	})
	if err != nil {
		return fmt.Errorf("webpush: %w", err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 4096))
	switch {
	case res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusGone:
		return ErrGone
	case res.StatusCode < 200 || res.StatusCode > 299:
		return fmt.Errorf("webpush: the push service answered %d", res.StatusCode)
	}
	return nil
}
