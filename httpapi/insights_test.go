package httpapi_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/seed"
	"agora/app/testenv"
	"agora/internal/plumbing/config"
	"agora/internal/rules/richtext"
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

// The reports as the contract has them (updatedOn aside, which the tests
// check separately).
type dailyReport struct {
	Period int `json:"period"`
	Total  int `json:"total"`
	Data   []struct {
		Date  string `json:"date"`
		Count int    `json:"count"`
	} `json:"data"`
	Counts map[string]int `json:"counts"`
}

type contentReport struct {
	Period int `json:"period"`
	Total  int `json:"total"`
	Kinds  []struct {
		Kind    string  `json:"kind"`
		Value   int     `json:"value"`
		Percent float64 `json:"percent"`
	} `json:"kinds"`
}

type membersReport struct {
	Period int `json:"period"`
	Counts struct {
		Visitors           int     `json:"visitors"`
		AvgVisitsPerMember float64 `json:"avgVisitsPerMember"`
		DidNotVisit        int     `json:"didNotVisit"`
		Total              int     `json:"total"`
	} `json:"counts"`
	VisitorIDs []string `json:"visitorIds"`
}

type summaryReport struct {
	Period        int `json:"period"`
	Interactions  int `json:"interactions"`
	SharedContent int `json:"sharedContent"`
	Meetups       int `json:"meetups"`
	Members       int `json:"members"`
	Inquiries     int `json:"inquiries"`
}

type askedList struct {
	Period         int `json:"period"`
	Total          int `json:"total"`
	TotalAnonymous int `json:"totalAnonymous"`
	Result         []struct {
		ThreadID  string  `json:"threadId"`
		Question  string  `json:"question"`
		CreatorID *string `json:"creatorId"`
		As        string  `json:"as"`
		CreatedOn string  `json:"createdOn"`
	} `json:"result"`
}

type inlineList struct {
	Period int `json:"period"`
	Total  int `json:"total"`
	Result []struct {
		ThreadID  string   `json:"threadId"`
		MessageID string   `json:"messageId"`
		Questions []string `json:"questions"`
		CreatorID string   `json:"creatorId"`
		CreatedOn string   `json:"createdOn"`
	} `json:"result"`
}

type aiList struct {
	Period int `json:"period"`
	Total  int `json:"total"`
	Result []struct {
		SearchID  string `json:"searchId"`
		Question  string `json:"question"`
		CreatedOn string `json:"createdOn"`
	} `json:"result"`
}

// figures are every report of one period.
type figures struct {
	Interactions, InlineQuestions, AskedQuestions, AISearches dailyReport
	Content                                                   contentReport
	Members                                                   membersReport
	Summary                                                   summaryReport
	AskedList                                                 askedList
	InlineList                                                inlineList
	AIList                                                    aiList
}

// expected computes every report of period from Postgres: what exists now
// in the forum's main channel, by UTC day.
func (f *insightsForum) expected(t *testing.T, period int) figures {
	t.Helper()
	ctx := t.Context()
	db := f.env.DB.Pool
	today := time.Now().UTC().Truncate(day)
	from := today.AddDate(0, 0, -(period - 1))
	in := func(ts time.Time) bool { d := ts.UTC().Truncate(day); return !d.Before(from) && !d.After(today) }
	stamp := func(ts time.Time) string { return ts.UTC().Format("2006-01-02T15:04:05.000Z07:00") }
	var x figures
	days := func() (dailyReport, map[string]int) {
		r := dailyReport{Period: period, Counts: map[string]int{}}
		idx := map[string]int{}
		for d := from; !d.After(today); d = d.AddDate(0, 0, 1) {
			idx[d.Format(time.DateOnly)] = len(r.Data)
			r.Data = append(r.Data, struct {
				Date  string `json:"date"`
				Count int    `json:"count"`
			}{d.Format(time.DateOnly), 0})
		}
		return r, idx
	}
	add := func(r *dailyReport, idx map[string]int, ts time.Time, n int) {
		r.Data[idx[ts.UTC().Format(time.DateOnly)]].Count += n
		r.Total += n
	}
	x.Interactions, _ = days()
	x.InlineQuestions, _ = days()
	x.AskedQuestions, _ = days()
	x.AISearches, _ = days()
	_, idx := days()
	x.Interactions.Counts = map[string]int{"posts": 0, "comments": 0, "replies": 0, "reactions": 0}
	x.AskedQuestions.Counts = map[string]int{"anonymous": 0}
	x.AskedList = askedList{Period: period}
	x.InlineList = inlineList{Period: period}
	x.AIList = aiList{Period: period}

	// Posts of the main channel: interactions, questions, shared content.
	content := map[string]int{}
	rows, err := db.Query(ctx, `SELECT id::text, creator_id::text, creator_as, type, raw, image IS NOT NULL, file IS NOT NULL,
		link IS NOT NULL, coalesce(link->>'viewerType', ''), created_on FROM threads WHERE series_id = $1 AND channel_id = $2`, f.id, f.main)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, creator, as, typ, raw, viewer string
		var image, file, link bool
		var at time.Time
		if err := rows.Scan(&id, &creator, &as, &typ, &raw, &image, &file, &link, &viewer, &at); err != nil {
			t.Fatal(err)
		}
		if !in(at) {
			continue
		}
		add(&x.Interactions, idx, at, 1)
		x.Interactions.Counts["posts"]++
		if typ == "question" {
			add(&x.AskedQuestions, idx, at, 1)
			e := x.AskedList.Result
			e = append(e, struct {
				ThreadID  string  `json:"threadId"`
				Question  string  `json:"question"`
				CreatorID *string `json:"creatorId"`
				As        string  `json:"as"`
				CreatedOn string  `json:"createdOn"`
			}{ThreadID: id, Question: strings.TrimSpace(richtext.Plain(raw)), As: as, CreatedOn: stamp(at)})
			if as == "anonymous" {
				x.AskedQuestions.Counts["anonymous"]++
			} else {
				c := creator
				e[len(e)-1].CreatorID = &c
			}
			x.AskedList.Result = e
		}
		for kind, has := range map[string]bool{"image": image, "file": file, "link": link && viewer != "embedded", "video": link && viewer == "embedded", "aiChat": typ == "shared-ai-chat"} {
			if has {
				content[kind]++
			}
		}
	}
	rows.Close()
	x.AskedList.Total, x.AskedList.TotalAnonymous = x.AskedQuestions.Total, x.AskedQuestions.Counts["anonymous"]

	// Comments and replies, and the questions they ask.
	rows, err = db.Query(ctx, `SELECT r.id::text, r.thread_id::text, r.parent_id IS NULL, r.creator_id::text, r.raw, r.created_on
		FROM replies r JOIN threads t ON t.id = r.thread_id WHERE t.series_id = $1 AND t.channel_id = $2`, f.id, f.main)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, thread, creator, raw string
		var comment bool
		var at time.Time
		if err := rows.Scan(&id, &thread, &comment, &creator, &raw, &at); err != nil {
			t.Fatal(err)
		}
		if !in(at) {
			continue
		}
		add(&x.Interactions, idx, at, 1)
		if comment {
			x.Interactions.Counts["comments"]++
		} else {
			x.Interactions.Counts["replies"]++
		}
		if qs := insights.Questions(raw); len(qs) > 0 {
			add(&x.InlineQuestions, idx, at, len(qs))
			x.InlineList.Result = append(x.InlineList.Result, struct {
				ThreadID  string   `json:"threadId"`
				MessageID string   `json:"messageId"`
				Questions []string `json:"questions"`
				CreatorID string   `json:"creatorId"`
				CreatedOn string   `json:"createdOn"`
			}{thread, id, qs, creator, stamp(at)})
		}
	}
	rows.Close()
	x.InlineList.Total = len(x.InlineList.Result)

	// Reactions on the main channel's posts and comments.
	rows, err = db.Query(ctx, `SELECT x.created_on FROM reactions x JOIN threads t ON t.id = x.thread_id WHERE t.series_id = $1 AND t.channel_id = $2`, f.id, f.main)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var at time.Time
		if err := rows.Scan(&at); err != nil {
			t.Fatal(err)
		}
		if in(at) {
			add(&x.Interactions, idx, at, 1)
			x.Interactions.Counts["reactions"]++
		}
	}
	rows.Close()

	// Questions asked of the AI search in the main channel.
	rows, err = db.Query(ctx, `SELECT s.id::text, u.question, u.created_on FROM ai_search_turns u JOIN ai_searches s ON s.id = u.search_id
		WHERE s.series_id = $1 AND s.channel_id = $2`, f.id, f.main)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var search, question string
		var at time.Time
		if err := rows.Scan(&search, &question, &at); err != nil {
			t.Fatal(err)
		}
		if in(at) {
			add(&x.AISearches, idx, at, 1)
			x.AIList.Result = append(x.AIList.Result, struct {
				SearchID  string `json:"searchId"`
				Question  string `json:"question"`
				CreatedOn string `json:"createdOn"`
			}{search, question, stamp(at)})
		}
	}
	rows.Close()
	x.AIList.Total = len(x.AIList.Result)

	// Shared content.
	x.Content = contentReport{Period: period}
	for _, k := range []string{"image", "file", "link", "video", "aiChat"} {
		x.Content.Total += content[k]
	}
	for _, k := range []string{"image", "file", "link", "video", "aiChat"} {
		pct := 0.0
		if x.Content.Total > 0 {
			pct = math.Round(float64(content[k])*1000/float64(x.Content.Total)) / 10
		}
		x.Content.Kinds = append(x.Content.Kinds, struct {
			Kind    string  `json:"kind"`
			Value   int     `json:"value"`
			Percent float64 `json:"percent"`
		}{k, content[k], pct})
	}

	// Members now, and their visits in the period.
	members := map[string]bool{}
	rows, err = db.Query(ctx, `SELECT DISTINCT p.user_id::text FROM series_memberships sm JOIN profiles p ON p.id = sm.profile_id
		WHERE sm.series_id = $1 AND sm.status = 'active' AND p.user_id IS NOT NULL`, f.id)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		members[id] = true
	}
	rows.Close()
	visits := map[string]int{}
	rows, err = db.Query(ctx, `SELECT user_id::text, visited_on FROM series_visit_log WHERE series_id = $1`, f.id)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		var at time.Time
		if err := rows.Scan(&id, &at); err != nil {
			t.Fatal(err)
		}
		if in(at) && members[id] {
			visits[id]++
		}
	}
	rows.Close()
	x.Members = membersReport{Period: period, VisitorIDs: []string{}}
	total := 0
	for id, n := range visits {
		x.Members.VisitorIDs = append(x.Members.VisitorIDs, id)
		total += n
	}
	sort.Strings(x.Members.VisitorIDs)
	x.Members.Counts.Total, x.Members.Counts.Visitors = len(members), len(visits)
	x.Members.Counts.DidNotVisit = len(members) - len(visits)
	if len(visits) > 0 {
		x.Members.Counts.AvgVisitsPerMember = math.Round(float64(total)*10/float64(len(visits))) / 10
	}

	x.Summary = summaryReport{
		Period: period, Interactions: x.Interactions.Total, SharedContent: x.Content.Total, Members: x.Members.Counts.Visitors,
		Inquiries: x.AISearches.Total + x.AskedQuestions.Total + x.InlineQuestions.Total,
	}
	sortLists(&x)
	return x
}

// sortLists orders the lists newest first, ties by id, as a fixed order
// to compare (the API's order among equal times is its own).
func sortLists(x *figures) {
	sort.SliceStable(x.AskedList.Result, func(i, j int) bool {
		a, b := x.AskedList.Result[i], x.AskedList.Result[j]
		return a.CreatedOn > b.CreatedOn || (a.CreatedOn == b.CreatedOn && a.ThreadID < b.ThreadID)
	})
	sort.SliceStable(x.InlineList.Result, func(i, j int) bool {
		a, b := x.InlineList.Result[i], x.InlineList.Result[j]
		return a.CreatedOn > b.CreatedOn || (a.CreatedOn == b.CreatedOn && a.MessageID < b.MessageID)
	})
	sort.SliceStable(x.AIList.Result, func(i, j int) bool {
		a, b := x.AIList.Result[i], x.AIList.Result[j]
		return a.CreatedOn > b.CreatedOn || (a.CreatedOn == b.CreatedOn && a.Question < b.Question)
	})
}

// get reads one report into v; its updatedOn is checked to be a time.
func (f *insightsForum) get(t *testing.T, c *testenv.Client, path string, v any) {
	t.Helper()
	r := c.Do("GET", f.insightsBasePath+path, nil)
	if r.Status != 200 {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	r.JSON(t, v)
	var fresh struct {
		UpdatedOn *time.Time `json:"updatedOn"`
	}
	r.JSON(t, &fresh)
	if fresh.UpdatedOn == nil {
		t.Errorf("GET %s: updatedOn is null with data in the warehouse", path)
	}
}

// actual reads every report of period from the API.
func (f *insightsForum) actual(t *testing.T, c *testenv.Client, period int) figures {
	t.Helper()
	var x figures
	q := fmt.Sprintf("%s?period=%d", f.id, period)
	f.get(t, c, "/reports/interactions/"+q, &x.Interactions)
	f.get(t, c, "/reports/inline-questions/"+q, &x.InlineQuestions)
	f.get(t, c, "/reports/asked-questions/"+q, &x.AskedQuestions)
	f.get(t, c, "/reports/ai-searches/"+q, &x.AISearches)
	f.get(t, c, "/reports/content/"+q, &x.Content)
	f.get(t, c, "/reports/members/"+q, &x.Members)
	f.get(t, c, "/summary/"+q, &x.Summary)
	f.get(t, c, "/list/asked-questions/"+q+"&pageSize=100", &x.AskedList)
	f.get(t, c, "/list/inline-questions/"+q+"&pageSize=100", &x.InlineList)
	f.get(t, c, "/list/ai-searches/"+q+"&pageSize=100", &x.AIList)
	for _, l := range [][]string{createdOns(x.AskedList.Result), createdOns(x.InlineList.Result), createdOns(x.AIList.Result)} {
		if !sort.SliceIsSorted(l, func(i, j int) bool { return l[i] > l[j] }) {
			t.Errorf("a list is not newest first: %v", l)
		}
	}
	sortLists(&x)
	return x
}

// createdOns are the createdOn of a list's entries.
func createdOns[E any](es []E) []string {
	var out []string
	for _, e := range es {
		out = append(out, reflect.ValueOf(e).FieldByName("CreatedOn").String())
	}
	return out
}

// compare checks every report of every period against Postgres, polling
// until they agree (the pipeline is asynchronous), and fails with the
// differences after within.
func (f *insightsForum) compare(t *testing.T, c *testenv.Client, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for _, period := range []int{30, 60, 90} {
		for {
			want, got := f.expected(t, period), f.actual(t, c, period)
			if reflect.DeepEqual(want, got) {
				break
			}
			if time.Now().After(deadline) {
				w, _ := json.MarshalIndent(want, "", " ")
				g, _ := json.MarshalIndent(got, "", " ")
				t.Fatalf("period %d: the reports differ from Postgres\nwant %s\ngot  %s", period, w, g)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
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
	ins := testenv.NewInsights(t)
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

// insightsRoutes are every route of the insights base, for a forum and a
// query string.
func insightsRoutes(forum, query string) [][2]string {
	var out [][2]string
	for _, p := range []string{
		"/reports/interactions/", "/reports/inline-questions/", "/reports/asked-questions/", "/reports/ai-searches/",
		"/reports/content/", "/reports/meetups/", "/reports/members/", "/summary/",
		"/list/asked-questions/", "/list/inline-questions/", "/list/ai-searches/",
	} {
		out = append(out, [2]string{"GET", "/api/insights" + p + forum + query})
	}
	return append(out,
		[2]string{"POST", "/api/insights/series/" + forum + "/mia-members"},
		[2]string{"GET", "/api/insights/series/" + forum + "/admin-channel"})
}

func miaBody(method string) any {
	if method == "POST" {
		return map[string]any{"visitorIds": []string{}}
	}
	return nil
}

// TestInsightsPermissions: forum admins (and admins of the community or
// organization) read every route; a member who is not a forum admin gets
// 403 on every one, a community member outside the forum and an outsider
// 404 as for an unknown forum; no session is 401; bad parameters are 400.
func TestInsightsPermissions(t *testing.T) {
	ins := testenv.NewInsights(t)
	f := newInsightsForum(t, ins.Env)
	outsider := ins.As(t, seed.OutsiderEmail)
	for who, c := range map[string]*testenv.Client{"forum admin": f.forumAdmin.Client, "organization admin": f.orgAdmin} {
		for _, rt := range insightsRoutes(f.id, "?period=30") {
			if r := c.Do(rt[0], rt[1], miaBody(rt[0])); r.Status != 200 {
				t.Errorf("%s: %s %s: %d %s", who, rt[0], rt[1], r.Status, r.Body)
			}
		}
	}
	// A member who reads the forum is refused; to those who may not read
	// it, it is as unknown as a random id (issue 14, F12).
	for who, c := range map[string]struct {
		c      *testenv.Client
		status int
		code   string
	}{"forum member": {f.a.Client, 403, "forbidden"}, "community member": {f.communityMember.Client, 404, "notFound"}, "outsider": {outsider, 404, "notFound"}} {
		for _, rt := range insightsRoutes(f.id, "") {
			t.Run(who+" "+rt[1], func(t *testing.T) { wantError(t, c.c.Do(rt[0], rt[1], miaBody(rt[0])), c.status, c.code) })
		}
	}
	anonymous := ins.Client(t)
	for _, rt := range insightsRoutes(f.id, "") {
		wantError(t, anonymous.Do(rt[0], rt[1], miaBody(rt[0])), 401, "authenticationRequired")
	}
	for _, rt := range insightsRoutes(uuid.NewString(), "") {
		wantError(t, f.forumAdmin.Client.Do(rt[0], rt[1], miaBody(rt[0])), 404, "notFound")
	}
	for _, rt := range insightsRoutes("not-a-uuid", "") {
		wantError(t, f.forumAdmin.Client.Do(rt[0], rt[1], miaBody(rt[0])), 400, "validationFailed")
	}
	for _, period := range []string{"0", "45", "abc", "120", "-30", "30.0"} {
		for _, rt := range insightsRoutes(f.id, "?period="+period) {
			if strings.Contains(rt[1], "/series/") {
				continue // no period
			}
			e := wantError(t, f.forumAdmin.Client.Do(rt[0], rt[1], nil), 400, "validationFailed")
			if _, ok := e.Details["fields"].(map[string]any)["period"]; !ok {
				t.Errorf("%s: details %v name no period", rt[1], e.Details)
			}
		}
	}
	for _, q := range []string{"?page=0", "?page=x", "?pageSize=0", "?pageSize=101"} {
		for _, rt := range insightsRoutes(f.id, q) {
			if strings.Contains(rt[1], "/list/") {
				wantError(t, f.forumAdmin.Client.Do(rt[0], rt[1], nil), 400, "validationFailed")
			}
		}
	}
	// The content gaps take no period: the list answers those who read
	// insights, and a dismissal of an unknown gap is refused as the
	// reports refuse the others.
	gaps, gap := "/api/insights/list/content-gaps/"+f.id, "/api/insights/series/"+f.id+"/content-gaps/"+uuid.NewString()
	for who, c := range map[string]*testenv.Client{"forum admin": f.forumAdmin.Client, "organization admin": f.orgAdmin} {
		if r := c.Do("GET", gaps, nil); r.Status != 200 {
			t.Errorf("%s: content gaps: %d %s", who, r.Status, r.Body)
		}
		wantError(t, c.Do("DELETE", gap, nil), 404, "notFound")
	}
	for who, c := range map[string]struct {
		c      *testenv.Client
		status int
		code   string
	}{"forum member": {f.a.Client, 403, "forbidden"}, "community member": {f.communityMember.Client, 404, "notFound"},
		"outsider": {outsider, 404, "notFound"}, "guest": {anonymous, 401, "authenticationRequired"}} {
		t.Run(who+" content gaps", func(t *testing.T) {
			wantError(t, c.c.Do("GET", gaps, nil), c.status, c.code)
			wantError(t, c.c.Do("DELETE", gap, nil), c.status, c.code)
		})
	}
	mia := "/api/insights/series/" + f.id + "/mia-members"
	wantError(t, f.forumAdmin.Client.Do("POST", mia, map[string]any{"visitorIds": []string{"nope"}}), 400, "validationFailed")
	wantError(t, f.forumAdmin.Client.Do("POST", mia, map[string]any{}), 400, "validationFailed")
	wantError(t, f.forumAdmin.Client.Do("POST", mia, map[string]any{"visitorIds": "x"}), 400, "invalidBody")
}

// TestInsightsBaseIsConfigurable: AGORA_INSIGHTS_BASE moves every route.
func TestInsightsBaseIsConfigurable(t *testing.T) {
	ins := testenv.NewInsights(t, func(c *config.Config) { c.InsightsBase = "/reports-service" })
	f := newInsightsForum(t, ins.Env)
	auth := map[string]string{"Authorization": "Bearer " + f.forumAdmin.Client.Token}
	if res := rawDo(t, ins.Env, "GET", "/reports-service/summary/"+f.id+"?period=60", auth, ""); res.StatusCode != 200 {
		t.Errorf("the moved summary: %d", res.StatusCode)
	}
	if res := rawDo(t, ins.Env, "GET", "/reports-service/summary/"+f.id, nil, ""); res.StatusCode != 401 {
		t.Errorf("the moved summary without a session: %d", res.StatusCode)
	}
	if res := rawDo(t, ins.Env, "GET", "/api/insights/summary/"+f.id, auth, ""); res.StatusCode != 404 {
		t.Errorf("the default base after moving it: %d", res.StatusCode)
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
