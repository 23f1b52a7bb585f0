package webpush_test

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"agora/internal/adapters/webpush"
	"agora/internal/adapters/webpush/pushtest"
	"agora/internal/plumbing/outbound"
	"agora/internal/plumbing/vapid"
)

// world is a key pair, a push service on loopback and a sender through
// guard (nil: one allowing the push service exactly).
func world(t *testing.T, guard *outbound.Guard) (*webpush.Sender, *pushtest.Service) {
	t.Helper()
	keys, err := vapid.GenerateKeys()
	if err != nil {
		t.Fatal(err)
	}
	svc := pushtest.Start(t, keys.Public)
	if guard == nil {
		guard = outbound.New(svc.Addr())
	}
	s, err := webpush.NewSender(keys, "mailto:ops@agora.test", guard)
	if err != nil {
		t.Fatal(err)
	}
	return s, svc
}

func subscription(p pushtest.Subscription) webpush.Subscription {
	return webpush.Subscription{Endpoint: p.Endpoint, P256dh: p.Keys.P256dh, Auth: p.Keys.Auth}
}

// TestSendIsDecryptedByTheBrowser: the push service sees a VAPID token of
// the server's key and a body that the subscription's own private key
// decrypts to the message; a service answering 410 is ErrGone.
func TestSendIsDecryptedByTheBrowser(t *testing.T) {
	s, svc := world(t, nil)
	sub := svc.Subscribe(t)
	m := webpush.Message{Title: "Ada mentioned you", Body: "Hello @Grace", URL: "/communities/c/series/s/posts/p?reason=mention"}
	if err := s.Send(t.Context(), subscription(sub), m); err != nil {
		t.Fatal(err)
	}
	if r := svc.Refused(); len(r) > 0 {
		t.Fatalf("refused: %v", r)
	}
	d := svc.Delivered()
	if len(d) != 1 {
		t.Fatalf("delivered %d", len(d))
	}
	var got webpush.Message
	if err := json.Unmarshal(d[0].Payload, &got); err != nil || got != m {
		t.Fatalf("decrypted %q (%v), want %+v", d[0].Payload, err, m)
	}

	svc.Expire(sub.Endpoint)
	if err := s.Send(t.Context(), subscription(sub), m); !errors.Is(err, webpush.ErrGone) {
		t.Fatalf("expired subscription: %v, want ErrGone", err)
	}
}

// TestPrivateAddressesRefused: unless the guard allows its address
// exactly, a loopback endpoint is refused when subscribing and is never
// dialled.
func TestPrivateAddressesRefused(t *testing.T) {
	s, svc := world(t, outbound.New())
	sub := subscription(svc.Subscribe(t))
	if f, _ := sub.Problem(outbound.New()); f != "endpoint" {
		t.Errorf("a loopback http endpoint: problem in %q", f)
	}
	if f, p := sub.Problem(outbound.New(svc.Addr())); f != "" {
		t.Errorf("allowed exactly: %s %s", f, p)
	}
	if err := s.Send(t.Context(), sub, webpush.Message{Title: "x"}); err == nil {
		t.Fatal("sent to loopback")
	}
	if len(svc.Delivered())+len(svc.Refused()) != 0 {
		t.Fatal("the loopback service was reached")
	}
}

// TestLoadOrCreateKeepsThePair: agora dev's pair is made once.
func TestLoadOrCreateKeepsThePair(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vapid.json")
	a, err := webpush.LoadOrCreate(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := webpush.LoadOrCreate(path)
	if err != nil || a != b {
		t.Fatalf("second load %+v %v, first %+v", b, err, a)
	}
	if a.Check() != nil {
		t.Fatal(a.Check())
	}
}
