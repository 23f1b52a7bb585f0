package delivery_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/internal/plumbing/config"
	"agora/internal/rules/membership"
	"agora/projections"
	"agora/projections/change"
	"agora/projections/projectiontest"
)

// TestMentionIsMailedAndPushedOnce: a mention is e-mailed (with an
// unsubscribe link in the body and the List-Unsubscribe header) and pushed
// to the member's browser, which decrypts it; the same change again, and a
// snapshot's read of the row, send nothing more.
func TestMentionIsMailedAndPushedOnce(t *testing.T) {
	w := newWorld(t)
	ada, grace := w.person(t, "Ada", nil), w.person(t, "Grace", nil)
	sub := w.subscribe(t, grace)
	// The mention is in a comment of the post (its source is not the
	// post): the push opens the post at it.
	comment := uuid.New()
	id := w.notify(t, note{kind: "mention", to: grace, from: &ada, source: comment, preview: "Hello @Grace Tester, have a look"})
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
		!strings.HasSuffix(got[0].URL, "?reason=mention&reply="+comment.String()) || got[0].Tag != comment.String() {
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
	anonymous := uuid.New()
	w.apply(t, w.notify(t, note{kind: "comment", to: asker, source: anonymous, preview: "an anonymous comment"}), change.Create)
	w.apply(t, w.notify(t, note{kind: "mention", to: asker, from: &ada, ago: 25 * time.Hour}), change.Read)
	if n := len(w.mails(t, asker)); n != 0 {
		t.Fatalf("%d e-mails for a comment and an old mention, want none", n)
	}
	got := w.pushed(t, sub.Endpoint)
	if len(got) != 1 || got[0].Title != "Someone commented on your post in Welcome & Introductions" || !strings.HasSuffix(got[0].URL, "?reason=comment&reply="+anonymous.String()) {
		t.Fatalf("pushes %+v, want the comment's alone, opening the post at it", got)
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
