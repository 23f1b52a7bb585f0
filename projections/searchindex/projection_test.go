package searchindex_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/seed"
	"agora/app/testenv"
	"agora/projections"
	"agora/projections/projectiontest"
	"agora/projections/searchindex"
	"agora/search"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// world names the demo forum the tests write in.
type world struct {
	env                *testenv.Env
	store              search.Store
	series, main       string
	admin              string // the admin channel
	member, memberUser string // the member's profile and user ids
}

func newWorld(t *testing.T) *world {
	t.Helper()
	return newWorldEmbedding(t, nil)
}

// newWorldEmbedding is newWorld with posts given vectors by embedder.
func newWorldEmbedding(t *testing.T, embedder search.Embedder) *world {
	t.Helper()
	env, store := testenv.NewSearchEmbedding(t, embedder)
	w := &world{env: env, store: store}
	w.series = w.id(t, "SELECT id FROM series WHERE name = 'Welcome & Introductions'")
	w.main = w.id(t, "SELECT id FROM channels WHERE series_id = $1 AND kind = 'main'", w.series)
	w.admin = w.id(t, "SELECT id FROM channels WHERE series_id = $1 AND kind = 'admin'", w.series)
	w.memberUser = w.id(t, "SELECT id FROM users WHERE email_key = $1", seed.MemberEmail)
	w.member = w.id(t, `SELECT p.id FROM profiles p JOIN series_memberships sm ON sm.profile_id = p.id
		WHERE p.user_id = $1 AND sm.series_id = $2`, w.memberUser, w.series)
	// The relay's snapshot of the seeded database is indexed first.
	waitFor(t, 30*time.Second, func() bool { return len(w.members(t, "", w.member)) == 1 })
	return w
}

func (w *world) id(t *testing.T, q string, args ...any) string {
	t.Helper()
	var v uuid.UUID
	if err := w.env.DB.Pool.QueryRow(t.Context(), q, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v.String()
}

func (w *world) posts(t *testing.T, text string, more ...search.Clause) []search.Post {
	t.Helper()
	f := append(search.Filter{search.ReadableBy(w.memberUser, w.main, w.admin)}, more...)
	r, err := w.store.Posts().Search(t.Context(), search.Query{Text: text, Filter: f, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	return r.Hits
}

func (w *world) members(t *testing.T, text string, ids ...string) []search.Member {
	t.Helper()
	q := search.Query{Text: text, Limit: 50}
	if len(ids) > 0 {
		q.Filter = search.Filter{search.In("id", ids...)}
	}
	r, err := w.store.Members().Search(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	return r.Hits
}

func (w *world) hashtag(t *testing.T, name string) (search.Hashtag, bool) {
	t.Helper()
	r, err := w.store.Hashtags().Search(t.Context(), search.Query{Text: name, Filter: search.Filter{search.In("forumId", w.series)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range r.Hits {
		if h.ID == search.HashtagID(w.series, name) {
			return h, true
		}
	}
	return search.Hashtag{}, false
}

// waitFor polls cond every 5 ms until it holds or d has passed.
func waitFor(t *testing.T, d time.Duration, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > d {
			t.Fatalf("not true within %v", d)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Since(start)
}

func create(t *testing.T, c *testenv.Client, path string, body map[string]any) string {
	t.Helper()
	r := c.Do("POST", path, body)
	if r.Status != http.StatusCreated {
		t.Fatalf("POST %s: %d %s", path, r.Status, r.Body)
	}
	var v struct {
		ID string `json:"id"`
	}
	r.JSON(t, &v)
	return v.ID
}

// TestNewPostFindableWithinASecond: the figure, through the whole
// embedded runtime — the API's commit, the relay, the broker, the
// projection and the embedded engine.
func TestNewPostFindableWithinASecond(t *testing.T) {
	w := newWorld(t)
	member := w.env.As(t, seed.MemberEmail)
	word := "quokka" + uuid.NewString()[:8]
	id := create(t, member, "/api/series/"+w.series+"/threads", map[string]any{"channelId": w.main, "raw": "Has anyone met a " + word + " on Rottnest?"})
	took := waitFor(t, time.Second, func() bool {
		hits := w.posts(t, word)
		return len(hits) == 1 && hits[0].ID == id
	})
	t.Logf("a new post was findable %v after its commit", took.Round(time.Millisecond))
}

// TestDocumentsFollowTheRows: posts, comments, edits, deletions, hashtag
// counts, anonymous questions and member profiles, each as its rows say.
func TestDocumentsFollowTheRows(t *testing.T) {
	w := newWorld(t)
	member := w.env.As(t, seed.MemberEmail)
	admin := w.env.As(t, seed.AdminEmail)
	tag := "Tag" + uuid.NewString()[:6]
	word := "wombat" + uuid.NewString()[:6]

	// A post and a comment, with a tag and a mention shown as its name.
	// The text names the expert as the server knows them, whatever the markup says.
	var expertName string
	if err := w.env.DB.Pool.QueryRow(t.Context(), "SELECT first_name || ' ' || last_name FROM users WHERE email_key = $1", seed.ExpertEmail).Scan(&expertName); err != nil {
		t.Fatal(err)
	}
	thread := create(t, member, "/api/series/"+w.series+"/threads", map[string]any{
		"channelId": w.main, "raw": "Sighted a " + word + " #" + tag + " with [Erin Expert](" + w.id(t, "SELECT id FROM users WHERE email_key = $1", seed.ExpertEmail) + ")",
	})
	comment := create(t, member, "/api/threads/"+thread+"/replies", map[string]any{"raw": "and another " + word + " #" + tag})
	waitFor(t, 10*time.Second, func() bool { return len(w.posts(t, word)) == 2 })
	for _, p := range w.posts(t, word) {
		switch p.ID {
		case thread:
			if p.Kind != "post" || p.AuthorID != w.memberUser || p.ForumID != w.series || p.ChannelID != w.main || p.ThreadID != thread {
				t.Errorf("post document %+v", p)
			}
			if want := "Sighted a " + word + " #" + tag + " with " + expertName; p.Text != want {
				t.Errorf("post text %q, want %q", p.Text, want)
			}
		case comment:
			if p.Kind != "comment" || p.ThreadID != thread || p.ChannelID != w.main {
				t.Errorf("comment document %+v", p)
			}
		default:
			t.Errorf("unexpected hit %+v", p)
		}
	}
	waitFor(t, 10*time.Second, func() bool { h, ok := w.hashtag(t, tag); return ok && h.Count == 2 })

	// An edit that drops the tag: the text and the count follow.
	if r := member.Do("PATCH", "/api/threads/"+thread, map[string]any{"raw": "Sighted a " + word + " again"}); r.Status != http.StatusOK {
		t.Fatalf("edit: %d %s", r.Status, r.Body)
	}
	waitFor(t, 10*time.Second, func() bool { h, ok := w.hashtag(t, tag); return ok && h.Count == 1 })
	waitFor(t, 10*time.Second, func() bool {
		for _, p := range w.posts(t, "again") {
			if p.ID == thread {
				return true
			}
		}
		return false
	})

	// Deleting the post takes its comment and its last tag with it.
	if r := admin.Do("DELETE", "/api/threads/"+thread, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	waitFor(t, 10*time.Second, func() bool { _, ok := w.hashtag(t, tag); return !ok && len(w.posts(t, word)) == 0 })

	// An anonymous question: found, never with its author.
	q := create(t, member, "/api/series/"+w.series+"/threads", map[string]any{
		"channelId": w.main, "raw": "Who else keeps a " + word + "?", "type": "question", "creatorAs": "anonymous",
	})
	waitFor(t, 10*time.Second, func() bool { return len(w.posts(t, word)) == 1 })
	if p := w.posts(t, word)[0]; p.ID != q || p.Kind != "question" || p.AuthorID != "" {
		t.Errorf("anonymous question %+v", p)
	}
	if hits := w.posts(t, word, search.In("authorId", w.memberUser)); len(hits) != 0 {
		t.Errorf("the anonymous question is found by its author's id: %+v", hits)
	}

	// A profile's new name is found; the old one is not.
	name := "Zephyrine" + uuid.NewString()[:4]
	if _, err := w.env.DB.Pool.Exec(t.Context(), "UPDATE users SET first_name = $1 WHERE id = $2", name, w.memberUser); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, func() bool {
		m := w.members(t, name, w.member)
		return len(m) == 1 && m[0].FirstName == name && m[0].FullName == name+" "+m[0].LastName
	})
	m := w.members(t, "", w.member)[0]
	if m.UserID != w.memberUser || !contains(m.ForumIDs, w.series) || len(m.CommunityIDs) == 0 {
		t.Errorf("member document %+v", m)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestRebuild: agora projector rebuild search fills a fresh store from a
// snapshot with every profile and every post; rebuilding again changes
// nothing.
func TestRebuild(t *testing.T) {
	env := testenv.New(t)
	p := testenv.StartPipeline(t)
	store, err := search.OpenEmbedded(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close() //nolint:errcheck
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	h, err := searchindex.New(store, env.DB.Pool, projectiontest.Logger())
	if err != nil {
		t.Fatal(err)
	}
	// A consumer group of its own: the binary's search projection
	// (testenv.NewSearch) runs under "search" on the same pipeline.
	h = h.Named("search-rebuild-" + uuid.NewString()[:8])
	count := func() (members, posts int) {
		m, err := store.Members().Search(ctx, search.Query{Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		// Every post: a readable-by clause naming every channel.
		var channels []string
		rows, err := env.DB.Pool.Query(ctx, "SELECT id::text FROM channels")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				t.Fatal(err)
			}
			channels = append(channels, c)
		}
		ps, err := store.Posts().Search(ctx, search.Query{Filter: search.Filter{search.ReadableBy(uuid.NewString(), channels...)}, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		return m.Total, ps.Total
	}
	var wantMembers, wantPosts int
	if err := env.DB.Pool.QueryRow(ctx, "SELECT (SELECT count(*) FROM profiles), (SELECT count(*) FROM threads) + (SELECT count(*) FROM replies)").
		Scan(&wantMembers, &wantPosts); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		rows, err := projections.Rebuild(ctx, projections.Config{Brokers: p.Brokers, Log: projectiontest.Logger()},
			projections.RebuildOptions{DatabaseURL: env.DBURL, Slot: p.Slot}, h)
		if err != nil {
			t.Fatal(err)
		}
		members, posts := count()
		t.Logf("rebuild %d: %d rows read, %d members, %d posts", i+1, rows, members, posts)
		if members != wantMembers || posts != wantPosts {
			t.Fatalf("rebuild %d: %d members and %d posts, want %d and %d", i+1, members, posts, wantMembers, wantPosts)
		}
	}
}
