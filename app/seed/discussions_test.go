package seed_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/uuid"

	"agora/app/demo"
	"agora/app/seed"
	"agora/command/aisearch"
	"agora/internal/adapters/blob"
	"agora/internal/plumbing/auth"
)

// TestDiscussionsParse: every embedded file parses, one per demo forum.
func TestDiscussionsParse(t *testing.T) {
	ds, err := seed.Discussions()
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 5 {
		t.Errorf("%d forums have discussions, want 5", len(ds))
	}
	for _, d := range ds {
		if len(d.Threads) == 0 {
			t.Errorf("%s has no threads", d.File)
		}
		// The Insights panel of every demo forum shows a few recent gaps.
		if n := len(d.Gaps); n < 3 || n > 5 {
			t.Errorf("%s has %d content gaps, want 3 to 5", d.File, n)
		}
		for _, g := range d.Gaps {
			if g.At.Days > 30 || g.Asked < 1 || g.Asked > 6 {
				t.Errorf("%s: gap asked %d times, last %d days ago: want 1 to 6 times in the last 30 days", g.Pos, g.Asked, g.At.Days)
			}
		}
	}
}

// TestDiscussionsParseErrors: a malformed entry is refused with its file
// and line.
func TestDiscussionsParseErrors(t *testing.T) {
	const post = "=== post p1\nby: admin\nat: 10d 10:00\n\nHello.\n"
	for _, c := range []struct{ name, text, want string }{
		{"bad header", post + "\n=== poster p2\nby: admin\n", "welcome.txt:7: bad header"},
		{"field not allowed", "=== post p1\nby: admin\nat: 10d 10:00\ntitle: x\n\nHello.\n", "welcome.txt:4: field title not allowed on post"},
		{"no by", "=== post p1\nat: 10d 10:00\n\nHello.\n", "welcome.txt:1: by is required"},
		{"bad at", "=== post p1\nby: admin\nat: yesterday\n\nHello.\n", "welcome.txt:1: at \"yesterday\""},
		{"not a field", "=== post p1\nby admin\n\nHello.\n", "welcome.txt:2: expected \"field: value\""},
		{"reply without comment", post + "\n---- reply r1\nby: admin\nat: 9d 10:00\n\nHi.\n", "welcome.txt:7: reply without a comment"},
		{"comment before its thread", post + "\n--- comment c1\nby: admin\nat: 11d 10:00\n\nHi.\n", "welcome.txt:7: comment not after its thread"},
		{"key twice", post + "\n=== post p1\nby: admin\nat: 9d 10:00\n\nAgain.\n", "welcome.txt:7: key p1 used twice"},
		{"bad reactions", "=== post p1\nby: admin\nat: 10d 10:00\nreactions: cheered 3\n\nHello.\n", "welcome.txt:1: bad reactions"},
		{"empty body", "=== post p1\nby: admin\nat: 10d 10:00\n\n", "welcome.txt:1: empty body"},
		{"minutes without meetup", post + "\n--- minutes\n\nNotes.\n", "welcome.txt:7: minutes must follow their meetup"},
		{"meetup without title", "=== meetup m1\nby: admin\nat: 10d 10:00\nagenda: a\nstarts: 9d 10:00\nduration: 60\nopen: yes\n\nCome.\n", "welcome.txt:1: meetup needs title"},
		{"text before entries", "hello\n" + post, "welcome.txt:1: text before the first entry"},
		{"gap without question", post + "\n=== gap\nat: 3d 10:00\nasked: 2\n\n", "welcome.txt:7: empty body"},
		{"gap asked 0", post + "\n=== gap\nat: 3d 10:00\nasked: 0\n\nWhere?\n", "welcome.txt:7: asked \"0\" is not a whole number"},
		{"gap without asked", post + "\n=== gap\nat: 3d 10:00\n\nWhere?\n", "welcome.txt:7: asked \"\" is not a whole number"},
		{"gap bad at", post + "\n=== gap\nat: 3 days ago\nasked: 1\n\nWhere?\n", "welcome.txt:7: at \"3 days ago\""},
		{"gap with a key", post + "\n=== gap g1\nat: 3d 10:00\nasked: 1\n\nWhere?\n", "welcome.txt:7: a gap takes no key"},
		{"gap with an author", post + "\n=== gap\nby: admin\nat: 3d 10:00\nasked: 1\n\nWhere?\n", "welcome.txt:8: field by not allowed on gap"},
		{"gap question too long", post + "\n=== gap\nat: 3d 10:00\nasked: 1\n\n" + strings.Repeat("why ", 251) + "\n", "welcome.txt:7: question longer than 1000"},
		{"comment after a gap", post + "\n=== gap\nat: 3d 10:00\nasked: 1\n\nWhere?\n\n--- comment c1\nby: admin\nat: 2d 10:00\n\nHi.\n", "welcome.txt:13: comment without a thread above"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := seed.ParseDiscussions(fstest.MapFS{"d/welcome.txt": {Data: []byte(c.text)}}, "d")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error = %v, want one containing %q", err, c.want)
			}
		})
	}
	if _, err := seed.ParseDiscussions(fstest.MapFS{"d/welcome.txt": {Data: []byte("// a comment\n" + post)}}, "d"); err != nil {
		t.Errorf("a well-formed file: %v", err)
	}
	ds, err := seed.ParseDiscussions(fstest.MapFS{"d/welcome.txt": {Data: []byte(post + "\n=== gap\nat: 3d 10:05\nasked: 4\n\nIs there a Slack?\n")}}, "d")
	if err != nil {
		t.Fatalf("a file with a gap: %v", err)
	}
	want := seed.Gap{Pos: "welcome.txt:7", At: seed.Ago{Days: 3, Hour: 10, Minute: 5}, Asked: 4, Question: "Is there a Slack?"}
	if len(ds[0].Gaps) != 1 || ds[0].Gaps[0] != want {
		t.Errorf("gaps = %+v, want [%+v]", ds[0].Gaps, want)
	}
}

// newWriter is the demo discussions' writer over a blob store of the test's.
func newWriter(t *testing.T) (*demo.Writer, *blob.Store) {
	t.Helper()
	store, err := blob.New(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	w, err := demo.New(store)
	if err != nil {
		t.Fatal(err)
	}
	return w, store
}

// TestSeedDiscussions writes the demo discussions with the organization
// and checks the rows are those the product's commands write.
func TestSeedDiscussions(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	w, store := newWriter(t)
	hasher := auth.NewHasher(2)
	if created, err := seed.Seed(ctx, d, hasher, password, seed.Options{Discussions: w.Write}); err != nil || !created {
		t.Fatalf("seed: created %v, %v", created, err)
	}
	ds, err := seed.Discussions()
	if err != nil {
		t.Fatal(err)
	}
	ids, err := seed.DiscussionThreadIDs(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	userOf := func(key string) string {
		var id string
		if err := d.QueryRow(ctx, "SELECT id FROM users WHERE email_key = $1", seed.PersonEmail(key)).Scan(&id); err != nil {
			t.Fatalf("user %s: %v", key, err)
		}
		return id
	}
	replyID := func(key string) string {
		var id string
		if err := d.QueryRow(ctx, "SELECT id FROM replies WHERE substr(id::text, 15) = $1", seed.KeySuffix(key)).Scan(&id); err != nil {
			t.Fatalf("reply %s: %v", key, err)
		}
		return id
	}

	var threads, replies, reactions, anonymous, meetups, images int
	for _, f := range ds {
		var comments int
		for _, th := range f.Threads {
			threads++
			if _, ok := ids[th.Key]; !ok {
				t.Errorf("%s: no thread for key %s", th.Pos, th.Key)
			}
			for _, c := range th.Comments {
				comments += 1 + len(c.Replies)
				for _, r := range append([]seed.Entry{c.Entry}, c.Replies...) {
					for _, x := range r.Reactions {
						reactions += x.Count
					}
				}
			}
			for _, x := range th.Reactions {
				reactions += x.Count
			}
			if th.Anonymous {
				anonymous++
			}
			if th.Meetup != nil {
				meetups++
			}
			if th.Image != nil {
				images++
			}
		}
		replies += comments
		t.Run("counts of "+f.File, func(t *testing.T) {
			if n := count(t, d, "SELECT count(*) FROM threads t JOIN series s ON s.id = t.series_id WHERE s.name = $1", f.Forum); n != len(f.Threads) {
				t.Errorf("%s: %d posts, want %d", f.Forum, n, len(f.Threads))
			}
			if n := count(t, d, "SELECT count(*) FROM replies r JOIN threads t ON t.id = r.thread_id JOIN series s ON s.id = t.series_id WHERE s.name = $1", f.Forum); n != comments {
				t.Errorf("%s: %d comments and replies, want %d", f.Forum, n, comments)
			}
		})
	}
	for q, want := range map[string]int{
		"SELECT count(*) FROM threads": threads,
		"SELECT count(*) FROM replies": replies,
		"SELECT count(*) FROM meetings WHERE ended_on = start_time + duration * interval '1 minute' AND ended_on < now()":                meetups,
		"SELECT count(*) FROM uploads u JOIN threads t ON t.id = u.thread_id WHERE u.state = 'complete' AND t.image->>'id' = u.id::text": images,
		"SELECT count(*) FROM threads WHERE creator_as = 'anonymous' AND type = 'question'":                                              anonymous,
	} {
		if n := count(t, d, q); n != want {
			t.Errorf("%s = %d, want %d", q, n, want)
		}
	}
	// Reactions past a forum's members are cut.
	if n := count(t, d, "SELECT count(*) FROM reactions"); n > reactions || n < reactions*9/10 {
		t.Errorf("%d reactions, want about %d", n, reactions)
	}
	if anonymous == 0 || meetups == 0 || images == 0 {
		t.Errorf("the discussions have %d anonymous questions, %d Meet Ups, %d images: want some of each", anonymous, meetups, images)
	}

	t.Run("mentions", func(t *testing.T) {
		seen := 0
		for _, f := range ds {
			for _, th := range f.Threads {
				ms := seed.Mentions(th.Body)
				if th.Kind == seed.KindSharedChat || len(ms) == 0 {
					continue
				}
				var raw string
				var mentions []string
				if err := d.QueryRow(ctx, "SELECT raw, mentions FROM threads WHERE id = $1", ids[th.Key]).Scan(&raw, &mentions); err != nil {
					t.Fatal(err)
				}
				var want []string
				for _, m := range ms {
					if id := userOf(th.Body[m[2]:m[1]]); !slices.Contains(want, id) {
						want = append(want, id)
					}
				}
				if !slices.Equal(mentions, want) {
					t.Errorf("%s: mentions %v, want %v", th.Pos, mentions, want)
				}
				for _, id := range want {
					if !regexp.MustCompile(`\[[^\]]+ [^\]]+\]\(` + id + `\)`).MatchString(raw) {
						t.Errorf("%s: raw has no [First Last](%s): %q", th.Pos, id, raw)
					}
				}
				if strings.Contains(raw, "@"+th.Body[ms[0][2]:ms[0][1]]) {
					t.Errorf("%s: raw keeps the @mention: %q", th.Pos, raw)
				}
				seen++
			}
		}
		if seen == 0 {
			t.Error("no post mentions anyone")
		}
	})

	t.Run("anonymous question keeps its author", func(t *testing.T) {
		for _, f := range ds {
			for _, th := range f.Threads {
				if th.Anonymous {
					if n := count(t, d, "SELECT count(*) FROM threads WHERE id = $1 AND creator_as = 'anonymous' AND creator_id = $2", ids[th.Key], userOf(th.By)); n != 1 {
						t.Errorf("%s: not an anonymous question of %s", th.Pos, th.By)
					}
				}
			}
		}
	})

	t.Run("a reply's parent is its comment", func(t *testing.T) {
		for _, f := range ds {
			for _, th := range f.Threads {
				for _, c := range th.Comments {
					for _, r := range c.Replies {
						if n := count(t, d, "SELECT count(*) FROM replies WHERE id = $1 AND parent_id = $2 AND thread_id = $3", replyID(r.Key), replyID(c.Key), ids[th.Key]); n != 1 {
							t.Errorf("%s: reply is not under %s", r.Pos, c.Key)
						}
					}
				}
			}
		}
		if n := count(t, d, "SELECT count(*) FROM replies r JOIN replies p ON p.id = r.parent_id WHERE p.parent_id IS NOT NULL"); n != 0 {
			t.Errorf("%d replies to replies", n)
		}
	})

	t.Run("reactions", func(t *testing.T) {
		if n := count(t, d, `SELECT count(*) FROM reactions r JOIN threads t ON t.id = r.thread_id LEFT JOIN replies p ON p.id = r.reply_id
			WHERE r.user_id = COALESCE(p.creator_id, t.creator_id)`); n != 0 {
			t.Errorf("%d reactions by their post's or comment's author", n)
		}
		if n := count(t, d, `SELECT count(*) FROM (SELECT 1 FROM reactions GROUP BY thread_id, reply_id, user_id HAVING count(*) > 1) x`); n != 0 {
			t.Errorf("%d people reacted twice to one thing", n)
		}
		if n := count(t, d, `SELECT count(*) FROM reactions r JOIN threads t ON t.id = r.thread_id JOIN profiles p ON p.user_id = r.user_id
			WHERE NOT EXISTS (SELECT 1 FROM series_memberships sm WHERE sm.series_id = t.series_id AND sm.profile_id = p.id)`); n != 0 {
			t.Errorf("%d reactions by people outside the forum", n)
		}
	})

	t.Run("shared chats cite their forum's posts", func(t *testing.T) {
		chats := 0
		rows, err := d.Query(ctx, "SELECT id, channel_id, raw, chat FROM threads WHERE type = 'shared-ai-chat'")
		if err != nil {
			t.Fatal(err)
		}
		type chat struct {
			id, channel, raw string
			chat             []byte
		}
		var all []chat
		for rows.Next() {
			var c chat
			if err := rows.Scan(&c.id, &c.channel, &c.raw, &c.chat); err != nil {
				t.Fatal(err)
			}
			all = append(all, c)
		}
		for _, c := range all {
			chats++
			var msgs []aisearch.ChatMessage
			if err := json.Unmarshal(c.chat, &msgs); err != nil {
				t.Fatalf("chat %s: %v", c.id, err)
			}
			if len(msgs) < 2 || msgs[0].Role != "user" || msgs[0].Content != c.raw {
				t.Errorf("chat %s: does not start with its post's question", c.id)
			}
			for _, m := range msgs {
				if strings.Contains(m.Content, "[[") {
					t.Errorf("chat %s: a marker is left: %q", c.id, m.Content)
				}
				for i, s := range m.Sources {
					if s.N != i+1 || s.ID != s.ThreadID || s.ChannelID != c.channel || s.Excerpt == "" {
						t.Errorf("chat %s: source %+v", c.id, s)
					}
					if n := count(t, d, "SELECT count(*) FROM threads WHERE id = $1 AND channel_id = $2 AND type = $3", s.ThreadID, s.ChannelID, s.Kind); n != 1 {
						t.Errorf("chat %s: source %s is no post of its channel", c.id, s.ThreadID)
					}
				}
				if m.Role == "other" && len(m.Sources) > 0 && !strings.Contains(m.Content, "[1]") {
					t.Errorf("chat %s: an answer with sources cites no [1]", c.id)
				}
			}
		}
		if chats == 0 {
			t.Error("no shared chats")
		}
	})

	t.Run("charts are uploads in the blob store", func(t *testing.T) {
		rows, err := d.Query(ctx, "SELECT id FROM uploads")
		if err != nil {
			t.Fatal(err)
		}
		var ids []uuid.UUID
		for rows.Next() {
			var id uuid.UUID
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		for _, id := range ids {
			f, err := store.Open(id)
			if err != nil {
				t.Errorf("blob %s: %v", id, err)
				continue
			}
			head := make([]byte, 8)
			_, _ = f.Read(head)
			f.Close()
			if string(head[1:4]) != "PNG" {
				t.Errorf("blob %s is not a PNG", id)
			}
		}
		if os.Getenv("AGORA_KEEP_CHARTS") != "" {
			// Look at the charts: AGORA_KEEP_CHARTS=dir go test -run TestSeedDiscussions
			for _, id := range ids {
				b, _ := os.ReadFile(filepath.Join(store.Dir(), "objects", id.String()))
				_ = os.WriteFile(filepath.Join(os.Getenv("AGORA_KEEP_CHARTS"), id.String()+".png"), b, 0o644)
			}
		}
	})

	t.Run("posts of a channel have distinct times", func(t *testing.T) {
		if n := count(t, d, "SELECT count(*) FROM (SELECT 1 FROM threads GROUP BY channel_id, created_on HAVING count(*) > 1) x"); n != 0 {
			t.Errorf("%d createdOn ties in a channel", n)
		}
		if n := count(t, d, "SELECT count(*) FROM threads WHERE substring(id::text, 15, 1) <> '7' OR created_on > now()"); n != 0 {
			t.Errorf("%d posts with ids not UUIDv7 or in the future", n)
		}
	})

	t.Run("content gaps", func(t *testing.T) {
		// The seed's day, from any gap: every gap's times count back from it.
		var day time.Time
		for _, f := range ds {
			type row struct {
				question    string
				asked       int
				first, last time.Time
			}
			got := map[string]row{}
			rows, err := d.Query(ctx, `SELECT g.normalized, g.question, g.asked_count, g.first_asked_on, g.last_asked_on
				FROM content_gaps g JOIN series s ON s.id = g.series_id WHERE s.name = $1`, f.Forum)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var norm string
				var r row
				if err := rows.Scan(&norm, &r.question, &r.asked, &r.first, &r.last); err != nil {
					t.Fatal(err)
				}
				got[norm] = r
			}
			if len(got) != len(f.Gaps) {
				t.Errorf("%s: %d content gaps, want %d", f.Forum, len(got), len(f.Gaps))
			}
			for _, g := range f.Gaps {
				r, ok := got[aisearch.NormalizeQuestion(g.Question)]
				if !ok {
					t.Errorf("%s: no content gap %q", g.Pos, g.Question)
					continue
				}
				if day.IsZero() {
					day = r.last.UTC().AddDate(0, 0, g.At.Days).Truncate(24 * time.Hour)
				}
				last := g.At.From(day)
				if r.question != g.Question || r.asked != g.Asked || !r.last.Equal(last) || !r.first.Equal(g.FirstAsked(last)) {
					t.Errorf("%s: gap %+v, want %q asked %d times, %v to %v", g.Pos, r, g.Question, g.Asked, g.FirstAsked(last), last)
				}
				if g.Asked > 1 && !r.first.Before(r.last) {
					t.Errorf("%s: asked %d times, first on %v, not before last on %v", g.Pos, g.Asked, r.first, r.last)
				}
			}
		}
		if today := time.Now().UTC().Truncate(24 * time.Hour); !day.Equal(today) && !day.Equal(today.AddDate(0, 0, -1)) {
			t.Errorf("gaps count back from %v, not today or yesterday", day)
		}
		if n := count(t, d, "SELECT count(*) FROM content_gaps WHERE last_asked_on > now()"); n != 0 {
			t.Errorf("%d gaps last asked in the future", n)
		}
	})

	t.Run("seeding twice writes nothing", func(t *testing.T) {
		tables := []string{"threads", "replies", "reactions", "uploads", "meetings", "meeting_invitees", "meeting_attendance", "content_gaps"}
		before := map[string]int{}
		for _, tbl := range tables {
			before[tbl] = count(t, d, "SELECT count(*) FROM "+tbl)
		}
		if created, err := seed.Seed(ctx, d, hasher, password, seed.Options{Discussions: w.Write}); err != nil || created {
			t.Errorf("second seed: created %v, %v", created, err)
		}
		if created, err := seed.SeedDiscussions(ctx, d, w.Write); err != nil || created {
			t.Errorf("seed discussions again: created %v, %v", created, err)
		}
		for _, tbl := range tables {
			if n := count(t, d, "SELECT count(*) FROM "+tbl); n != before[tbl] {
				t.Errorf("%s after seeding again = %d, want %d", tbl, n, before[tbl])
			}
		}
	})
}

// TestSeedDiscussionsLater: a database seeded without the discussions
// (the test harness's) has no posts; SeedDiscussions adds them once.
func TestSeedDiscussionsLater(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	w, _ := newWriter(t)
	if created, err := seed.SeedDiscussions(ctx, d, w.Write); err == nil || created {
		t.Errorf("discussions without the organization: created %v, %v; want an error", created, err)
	}
	if _, err := seed.Seed(ctx, d, auth.NewHasher(2), password, seed.Options{}); err != nil {
		t.Fatal(err)
	}
	if n := count(t, d, "SELECT count(*) FROM threads"); n != 0 {
		t.Errorf("seed without discussions wrote %d posts", n)
	}
	if created, err := seed.SeedDiscussions(ctx, d, w.Write); err != nil || !created {
		t.Fatalf("seed discussions: created %v, %v", created, err)
	}
	ids, err := seed.DiscussionThreadIDs(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, d, "SELECT count(*) FROM threads"); n == 0 || n != len(ids) {
		t.Errorf("%d posts, %d keys found", n, len(ids))
	}
}
