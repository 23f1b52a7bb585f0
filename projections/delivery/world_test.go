package delivery_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/internal/adapters/mail"
	"agora/internal/adapters/webpush"
	"agora/internal/adapters/webpush/pushtest"
	"agora/internal/plumbing/outbound"
	"agora/internal/plumbing/vapid"
	"agora/projections/change"
	"agora/projections/delivery"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// clock is the test's time, moved by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.now = t }

// epochs keeps each test's clock weeks apart from the others', so that one
// test's digests and retries never see another's notifications.
var epochs atomic.Int64

// flaky fails the sendings while failing is set, as an SMTP server that is
// down would.
type flaky struct {
	mail.Sender
	failing atomic.Bool
}

func (f *flaky) Send(ctx context.Context, m mail.Message) error {
	if f.failing.Load() {
		return errors.New("smtp: connection refused")
	}
	return f.Sender.Send(ctx, m)
}

// world is a delivery projection over the shared test database, mailing to
// the dev mailbox and pushing to a test push service, on a clock of its
// own; env is an API server, for following the e-mails' links.
type world struct {
	env     *testenv.Env
	p       *delivery.Projection
	clock   *clock
	mail    *flaky
	mailbox mail.Mailbox
	push    *pushtest.Service
	series  uuid.UUID
	// community of the series
	community uuid.UUID
}

func newWorld(t *testing.T) *world {
	t.Helper()
	env := testenv.New(t)
	keys, err := vapid.GenerateKeys()
	if err != nil {
		t.Fatal(err)
	}
	push := pushtest.Start(t, keys.Public)
	sender, err := webpush.NewSender(keys, "mailto:ops@agora.test", outbound.New(push.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	w := &world{env: env, mailbox: mail.Mailbox{Pool: env.DB.Pool}, push: push,
		clock: &clock{now: time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 60*int(epochs.Add(1)))}}
	w.mail = &flaky{Sender: w.mailbox}
	w.p, err = delivery.New(env.DB.Pool, delivery.Options{Mail: w.mail, Push: sender, BaseURL: env.URL, Now: w.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	err = env.DB.Pool.QueryRow(t.Context(), "SELECT id, community_id FROM series WHERE name = 'Welcome & Introductions'").Scan(&w.series, &w.community)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *world) exec(t *testing.T, q string, args ...any) {
	t.Helper()
	if _, err := w.env.DB.Pool.Exec(t.Context(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// person is a user of the test's making.
type person struct {
	id    uuid.UUID
	email string
}

// person makes a member of the forum.
func (w *world) person(t *testing.T, first string, settings map[string]any) person {
	t.Helper()
	p := w.outsider(t, first, settings)
	w.join(t, p, "member")
	return p
}

// join makes p a member of the forum with role (admin or member), through
// a profile of its organization.
func (w *world) join(t *testing.T, p person, role string) {
	t.Helper()
	profile := uuid.New()
	w.exec(t, `INSERT INTO profiles (id, organization_id, user_id, role, email, email_key, first_name, last_name)
		SELECT $1, c.organization_id, $2, 'member', $3, $3, 'X', 'Tester' FROM communities c WHERE c.id = $4`, profile, p.id, p.email, w.community)
	w.exec(t, `INSERT INTO series_memberships (series_id, profile_id, role) VALUES ($1, $2, $3)`, w.series, profile, role)
}

// outsider makes a user who is not in the forum.
func (w *world) outsider(t *testing.T, first string, settings map[string]any) person {
	t.Helper()
	p := person{id: uuid.New(), email: strings.ToLower(testenv.Unique(first)) + "@delivery.test"}
	w.exec(t, `INSERT INTO users (id, email, email_key, password_hash, first_name, last_name) VALUES ($1, $2, $2, 'x', $3, 'Tester')`, p.id, p.email, first)
	if settings != nil {
		b, _ := json.Marshal(settings)
		w.exec(t, `INSERT INTO user_personalization (user_id, data) VALUES ($1, $2)`, p.id, string(b))
	}
	return p
}

// notification writes a notifications row as the notifications projection
// would, created at the clock's time less ago.
type note struct {
	kind     string
	to       person
	from     *person
	source   uuid.UUID
	channel  *uuid.UUID
	preview  string
	ago      time.Duration
	postID   uuid.UUID
	uniqueID uuid.UUID
}

func (w *world) notify(t *testing.T, n note) uuid.UUID {
	t.Helper()
	id := uuid.New()
	if n.source == uuid.Nil {
		n.source = uuid.New()
	}
	if n.preview == "" {
		n.preview = "a preview of " + n.kind
	}
	var author *uuid.UUID
	if n.from != nil {
		author = &n.from.id
	}
	var post, series, community *uuid.UUID
	if n.kind != "message" {
		series, community = &w.series, &w.community
	}
	if n.kind != "message" && n.kind != "forum-access" { // forum-access is about the forum
		pid := uuid.New()
		post = &pid
	}
	w.exec(t, `INSERT INTO notifications (id, user_id, kind, source_id, post_id, series_id, community_id, channel_id, author_id, preview, created_on)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		id, n.to.id, n.kind, n.source, post, series, community, n.channel, author, n.preview, w.clock.Now().Add(-n.ago))
	return id
}

// apply hands the projection the notification's change, as the runner
// would.
func (w *world) apply(t *testing.T, id uuid.UUID, op change.Op) {
	t.Helper()
	row := change.Row{"id": json.RawMessage(`"` + id.String() + `"`)}
	if err := w.p.Apply(t.Context(), change.Change{Op: op, Schema: "public", Table: "notifications", Key: row, After: row}); err != nil {
		t.Fatal(err)
	}
}

func (w *world) mails(t *testing.T, to person) []mail.Stored {
	t.Helper()
	l, err := w.mailbox.List(t.Context(), to.email, 100)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// subscribe keeps a browser of the test push service for p.
func (w *world) subscribe(t *testing.T, p person) pushtest.Subscription {
	t.Helper()
	s := w.push.Subscribe(t)
	w.exec(t, `INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4, $5)`,
		uuid.New(), p.id, s.Endpoint, s.Keys.P256dh, s.Keys.Auth)
	return s
}

// pushed are the messages the browser at endpoint received and decrypted.
func (w *world) pushed(t *testing.T, endpoint string) []webpush.Message {
	t.Helper()
	if r := w.push.Refused(); len(r) > 0 {
		t.Fatalf("the push service refused: %v", r)
	}
	var out []webpush.Message
	for _, d := range w.push.Delivered() {
		if d.Endpoint != endpoint {
			continue
		}
		var m webpush.Message
		if err := json.Unmarshal(d.Payload, &m); err != nil {
			t.Fatalf("payload %q: %v", d.Payload, err)
		}
		out = append(out, m)
	}
	return out
}

func (w *world) count(t *testing.T, q string, args ...any) int {
	t.Helper()
	var n int
	if err := w.env.DB.Pool.QueryRow(t.Context(), q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}
