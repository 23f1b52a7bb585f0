package insights_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"

	"agora/analytics"
	"agora/app/seed"
	"agora/app/testenv"
	"agora/projections"
	"agora/projections/insights"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// fact is a fact row as the reports see it (FINAL: the newest version).
type fact struct {
	Kind, Detail      string
	Day               string
	Active, Anonymous bool
	N                 uint32
	Actor, Post       uuid.UUID
	Channel           uuid.UUID
	Version           uint64
}

func (f fact) String() string {
	return fmt.Sprintf("%s day=%s active=%v anon=%v n=%d actor=%s post=%s detail=%q v=%d", f.Kind, f.Day, f.Active, f.Anonymous, f.N, f.Actor, f.Post, f.Detail, f.Version)
}

// world is a forum of its own, written in SQL, and the warehouse the
// projection fills.
type world struct {
	ins                 *testenv.Insights
	community, series   uuid.UUID
	main, admin, member uuid.UUID
}

func newWorld(t *testing.T) *world {
	t.Helper()
	return newWorldIn(t, "SELECT id FROM communities ORDER BY created_on LIMIT 1")
}

// newWorldIn is a world whose forum is in the community that the SQL
// statement community returns (and may make).
func newWorldIn(t *testing.T, community string, args ...any) *world {
	t.Helper()
	return newWorldOn(t, testenv.NewInsights(t), community, args...)
}

// newWorldOn is newWorldIn over ins.
func newWorldOn(t *testing.T, ins *testenv.Insights, community string, args ...any) *world {
	t.Helper()
	w := &world{ins: ins}
	db := w.ins.DB.Pool
	ctx := t.Context()
	if err := db.QueryRow(ctx, community, args...).Scan(&w.community); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(ctx, "SELECT id FROM users WHERE email_key = $1", seed.MemberEmail).Scan(&w.member); err != nil {
		t.Fatal(err)
	}
	w.series = uuid.Must(uuid.NewV7())
	if _, err := db.Exec(ctx, "INSERT INTO series (id, community_id, name, description) VALUES ($1, $2, $3, 'd')", w.series, w.community, testenv.Unique("Facts")); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(ctx, "SELECT (SELECT id FROM channels WHERE series_id = $1 AND kind = 'main'), (SELECT id FROM channels WHERE series_id = $1 AND kind = 'admin')", w.series).
		Scan(&w.main, &w.admin); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *world) exec(t *testing.T, q string, args ...any) {
	t.Helper()
	if _, err := w.ins.DB.Pool.Exec(t.Context(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// facts are the forum's facts of object, by kind and day.
func (w *world) facts(t *testing.T, object uuid.UUID) map[string]fact {
	t.Helper()
	rows, err := w.ins.Warehouse.Query(t.Context(), `SELECT kind, toString(day), active, anonymous, n, actor_id, post_id, channel_id, detail, version
		FROM facts FINAL WHERE series_id = ? AND object_id = ?`, w.series, object)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]fact{}
	for rows.Next() {
		var f fact
		var active, anon uint8
		if err := rows.Scan(&f.Kind, &f.Day, &active, &anon, &f.N, &f.Actor, &f.Post, &f.Channel, &f.Detail, &f.Version); err != nil {
			t.Fatal(err)
		}
		f.Active, f.Anonymous = active == 1, anon == 1
		out[f.Kind+"@"+f.Day] = f
	}
	return out
}

// dump is every fact of the forum, for comparing the warehouse before
// and after a replay.
func (w *world) dump(t *testing.T, activeOnly bool) string {
	t.Helper()
	return w.dumpOf(t, w.ins.Warehouse, activeOnly)
}

func (w *world) dumpOf(t *testing.T, conn driver.Conn, activeOnly bool) string {
	t.Helper()
	q := `SELECT kind, toString(day), toString(object_id), active, n, detail FROM facts FINAL WHERE series_id = ?`
	if activeOnly {
		q += " AND active = 1"
	}
	rows, err := conn.Query(t.Context(), q, w.series)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var kind, day, object, detail string
		var active uint8
		var n uint32
		if err := rows.Scan(&kind, &day, &object, &active, &n, &detail); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, fmt.Sprintf("%s %s %s %d %d %q", kind, day, object, active, n, detail))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// daily is the forum's daily counts as the reports read them (the newest
// recomputation of each kind's day) and as the facts, deduplicated, say
// they should be.
func (w *world) daily(t *testing.T, conn driver.Conn) (kept, want string) {
	t.Helper()
	read := func(q string) string {
		rows, err := conn.Query(t.Context(), q, w.series)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var lines []string
		for rows.Next() {
			var kind, day, channel string
			var objects, n, anon uint64
			if err := rows.Scan(&kind, &day, &channel, &objects, &n, &anon); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, fmt.Sprintf("%s %s %s objects=%d n=%d anonymous=%d", kind, day, channel, objects, n, anon))
		}
		sort.Strings(lines)
		return strings.Join(lines, "\n")
	}
	kept = read(`SELECT kind, toString(day), toString(channel_id), argMax(objects, version), argMax(n, version), argMax(anonymous, version)
		FROM daily WHERE series_id = ? GROUP BY kind, day, channel_id`)
	want = read(`SELECT kind, toString(day), toString(channel_id), toUInt64(sum(active)), toUInt64(sum(active * n)), toUInt64(sum(active * anonymous))
		FROM facts FINAL WHERE series_id = ? GROUP BY kind, day, channel_id`)
	return kept, want
}

// wantDaily checks that the daily counts are the facts' (at once: the
// projection recounts a batch's days before it moves on).
func (w *world) wantDaily(t *testing.T, conn driver.Conn, when string) {
	t.Helper()
	kept, want := w.daily(t, conn)
	if want == "" {
		t.Fatalf("%s, the forum has no facts", when)
	}
	if kept != want {
		t.Fatalf("%s, the daily counts are not the facts':\nwant\n%s\ngot\n%s", when, want, kept)
	}
}

// eventually polls cond until it holds, for at most 20 s.
func eventually(t *testing.T, what string, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok, got := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 20 s; got\n%s", what, got)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// want checks the active kinds of an object's facts on day, and that the
// inactive ones are not active (written inactive, or never written: an
// object's facts are the kinds it has, and those it lost).
func (w *world) want(t *testing.T, what string, object uuid.UUID, day time.Time, active map[string]func(fact) bool, inactive ...string) {
	t.Helper()
	d := day.UTC().Format(time.DateOnly)
	eventually(t, what, func() (bool, string) {
		fs := w.facts(t, object)
		var b strings.Builder
		for _, f := range fs {
			b.WriteString(f.String() + "\n")
		}
		for kind, check := range active {
			f, ok := fs[kind+"@"+d]
			if !ok || !f.Active || (check != nil && !check(f)) {
				return false, b.String()
			}
		}
		for _, kind := range inactive {
			if f, ok := fs[kind+"@"+d]; ok && f.Active {
				return false, b.String()
			}
		}
		return true, ""
	})
}

// kindsOf lists the kinds of facts, sorted.
func kindsOf(fs map[string]fact) string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Kind)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// TestFactsFollowTheRows writes a post, a comment, a reply and a reaction
// in SQL, edits, backdates and deletes them, and checks the facts after
// each step; then replays the whole stream under another consumer group
// and rebuilds the warehouse from a snapshot, and checks nothing changed.
func TestFactsFollowTheRows(t *testing.T) {
	w := newWorld(t)
	now := time.Now().UTC().Truncate(time.Millisecond)
	post, comment, reply, reaction := uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7())

	// An anonymous question with an image and an embedded video.
	w.exec(t, `INSERT INTO threads (id, channel_id, series_id, creator_id, creator_as, type, raw, image, link, created_on, updated_on)
		VALUES ($1, $2, $3, $4, 'anonymous', 'question', 'Who has tried the [Ada Lovelace](0190a0a0-0000-7000-8000-000000000001) method?',
		        '{"url": "https://example.org/a.png"}', '{"url": "https://youtu.be/dQw4w9WgXcQ", "viewerType": "embedded"}', $5, $5)`,
		post, w.main, w.series, w.member, now)
	w.want(t, "the question's facts", post, now, map[string]func(fact) bool{
		analytics.KindPost:     func(f fact) bool { return f.Anonymous && f.Actor == uuid.Nil && f.Channel == w.main },
		analytics.KindQuestion: func(f fact) bool { return f.Detail == "Who has tried the Ada Lovelace method?" && f.Actor == uuid.Nil },
		analytics.KindImage:    nil,
		analytics.KindVideo:    nil,
	}, analytics.KindLink, analytics.KindFile, analytics.KindAIChat)
	if got := kindsOf(w.facts(t, post)); got != "image post question video" {
		t.Errorf("the question's facts are %q: only the kinds it has are written", got)
	}

	// A comment asking two questions, a reply asking none, a reaction.
	w.exec(t, `INSERT INTO replies (id, thread_id, creator_id, raw, created_on, updated_on) VALUES ($1, $2, $3, 'Nice. Where is it? And when?! See https://x.example/?q=1 ok.', $4, $4)`,
		comment, post, w.member, now)
	w.exec(t, `INSERT INTO replies (id, thread_id, parent_id, creator_id, raw, created_on, updated_on) VALUES ($1, $2, $3, $4, 'Thanks.', $5, $5)`,
		reply, post, comment, w.member, now)
	w.exec(t, `INSERT INTO reactions (id, thread_id, user_id, kind, created_on) VALUES ($1, $2, $3, 'liked', $4)`, reaction, post, w.member, now)
	w.want(t, "the comment's facts", comment, now, map[string]func(fact) bool{
		analytics.KindComment: func(f fact) bool { return f.Post == post && f.Actor == w.member && f.Channel == w.main },
		analytics.KindInlineQuestion: func(f fact) bool {
			return f.N == 2 && f.Detail == "Where is it?\nAnd when?!"
		},
	}, analytics.KindReply)
	w.want(t, "the reply's facts", reply, now, map[string]func(fact) bool{analytics.KindReply: nil}, analytics.KindComment, analytics.KindInlineQuestion)
	w.want(t, "the reaction's fact", reaction, now, map[string]func(fact) bool{analytics.KindReaction: func(f fact) bool { return f.Detail == "liked" }})

	// An edit that removes the image and the video and adds a file.
	w.exec(t, `UPDATE threads SET image = NULL, link = NULL, file = '{"name": "a.pdf", "url": "https://example.org/a.pdf", "mediaType": "application/pdf"}' WHERE id = $1`, post)
	w.want(t, "the edited question", post, now, map[string]func(fact) bool{analytics.KindPost: nil, analytics.KindFile: nil},
		analytics.KindImage, analytics.KindVideo)
	// What the edit removed is written again, inactive (from the update's
	// before-image); the kinds it never had are not written at all.
	if got := kindsOf(w.facts(t, post)); got != "file image post question video" {
		t.Errorf("the edited question's facts are %q", got)
	}

	// The reaction set again 40 days ago moves to that day: the old day's
	// fact goes inactive.
	then := now.AddDate(0, 0, -40)
	w.exec(t, `UPDATE reactions SET kind = 'loved', created_on = $2 WHERE id = $1`, reaction, then)
	w.want(t, "the reaction on its new day", reaction, then, map[string]func(fact) bool{analytics.KindReaction: func(f fact) bool { return f.Detail == "loved" }})
	w.want(t, "the reaction not on its old day", reaction, now, nil, analytics.KindReaction)

	// The comment edited to ask nothing.
	w.exec(t, `UPDATE replies SET raw = 'Never mind.' WHERE id = $1`, comment)
	w.want(t, "the comment without questions", comment, now, map[string]func(fact) bool{analytics.KindComment: nil}, analytics.KindInlineQuestion)

	// A second post, deleted with its comment and reaction (the cascade's
	// deletions arrive in any order).
	gone, goneComment, goneReaction := uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7())
	w.exec(t, `INSERT INTO threads (id, channel_id, series_id, creator_id, raw, created_on, updated_on) VALUES ($1, $2, $3, $4, 'Short-lived', $5, $5)`,
		gone, w.main, w.series, w.member, now)
	w.exec(t, `INSERT INTO replies (id, thread_id, creator_id, raw, created_on, updated_on) VALUES ($1, $2, $3, 'Why?', $4, $4)`, goneComment, gone, w.member, now)
	w.exec(t, `INSERT INTO reactions (id, thread_id, reply_id, user_id, kind, created_on) VALUES ($1, $2, $3, $4, 'smiled', $5)`, goneReaction, gone, goneComment, w.member, now)
	w.want(t, "the comment to delete", goneComment, now, map[string]func(fact) bool{analytics.KindInlineQuestion: nil})
	w.want(t, "the reaction to delete", goneReaction, now, map[string]func(fact) bool{analytics.KindReaction: nil})
	w.exec(t, `DELETE FROM threads WHERE id = $1`, gone)
	w.want(t, "the deleted post", gone, now, nil, analytics.KindPost)
	w.want(t, "the deleted comment", goneComment, now, nil, analytics.KindComment, analytics.KindInlineQuestion)
	w.want(t, "the deleted reaction", goneReaction, now, nil, analytics.KindReaction)

	// Visits and a membership.
	visit := uuid.Must(uuid.NewV7())
	w.exec(t, `INSERT INTO series_visit_log (id, series_id, user_id, visited_on) VALUES ($1, $2, $3, $4)`, visit, w.series, w.member, now)
	w.want(t, "the visit", visit, now, map[string]func(fact) bool{analytics.KindVisit: func(f fact) bool { return f.Actor == w.member && f.Channel == uuid.Nil }})

	// Everything again under another consumer group: the same facts.
	w.ins.WaitCaughtUp(t, w.ins.Projection, 30*time.Second)
	w.wantDaily(t, w.ins.Warehouse, "once caught up")
	before := w.dump(t, false)
	replay := w.ins.Projection.Named("insights-replay-" + uuid.NewString()[:8])
	w.ins.Run(t, replay)
	w.ins.WaitCaughtUp(t, replay, 60*time.Second)
	if after := w.dump(t, false); after != before {
		t.Fatalf("a replay changed the facts:\nbefore\n%s\nafter\n%s", before, after)
	}
	w.wantDaily(t, w.ins.Warehouse, "after a replay")

	// The whole stream into an empty warehouse, where the posts of deleted
	// comments and reactions may come after them: the same active facts
	// (a comment whose post is known nowhere, because both were deleted
	// before they were projected, leaves no inactive row behind).
	fresh, _ := testenv.Warehouse(t)
	empty, err := insights.New(fresh, w.ins.DB.Pool, nil)
	if err != nil {
		t.Fatal(err)
	}
	empty = empty.Named("insights-fresh-" + uuid.NewString()[:8])
	w.ins.Run(t, empty)
	w.ins.WaitCaughtUp(t, empty, 60*time.Second)
	if got, want := w.dumpOf(t, fresh, true), w.dump(t, true); got != want {
		t.Fatalf("a replay into an empty warehouse made other facts:\nwant\n%s\ngot\n%s", want, got)
	}
	w.wantDaily(t, fresh, "in an empty warehouse replayed into")

	// A rebuild from a snapshot: the same facts that are active (the
	// deleted objects are not in the snapshot at all).
	w.ins.Stop()
	active := w.dump(t, true)
	rows, err := projections.Rebuild(t.Context(), w.ins.Runner, projections.RebuildOptions{DatabaseURL: w.ins.DBURL, Slot: w.ins.Pipeline.Slot}, w.ins.Projection)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rebuilt from a snapshot of %d rows", rows)
	if after := w.dump(t, true); after != active {
		t.Fatalf("a rebuild changed the active facts:\nbefore\n%s\nafter\n%s", active, after)
	}
	w.wantDaily(t, w.ins.Warehouse, "after a rebuild")
	w.ins.Run(t, w.ins.Projection)
	late := uuid.Must(uuid.NewV7())
	w.exec(t, `INSERT INTO series_visit_log (id, series_id, user_id, visited_on) VALUES ($1, $2, $3, $4)`, late, w.series, w.member, now)
	w.want(t, "a visit after the rebuild", late, now, map[string]func(fact) bool{analytics.KindVisit: nil})
}

// TestCommunityDeletionLeavesNoActiveFacts: deleting a community deletes
// its forums and their posts and comments by cascade; the warehouse marks
// their facts inactive, so the reports stop counting them.
func TestCommunityDeletionLeavesNoActiveFacts(t *testing.T) {
	w := newWorldIn(t, `INSERT INTO communities (id, organization_id, name, description)
		SELECT gen_random_uuid(), organization_id, $1, 'd' FROM communities ORDER BY created_on LIMIT 1 RETURNING id`, testenv.Unique("Doomed"))
	now := time.Now().UTC().Truncate(time.Millisecond)
	post, comment := uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7())
	w.exec(t, `INSERT INTO threads (id, channel_id, series_id, creator_id, raw, created_on, updated_on) VALUES ($1, $2, $3, $4, 'Doomed', $5, $5)`,
		post, w.main, w.series, w.member, now)
	w.exec(t, `INSERT INTO replies (id, thread_id, creator_id, raw, created_on, updated_on) VALUES ($1, $2, $3, 'Why?', $4, $4)`, comment, post, w.member, now)
	w.want(t, "the post", post, now, map[string]func(fact) bool{analytics.KindPost: nil})
	w.want(t, "the comment", comment, now, map[string]func(fact) bool{analytics.KindComment: nil})
	w.ins.WaitCaughtUp(t, w.ins.Projection, 30*time.Second)
	w.wantDaily(t, w.ins.Warehouse, "before the deletion")

	w.exec(t, `DELETE FROM communities WHERE id = $1`, w.community)
	w.want(t, "the deleted community's post", post, now, nil, analytics.KindPost)
	w.want(t, "the deleted community's comment", comment, now, nil, analytics.KindComment, analytics.KindInlineQuestion)
	w.ins.WaitCaughtUp(t, w.ins.Projection, 30*time.Second)
	w.wantDaily(t, w.ins.Warehouse, "after the deletion")
	if active := w.dump(t, true); active != "" {
		t.Errorf("facts still active:\n%s", active)
	}
}

// TestPrivateChatLeavesNoFacts: a private channel, its message and a
// reaction on it, written beside a forum's post, make no fact: private
// chat is not forum activity, and its channel has no forum.
func TestPrivateChatLeavesNoFacts(t *testing.T) {
	w := newWorld(t)
	now := time.Now().UTC().Truncate(time.Millisecond)
	var other uuid.UUID
	if err := w.ins.DB.Pool.QueryRow(t.Context(), "SELECT id FROM users WHERE email_key = $1", seed.ExpertEmail).Scan(&other); err != nil {
		t.Fatal(err)
	}
	channel, message, post := uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7())
	w.exec(t, `INSERT INTO channels (id, kind, pair_key) VALUES ($1, 'private', $2)`, channel, channel.String())
	w.exec(t, `INSERT INTO channel_members (channel_id, user_id) VALUES ($1, $2), ($1, $3)`, channel, w.member, other)
	w.exec(t, `INSERT INTO private_messages (id, channel_id, creator_id, raw, created_on, updated_on) VALUES ($1, $2, $3, 'between us?', $4, $4)`,
		message, channel, w.member, now)
	w.exec(t, `INSERT INTO private_message_reactions (message_id, user_id, reaction) VALUES ($1, $2, 'liked')`, message, other)
	w.exec(t, `INSERT INTO threads (id, channel_id, series_id, creator_id, raw, created_on, updated_on) VALUES ($1, $2, $3, $4, 'In the open', $5, $5)`,
		post, w.main, w.series, w.member, now)
	w.want(t, "the forum's post", post, now, map[string]func(fact) bool{analytics.KindPost: nil})
	w.ins.WaitCaughtUp(t, w.ins.Projection, 30*time.Second)
	var n uint64
	if err := w.ins.Warehouse.QueryRow(t.Context(), `SELECT count() FROM facts WHERE object_id = ? OR post_id = ? OR channel_id = ?`,
		message, message, channel).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("%d facts of private chat", n)
	}
}

// TestMeetupFactsFollowTheRows writes a Meet Up, its invitations and the
// sessions of its participants in SQL, moves and deletes it, and checks
// the facts after each step.
func TestMeetupFactsFollowTheRows(t *testing.T) {
	w := newWorld(t)
	// 01:00 today: the sessions below start up to 10 minutes after it, and a
	// session's fact is on the day it started, so all of them fall on one
	// day even when the test runs just before midnight.
	now := time.Now().UTC().Truncate(24 * time.Hour).Add(time.Hour)
	post, meetup := uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7())
	var other uuid.UUID
	if err := w.ins.DB.Pool.QueryRow(t.Context(), "SELECT id FROM users WHERE id <> $1 ORDER BY created_on LIMIT 1", w.member).Scan(&other); err != nil {
		t.Fatal(err)
	}
	w.exec(t, `INSERT INTO threads (id, channel_id, series_id, creator_id, raw, created_on, updated_on) VALUES ($1, $2, $3, $4, '', $5, $5)`,
		post, w.main, w.series, w.member, now)
	w.exec(t, `INSERT INTO meetings (id, thread_id, series_id, creator_id, name, start_time, duration, open) VALUES ($1, $2, $3, $4, 'Capstone review', $5, 45, false)`,
		meetup, post, w.series, w.member, now)
	w.want(t, "the Meet Up's fact", meetup, now, map[string]func(fact) bool{
		analytics.KindMeetup: func(f fact) bool { return f.Post == post && f.Actor == w.member && f.N == 45 && f.Detail == "private" },
	})

	// An invitee who comes twice, one who declines.
	invited, declined := uuid.NewSHA1(meetup, w.member[:]), uuid.NewSHA1(meetup, other[:])
	w.exec(t, `INSERT INTO meeting_invitees (meeting_id, user_id, role, response) VALUES ($1, $2, 'moderator', 'yes'), ($1, $3, 'member', 'no')`,
		meetup, w.member, other)
	w.want(t, "the invitation", invited, now, map[string]func(fact) bool{
		analytics.KindMeetupInvited: func(f fact) bool { return f.Post == meetup && f.Actor == w.member },
	})
	w.want(t, "the declined invitation", declined, now, nil, analytics.KindMeetupInvited)
	w.exec(t, `INSERT INTO meeting_attendance (id, meeting_id, user_id, room, joined_on, left_on) VALUES ('PA_one', $1, $2, $3, $4, $5), ('PA_two', $1, $2, $3, $6, NULL)`,
		meetup, w.member, meetup.String(), now, now.Add(10*time.Minute), now.Add(12*time.Minute))
	first, second := uuid.NewSHA1(meetup, []byte("PA_one")), uuid.NewSHA1(meetup, []byte("PA_two"))
	w.want(t, "the first session", first, now, map[string]func(fact) bool{
		analytics.KindMeetupAttended: func(f fact) bool { return f.Post == meetup && f.Actor == w.member && f.N == 600 },
	})
	w.want(t, "the session still open", second, now, map[string]func(fact) bool{analytics.KindMeetupAttended: func(f fact) bool { return f.N == 0 }})
	w.exec(t, `UPDATE meeting_attendance SET left_on = $1 WHERE id = 'PA_two'`, now.Add(40*time.Minute))
	w.want(t, "the session ended", second, now, map[string]func(fact) bool{analytics.KindMeetupAttended: func(f fact) bool { return f.N == 28*60 }})

	// Moved to another day: the old day's fact goes inactive.
	later := now.AddDate(0, 0, 3)
	w.exec(t, `UPDATE meetings SET start_time = $2 WHERE id = $1`, meetup, later)
	w.want(t, "the moved Meet Up", meetup, later, map[string]func(fact) bool{analytics.KindMeetup: nil})
	w.want(t, "the Meet Up not on its old day", meetup, now, nil, analytics.KindMeetup)

	// Deleted with its post: every fact inactive.
	w.exec(t, `DELETE FROM threads WHERE id = $1`, post)
	w.want(t, "the deleted Meet Up", meetup, later, nil, analytics.KindMeetup)
	w.want(t, "the deleted invitation", invited, now, nil, analytics.KindMeetupInvited)
	w.want(t, "the deleted session", first, now, nil, analytics.KindMeetupAttended)
}
