package realtime_test

import (
	"context"
	"encoding/json"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"agora/internal/adapters/blob"
	"agora/internal/plumbing/db"
	"agora/live"
	qchat "agora/query/chat"
	qfeed "agora/query/feed"
	qnotifications "agora/query/notifications"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/projections/change"
	"agora/projections/realtime"
)

// TestProjectionAudiences applies changes straight to the projection (no
// broker) over the seeded database, and checks who of three connected
// members receives each event: the audiences' SQL against the read model.
func TestProjectionAudiences(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	pool := env.DB.Pool
	lookup := func(q string, args ...any) string {
		t.Helper()
		var s string
		if err := pool.QueryRow(ctx, q, args...).Scan(&s); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return s
	}
	userOf := func(email string) string { return lookup("SELECT id::text FROM users WHERE email = $1", email) }
	member, expert, outsider := userOf("member@demo.agora"), userOf("expert@demo.agora"), userOf("outsider@demo.agora")
	memberProfile := lookup("SELECT id::text FROM profiles WHERE user_id = $1", member)
	community := lookup(`SELECT m.community_id::text FROM community_memberships m JOIN profiles p ON p.id = m.profile_id
		WHERE p.user_id = $1 AND m.status = 'active' LIMIT 1`, member)
	org := lookup("SELECT organization_id::text FROM communities WHERE id = $1", community)

	hub, p := newNode(t, env)
	exp := time.Now().Add(time.Hour)
	clients := map[string]*live.Client{}
	for name, id := range map[string]string{"member": member, "expert": expert, "outsider": outsider} {
		c, err := hub.Register(uuid.MustParse(id), uuid.New(), exp)
		if err != nil {
			t.Fatal(err)
		}
		clients[name] = c
	}
	now := time.Now().UnixMilli()
	mk := func(table string, op change.Op, before, after string) change.Change {
		c := change.Change{Op: op, Schema: "public", Table: table, Source: change.Source{TsMs: now}}
		c.Before, c.After = row(t, before), row(t, after)
		return c
	}
	userRow := func(id, job string) string {
		return `{"id":"` + id + `","first_name":"F","last_name":"L","avatar":null,"job_title":"` + job + `","company":"C","password_hash":"x","email_key":"k"}`
	}
	communityRow := func(name string) string {
		return `{"id":"` + community + `","organization_id":"` + org + `","name":"` + name + `","description":"d","image":null,"video":null,"video_cover":null}`
	}
	gone := uuid.NewString()
	cases := []struct {
		name  string
		c     change.Change
		event string
		want  []string // who receives it
	}{
		{"a member's profile to those sharing a community, and to themself", mk("users", change.Update, userRow(expert, "a"), userRow(expert, "b")),
			realtime.UserUpdated, []string{"expert", "member"}},
		{"an outsider's profile to nobody else", mk("users", change.Update, userRow(outsider, "a"), userRow(outsider, "b")),
			realtime.UserUpdated, []string{"outsider"}},
		{"presence to the others who may read the member", mk("online_users", change.Create, "", `{"user_id":"`+expert+`","nodes":1,"status":"online"}`),
			realtime.UserConnected, []string{"member"}},
		{"a status to the member's peers", mk("online_users", change.Update, `{"user_id":"`+expert+`","nodes":1,"status":"online"}`, `{"user_id":"`+expert+`","nodes":1,"status":"away"}`),
			realtime.UserStatus, []string{"member"}},
		{"an outsider's status to nobody", mk("online_users", change.Update, `{"user_id":"`+outsider+`","nodes":1,"status":"online"}`, `{"user_id":"`+outsider+`","nodes":1,"status":"do-not-disturb"}`),
			realtime.UserStatus, nil},
		{"a community to its active members", mk("communities", change.Update, communityRow("A"), communityRow("B")),
			realtime.CommunityUpdated, []string{"expert", "member"}},
		{"a member removed from a community that exists",
			mk("community_memberships", change.Delete, `{"community_id":"`+community+`","profile_id":"`+memberProfile+`"}`, ""),
			realtime.CommunityMembersRemove, []string{"expert", "member"}},
		{"a membership of a deleted community: the deletion, to its member",
			mk("community_memberships", change.Delete, `{"community_id":"`+gone+`","profile_id":"`+memberProfile+`"}`, ""),
			realtime.CommunityDeleted, []string{"member"}},
		{"a membership of a deleted forum: the deletion, to its member",
			mk("series_memberships", change.Delete, `{"series_id":"`+gone+`","profile_id":"`+memberProfile+`"}`, ""),
			realtime.SeriesDeleted, []string{"member"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := p.Apply(ctx, tc.c); err != nil {
				t.Fatal(err)
			}
			var got []string
			for name, c := range clients {
				for {
					select {
					case b := <-c.Messages():
						var m live.Message
						if err := json.Unmarshal(b, &m); err != nil {
							t.Fatal(err)
						}
						if m.Event != tc.event {
							t.Errorf("%s received %s", name, b)
						}
						if strings.Contains(string(b), "password") || strings.Contains(string(b), "email") {
							t.Errorf("%s received %s", name, b)
						}
						got = append(got, name)
						continue
					default:
					}
					break
				}
			}
			sort.Strings(got)
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("received by %v, want %v", got, tc.want)
			}
		})
	}

	t.Run("a change from before the node started is skipped", func(t *testing.T) {
		old := mk("users", change.Update, userRow(expert, "a"), userRow(expert, "c"))
		old.Source.TsMs = hub.Started().Add(-time.Minute).UnixMilli()
		if err := p.Apply(ctx, old); err != nil {
			t.Fatal(err)
		}
		select {
		case b := <-clients["member"].Messages():
			t.Errorf("received %s", b)
		default:
		}
	})
}

// newNode is an API node's hub over env's database and its realtime
// projection, which tests apply changes to straight, without a broker.
func newNode(t *testing.T, env *testenv.Env) (*live.Hub, *realtime.Projection) {
	t.Helper()
	return newNodeWith(t, env, nil)
}

// newNodeWith is newNode whose projection reads private messages through
// wrap(query/chat) when wrap is not nil.
func newNodeWith(t *testing.T, env *testenv.Env, wrap func(realtime.Chat) realtime.Chat) (*live.Hub, *realtime.Projection) {
	t.Helper()
	return newNodeOn(t, env, env.DB.Pool, wrap)
}

// newNodeOn is newNodeWith whose projection reads its audiences over q.
func newNodeOn(t *testing.T, env *testenv.Env, q db.Querier, wrap func(realtime.Chat) realtime.Chat) (*live.Hub, *realtime.Projection) {
	t.Helper()
	hub := live.NewHub(env.DB.Pool, live.HubOptions{NodeID: testenv.Unique("node")})
	store, err := blob.New(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	links, err := blob.NewLinks(store, env.URL, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	feed, err := qfeed.New(env.DB, links)
	if err != nil {
		t.Fatal(err)
	}
	chat, err := qchat.New(env.DB, links)
	if err != nil {
		t.Fatal(err)
	}
	var reads realtime.Chat = chat
	if wrap != nil {
		reads = wrap(chat)
	}
	notes, err := qnotifications.New(env.DB)
	if err != nil {
		t.Fatal(err)
	}
	p, err := realtime.NewProjection(hub, q, feed, reads, notes, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return hub, p
}

// welcomeMain is the demo member, and the Welcome forum and its main
// channel, as text ids for the changes' rows.
func welcomeMain(t *testing.T, env *testenv.Env) (member, series, channel string) {
	t.Helper()
	err := env.DB.Pool.QueryRow(t.Context(), `SELECT u.id::text, s.id::text, c.id::text FROM users u, series s JOIN channels c ON c.series_id = s.id AND c.kind = 'main'
		WHERE u.email = 'member@demo.agora' AND s.name = 'Welcome & Introductions'`).Scan(&member, &series, &channel)
	if err != nil {
		t.Fatal(err)
	}
	return member, series, channel
}

// TestThreadEventSignsAttachments: a post's change carries its upload's id
// only; the live event gives readers a read URL signed at delivery that
// lives no longer than the blob links' lifetime, as the feed page does.
func TestThreadEventSignsAttachments(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	member, series, channel := welcomeMain(t, env)
	hub, p := newNode(t, env)
	c, err := hub.Register(uuid.MustParse(member), uuid.New(), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	upload := uuid.NewString()
	thread := `{"id":"` + uuid.NewString() + `","channel_id":"` + channel + `","series_id":"` + series + `","creator_id":"` + member +
		`","creator_as":"author","type":"post","raw":"see","image":"{\"id\": \"` + upload + `\", \"name\": \"a.png\"}",` +
		`"file":"{\"id\": \"` + upload + `\", \"name\": \"a.pdf\", \"mediaType\": \"application/pdf\"}","link":null,"meeting":null,` +
		`"mentions":[],"hashtags":[],"created_on":"2026-11-22T08:27:03Z","updated_on":"2026-11-22T08:27:03Z"}`
	ch := change.Change{Op: change.Create, Schema: "public", Table: "threads", Source: change.Source{TsMs: time.Now().UnixMilli()}}
	ch.After = row(t, thread)
	if err := p.Apply(ctx, ch); err != nil {
		t.Fatal(err)
	}
	var m struct {
		Event string
		Data  struct {
			Payload struct {
				Image struct{ URL string }
				File  struct{ URL, Name string }
			}
		}
	}
	select {
	case b := <-c.Messages():
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatal("no event delivered")
	}
	for _, u := range []string{m.Data.Payload.Image.URL, m.Data.Payload.File.URL} {
		pu, err := url.Parse(u)
		if err != nil || !strings.HasPrefix(u, env.URL+"/api/blobs/"+upload+"/") {
			t.Fatalf("%s payload URL %q is not a blob URL of the upload", m.Event, u)
		}
		exp, _ := strconv.ParseInt(pu.Query().Get("exp"), 10, 64)
		if left := time.Until(time.Unix(exp, 0)); left <= 0 || left > time.Hour || pu.Query().Get("sig") == "" {
			t.Errorf("URL %q: signed for %v, want a signature for at most the links' hour", u, left)
		}
	}
}

// TestCommunityEventAudiences: a community's creation and edits reach its
// members and those who manage it without being members (its organization's
// admins, super users); its deletion reaches the latter (its members hear
// it from their memberships), and each person once, a manager who is also a
// member too. Nobody else hears any of it.
func TestCommunityEventAudiences(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	pool := env.DB.Pool
	lookup := func(q string, args ...any) string {
		t.Helper()
		var s string
		if err := pool.QueryRow(ctx, q, args...).Scan(&s); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return s
	}
	userOf := func(email string) string { return lookup("SELECT id::text FROM users WHERE email = $1", email) }
	people := map[string]string{}
	for _, name := range []string{"member", "expert", "admin", "outsider", "super"} {
		people[name] = userOf(name + "@demo.agora")
	}
	// A community of the demo organization with the member alone in it:
	// the demo admin manages it as the organization's admin.
	org := lookup("SELECT organization_id::text FROM profiles WHERE user_id = $1", people["member"])
	community := lookup(`INSERT INTO communities (id, organization_id, name, description) VALUES (gen_random_uuid(), $1, $2, 'd') RETURNING id::text`,
		org, testenv.Unique("Live community"))
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := pool.Exec(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`INSERT INTO community_memberships (community_id, profile_id, role, status)
		SELECT $1, id, 'member', 'active' FROM profiles WHERE user_id = $2`, community, people["member"])

	hub, p := newNode(t, env)
	exp := time.Now().Add(time.Hour)
	clients := map[string]*live.Client{}
	for name, id := range people {
		c, err := hub.Register(uuid.MustParse(id), uuid.New(), exp)
		if err != nil {
			t.Fatal(err)
		}
		clients[name] = c
	}
	now := time.Now().UnixMilli()
	mk := func(table string, op change.Op, before, after string) change.Change {
		c := change.Change{Op: op, Schema: "public", Table: table, Source: change.Source{TsMs: now}}
		c.Before, c.After = row(t, before), row(t, after)
		return c
	}
	communityRow := func(name string) string {
		return `{"id":"` + community + `","organization_id":"` + org + `","name":"` + name + `","description":"d","image":null,"video":null,"video_cover":null}`
	}
	profileOf := func(name string) string {
		return lookup("SELECT id::text FROM profiles WHERE organization_id = $1 AND user_id = $2", org, people[name])
	}
	// A deleted community's memberships go with it, each a change of its own.
	membershipGone := func(name string) change.Change {
		return mk("community_memberships", change.Delete, `{"community_id":"`+community+`","profile_id":"`+profileOf(name)+`"}`, "")
	}
	cases := []struct {
		name   string
		before func() // run first
		c      []change.Change
		event  string
		want   []string
	}{
		{"created", nil, []change.Change{mk("communities", change.Create, "", communityRow("A"))}, realtime.CommunityCreated, []string{"admin", "member", "super"}},
		{"renamed", nil, []change.Change{mk("communities", change.Update, communityRow("A"), communityRow("B"))}, realtime.CommunityUpdated, []string{"admin", "member", "super"}},
		{"deleted, with the organization's admin and the super user among its members",
			func() {
				exec(`INSERT INTO community_memberships (community_id, profile_id, role, status)
					SELECT $1, id, 'member', 'active' FROM profiles WHERE organization_id = $2 AND user_id IN ($3, $4)`,
					community, org, people["admin"], people["super"])
				exec(`DELETE FROM communities WHERE id = $1`, community)
			},
			[]change.Change{mk("communities", change.Delete, communityRow("B"), ""), membershipGone("member"), membershipGone("admin"), membershipGone("super")},
			realtime.CommunityDeleted, []string{"admin", "member", "super"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.before != nil {
				tc.before()
			}
			for _, c := range tc.c {
				if err := p.Apply(ctx, c); err != nil {
					t.Fatal(err)
				}
			}
			var got []string
			for name, c := range clients {
				for len(c.Messages()) > 0 {
					var m live.Message
					if err := json.Unmarshal(<-c.Messages(), &m); err != nil {
						t.Fatal(err)
					}
					if m.Event != tc.event || m.ContextKey != "community:"+community {
						t.Errorf("%s received %+v", name, m)
					}
					got = append(got, name)
				}
			}
			sort.Strings(got)
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("received by %v, want %v", got, tc.want)
			}
		})
	}
}

// TestMinutesStateReadAtDelivery: meeting.minutes.updated carries the
// minutes' state as the Meet Up holds it when the event is delivered, as
// meeting.ended does, not the state of the change that caused it: a
// meeting.ended read after the minutes were written, then the older
// change's "compiling", took a post from Ended back to transcribing (the
// AI notes browser test saw Ended → Ended and transcribing → Ended).
func TestMinutesStateReadAtDelivery(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	admin := env.As(t, "admin@demo.agora")
	var adminID, memberID, series string
	if err := env.DB.Pool.QueryRow(ctx, `SELECT a.id::text, m.id::text, s.id::text FROM users a, users m, series s
		WHERE a.email = 'admin@demo.agora' AND m.email = 'member@demo.agora' AND s.name = 'Welcome & Introductions'`).Scan(&adminID, &memberID, &series); err != nil {
		t.Fatal(err)
	}
	r := admin.Do("POST", "/api/series/"+series+"/meetings", map[string]any{
		"name": "Notes", "agenda": "", "startTime": time.Now().Add(time.Hour).UTC().Format(time.RFC3339),
		"duration": 30, "open": false, "seatCount": nil, "invitees": map[string]string{memberID: "member"}, "breakouts": []string{},
	})
	if r.Status != 201 {
		t.Fatalf("schedule: %d %s", r.Status, r.Body)
	}
	var post struct {
		Meeting struct{ RoomID, PostID string }
	}
	r.JSON(t, &post)
	if _, err := env.DB.Pool.Exec(ctx, `UPDATE meetings SET minutes_state = 'completed' WHERE id = $1`, post.Meeting.RoomID); err != nil {
		t.Fatal(err)
	}
	hub, p := newNode(t, env)
	c, err := hub.Register(uuid.MustParse(adminID), uuid.New(), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	// The change of an earlier moment: started → compiling.
	meeting := func(state string) change.Row {
		return row(t, `{"id":"`+post.Meeting.RoomID+`","thread_id":"`+post.Meeting.PostID+`","minutes_state":"`+state+`","breakouts_open":false}`)
	}
	ch := change.Change{Op: change.Update, Schema: "public", Table: "meetings", Source: change.Source{TsMs: time.Now().UnixMilli()},
		Before: meeting("started"), After: meeting("compiling")}
	if err := p.Apply(ctx, ch); err != nil {
		t.Fatal(err)
	}
	var states []string
	for done := false; !done; {
		select {
		case b := <-c.Messages():
			var m struct {
				Event string
				Data  struct{ Payload struct{ State string } }
			}
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			if m.Event == realtime.MinutesUpdated {
				states = append(states, m.Data.Payload.State)
			}
		default:
			done = true
		}
	}
	if len(states) != 1 || states[0] != "completed" {
		t.Fatalf("meeting.minutes.updated delivered the states %q, want the Meet Up's state at delivery, [completed]", states)
	}
}

// countingDB is Postgres with the statements that select among the users
// (the audiences) counted.
type countingDB struct {
	db.Querier
	mu        sync.Mutex
	audiences int
}

func (c *countingDB) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if strings.Contains(sql, "FROM public.users AS v") {
		c.mu.Lock()
		c.audiences++
		c.mu.Unlock()
	}
	return c.Querier.Query(ctx, sql, args...)
}

// TestBatchReadsAnAudienceOnce: two posts of one channel in one batch are
// delivered after one audience statement; applied one by one, two.
func TestBatchReadsAnAudienceOnce(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	member, series, channel := welcomeMain(t, env)
	counted := &countingDB{Querier: env.DB.Pool}
	hub, p := newNodeOn(t, env, counted, nil)
	c, err := hub.Register(uuid.MustParse(member), uuid.New(), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	post := func() change.Change {
		thread := `{"id":"` + uuid.NewString() + `","channel_id":"` + channel + `","series_id":"` + series + `","creator_id":"` + member +
			`","creator_as":"author","type":"post","raw":"hello","image":null,"file":null,"link":null,"meeting":null,` +
			`"mentions":[],"hashtags":[],"created_on":"2026-11-22T08:27:03Z","updated_on":"2026-11-22T08:27:03Z"}`
		ch := change.Change{Op: change.Create, Schema: "public", Table: "threads", Source: change.Source{TsMs: time.Now().UnixMilli()}}
		ch.After = row(t, thread)
		return ch
	}
	received := func() int {
		n := 0
		for {
			select {
			case <-c.Messages():
				n++
			default:
				return n
			}
		}
	}
	if err := p.ApplyBatch(ctx, []change.Change{post(), post()}); err != nil {
		t.Fatal(err)
	}
	if got := received(); got < 2 || counted.audiences != 1 {
		t.Errorf("a batch of two posts: %d events, %d audience statements; want both events after one", got, counted.audiences)
	}
	counted.audiences = 0
	for range 2 {
		if err := p.Apply(ctx, post()); err != nil {
			t.Fatal(err)
		}
	}
	if got := received(); got < 2 || counted.audiences != 2 {
		t.Errorf("two posts one by one: %d events, %d audience statements; want one each", got, counted.audiences)
	}
}
