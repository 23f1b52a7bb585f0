package delivery_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/app/testenv"
	"agora/internal/adapters/mail"
	"agora/internal/adapters/webpush"
	"agora/internal/adapters/webpush/pushtest"
	"agora/internal/plumbing/config"
	"agora/internal/plumbing/outbound"
	"agora/internal/plumbing/vapid"
	"agora/internal/rules/membership"
	"agora/projections"
	"agora/projections/change"
	"agora/projections/delivery"
	"agora/projections/projectiontest"
	qinsights "agora/query/insights"
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

// TestMentionIsMailedAndPushedOnce: a mention is e-mailed (with an
// unsubscribe link in the body and the List-Unsubscribe header) and pushed
// to the member's browser, which decrypts it; the same change again, and a
// snapshot's read of the row, send nothing more.
func TestMentionIsMailedAndPushedOnce(t *testing.T) {
	w := newWorld(t)
	ada, grace := w.person(t, "Ada", nil), w.person(t, "Grace", nil)
	sub := w.subscribe(t, grace)
	id := w.notify(t, note{kind: "mention", to: grace, from: &ada, preview: "Hello @Grace Tester, have a look"})
	for _, op := range []change.Op{change.Create, change.Create, change.Read} {
		w.apply(t, id, op)
	}
	mails := w.mails(t, grace)
	if len(mails) != 1 {
		t.Fatalf("%d e-mails, want 1", len(mails))
	}
	m := mails[0]
	if !strings.HasPrefix(m.Subject, "Ada Tester mentioned you") || !strings.Contains(m.Body, "Hello @Grace Tester, have a look") ||
		!strings.Contains(m.Body, "?reason=mention") || !strings.Contains(m.Body, m.ListUnsubscribe) ||
		!strings.HasPrefix(m.ListUnsubscribe, w.env.URL+"/api/notifications/unsubscribe?token=") {
		t.Fatalf("e-mail %+v", m)
	}
	got := w.pushed(t, sub.Endpoint)
	if len(got) != 1 {
		t.Fatalf("%d pushes, want 1", len(got))
	}
	if got[0].Title != "Ada Tester mentioned you in Welcome & Introductions" || got[0].Body != "Hello @Grace Tester, have a look" ||
		!strings.HasPrefix(got[0].URL, "/communities/"+w.community.String()+"/series/"+w.series.String()+"/posts/") ||
		!strings.HasSuffix(got[0].URL, "?reason=mention") {
		t.Fatalf("push %+v", got[0])
	}
	if n := w.count(t, "SELECT count(*) FROM notification_deliveries WHERE notification_id = $1 AND sent_on IS NOT NULL", id); n != 2 {
		t.Fatalf("%d deliveries sent, want 2 (e-mail and push)", n)
	}
}

// TestMeetupOpenIsMailedAtOnce: an open Meet Up announced to a member of
// its forum is e-mailed at once (spec 002 §5: the members "will be
// notified by email") with its post's address and pushed; an invitation
// and a seat are pushed, not e-mailed.
func TestMeetupOpenIsMailedAtOnce(t *testing.T) {
	w := newWorld(t)
	ada, grace := w.person(t, "Ada", nil), w.person(t, "Grace", nil)
	sub := w.subscribe(t, grace)
	w.apply(t, w.notify(t, note{kind: "meetup-open", to: grace, from: &ada, preview: "Quarterly planning"}), change.Create)
	mails := w.mails(t, grace)
	if len(mails) != 1 {
		t.Fatalf("%d e-mails, want 1", len(mails))
	}
	m := mails[0]
	if m.Subject != "Ada Tester scheduled a Meet Up in Welcome & Introductions" || !strings.Contains(m.Body, "Quarterly planning") ||
		!strings.Contains(m.Body, "/communities/"+w.community.String()+"/series/"+w.series.String()+"/posts/") ||
		strings.Contains(m.Body, "?reason=") || !strings.Contains(m.Body, m.ListUnsubscribe) {
		t.Fatalf("e-mail %+v", m)
	}
	w.apply(t, w.notify(t, note{kind: "meetup-invite", to: grace, from: &ada}), change.Create)
	w.apply(t, w.notify(t, note{kind: "meetup-seat", to: grace, from: &ada}), change.Create)
	if n := len(w.mails(t, grace)); n != 1 {
		t.Errorf("%d e-mails after an invitation and a seat, want still 1", n)
	}
	got := w.pushed(t, sub.Endpoint)
	titles := map[string]bool{}
	for _, p := range got {
		titles[p.Title] = true
	}
	if len(got) != 3 || !titles["Ada Tester scheduled a Meet Up in Welcome & Introductions"] ||
		!titles["Ada Tester invited you to a Meet Up in Welcome & Introductions"] || !titles["A seat is yours at a Meet Up in Welcome & Introductions"] {
		t.Errorf("pushes: %+v", got)
	}
}

// TestForumAccessIsMailedAtOnce: the notice Manage Access's preview
// promises (spec 001 §3) is mailed at once, with the preview's subject and
// text and the forum's address, and pushed; one whose access went before
// it was sent gets nothing.
func TestForumAccessIsMailedAtOnce(t *testing.T) {
	w := newWorld(t)
	ada, grace := w.person(t, "Ada", nil), w.person(t, "Grace", nil)
	sub := w.subscribe(t, grace)
	text := membership.AccessDescription("Welcome & Introductions", "Leadership Circle")
	w.apply(t, w.notify(t, note{kind: "forum-access", to: grace, from: &ada, source: w.series, preview: text}), change.Create)
	mails := w.mails(t, grace)
	if len(mails) != 1 {
		t.Fatalf("%d e-mails, want 1", len(mails))
	}
	m, forum := mails[0], "/communities/"+w.community.String()+"/series/"+w.series.String()
	if m.Subject != membership.AccessSubject("Ada Tester", "Welcome & Introductions") || !strings.Contains(m.Body, text) ||
		!strings.Contains(m.Body, w.env.URL+forum+"\r\n") || strings.Contains(m.Body, "/posts/") || !strings.Contains(m.Body, m.ListUnsubscribe) {
		t.Fatalf("e-mail %+v", m)
	}
	if got := w.pushed(t, sub.Endpoint); len(got) != 1 || got[0].Title != m.Subject || got[0].Body != text || got[0].URL != forum {
		t.Errorf("pushes %+v", got)
	}
	// Removed from the forum before it was sent: nothing.
	gone := w.outsider(t, "Gone", nil)
	w.apply(t, w.notify(t, note{kind: "forum-access", to: gone, from: &ada, source: w.series, preview: text}), change.Create)
	if n := len(w.mails(t, gone)); n != 0 {
		t.Errorf("%d e-mails to one who cannot read the forum", n)
	}
}

// TestCommunityJoinIsMailedAtOnce: a member added to a community is
// mailed at once, and pushed, "You were added to <community>", linking to
// the community's page; with e-mails of what is addressed to them off,
// nothing is mailed.
func TestCommunityJoinIsMailedAtOnce(t *testing.T) {
	w := newWorld(t)
	grace := w.outsider(t, "Grace", nil)
	quiet := w.outsider(t, "Quiet", map[string]any{"notifications.email.mentions": false})
	sub := w.subscribe(t, grace)
	var name string
	if err := w.env.DB.Pool.QueryRow(t.Context(), "SELECT name FROM communities WHERE id = $1", w.community).Scan(&name); err != nil {
		t.Fatal(err)
	}
	for _, p := range []person{grace, quiet} {
		id := uuid.New()
		w.exec(t, `INSERT INTO notifications (id, user_id, kind, source_id, community_id, preview, created_on)
			VALUES ($1, $2, 'community-join', $3, $3, $4, $5)`, id, p.id, w.community, name, w.clock.Now())
		w.apply(t, id, change.Create)
	}
	mails := w.mails(t, grace)
	if len(mails) != 1 {
		t.Fatalf("%d e-mails, want 1", len(mails))
	}
	m := mails[0]
	link := w.env.URL + "/communities/" + w.community.String()
	if m.Subject != "You were added to "+name || !strings.Contains(m.Body, link+"\r\n") || !strings.Contains(m.Body, m.ListUnsubscribe) {
		t.Fatalf("e-mail %+v", m)
	}
	if got := w.pushed(t, sub.Endpoint); len(got) != 1 || got[0].Title != "You were added to "+name || got[0].URL != "/communities/"+w.community.String() {
		t.Errorf("pushes: %+v", got)
	}
	if n := len(w.mails(t, quiet)); n != 0 {
		t.Errorf("%d e-mails with the setting off, want 0", n)
	}
}

// TestSettingsOffSendNothing: with the member's e-mail and push of
// mentions off nothing is sent; comments are pushed but never e-mailed at
// once, and not pushed with push.comments off; an anonymous author is
// "Someone"; a notification older than a day (a rebuild's) is not sent.
func TestSettingsOffSendNothing(t *testing.T) {
	w := newWorld(t)
	ada := w.person(t, "Ada", nil)
	quiet := w.person(t, "Quiet", map[string]any{"notifications.email.mentions": false, "notifications.push.mentions": false,
		"notifications.push.comments": false})
	quietSub := w.subscribe(t, quiet)
	w.apply(t, w.notify(t, note{kind: "mention", to: quiet, from: &ada}), change.Create)
	w.apply(t, w.notify(t, note{kind: "comment", to: quiet, from: &ada}), change.Create)
	if len(w.mails(t, quiet)) != 0 || len(w.pushed(t, quietSub.Endpoint)) != 0 {
		t.Fatalf("sent with the settings off: %d mails, %d pushes", len(w.mails(t, quiet)), len(w.pushed(t, quietSub.Endpoint)))
	}

	// One who is not (or no longer) in the forum is told nothing of it.
	gone := w.outsider(t, "Gone", nil)
	goneSub := w.subscribe(t, gone)
	w.apply(t, w.notify(t, note{kind: "mention", to: gone, from: &ada}), change.Create)
	if len(w.mails(t, gone)) != 0 || len(w.pushed(t, goneSub.Endpoint)) != 0 {
		t.Fatal("sent to one who cannot read the forum")
	}

	asker := w.person(t, "Asker", nil)
	sub := w.subscribe(t, asker)
	w.apply(t, w.notify(t, note{kind: "comment", to: asker, preview: "an anonymous comment"}), change.Create)
	w.apply(t, w.notify(t, note{kind: "mention", to: asker, from: &ada, ago: 25 * time.Hour}), change.Read)
	if n := len(w.mails(t, asker)); n != 0 {
		t.Fatalf("%d e-mails for a comment and an old mention, want none", n)
	}
	got := w.pushed(t, sub.Endpoint)
	if len(got) != 1 || got[0].Title != "Someone commented on your post in Welcome & Introductions" || !strings.HasSuffix(got[0].URL, "?reason=comment") {
		t.Fatalf("pushes %+v, want the comment's alone", got)
	}
}

// TestMentionAndCommentOfOneSourcePushOnce: a comment that also mentions
// the post's author makes two notifications and one push.
func TestMentionAndCommentOfOneSourcePushOnce(t *testing.T) {
	w := newWorld(t)
	ada, grace := w.person(t, "Ada", nil), w.person(t, "Grace", nil)
	sub := w.subscribe(t, grace)
	source := uuid.New()
	w.apply(t, w.notify(t, note{kind: "mention", to: grace, from: &ada, source: source}), change.Create)
	w.apply(t, w.notify(t, note{kind: "comment", to: grace, from: &ada, source: source}), change.Create)
	if got := w.pushed(t, sub.Endpoint); len(got) != 1 {
		t.Fatalf("%d pushes, want 1", len(got))
	}
}

// TestExpiredSubscriptionIsDropped: a push service answering 410 drops the
// browser's subscription; the member's other browser still gets it.
func TestExpiredSubscriptionIsDropped(t *testing.T) {
	w := newWorld(t)
	ada, grace := w.person(t, "Ada", nil), w.person(t, "Grace", nil)
	old, current := w.subscribe(t, grace), w.subscribe(t, grace)
	w.push.Expire(old.Endpoint)
	w.apply(t, w.notify(t, note{kind: "mention", to: grace, from: &ada}), change.Create)
	if n := w.count(t, "SELECT count(*) FROM push_subscriptions WHERE endpoint = $1", old.Endpoint); n != 0 {
		t.Fatal("the expired subscription is kept")
	}
	if n := w.count(t, "SELECT count(*) FROM push_subscriptions WHERE endpoint = $1", current.Endpoint); n != 1 {
		t.Fatal("the live subscription was dropped")
	}
	if len(w.pushed(t, current.Endpoint)) != 1 {
		t.Fatal("the live browser got no push")
	}
}

// TestMessageMailedOncePerConversationUntilSeen: a private message to a
// member who is not online is e-mailed; the next ones of the conversation
// are not until they have opened it; a member online gets no e-mail.
func TestMessageMailedOncePerConversationUntilSeen(t *testing.T) {
	w := newWorld(t)
	ada, grace := w.person(t, "Ada", nil), w.person(t, "Grace", nil)
	channel := uuid.New()
	w.exec(t, `INSERT INTO channels (id, kind, pair_key) VALUES ($1, 'private', $2)`, channel, channel.String())
	w.exec(t, `INSERT INTO channel_members (channel_id, user_id) VALUES ($1, $2), ($1, $3)`, channel, ada.id, grace.id)
	message := func(ago time.Duration) {
		w.apply(t, w.notify(t, note{kind: "message", to: grace, from: &ada, channel: &channel, ago: ago}), change.Create)
	}
	message(3 * time.Minute)
	message(2 * time.Minute)
	if n := len(w.mails(t, grace)); n != 1 {
		t.Fatalf("%d e-mails after two messages, want 1", n)
	}
	m := w.mails(t, grace)[0]
	if m.Subject != "Ada Tester sent you a message" || !strings.Contains(m.Body, w.env.URL+"/home") {
		t.Fatalf("e-mail %+v", m)
	}
	w.exec(t, `UPDATE channel_members SET last_seen_on = $3 WHERE channel_id = $1 AND user_id = $2`, channel, grace.id, w.clock.Now().Add(-time.Minute))
	message(0)
	if n := len(w.mails(t, grace)); n != 2 {
		t.Fatalf("%d e-mails after seeing the conversation and a new message, want 2", n)
	}

	online := w.person(t, "Online", nil)
	w.exec(t, `INSERT INTO online_users (user_id, nodes) VALUES ($1, 1)`, online.id)
	w.apply(t, w.notify(t, note{kind: "message", to: online, from: &ada, channel: &channel}), change.Create)
	if n := len(w.mails(t, online)); n != 0 {
		t.Fatalf("%d e-mails to a member online, want none", n)
	}
}

// TestFailedMailIsRetriedOnce: a mail server that is down leaves the
// delivery to retry, with its error; the scheduler retries it after its
// delay, once, and not again.
func TestFailedMailIsRetriedOnce(t *testing.T) {
	w := newWorld(t)
	ada, grace := w.person(t, "Ada", nil), w.person(t, "Grace", map[string]any{"notifications.digest.frequency": "off"})
	w.mail.failing.Store(true)
	id := w.notify(t, note{kind: "mention", to: grace, from: &ada})
	w.apply(t, id, change.Create)
	var lastError string
	if err := w.env.DB.Pool.QueryRow(t.Context(), "SELECT last_error FROM notification_deliveries WHERE notification_id = $1 AND sent_on IS NULL", id).Scan(&lastError); err != nil || !strings.Contains(lastError, "connection refused") {
		t.Fatalf("pending delivery: %q %v", lastError, err)
	}
	w.mail.failing.Store(false)
	if err := w.p.Retry(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := len(w.mails(t, grace)); n != 0 {
		t.Fatalf("retried before its delay: %d e-mails", n)
	}
	w.clock.Set(w.clock.Now().Add(2 * time.Minute))
	for range 2 {
		if err := w.p.Retry(t.Context()); err != nil {
			t.Fatal(err)
		}
		w.apply(t, id, change.Create)
	}
	if n := len(w.mails(t, grace)); n != 1 {
		t.Fatalf("%d e-mails after the retries, want 1", n)
	}
	if n := w.count(t, "SELECT attempts FROM notification_deliveries WHERE notification_id = $1 AND sent_on IS NOT NULL", id); n != 2 {
		t.Fatalf("%d attempts, want 2", n)
	}
}

// TestUnsubscribeLinkTurnsTheSettingOff: following the e-mail's link (a
// GET, as a mail scanner does) changes nothing: the next mention is
// mailed; posting it, as the link page's button and a mail client's
// one-click unsubscribe do, turns e-mails of mentions off: the mention
// after is not mailed.
func TestUnsubscribeLinkTurnsTheSettingOff(t *testing.T) {
	w := newWorld(t)
	ada, grace := w.person(t, "Ada", nil), w.person(t, "Grace", nil)
	w.apply(t, w.notify(t, note{kind: "mention", to: grace, from: &ada}), change.Create)
	mails := w.mails(t, grace)
	if len(mails) != 1 {
		t.Fatalf("%d e-mails, want 1", len(mails))
	}
	link := mails[0].ListUnsubscribe
	// then mentions Grace again after a request to the link, and answers
	// how many e-mails she has received.
	then := func(method string) int {
		t.Helper()
		req, err := http.NewRequest(method, link, strings.NewReader("List-Unsubscribe=One-Click"))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("%s link: %d", method, res.StatusCode)
		}
		// After the burst of the mail before (burst_test.go), so that
		// this one is mailed at once.
		w.clock.Set(w.clock.Now().Add(config.Default().MailLimits.NotificationBurst + time.Second))
		w.apply(t, w.notify(t, note{kind: "mention", to: grace, from: &ada}), change.Create)
		return len(w.mails(t, grace))
	}
	if n := then("GET"); n != 2 {
		t.Fatalf("%d e-mails after following the link, want 2", n)
	}
	if n := then("POST"); n != 2 {
		t.Fatalf("%d e-mails after unsubscribing, want still 2", n)
	}
}

// TestDigestOncePerPeriodAtTheLocalHour: a member in New York with a daily
// digest at 9 gets, at 9 their time and not before, one e-mail with the
// unread comment, reply and mention notifications of the day before it (a
// source that both mentions and comments is one item; what they opened
// from the list, or saw there before, is left out, as is a forum they
// left); the scheduler running
// again in that hour sends nothing more; the next day's digest has the
// next day's notifications; a member with the digest off gets none.
func TestDigestOncePerPeriodAtTheLocalHour(t *testing.T) {
	w := newWorld(t)
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	day := w.clock.Now()
	at := func(d, hour, minute int) time.Time {
		return time.Date(day.Year(), day.Month(), day.Day()+d, hour, minute, 0, 0, ny)
	}
	w.clock.Set(at(0, 8, 30))
	ada := w.person(t, "Ada", nil)
	grace := w.person(t, "Grace", map[string]any{"notifications.timezone": "America/New_York", "notifications.digest.hour": 9,
		"notifications.posts.lastSeenAt": at(-1, 10, 0).UTC().Format(time.RFC3339)})
	off := w.person(t, "Off", map[string]any{"notifications.digest.frequency": "off"})
	left := w.outsider(t, "Left", map[string]any{"notifications.timezone": "America/New_York", "notifications.digest.hour": 9})
	// notify at a local time: ago from the clock.
	notifyAt := func(n note, when time.Time) uuid.UUID {
		n.ago = w.clock.Now().Sub(when)
		return w.notify(t, n)
	}
	notifyAt(note{kind: "comment", to: grace, from: &ada, preview: "before the period"}, at(-1, 8, 0))
	notifyAt(note{kind: "comment", to: grace, from: &ada, preview: "seen in the list"}, at(-1, 9, 30))
	notifyAt(note{kind: "comment", to: grace, from: &ada, preview: "a first comment"}, at(-1, 11, 0))
	both := uuid.New()
	notifyAt(note{kind: "comment", to: grace, from: &ada, source: both, preview: "a comment that mentions you"}, at(-1, 12, 0))
	notifyAt(note{kind: "mention", to: grace, from: &ada, source: both, preview: "a comment that mentions you"}, at(-1, 12, 0))
	read := notifyAt(note{kind: "reply", to: grace, from: &ada, preview: "opened from the list"}, at(-1, 13, 0))
	notifyAt(note{kind: "reply", to: grace, preview: "an anonymous reply"}, at(0, 7, 0))
	notifyAt(note{kind: "comment", to: off, from: &ada}, at(0, 7, 0))
	notifyAt(note{kind: "comment", to: left, from: &ada, preview: "in a forum they left"}, at(0, 7, 0))
	w.exec(t, `UPDATE user_personalization SET data = data || jsonb_build_object('notifications.posts.read', jsonb_build_array($2::text)) WHERE user_id = $1`, grace.id, read.String())

	tick := func(when time.Time) {
		t.Helper()
		w.clock.Set(when)
		if err := w.p.Tick(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	tick(at(0, 8, 59))
	if n := len(w.mails(t, grace)); n != 0 {
		t.Fatalf("%d digests before 9, want none", n)
	}
	tick(at(0, 9, 1))
	tick(at(0, 9, 40))
	mails := w.mails(t, grace)
	if len(mails) != 1 {
		t.Fatalf("%d digests in the hour, want 1", len(mails))
	}
	d := mails[0]
	if d.Subject != "Your daily Agora digest: 3 new" || !strings.HasPrefix(d.ListUnsubscribe, w.env.URL+"/api/notifications/unsubscribe?token=") {
		t.Fatalf("digest %q %q", d.Subject, d.ListUnsubscribe)
	}
	for _, want := range []string{"Ada Tester commented on your post in Welcome & Introductions:\r\n    > a first comment",
		"Ada Tester mentioned you in Welcome & Introductions:\r\n    > a comment that mentions you", "Someone replied to your comment",
		"?reason=mention", d.ListUnsubscribe} {
		if !strings.Contains(d.Body, want) {
			t.Errorf("the digest lacks %q:\n%s", want, d.Body)
		}
	}
	for _, not := range []string{"before the period", "seen in the list", "opened from the list"} {
		if strings.Contains(d.Body, not) {
			t.Errorf("the digest has %q", not)
		}
	}
	if strings.Count(d.Body, "a comment that mentions you") != 1 {
		t.Errorf("the comment that mentions is listed twice:\n%s", d.Body)
	}

	notifyAt(note{kind: "comment", to: grace, from: &ada, preview: "the next day's comment"}, at(0, 12, 0))
	tick(at(1, 9, 5))
	mails = w.mails(t, grace)
	if len(mails) != 2 || !strings.Contains(mails[0].Body, "the next day's comment") || strings.Contains(mails[0].Body, "a first comment") {
		t.Fatalf("%d digests after the next day; newest:\n%s", len(mails), mails[0].Body)
	}
	if n := len(w.mails(t, off)); n != 0 {
		t.Fatalf("%d digests with the digest off", n)
	}
	if n := len(w.mails(t, left)); n != 0 {
		t.Fatalf("%d digests of a forum the member left", n)
	}
	if n := w.count(t, "SELECT count(*) FROM digest_runs WHERE user_id = $1 AND kind = 'posts'", grace.id); n != 2 {
		t.Fatalf("%d digest runs, want 2", n)
	}
}

// TestWeeklyDigestOnTheWeekday: a weekly digest is mailed on the member's
// weekday only, with the week's notifications.
func TestWeeklyDigestOnTheWeekday(t *testing.T) {
	w := newWorld(t)
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	start := w.clock.Now().In(tokyo)
	// The next Wednesday in Tokyo, at 7.
	wed := time.Date(start.Year(), start.Month(), start.Day(), 7, 0, 0, 0, tokyo)
	for wed.Weekday() != time.Wednesday {
		wed = wed.AddDate(0, 0, 1)
	}
	ada := w.person(t, "Ada", nil)
	grace := w.person(t, "Grace", map[string]any{"notifications.timezone": "Asia/Tokyo", "notifications.digest.frequency": "weekly",
		"notifications.digest.hour": 7, "notifications.digest.weekday": 3})
	w.clock.Set(wed.AddDate(0, 0, -1))
	w.notify(t, note{kind: "mention", to: grace, from: &ada, preview: "five days before", ago: 4 * 24 * time.Hour})
	for _, when := range []time.Time{wed.AddDate(0, 0, -1).Add(10 * time.Minute), wed.Add(-time.Minute), wed.Add(5 * time.Minute), wed.Add(50 * time.Minute)} {
		w.clock.Set(when)
		if err := w.p.Tick(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	mails := w.mails(t, grace)
	if len(mails) != 1 || mails[0].Subject != "Your weekly Agora digest: 1 new" || !strings.Contains(mails[0].Body, "five days before") {
		t.Fatalf("%d weekly digests: %+v", len(mails), mails)
	}
}

// insights gives the projection the insights queries over the test
// warehouse, and answers the first Monday at 8 UTC after the clock: when
// the insights digest of the defaults (weekly, Monday, 8, UTC) is due.
func (w *world) insights(t *testing.T) time.Time {
	t.Helper()
	conn, _ := testenv.Warehouse(t)
	reports, err := qinsights.New(w.env.DB, qinsights.NewClickHouse(conn))
	if err != nil {
		t.Fatal(err)
	}
	w.p, err = delivery.New(w.env.DB.Pool, delivery.Options{Mail: w.mail, BaseURL: w.env.URL, Now: w.clock.Now, Insights: reports})
	if err != nil {
		t.Fatal(err)
	}
	monday := w.clock.Now().Truncate(24 * time.Hour).Add(8 * time.Hour)
	for monday.Weekday() != time.Monday {
		monday = monday.AddDate(0, 0, 1)
	}
	return monday
}

// TestInsightsDigestToForumAdmins: a forum admin gets the weekly insights
// digest of their forum on their weekday, once; with the insights digest
// off they get none; one who is no admin gets none.
func TestInsightsDigestToForumAdmins(t *testing.T) {
	w := newWorld(t)
	monday := w.insights(t)
	admin, quiet := w.outsider(t, "Admin", nil), w.outsider(t, "Quiet", map[string]any{"notifications.insights.frequency": "off"})
	plain := w.person(t, "Plain", nil)
	w.join(t, admin, "admin")
	w.join(t, quiet, "admin")
	for _, when := range []time.Time{monday.Add(-time.Hour), monday.Add(time.Minute), monday.Add(30 * time.Minute), monday.AddDate(0, 0, 1)} {
		w.clock.Set(when)
		if err := w.p.InsightsDigests(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	mails := w.mails(t, admin)
	if len(mails) != 1 || mails[0].Subject != "Your weekly Agora insights" ||
		!strings.Contains(mails[0].Body, "* Welcome & Introductions: 0 interactions") || mails[0].ListUnsubscribe == "" {
		t.Fatalf("%d insights digests: %+v", len(mails), mails)
	}
	if n := len(w.mails(t, quiet)) + len(w.mails(t, plain)); n != 0 {
		t.Fatalf("%d insights digests to one with it off or no admin", n)
	}
}

// TestInsightsDigestToCommunityAdmins: the insights digest goes to those
// the Insights tab is for: an admin of the community who is no forum's
// admin gets the figures of each of the community's forums; a plain member
// of the community and of its forum gets none.
func TestInsightsDigestToCommunityAdmins(t *testing.T) {
	w := newWorld(t)
	monday := w.insights(t)
	boss, plain := w.outsider(t, "Boss", nil), w.person(t, "Plain", nil)
	// Boss administers the community through a profile of its
	// organization, and is in none of its forums; Plain is a member of the
	// community and of the forum.
	w.exec(t, `INSERT INTO profiles (id, organization_id, user_id, role, email, email_key, first_name, last_name)
		SELECT $1, c.organization_id, $2, 'member', $3, $3, 'Boss', 'Tester' FROM communities c WHERE c.id = $4`, uuid.New(), boss.id, boss.email, w.community)
	for p, role := range map[person]string{boss: "admin", plain: "member"} {
		w.exec(t, `INSERT INTO community_memberships (community_id, profile_id, role)
			SELECT $1, id, $2 FROM profiles WHERE user_id = $3`, w.community, role, p.id)
	}
	w.clock.Set(monday.Add(time.Minute))
	if err := w.p.InsightsDigests(t.Context()); err != nil {
		t.Fatal(err)
	}
	mails := w.mails(t, boss)
	if len(mails) != 1 || mails[0].Subject != "Your weekly Agora insights" {
		t.Fatalf("%d insights digests to the community admin: %+v", len(mails), mails)
	}
	rows, err := w.env.DB.Pool.Query(t.Context(), `SELECT name FROM series WHERE community_id = $1`, w.community)
	if err != nil {
		t.Fatal(err)
	}
	forums, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range forums {
		if !strings.Contains(mails[0].Body, "* "+f+": ") {
			t.Errorf("the digest leaves out the forum %q:\n%s", f, mails[0].Body)
		}
	}
	if n := strings.Count(mails[0].Body, "\r\n* "); n != len(forums) {
		t.Errorf("%d forums in the digest, want the community's %d:\n%s", n, len(forums), mails[0].Body)
	}
	if n := len(w.mails(t, plain)); n != 0 {
		t.Fatalf("%d insights digests to a plain member", n)
	}
}

// TestDeliveredFromTheChangeStream: run by the projections' runner over
// the relay's stream, a notification written to Postgres is e-mailed once.
func TestDeliveredFromTheChangeStream(t *testing.T) {
	w := newWorld(t)
	pipe := testenv.StartPipeline(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = projections.Run(ctx, projections.Config{Brokers: pipe.Brokers, Log: projectiontest.Logger()}, w.p)
	}()
	t.Cleanup(func() { cancel(); <-done })
	ada, grace := w.person(t, "Ada", nil), w.person(t, "Grace", nil)
	w.notify(t, note{kind: "mention", to: grace, from: &ada, preview: "through the stream"})
	deadline := time.Now().Add(time.Minute)
	for len(w.mails(t, grace)) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no e-mail within a minute")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if m := w.mails(t, grace); len(m) != 1 || !strings.Contains(m[0].Body, "through the stream") {
		t.Fatalf("e-mails %+v", m)
	}
}

// TestPruneForgetsOldLinksAndPeriods: an unsubscribe link older than a
// year stops working, a digest period older than a month is forgotten;
// newer ones are kept.
func TestPruneForgetsOldLinksAndPeriods(t *testing.T) {
	w := newWorld(t)
	p := w.person(t, "Prune", nil)
	now := w.clock.Now()
	w.exec(t, `INSERT INTO unsubscribe_tokens (token_hash, user_id, setting, created_on) VALUES
		($1, $3, 'notifications.email.mentions', $4), ($2, $3, 'notifications.email.mentions', $5)`,
		[]byte("old-"+p.id.String()), []byte("new-"+p.id.String()), p.id, now.AddDate(-1, 0, -1), now.AddDate(0, -11, 0))
	w.exec(t, `INSERT INTO digest_runs (user_id, kind, period_start) VALUES ($1, 'posts', $2), ($1, 'posts', $3)`,
		p.id, now.AddDate(0, 0, -31), now.AddDate(0, 0, -29))
	if err := w.p.Prune(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := w.count(t, "SELECT count(*) FROM unsubscribe_tokens WHERE user_id = $1", p.id); n != 1 {
		t.Errorf("%d unsubscribe links kept, want the newer one", n)
	}
	if n := w.count(t, "SELECT count(*) FROM digest_runs WHERE user_id = $1", p.id); n != 1 {
		t.Errorf("%d digest periods kept, want the newer one", n)
	}
}
