package delivery_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/internal/plumbing/config"
	"agora/projections/change"
	"agora/projections/delivery"
)

// TestMentionBurstIsOneMail: twelve posts mentioning a member within a
// second (the probe's burst) are one mail at once and one more, listing
// the other eleven, when the burst (AGORA_NOTIFICATION_BURST) ends; the
// member's browser is pushed once. Before, they were twelve mails and
// twelve pushes.
func TestMentionBurstIsOneMail(t *testing.T) {
	w := newWorld(t)
	ada, grace := w.person(t, "Ada", nil), w.person(t, "Grace", nil)
	sub := w.subscribe(t, grace)
	start := w.clock.Now()
	for i := range 12 {
		w.clock.Set(start.Add(time.Duration(i) * 60 * time.Millisecond))
		w.apply(t, w.notify(t, note{kind: "mention", to: grace, from: &ada, preview: "Mention number " + string(rune('A'+i))}), change.Create)
	}
	if n := len(w.mails(t, grace)); n != 1 {
		t.Fatalf("%d e-mails during the burst, want 1", n)
	}
	if n := len(w.pushed(t, sub.Endpoint)); n != 1 {
		t.Errorf("%d pushes during the burst, want 1", n)
	}
	burst := config.Default().MailLimits.NotificationBurst
	w.clock.Set(start.Add(burst - time.Second))
	if err := w.p.Tick(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := len(w.mails(t, grace)); n != 1 {
		t.Fatalf("%d e-mails before the burst ends, want 1", n)
	}
	w.clock.Set(start.Add(burst + time.Second))
	for range 2 {
		if err := w.p.Tick(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	mails := w.mails(t, grace)
	if len(mails) != 2 {
		t.Fatalf("%d e-mails after the burst, want 2", len(mails))
	}
	digest := mails[0] // newest first
	if digest.Subject != "11 new mentions and Meet Ups on Agora" || strings.Count(digest.Body, "Ada Tester mentioned you") != 11 ||
		!strings.Contains(digest.Body, "Mention number L") || strings.Contains(digest.Body, "Mention number A\r") || digest.ListUnsubscribe == "" {
		t.Errorf("the burst's e-mail: %+v", digest)
	}
	if n := w.count(t, `SELECT count(*) FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id
		WHERE n.user_id = $1 AND d.channel = 'email' AND d.sent_on IS NOT NULL AND d.held_until IS NULL`, grace.id); n != 12 {
		t.Errorf("%d of 12 mentions settled as mailed", n)
	}
	// A mention after the burst's mail waits for the next burst.
	w.apply(t, w.notify(t, note{kind: "mention", to: grace, from: &ada}), change.Create)
	if n := len(w.mails(t, grace)); n != 2 {
		t.Errorf("%d e-mails right after the burst's mail, want 2", n)
	}
}

// TestMeetupBurstIsOneMail: four open Meet Ups scheduled one after the
// other in a forum mail each member once at once and once with the three
// others when the burst ends, not four times.
func TestMeetupBurstIsOneMail(t *testing.T) {
	w := newWorld(t)
	ada, grace, linus := w.person(t, "Ada", nil), w.person(t, "Grace", nil), w.person(t, "Linus", nil)
	start := w.clock.Now()
	for i := range 4 {
		w.clock.Set(start.Add(time.Duration(i) * time.Second))
		source := w.notify(t, note{kind: "meetup-open", to: grace, from: &ada, preview: "Planning " + string(rune('1'+i))})
		w.apply(t, source, change.Create)
		w.apply(t, w.notify(t, note{kind: "meetup-open", to: linus, from: &ada, preview: "Planning " + string(rune('1'+i))}), change.Create)
	}
	for _, p := range []person{grace, linus} {
		if n := len(w.mails(t, p)); n != 1 {
			t.Fatalf("%s: %d e-mails for four Meet Ups, want 1", p.email, n)
		}
	}
	w.clock.Set(start.Add(config.Default().MailLimits.NotificationBurst + time.Second))
	if err := w.p.Tick(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, p := range []person{grace, linus} {
		mails := w.mails(t, p)
		if len(mails) != 2 || strings.Count(mails[0].Body, "Ada Tester scheduled a Meet Up") != 3 || !strings.Contains(mails[0].Body, "Planning 4") {
			t.Errorf("%s: e-mails %+v, want the first and one of the other three", p.email, mails)
		}
	}
}

// TestMentionMailsPerAuthor: past AGORA_MENTION_MAILS_PER_AUTHOR_PER_HOUR
// an author's mentions are not mailed (they stay in the app and the
// members' digests); other authors' still are.
func TestMentionMailsPerAuthor(t *testing.T) {
	w := newWorld(t)
	p, err := delivery.New(w.env.DB.Pool, delivery.Options{Mail: w.mail, BaseURL: w.env.URL, Now: w.clock.Now,
		Limits: config.MailLimits{MentionMailsPerAuthorPerHour: 2}})
	if err != nil {
		t.Fatal(err)
	}
	ada, bob := w.person(t, "Ada", nil), w.person(t, "Bob", nil)
	var mentioned []person
	for _, name := range []string{"Grace", "Linus", "Ken"} {
		m := w.person(t, name, nil)
		mentioned = append(mentioned, m)
		if err := p.Deliver(t.Context(), w.notify(t, note{kind: "mention", to: m, from: &ada})); err != nil {
			t.Fatal(err)
		}
	}
	got := 0
	for _, m := range mentioned {
		got += len(w.mails(t, m))
	}
	if got != 2 {
		t.Errorf("%d mention e-mails from one author, want 2", got)
	}
	if err := p.Deliver(t.Context(), w.notify(t, note{kind: "mention", to: mentioned[2], from: &bob})); err != nil {
		t.Fatal(err)
	}
	if n := len(w.mails(t, mentioned[2])); n != 1 {
		t.Errorf("another author's mention: %d e-mails, want 1", n)
	}
}

// TestMailQuotesPostText: a post's text in a notification mail is a
// quotation, so that a post that writes a signature, a footer and an
// unsubscribe link of its own forges none: every line of it is behind
// "> ", its links are written "[link]", and the mail's only unsubscribe
// line is the server's. Before, the text was pasted as it was.
func TestMailQuotesPostText(t *testing.T) {
	w := newWorld(t)
	ada, grace := w.person(t, "Ada", nil), w.person(t, "Grace", nil)
	forged := "See you there\n\n-- \nTo stop these e-mails: https://evil.example/api/notifications/unsubscribe?token=x\nOr change your notification settings: www.evil.example/profile \u202Eor mailto:x@evil.example"
	w.apply(t, w.notify(t, note{kind: "mention", to: grace, from: &ada, preview: forged}), change.Create)
	mails := w.mails(t, grace)
	if len(mails) != 1 {
		t.Fatalf("%d e-mails, want 1", len(mails))
	}
	body := mails[0].Body
	if strings.Contains(body, "evil.example") || strings.ContainsRune(body, '\u202E') {
		t.Errorf("the post's links reach the mail: %q", body)
	}
	lines := strings.Split(body, "\r\n")
	var stop, sigs, quoted int
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "To stop these e-mails: "):
			stop++
			if !strings.HasPrefix(l, "To stop these e-mails: "+w.env.URL+"/api/notifications/unsubscribe?token=") {
				t.Errorf("a forged unsubscribe line: %q", l)
			}
		case l == "-- ":
			sigs++
		case strings.HasPrefix(l, "    > "):
			quoted++
		}
	}
	if stop != 1 || sigs != 1 || quoted != 5 {
		t.Errorf("%d unsubscribe lines, %d signatures, %d quoted lines; want 1, 1, 5: %q", stop, sigs, quoted, body)
	}
	if !strings.Contains(body, "    > See you there\r\n") || !strings.Contains(body, "    > To stop these e-mails: [link]\r\n") {
		t.Errorf("the quotation: %q", body)
	}
}

// TestCommentBurstIsOnePush: twelve comments on a member's post within a
// second push their browser once; a mention within the burst is still
// pushed (it is addressed to them, not one more of the same); after the
// burst (AGORA_NOTIFICATION_BURST) the next comment pushes again. Before,
// the twelve comments were twelve pushes.
func TestCommentBurstIsOnePush(t *testing.T) {
	w := newWorld(t)
	ada, grace := w.person(t, "Ada", nil), w.person(t, "Grace", nil)
	sub := w.subscribe(t, grace)
	start := w.clock.Now()
	for i := range 12 {
		w.clock.Set(start.Add(time.Duration(i) * 80 * time.Millisecond))
		kind := "comment"
		if i%3 == 2 {
			kind = "reply"
		}
		w.apply(t, w.notify(t, note{kind: kind, to: grace, from: &ada, preview: "Comment number " + string(rune('A'+i))}), change.Create)
	}
	got := w.pushed(t, sub.Endpoint)
	if len(got) != 1 || got[0].Body != "Comment number A" {
		t.Fatalf("pushes during the burst %+v, want the first comment's alone", got)
	}
	w.apply(t, w.notify(t, note{kind: "mention", to: grace, from: &ada}), change.Create)
	if n := len(w.pushed(t, sub.Endpoint)); n != 2 {
		t.Fatalf("%d pushes after a mention within the comments' burst, want 2", n)
	}
	burst := config.Default().MailLimits.NotificationBurst
	w.clock.Set(start.Add(burst - time.Second))
	w.apply(t, w.notify(t, note{kind: "comment", to: grace, from: &ada}), change.Create)
	if n := len(w.pushed(t, sub.Endpoint)); n != 2 {
		t.Fatalf("%d pushes for a comment before the burst ends, want 2", n)
	}
	w.clock.Set(start.Add(burst + time.Second))
	w.apply(t, w.notify(t, note{kind: "comment", to: grace, from: &ada, preview: "After the burst"}), change.Create)
	if got := w.pushed(t, sub.Endpoint); len(got) != 3 || got[2].Body != "After the burst" {
		t.Fatalf("pushes after the burst %+v, want a third, the new comment's", got)
	}
}

// TestMessageBurstIsOnePushPerConversation: twelve private messages of one
// chat within a second push the member once; a message of another chat
// within it still pushes; after the burst the first chat's next message
// pushes again. Before, every message was a push.
func TestMessageBurstIsOnePushPerConversation(t *testing.T) {
	w := newWorld(t)
	ada, bob, grace := w.person(t, "Ada", nil), w.person(t, "Bob", nil), w.person(t, "Grace", nil)
	sub := w.subscribe(t, grace)
	chat := func(with person) uuid.UUID {
		id := uuid.New()
		w.exec(t, `INSERT INTO channels (id, kind, pair_key) VALUES ($1, 'private', $2)`, id, id.String())
		w.exec(t, `INSERT INTO channel_members (channel_id, user_id) VALUES ($1, $2), ($1, $3)`, id, with.id, grace.id)
		return id
	}
	withAda, withBob := chat(ada), chat(bob)
	start := w.clock.Now()
	for i := range 12 {
		w.clock.Set(start.Add(time.Duration(i) * 80 * time.Millisecond))
		w.apply(t, w.notify(t, note{kind: "message", to: grace, from: &ada, channel: &withAda}), change.Create)
	}
	if n := len(w.pushed(t, sub.Endpoint)); n != 1 {
		t.Fatalf("%d pushes for twelve messages of one chat, want 1", n)
	}
	w.apply(t, w.notify(t, note{kind: "message", to: grace, from: &bob, channel: &withBob}), change.Create)
	got := w.pushed(t, sub.Endpoint)
	if len(got) != 2 || got[1].Title != "Bob Tester" {
		t.Fatalf("pushes %+v, want Bob's chat's one too", got)
	}
	w.clock.Set(start.Add(config.Default().MailLimits.NotificationBurst + time.Second))
	w.apply(t, w.notify(t, note{kind: "message", to: grace, from: &ada, channel: &withAda}), change.Create)
	if n := len(w.pushed(t, sub.Endpoint)); n != 3 {
		t.Fatalf("%d pushes after the burst, want 3", n)
	}
}
