package httpapi_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/seed"
	"agora/app/testenv"
)

// TestFeedPagination: 25 posts read back 10 at a time with the createdBefore
// cursor, newest first, none skipped or repeated; the feed features the
// first comment only.
func TestFeedPagination(t *testing.T) {
	f := newFeedFixture(t)
	env := f.env
	member, expert := env.As(t, seed.MemberEmail), env.As(t, seed.ExpertEmail)
	mine := map[string]bool{}
	var first string
	for i := 0; i < 25; i++ {
		v := post(t, member, f.roadmaps, map[string]any{"channelId": f.roadmapsMain, "raw": fmt.Sprintf("page post %d", i)})
		mine[v.ID] = true
		if i == 0 {
			first = v.ID
		}
	}
	for _, raw := range []string{"featured", "second"} {
		if r := expert.Do("POST", "/api/threads/"+first+"/replies", map[string]any{"raw": raw}); r.Status != 201 {
			t.Fatalf("comment: %d %s", r.Status, r.Body)
		}
	}
	seen := map[string]bool{}
	cursor, last := "", ""
	for pages := 0; len(seen) < 25; pages++ {
		if pages > 20 {
			t.Fatalf("paged 20 times and saw %d of 25 posts", len(seen))
		}
		q := "/api/channels/" + f.roadmapsMain + "/threads"
		if cursor != "" {
			q += "?createdBefore=" + cursor
		}
		r := expert.Do("GET", q, nil)
		if r.Status != 200 {
			t.Fatalf("page: %d %s", r.Status, r.Body)
		}
		var page struct {
			Results []threadView `json:"results"`
		}
		r.JSON(t, &page)
		if len(page.Results) == 0 {
			t.Fatalf("the feed ended after %d of 25 posts", len(seen))
		}
		if len(page.Results) > 10 {
			t.Fatalf("page of %d, want at most 10", len(page.Results))
		}
		for _, v := range page.Results {
			if last != "" && v.CreatedOn >= last {
				t.Errorf("not newest first: %s after %s", v.CreatedOn, last)
			}
			last = v.CreatedOn
			if !mine[v.ID] {
				continue
			}
			if seen[v.ID] {
				t.Errorf("post %s on two pages", v.ID)
			}
			seen[v.ID] = true
			if v.ID == first && (v.RepliesCount != 2 || len(v.Replies) != 1 || v.Replies[0].Raw != "featured") {
				t.Errorf("featured comment: %+v", v)
			}
		}
		cursor = page.Results[len(page.Results)-1].CreatedOn
	}

	var small struct {
		Results []threadView `json:"results"`
	}
	expert.Do("GET", "/api/channels/"+f.roadmapsMain+"/threads?pageSize=3", nil).JSON(t, &small)
	if len(small.Results) != 3 {
		t.Errorf("pageSize=3 gave %d", len(small.Results))
	}
	for q, want := range map[string]string{
		"?pageSize=51":             "validationFailed",
		"?pageSize=0":              "validationFailed",
		"?pageSize=ten":            "validationFailed",
		"?createdBefore=yesterday": "validationFailed",
	} {
		if r := expert.Do("GET", "/api/channels/"+f.roadmapsMain+"/threads"+q, nil); r.Status != 400 || r.Code() != want {
			t.Errorf("%s: %d %s", q, r.Status, r.Body)
		}
	}
	if r := expert.Do("GET", "/api/channels/"+uuid.NewString()+"/threads", nil); r.Status != 404 {
		t.Errorf("unknown channel: %d", r.Status)
	}
	if r := expert.Do("GET", "/api/channels/x/threads", nil); r.Status != 400 {
		t.Errorf("non-UUID channel: %d", r.Status)
	}
	if r := member.Do("GET", "/api/channels/"+f.roundtableMain+"/threads", nil); r.Status != 404 {
		t.Errorf("member reads a forum they are not in: %d", r.Status)
	}
	if r := member.Do("GET", "/api/channels/"+f.welcomeAdmin+"/threads", nil); r.Status != 404 {
		t.Errorf("member reads the admin channel: %d", r.Status)
	}
	if r := env.As(t, seed.AdminEmail).Do("GET", "/api/channels/"+f.welcomeAdmin+"/threads", nil); r.Status != 200 {
		t.Errorf("admin reads the admin channel: %d", r.Status)
	}
	if r := env.As(t, seed.OutsiderEmail).Do("GET", "/api/channels/"+f.roadmapsMain+"/threads", nil); r.Status != 404 {
		t.Errorf("outsider reads: %d", r.Status)
	}
}

// TestFeedVisits: a visit returns the previous one; GET returns the latest.
func TestFeedVisits(t *testing.T) {
	f := newFeedFixture(t)
	env := f.env
	expert := env.As(t, seed.ExpertEmail)
	path := "/api/series/" + f.roadmaps + "/visits"
	type visit struct {
		PreviouslyVisitedOn *string `json:"previouslyVisitedOn"`
	}
	do := func(method string) visit {
		t.Helper()
		r := expert.Do(method, path, nil)
		if r.Status != 200 {
			t.Fatalf("%s visits: %d %s", method, r.Status, r.Body)
		}
		var v visit
		r.JSON(t, &v)
		return v
	}
	do("POST")
	second := do("POST")
	latest := do("GET")
	if second.PreviouslyVisitedOn == nil || latest.PreviouslyVisitedOn == nil || *latest.PreviouslyVisitedOn < *second.PreviouslyVisitedOn {
		t.Errorf("second visit %v, latest %v", second.PreviouslyVisitedOn, latest.PreviouslyVisitedOn)
	}
	third := do("POST")
	if third.PreviouslyVisitedOn == nil || *third.PreviouslyVisitedOn != *latest.PreviouslyVisitedOn {
		t.Errorf("third visit's previous %v, want %v", third.PreviouslyVisitedOn, latest.PreviouslyVisitedOn)
	}
	// Every visit is logged, for the insights; the latest is the one kept.
	expertID := f.user(t, seed.ExpertEmail)
	if n := env.Count(t, "series_visit_log", "series_id = $1 AND user_id = $2", f.roadmaps, expertID); n != 3 {
		t.Errorf("visit log holds %d visits, want 3", n)
	}
	if n := env.Count(t, "series_visit_log l JOIN series_visits v USING (series_id, user_id)", "l.series_id = $1 AND l.user_id = $2 AND l.visited_on = v.visited_on", f.roadmaps, expertID); n != 1 {
		t.Errorf("%d logged visits match the latest", n)
	}
	// A forum never visited has no previous visit.
	outsiderRow := env.Count(t, "series_visits", "user_id = $1", f.user(t, seed.MemberEmail))
	member := env.As(t, seed.MemberEmail)
	if outsiderRow == 0 {
		var v visit
		member.Do("GET", "/api/series/"+f.welcome+"/visits", nil).JSON(t, &v)
		if v.PreviouslyVisitedOn != nil {
			t.Errorf("first GET: %v", *v.PreviouslyVisitedOn)
		}
	}
	before, logged := env.Count(t, "series_visits", ""), env.Count(t, "series_visit_log", "")
	for name, c := range map[string]struct {
		c      *testenv.Client
		method string
		path   string
		status int
	}{
		"outsider":         {env.As(t, seed.OutsiderEmail), "POST", path, 404},
		"not a reader":     {member, "POST", "/api/series/" + f.roundtable + "/visits", 404},
		"not a reader GET": {member, "GET", "/api/series/" + f.roundtable + "/visits", 404},
		"unknown":          {member, "POST", "/api/series/" + uuid.NewString() + "/visits", 404},
		"non-UUID":         {member, "POST", "/api/series/x/visits", 400},
	} {
		if r := c.c.Do(c.method, c.path, nil); r.Status != c.status {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	if after := env.Count(t, "series_visits", ""); after != before {
		t.Errorf("refused visits wrote %d rows", after-before)
	}
	if after := env.Count(t, "series_visit_log", ""); after != logged {
		t.Errorf("refused visits logged %d rows", after-logged)
	}
}

// eventually polls cond every 10 ms for up to 30 s: what the search
// projection indexes is searchable a moment after the commit. The bound
// only stops a test that would never pass; it is not a speed target (the
// benchmarks measure that): a new search server first indexes every change
// the test binary's earlier tests made, which on a loaded 2-core machine
// took over 10 s (TestOrganizationProfilesInSearch failed so in CI).
func eventually(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("not true within 30 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
