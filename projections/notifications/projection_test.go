package notifications_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/projections"
	"agora/projections/notifications"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// world is a forum of a fresh community, written in SQL, and the
// notifications projection over the binary's pipeline.
type world struct {
	n                      *testenv.Notifications
	org, community, series uuid.UUID
	main, admin            uuid.UUID
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{n: testenv.NewNotifications(t)}
	w.org = w.id(t, "SELECT organization_id FROM communities ORDER BY created_on LIMIT 1")
	w.community = w.id(t, "INSERT INTO communities (id, organization_id, name, description) VALUES (gen_random_uuid(), $1, $2, 'd') RETURNING id",
		w.org, testenv.Unique("Notes"))
	w.series = w.id(t, "INSERT INTO series (id, community_id, name, description) VALUES (gen_random_uuid(), $1, $2, 'd') RETURNING id",
		w.community, testenv.Unique("Notes"))
	w.main = w.id(t, "SELECT id FROM channels WHERE series_id = $1 AND kind = 'main'", w.series)
	w.admin = w.id(t, "SELECT id FROM channels WHERE series_id = $1 AND kind = 'admin'", w.series)
	return w
}

func (w *world) id(t *testing.T, q string, args ...any) uuid.UUID {
	t.Helper()
	var id uuid.UUID
	if err := w.n.DB.Pool.QueryRow(t.Context(), q, args...).Scan(&id); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return id
}

func (w *world) exec(t *testing.T, q string, args ...any) {
	t.Helper()
	if _, err := w.n.DB.Pool.Exec(t.Context(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// person is a fresh user with a profile in the organization and, with
// role "member" or "admin", an active membership of the forum.
func (w *world) person(t *testing.T, name, role string) uuid.UUID {
	t.Helper()
	email := strings.ToLower(testenv.Unique(name)) + "@example.test"
	u := w.id(t, "INSERT INTO users (id, email, email_key, password_hash, first_name, last_name) VALUES (gen_random_uuid(), $1, $1, '', $2, 'Test') RETURNING id", email, name)
	p := w.id(t, "INSERT INTO profiles (id, organization_id, user_id, email, email_key, first_name, last_name) VALUES (gen_random_uuid(), $1, $2, $3, $3, $4, 'Test') RETURNING id",
		w.org, u, email, name)
	if role != "" {
		w.exec(t, "INSERT INTO series_memberships (series_id, profile_id, role, status) VALUES ($1, $2, $3, 'active')", w.series, p, role)
	}
	return u
}

func (w *world) post(t *testing.T, channel, creator uuid.UUID, as, raw string, mentions ...uuid.UUID) uuid.UUID {
	t.Helper()
	if mentions == nil {
		mentions = []uuid.UUID{}
	}
	return w.id(t, `INSERT INTO threads (id, channel_id, series_id, creator_id, creator_as, type, raw, mentions)
		VALUES ($1, $2, $3, $4, $5, CASE WHEN $5 = 'anonymous' THEN 'question' ELSE 'post' END, $6, $7) RETURNING id`,
		uuid.Must(uuid.NewV7()), channel, w.series, creator, as, raw, mentions)
}

func (w *world) reply(t *testing.T, thread uuid.UUID, parent *uuid.UUID, creator uuid.UUID, raw string, mentions ...uuid.UUID) uuid.UUID {
	t.Helper()
	if mentions == nil {
		mentions = []uuid.UUID{}
	}
	return w.id(t, `INSERT INTO replies (id, thread_id, parent_id, creator_id, raw, mentions) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
		uuid.Must(uuid.NewV7()), thread, parent, creator, raw, mentions)
}

// at is the mention markup of a person.
func at(name string, id uuid.UUID) string { return "[" + name + "](" + id.String() + ")" }

// dump is every notification of the forum and of the given channels, one
// line each, sorted: what a replay or a rebuild must leave as it is.
func (w *world) dump(t *testing.T, channels ...uuid.UUID) string {
	t.Helper()
	rows, err := w.n.DB.Pool.Query(t.Context(), `SELECT id, user_id, kind, source_id, post_id, series_id, community_id, channel_id, author_id, preview, created_on
		FROM notifications WHERE series_id = $1 OR channel_id = ANY($2)`, w.series, append(channels, uuid.Nil))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, fmt.Sprint(vals...))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// kinds are the notifications of source, "kind→user" sorted.
func (w *world) kinds(t *testing.T, source uuid.UUID, names map[uuid.UUID]string) []string {
	t.Helper()
	rows, err := w.n.DB.Pool.Query(t.Context(), "SELECT kind, user_id, author_id FROM notifications WHERE source_id = $1", source)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var kind string
		var user uuid.UUID
		var author *uuid.UUID
		if err := rows.Scan(&kind, &user, &author); err != nil {
			t.Fatal(err)
		}
		by := "anonymous"
		if author != nil {
			by = names[*author]
		}
		out = append(out, kind+"→"+names[user]+" by "+by)
	}
	sort.Strings(out)
	return out
}

// settle waits until the projection has applied everything written so far.
func (w *world) settle(t *testing.T) {
	t.Helper()
	w.n.WaitRelayed(t, time.Minute)
	w.n.WaitCaughtUp(t, w.n.Projection, time.Minute)
}

func (w *world) want(t *testing.T, what string, source uuid.UUID, names map[uuid.UUID]string, want ...string) {
	t.Helper()
	sort.Strings(want)
	if got := w.kinds(t, source, names); strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("%s: notifications %q, want %q", what, got, want)
	}
}

// TestNotificationsFollowTheSources writes posts, comments, replies and
// private messages and checks that each kind of notification is written
// once, to the right readers only: never to the author, never to one who
// cannot read the channel (an outsider, a member removed from the forum, a
// member on the admin channel), never naming an anonymous asker; that edits
// add and remove mentions, deletions remove the rows; and that a replay of
// the whole stream and a rebuild leave the table as it was.
func TestNotificationsFollowTheSources(t *testing.T) {
	w := newWorld(t)
	ada, bo, cy, dee := w.person(t, "Ada", "member"), w.person(t, "Bo", "member"), w.person(t, "Cy", "member"), w.person(t, "Dee", "admin")
	gone, out := w.person(t, "Gone", "member"), w.person(t, "Out", "")
	names := map[uuid.UUID]string{ada: "ada", bo: "bo", cy: "cy", dee: "dee", gone: "gone", out: "out"}

	// A post mentioning a member, the author, an outsider and a forum admin.
	p := w.post(t, w.main, ada, "author", "Hello "+at("Bo", bo)+" and "+at("Out", out)+", see "+at("Dee", dee)+" "+strings.Repeat("long ", 60), bo, ada, out, dee)
	// A comment on it that mentions Cy; a reply to the comment by Ada.
	c := w.reply(t, p, nil, bo, "a comment for [Cy](c)", cy)
	r := w.reply(t, p, &c, ada, "a reply to Bo")
	// Ada comments on her own post: nobody is told.
	own := w.reply(t, p, nil, ada, "my own comment")
	// An anonymous question by Cy, mentioning Ada; Bo comments on it.
	q := w.post(t, w.main, cy, "anonymous", "who decides, [Ada](a)?", ada)
	qc := w.reply(t, q, nil, bo, "I do")
	// The admin channel: a member mentioned there cannot read it.
	ap := w.post(t, w.admin, dee, "author", "admins only [Bo](b)", bo)
	w.settle(t)

	w.want(t, "post", p, names, "mention→bo by ada", "mention→dee by ada")
	w.want(t, "comment", c, names, "comment→ada by bo", "mention→cy by bo")
	w.want(t, "reply", r, names, "reply→bo by ada")
	w.want(t, "own comment", own, names)
	w.want(t, "anonymous question", q, names, "mention→ada by anonymous")
	w.want(t, "comment on the question", qc, names, "comment→cy by bo")
	w.want(t, "admin channel post", ap, names)
	var preview string
	if err := w.n.DB.Pool.QueryRow(t.Context(), "SELECT preview FROM notifications WHERE source_id = $1 AND user_id = $2", p, bo).Scan(&preview); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(preview, "Hello Bo and Out, see Dee long") || len([]rune(preview)) != notifications.PreviewMax {
		t.Errorf("preview %q (%d characters)", preview, len([]rune(preview)))
	}

	t.Run("a member removed from the forum gets nothing new", func(t *testing.T) {
		before := w.post(t, w.main, ada, "author", "for [Gone](g) while a member", gone)
		w.settle(t)
		w.want(t, "before the removal", before, names, "mention→gone by ada")
		w.exec(t, "DELETE FROM series_memberships WHERE series_id = $1 AND profile_id IN (SELECT id FROM profiles WHERE user_id = $2)", w.series, gone)
		after := w.post(t, w.main, ada, "author", "for [Gone](g) after", gone)
		c := w.reply(t, before, nil, bo, "[Gone](g), are you there?", gone)
		w.settle(t)
		w.want(t, "after the removal", after, names)
		w.want(t, "a comment after the removal", c, names, "comment→ada by bo")
		w.want(t, "what they were told before", before, names, "mention→gone by ada")
	})

	var ch uuid.UUID // the private channel
	t.Run("a private message tells the other member", func(t *testing.T) {
		ch = w.id(t, "INSERT INTO channels (id, kind, pair_key) VALUES (gen_random_uuid(), 'private', $1) RETURNING id", testenv.Unique("pair"))
		w.exec(t, "INSERT INTO channel_members (channel_id, user_id) VALUES ($1, $2), ($1, $3)", ch, ada, bo)
		m := w.id(t, "INSERT INTO private_messages (id, channel_id, creator_id, raw) VALUES (gen_random_uuid(), $1, $2, 'hi Bo') RETURNING id", ch, ada)
		w.settle(t)
		w.want(t, "message", m, names, "message→bo by ada")
		var post *uuid.UUID
		if err := w.n.DB.Pool.QueryRow(t.Context(), "SELECT post_id FROM notifications WHERE source_id = $1", m).Scan(&post); err != nil || post != nil {
			t.Errorf("a message's post: %v %v", post, err)
		}
	})

	t.Run("a Meet Up chat's message tells nobody", func(t *testing.T) {
		// Its channel has no channel_members: the chat is the Meet Up
		// screen's, and the private chat's notifications are not for it.
		post := w.post(t, w.main, ada, "author", "Weekly sync")
		room := w.id(t, `INSERT INTO meetings (id, thread_id, series_id, creator_id, name, start_time, duration, open)
			VALUES (gen_random_uuid(), $1, $2, $3, 'Weekly sync', now(), 30, false) RETURNING id`, post, w.series, ada)
		w.exec(t, "INSERT INTO meeting_invitees (meeting_id, user_id, response) VALUES ($1, $2, 'yes')", room, bo)
		mc := w.id(t, "INSERT INTO channels (id, kind, meeting_id) VALUES (gen_random_uuid(), 'meetup', $1) RETURNING id", room)
		m := w.id(t, "INSERT INTO private_messages (id, channel_id, creator_id, raw) VALUES (gen_random_uuid(), $1, $2, 'hi all') RETURNING id", mc, ada)
		w.settle(t)
		w.want(t, "Meet Up chat message", m, names)
	})

	t.Run("an edit adds and removes mentions", func(t *testing.T) {
		w.exec(t, "UPDATE threads SET raw = $3, mentions = $2 WHERE id = $1", p, []uuid.UUID{cy, dee}, "Hello "+at("Cy", cy)+" and "+at("Dee", dee))
		w.settle(t)
		w.want(t, "edited post", p, names, "mention→cy by ada", "mention→dee by ada")
		var preview string
		if err := w.n.DB.Pool.QueryRow(t.Context(), "SELECT preview FROM notifications WHERE source_id = $1 AND user_id = $2", p, dee).Scan(&preview); err != nil || preview != "Hello Cy and Dee" {
			t.Errorf("preview after the edit %q %v", preview, err)
		}
	})

	t.Run("a replay and a rebuild leave the notifications as they are", func(t *testing.T) {
		want := w.dump(t, ch)
		if !strings.Contains(want, "hi Bo") {
			t.Fatalf("the dump misses the private message's row:\n%s", want)
		}
		replay := w.n.Projection.Named("notifications-replay-" + uuid.NewString()[:8])
		w.n.Run(t, replay)
		w.n.WaitCaughtUp(t, replay, 2*time.Minute)
		if got := w.dump(t, ch); got != want {
			t.Fatalf("a replay changed the notifications:\nbefore\n%s\nafter\n%s", want, got)
		}
		w.n.Stop()
		if _, err := projections.Rebuild(t.Context(), w.n.Runner, projections.RebuildOptions{DatabaseURL: w.n.DBURL, Slot: w.n.Pipeline.Slot}, w.n.Projection); err != nil {
			t.Fatal(err)
		}
		if got := w.dump(t, ch); got != want {
			t.Fatalf("a rebuild changed the notifications:\nbefore\n%s\nafter\n%s", want, got)
		}
		w.n.Run(t, w.n.Projection)
	})

	t.Run("a deletion removes the source's notifications", func(t *testing.T) {
		w.exec(t, "DELETE FROM replies WHERE id = $1", r)
		w.exec(t, "DELETE FROM threads WHERE id = $1", q)
		w.settle(t)
		w.want(t, "deleted reply", r, names)
		w.want(t, "deleted question", q, names)
		w.want(t, "deleted question's comment", qc, names)
		w.want(t, "the comment kept", c, names, "comment→ada by bo", "mention→cy by bo")
	})
}
