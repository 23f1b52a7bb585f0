package delivery_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/app/testenv"
	"agora/projections/delivery"
	qinsights "agora/query/insights"
)

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
