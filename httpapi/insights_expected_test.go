package httpapi_test

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"agora/app/testenv"
	"agora/internal/rules/richtext"
	"agora/projections/insights"
)

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
