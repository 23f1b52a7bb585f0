package httpapi_test

import (
	"net/http"
	"testing"

	"agora/app/seed"
	"agora/app/testenv"
)

type myCommunities struct {
	Results []struct {
		ID            string  `json:"id"`
		Name          string  `json:"name"`
		Role          string  `json:"role"`
		LastVisitedOn *string `json:"lastVisitedOn"`
		AssignedOn    string  `json:"assignedOn"`
		Series        []struct {
			ID       string  `json:"id"`
			Name     string  `json:"name"`
			Role     *string `json:"role"`
			IsExpert bool    `json:"isExpert"`
		} `json:"series"`
	} `json:"results"`
	Total int `json:"total"`
}

// TestMyCommunities: each demo login sees the communities it belongs to,
// with the forums it may open (spec 000 §3, §7; the seed's promises).
func TestMyCommunities(t *testing.T) {
	env := testenv.New(t)

	var admin myCommunities
	r := env.As(t, seed.AdminEmail).Do("GET", "/api/communities", nil)
	if r.Status != 200 {
		t.Fatalf("admin: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &admin)
	if admin.Total != 2 || len(admin.Results) != 2 {
		t.Fatalf("admin sees %d communities (total %d), want 2", len(admin.Results), admin.Total)
	}
	forums := 0
	for _, c := range admin.Results {
		if c.Role != "admin" {
			t.Errorf("admin's role in %s = %q", c.Name, c.Role)
		}
		forums += len(c.Series)
	}
	if forums != 5 {
		t.Errorf("admin sees %d forums, want every demo forum (5)", forums)
	}
	if admin.Results[0].Name > admin.Results[1].Name {
		t.Errorf("not sorted by name: %q, %q", admin.Results[0].Name, admin.Results[1].Name)
	}

	var member myCommunities
	env.As(t, seed.MemberEmail).Do("GET", "/api/communities", nil).JSON(t, &member)
	if member.Total != 1 || len(member.Results) != 1 {
		t.Fatalf("member sees %d communities, want 1", len(member.Results))
	}
	mc := member.Results[0]
	if mc.Role != "member" || len(mc.Series) != 2 {
		t.Errorf("member: role %q, %d forums; want member of 2 forums", mc.Role, len(mc.Series))
	}
	for _, f := range mc.Series {
		if f.Role == nil || *f.Role != "member" {
			t.Errorf("member's role in forum %s = %v", f.Name, f.Role)
		}
	}

	var expert myCommunities
	env.As(t, seed.ExpertEmail).Do("GET", "/api/communities", nil).JSON(t, &expert)
	experts := 0
	for _, c := range expert.Results {
		for _, f := range c.Series {
			if f.IsExpert {
				experts++
			}
		}
	}
	if experts != 1 {
		t.Errorf("the expert is expert in %d forums, want 1", experts)
	}

	// Paging and the keyword filter.
	var page2 myCommunities
	env.As(t, seed.AdminEmail).Do("GET", "/api/communities?page=2&pageSize=1", nil).JSON(t, &page2)
	if page2.Total != 2 || len(page2.Results) != 1 || page2.Results[0].ID != admin.Results[1].ID {
		t.Errorf("page 2 of size 1: %+v", page2)
	}
	var past myCommunities
	env.As(t, seed.AdminEmail).Do("GET", "/api/communities?page=9&pageSize=1", nil).JSON(t, &past)
	if past.Total != 2 || len(past.Results) != 0 {
		t.Errorf("page past the end: %+v", past)
	}
	var none myCommunities
	env.As(t, seed.AdminEmail).Do("GET", "/api/communities?keyword=%25_no-such-community", nil).JSON(t, &none)
	if none.Total != 0 || len(none.Results) != 0 {
		t.Errorf("keyword matching nothing: %+v", none)
	}
}

// TestMyCommunitiesPermissions: outsiders and super users without
// memberships get an empty list; guests are refused.
func TestMyCommunitiesPermissions(t *testing.T) {
	env := testenv.New(t)
	for _, email := range []string{seed.OutsiderEmail, seed.SuperEmail} {
		var got myCommunities
		r := env.As(t, email).Do("GET", "/api/communities", nil)
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", email, r.Status, r.Body)
		}
		r.JSON(t, &got)
		if email == seed.OutsiderEmail && (got.Total != 0 || len(got.Results) != 0) {
			t.Errorf("outsider sees %d communities, want none", got.Total)
		}
	}
	if r := env.Client(t).Do("GET", "/api/communities", nil); r.Status != 401 || r.Code() != "authenticationRequired" {
		t.Errorf("guest: %d %s", r.Status, r.Body)
	}
}

func TestMyCommunitiesBadInput(t *testing.T) {
	env := testenv.New(t)
	c := env.As(t, seed.MemberEmail)
	for _, q := range []string{"page=0", "page=x", "pageSize=0", "pageSize=10000", "pageSize=-1"} {
		r := c.Do("GET", "/api/communities?"+q, nil)
		if r.Status != 400 || r.Code() != "validationFailed" {
			t.Errorf("?%s: %d %s, want 400 validationFailed", q, r.Status, r.Body)
		}
	}
}

// TestWebAppFallback: browsers navigating to an app path get the web app
// (or, when it was not built, the page saying so); API clients keep the
// JSON 404, and /api never falls back.
func TestWebAppFallback(t *testing.T) {
	env := testenv.New(t)
	for _, p := range []string{"/login", "/communities/x/series/y"} {
		res := get(t, env.URL+p, "text/html,application/xhtml+xml")
		if res.StatusCode != 200 && res.StatusCode != 503 {
			t.Errorf("GET %s as a browser: %d", p, res.StatusCode)
		}
		if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("GET %s as a browser: Content-Type %q", p, ct)
		}
	}
	for _, p := range []string{"/api/nope", "/assets/missing.js"} {
		if res := get(t, env.URL+p, "text/html"); res.StatusCode != 404 {
			t.Errorf("GET %s: %d, want 404", p, res.StatusCode)
		}
	}
}

func get(t *testing.T, url, accept string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", accept)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

// TestVisitMarksTheCommunityVisited: opening a forum visits its community
// (spec 000 §4: GET /communities' lastVisitedOn, Home's New ribbon and
// Visited filter); another member's visit is theirs alone.
func TestVisitMarksTheCommunityVisited(t *testing.T) {
	env := testenv.New(t)
	m := newMatrixForum(t, env)
	visited := func(c *testenv.Client) *string {
		t.Helper()
		var got myCommunities
		r := c.Do("GET", "/api/communities", nil)
		wantStatus(t, r, 200)
		r.JSON(t, &got)
		for _, x := range got.Results {
			if x.ID == m.community {
				return x.LastVisitedOn
			}
		}
		t.Fatalf("the forum's community is not listed: %s", r.Body)
		return nil
	}
	if v := visited(m.reader.Client); v != nil {
		t.Fatalf("before any visit: lastVisitedOn %s, want null", *v)
	}
	wantStatus(t, m.reader.Client.Do("POST", "/api/series/"+m.forum.ID+"/visits", nil), 200)
	if v := visited(m.reader.Client); v == nil {
		t.Error("after a visit to its forum: lastVisitedOn null")
	}
	if v := visited(m.creator.Client); v != nil {
		t.Errorf("another member: lastVisitedOn %s after the reader's visit, want null", *v)
	}
}
