package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/seed"
	"agora/app/testenv"
	"agora/projections/insights"
)

// insightsForum is a forum of its own in a community of its own, with
// five members (one who never visits, one who visits and then leaves), a
// forum admin, a community member outside the forum, and the demo admin
// (who administers the organization, and made the forum, which made them
// its admin).
type insightsForum struct {
	env              *testenv.Env
	community, id    string
	main, admin      string
	a, b, c          member // the forum's members
	quiet            member // a member who never visits
	leaver           member // a member who visits, then leaves the forum
	forumAdmin       member
	communityMember  member // in the community, not in the forum
	orgAdmin         *testenv.Client
	orgAdminID       string
	insightsBasePath string
}

func newInsightsForum(t *testing.T, env *testenv.Env) *insightsForum {
	t.Helper()
	f := &insightsForum{env: env, insightsBasePath: "/api/insights"}
	f.orgAdmin = env.As(t, seed.AdminEmail)
	f.orgAdminID = queryString(t, env, "SELECT id::text FROM users WHERE email_key = $1", seed.AdminEmail)
	f.community = newCommunity(t, env)
	f.id = createForum(t, f.orgAdmin, f.community).ID
	f.main = queryString(t, env, "SELECT id::text FROM channels WHERE series_id = $1 AND kind = 'main'", f.id)
	f.admin = queryString(t, env, "SELECT id::text FROM channels WHERE series_id = $1 AND kind = 'admin'", f.id)
	f.a, f.b, f.c = fresh(t, env, f.community, "InsA"), fresh(t, env, f.community, "InsB"), fresh(t, env, f.community, "InsC")
	f.quiet, f.leaver = fresh(t, env, f.community, "InsQuiet"), fresh(t, env, f.community, "InsLeaver")
	f.forumAdmin = fresh(t, env, f.community, "InsAdmin")
	f.communityMember = fresh(t, env, f.community, "InsOther")
	wantStatus(t, assign(t, f.orgAdmin, f.id, "member", f.a.ProfileID, f.b.ProfileID, f.c.ProfileID, f.quiet.ProfileID, f.leaver.ProfileID), 204)
	wantStatus(t, assign(t, f.orgAdmin, f.id, "admin", f.forumAdmin.ProfileID), 204)
	return f
}

// on is the same forum seen through another server's clients.
func (f *insightsForum) on(t *testing.T, env *testenv.Env) *insightsForum {
	t.Helper()
	g := *f
	g.env = env
	// Sessions live in the shared database: the same tokens work there.
	relog := func(m member) member {
		c := env.Client(t)
		c.Token = m.Client.Token
		m.Client = c
		return m
	}
	g.a, g.b, g.c, g.quiet, g.leaver = relog(f.a), relog(f.b), relog(f.c), relog(f.quiet), relog(f.leaver)
	g.forumAdmin, g.communityMember = relog(f.forumAdmin), relog(f.communityMember)
	g.orgAdmin = env.As(t, seed.AdminEmail)
	return &g
}

func (f *insightsForum) post(t *testing.T, c *testenv.Client, body map[string]any) string {
	t.Helper()
	if _, ok := body["channelId"]; !ok {
		body["channelId"] = f.main
	}
	return created(t, c.Do("POST", "/api/series/"+f.id+"/threads", body))
}

// image is an image upload of c's, to show in a post.
func (f *insightsForum) image(t *testing.T, c *testenv.Client) map[string]any {
	t.Helper()
	return map[string]any{"url": (&uploadEnv{Env: f.env}).upload(t, c, "image", "a.png", "image/png", pngBytes(t, 2, 2)).URL}
}

// file is a file upload of c's, to attach to a post.
func (f *insightsForum) file(t *testing.T, c *testenv.Client) map[string]any {
	t.Helper()
	u := (&uploadEnv{Env: f.env}).upload(t, c, "file", "list.pdf", "application/pdf", pdfBytes)
	return map[string]any{"id": u.ID, "name": u.Name, "url": u.URL, "mediaType": u.MediaType}
}

func (f *insightsForum) comment(t *testing.T, c *testenv.Client, thread, parent, raw string) string {
	t.Helper()
	body := map[string]any{"raw": raw}
	if parent != "" {
		body["parentId"] = parent
	}
	return created(t, c.Do("POST", "/api/threads/"+thread+"/replies", body))
}

func (f *insightsForum) react(t *testing.T, c *testenv.Client, thread, reply, kind string) {
	t.Helper()
	p := "/api/threads/" + thread + "/reaction"
	if reply != "" {
		p = "/api/threads/" + thread + "/replies/" + reply + "/reaction"
	}
	wantStatus(t, c.Do("PUT", p, map[string]any{"reaction": kind}), 200)
}

func (f *insightsForum) visit(t *testing.T, c *testenv.Client) {
	t.Helper()
	wantStatus(t, c.Do("POST", "/api/series/"+f.id+"/visits", nil), 200)
}

// ask asks the forum's AI search (a follow-up with searchID) and returns
// the search's id.
func (f *insightsForum) ask(t *testing.T, c *testenv.Client, searchID, q string) string {
	t.Helper()
	p := "/api/ai/search/" + f.main
	if searchID != "" {
		p += "/" + searchID
	}
	r := c.Do("GET", p+"?q="+url.QueryEscape(q), nil)
	if r.Status != 200 {
		t.Fatalf("ask %q: %d %s", q, r.Status, r.Body)
	}
	var e struct {
		SearchID string `json:"searchId"`
	}
	line, _, _ := strings.Cut(string(r.Body), "\n")
	if err := json.Unmarshal([]byte(line), &e); err != nil || e.SearchID == "" {
		t.Fatalf("ask %q: no searchId in %s", q, r.Body)
	}
	return e.SearchID
}

func created(t *testing.T, r *testenv.Response) string {
	t.Helper()
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	var v struct {
		ID string `json:"id"`
	}
	r.JSON(t, &v)
	return v.ID
}

// backdate moves a row's time back by ago, straight in Postgres.
func backdate(t *testing.T, env *testenv.Env, table, column, id string, ago time.Duration) {
	t.Helper()
	exec(t, env, fmt.Sprintf("UPDATE %s SET %s = %s - $2::interval WHERE id = $1", table, column, column), id, fmt.Sprintf("%d seconds", int(ago.Seconds())))
}

const day = 24 * time.Hour

// seedBefore writes activity before the pipeline starts, so that the
// relay's snapshot carries it: posts, questions (one anonymous), comments
// and replies with and without questions, reactions, visits, some of it
// backdated into the 60- and 90-day periods and out of all of them.
func (f *insightsForum) seedBefore(t *testing.T) {
	t.Helper()
	a, b, c := f.a.Client, f.b.Client, f.c.Client
	p1 := f.post(t, a, map[string]any{"raw": "Kick-off notes, with a picture.", "image": f.image(t, a)})
	q1 := f.post(t, b, map[string]any{"raw": "Who owns the roadmap review?", "type": "question"})
	q2 := f.post(t, c, map[string]any{"raw": "Is it fine to ask [Fresh Member](" + f.a.UserID + ") directly?", "type": "question", "creatorAs": "anonymous"})
	c1 := f.comment(t, a, p1, "", "Where are the slides? How long is it? Thanks.")
	r1 := f.comment(t, b, p1, c1, "Is the room booked?")
	f.comment(t, c, q1, "", "I think Dana does.")
	f.react(t, b, p1, "", "liked")
	f.react(t, c, p1, c1, "loved")
	f.react(t, a, q2, "", "smiled")
	f.visit(t, a)
	f.visit(t, a)
	f.visit(t, b)
	old := queryString(t, f.env, "SELECT id::text FROM series_visit_log WHERE series_id = $1 AND user_id = $2 ORDER BY visited_on LIMIT 1", f.id, f.a.UserID)
	backdate(t, f.env, "threads", "created_on", p1, 45*day)
	backdate(t, f.env, "threads", "created_on", q1, 75*day)
	backdate(t, f.env, "replies", "created_on", c1, 45*day+time.Minute)
	backdate(t, f.env, "replies", "created_on", r1, 95*day)
	backdate(t, f.env, "series_visit_log", "visited_on", old, 100*day)
}

// seedAfter writes activity through the running pipeline: shared content
// of every kind, an edit that removes an image, AI searches and a shared
// AI chat, a post in the admin channel (which no report counts), visits
// of a non-member, deletions of a comment and of a post with comments and
// reactions, and rows backdated while streaming.
func (f *insightsForum) seedAfter(t *testing.T) {
	t.Helper()
	a, b, c := f.a.Client, f.b.Client, f.c.Client
	p2 := f.post(t, a, map[string]any{"raw": "Reading list attached.",
		"file": f.file(t, a),
		"link": map[string]any{"url": "https://example.org/article", "viewerType": "external"}})
	p3 := f.post(t, b, map[string]any{"raw": "The talk:", "link": map[string]any{"url": "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "viewerType": "embedded"}})
	p4 := f.post(t, c, map[string]any{"raw": "Whiteboard", "image": f.image(t, c)})
	wantStatus(t, c.Do("PATCH", "/api/threads/"+p4, map[string]any{"raw": "Whiteboard (photo removed)", "image": nil}), 200)
	f.post(t, f.forumAdmin.Client, map[string]any{"channelId": f.admin, "raw": "Admins only: are we on track?", "type": "question"})
	f.post(t, c, map[string]any{"raw": "Anyone else stuck on step 3?", "type": "question", "creatorAs": "anonymous"})

	c2 := f.comment(t, b, p2, "", "No questions here.")
	f.comment(t, c, p2, c2, "Really? Why not? Ok then.")
	f.react(t, a, p2, "", "liked")
	f.react(t, c, p2, "", "neutral")
	f.react(t, a, p2, c2, "liked")
	f.react(t, b, p3, "", "loved")
	f.react(t, b, p3, "", "disliked") // changed, not added

	s := f.ask(t, a, "", "What is on the reading list?")
	f.ask(t, a, s, "And who wrote it?")
	s2 := f.ask(t, b, "", "Where is the whiteboard?")
	created(t, a.Do("POST", "/api/ai-response/share-chat", map[string]any{"channelId": f.main, "searchId": s}))

	f.visit(t, c)
	f.visit(t, f.forumAdmin.Client)
	f.visit(t, f.orgAdmin)
	f.visit(t, f.leaver.Client)
	wantStatus(t, assign(t, f.orgAdmin, f.id, nil, f.leaver.ProfileID), 204) // no longer a member: no visitor

	// A comment asking something, deleted; a post with a comment and
	// reactions, deleted with them.
	gone := f.comment(t, a, p2, "", "Is this deleted?")
	wantStatus(t, a.Do("DELETE", "/api/threads/"+p2+"/replies/"+gone, nil), 204)
	p5 := f.post(t, a, map[string]any{"raw": "Draft, please ignore", "image": f.image(t, a)})
	c5 := f.comment(t, b, p5, "", "Why a draft?")
	f.comment(t, a, p5, c5, "Is a draft not fine?")
	f.react(t, c, p5, "", "liked")
	f.react(t, c, p5, c5, "liked")
	wantStatus(t, a.Do("DELETE", "/api/threads/"+p5, nil), 204)

	// Backdated while streaming: the facts move to their new days.
	backdate(t, f.env, "threads", "created_on", p3, 65*day)
	turn := queryString(t, f.env, "SELECT id::text FROM ai_search_turns WHERE search_id = $1", s2)
	backdate(t, f.env, "ai_search_turns", "created_on", turn, 35*day)
	reaction := queryString(t, f.env, "SELECT id::text FROM reactions WHERE thread_id = $1 AND user_id = $2", p2, f.c.UserID)
	backdate(t, f.env, "reactions", "created_on", reaction, 31*day)
}

// TestInsightsMatchPostgres seeds a forum's activity through the API, some
// of it before the pipeline starts (the relay's snapshot) and some while
// it runs, and checks every report and list, for every period, against
// the same figures computed from Postgres; then replays the whole stream
// into the warehouse a second time, and into an empty warehouse, and checks
// that no report changed.
func TestInsightsMatchPostgres(t *testing.T) {
	before := newInsightsForum(t, testenv.New(t))
	before.seedBefore(t)
	// A pipeline of its own, started after the first writes, so that they
	// reach the projection as the relay's snapshot; on the binary's, they
	// would be changes among everything the earlier tests wrote.
	conn, _ := testenv.Warehouse(t)
	ins := testenv.NewInsightsOnPipeline(t, testenv.StartOwnPipeline(t), conn)
	f := before.on(t, ins.Env)
	f.seedAfter(t)

	// The figures must not be trivially zero: the test would prove little.
	x := f.expected(t, 90)
	if x.Interactions.Total < 15 || x.InlineQuestions.Total < 4 || x.AskedQuestions.Counts["anonymous"] != 2 || x.AISearches.Total != 3 ||
		x.Content.Total < 5 || x.Members.Counts.Visitors != 5 || x.Members.Counts.DidNotVisit != 1 {
		t.Fatalf("the seeded figures are not what the test means to check: %+v %+v %+v", x.Summary, x.Members.Counts, x.AskedQuestions.Counts)
	}
	if x30 := f.expected(t, 30); x30.Interactions.Total >= x.Interactions.Total || x30.AskedQuestions.Total >= x.AskedQuestions.Total {
		t.Fatalf("the periods do not differ: 30 days %+v, 90 days %+v", x30.Interactions, x.Interactions)
	}
	start := time.Now()
	f.compare(t, f.forumAdmin.Client, 60*time.Second)
	t.Logf("every report matched Postgres %v after the last write", time.Since(start).Round(time.Millisecond))

	// The org admin (no forum membership) reads the same.
	if got, want := f.actual(t, f.orgAdmin, 90), f.expected(t, 90); !reflect.DeepEqual(got, want) {
		t.Errorf("the organization admin reads other figures: %+v", got.Summary)
	}

	// A page of a list.
	var page askedList
	f.get(t, f.forumAdmin.Client, "/list/asked-questions/"+f.id+"?period=90&page=2&pageSize=1", &page)
	if page.Total != x.AskedList.Total || len(page.Result) != 1 {
		t.Errorf("page 2 of 1: total %d, %d entries", page.Total, len(page.Result))
	}

	// The whole stream again, into the same warehouse, under another
	// consumer group: every report is unchanged.
	ins.WaitCaughtUp(t, ins.Projection, 60*time.Second)
	replay := ins.Projection.Named("insights-replay")
	ins.Run(t, replay)
	ins.WaitCaughtUp(t, replay, 120*time.Second)
	for _, period := range []int{30, 60, 90} {
		if want, got := f.expected(t, period), f.actual(t, f.forumAdmin.Client, period); !reflect.DeepEqual(want, got) {
			w, _ := json.MarshalIndent(want, "", " ")
			g, _ := json.MarshalIndent(got, "", " ")
			t.Fatalf("period %d after a replay: \nwant %s\ngot  %s", period, w, g)
		}
	}

	// The whole stream into an empty warehouse, read by another server:
	// the same reports.
	fresh, _ := testenv.Warehouse(t)
	empty, err := insights.New(fresh, ins.DB.Pool, nil)
	if err != nil {
		t.Fatal(err)
	}
	empty = empty.Named("insights-fresh")
	ins.Run(t, empty)
	ins.WaitCaughtUp(t, empty, 120*time.Second)
	g := f.on(t, ins.ServeWarehouse(t, fresh))
	for _, period := range []int{30, 60, 90} {
		if want, got := f.expected(t, period), g.actual(t, g.forumAdmin.Client, period); !reflect.DeepEqual(want, got) {
			w, _ := json.MarshalIndent(want, "", " ")
			gj, _ := json.MarshalIndent(got, "", " ")
			t.Fatalf("period %d from an empty warehouse: \nwant %s\ngot  %s", period, w, gj)
		}
	}

	// The mia-members count, from visitorIds.
	var m membersReport
	f.get(t, f.forumAdmin.Client, "/reports/members/"+f.id+"?period=30", &m)
	var mia struct {
		MembersCount int `json:"membersCount"`
		MIACount     int `json:"miaCount"`
	}
	r := f.forumAdmin.Client.Do("POST", "/api/insights/series/"+f.id+"/mia-members", map[string]any{"visitorIds": append(m.VisitorIDs, uuid.NewString())})
	wantStatus(t, r, 200)
	r.JSON(t, &mia)
	if mia.MembersCount != m.Counts.Total || mia.MIACount != m.Counts.DidNotVisit {
		t.Errorf("mia-members %+v, members report %+v", mia, m.Counts)
	}
	var ch struct {
		ID *string `json:"_id"` // spec 002 §7: "returns the channel _id"
	}
	r = f.forumAdmin.Client.Do("GET", "/api/insights/series/"+f.id+"/admin-channel", nil)
	wantStatus(t, r, 200)
	r.JSON(t, &ch)
	if ch.ID == nil || *ch.ID != f.admin {
		t.Errorf("admin channel %v, want %s", ch.ID, f.admin)
	}
}

// TestInsightsFreshWithinFiveSeconds: a post, a reaction and a visit show
// in their forum's reports within 5 seconds of the commit (the call that
// made them returns after it).
func TestInsightsFreshWithinFiveSeconds(t *testing.T) {
	ins := testenv.NewInsights(t)
	f := newInsightsForum(t, ins.Env)
	admin := f.forumAdmin.Client
	interactions := func() dailyReport {
		var r dailyReport
		f.get(t, admin, "/reports/interactions/"+f.id+"?period=30", &r)
		return r
	}
	visitors := func() int {
		var r membersReport
		f.get(t, admin, "/reports/members/"+f.id+"?period=30", &r)
		return r.Counts.Visitors
	}
	// The forum's creation is in: reports have an updatedOn from here on.
	f.visit(t, f.b.Client)
	waitUntil(t, 30*time.Second, func() bool { return visitors() == 1 })

	within := func(what string, write func(), shown func() bool) {
		t.Helper()
		start := time.Now()
		write()
		for !shown() {
			if time.Since(start) > 5*time.Second {
				t.Fatalf("%s: not in the reports within 5 s", what)
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("%s showed in the reports %v after the call that committed it began", what, time.Since(start).Round(time.Millisecond))
	}
	var post string
	within("a post", func() { post = f.post(t, f.a.Client, map[string]any{"raw": "Fresh news"}) },
		func() bool { return interactions().Counts["posts"] == 1 })
	within("a reaction", func() { f.react(t, f.c.Client, post, "", "loved") },
		func() bool { return interactions().Counts["reactions"] == 1 })
	within("a visit", func() { f.visit(t, f.a.Client) },
		func() bool { return visitors() == 2 })
}

func waitUntil(t *testing.T, d time.Duration, cond func() bool) {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > d {
			t.Fatalf("not true within %v", d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
