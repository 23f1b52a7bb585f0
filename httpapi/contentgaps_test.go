package httpapi_test

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"agora/app/seed"
	"agora/app/testenv"
)

type contentGapPage struct {
	Total   int `json:"total"`
	Results []struct {
		ID           string `json:"id"`
		Question     string `json:"question"`
		AskedCount   int    `json:"askedCount"`
		FirstAskedOn string `json:"firstAskedOn"`
		LastAskedOn  string `json:"lastAskedOn"`
	} `json:"results"`
}

func contentGaps(t *testing.T, c *testenv.Client, series, query string) contentGapPage {
	t.Helper()
	r := c.Do("GET", "/api/insights/list/content-gaps/"+series+query, nil)
	if r.Status != 200 {
		t.Fatalf("content gaps: %d %s", r.Status, r.Body)
	}
	var p contentGapPage
	r.JSON(t, &p)
	return p
}

// TestContentGaps: a question the forum's AI search cannot answer is a
// content gap its admins list, once however it is cased or punctuated,
// with how many times it was asked; an answered question is not one. Only
// those who read insights list or dismiss them, and a dismissed gap is
// gone.
func TestContentGaps(t *testing.T) {
	env, store := testenv.NewSearch(t)
	f := feedFixtureOn(t, env)
	member, admin, outsider := env.As(t, seed.MemberEmail), env.As(t, seed.AdminEmail), env.As(t, seed.OutsiderEmail)
	w, answered := aiWord(), aiWord()
	aiPost(t, member, store, f.welcome, f.welcomeMain, "The "+answered+" guild meets every Tuesday in room four.")

	unanswered := "Where is the " + w + " handbook?"
	if s := aiAsk(t, member, f.welcomeMain, "", unanswered); len(s.last().Citations) != 0 {
		t.Fatalf("the unanswerable question was answered: %+v", s.last())
	}
	aiAsk(t, member, f.welcomeMain, "", "  where IS the "+strings.ToUpper(w)+" handbook!!")
	if s := aiAsk(t, member, f.welcomeMain, "", "When does the "+answered+" guild meet?"); len(s.last().Citations) == 0 {
		t.Fatalf("the answerable question was not answered: %+v", s.last())
	}

	var gapID string
	for _, sort := range []string{"", "?sort=latest", "?sort=mostAsked&page=1&pageSize=100"} {
		p := contentGaps(t, admin, f.welcome, sort)
		found := 0
		for _, g := range p.Results {
			if strings.Contains(strings.ToLower(g.Question), answered) {
				t.Errorf("%s: the answered question is listed: %+v", sort, g)
			}
			if strings.Contains(strings.ToLower(g.Question), w) {
				found++
				gapID = g.ID
				if g.AskedCount != 2 || g.FirstAskedOn == "" || g.LastAskedOn < g.FirstAskedOn {
					t.Errorf("%s: gap %+v, want asked twice", sort, g)
				}
			}
		}
		if found != 1 || p.Total < 1 {
			t.Fatalf("%s: the gap is listed %d times in %+v", sort, found, p)
		}
	}
	if n := env.Count(t, "content_gaps", "series_id = $1 AND question ILIKE $2", f.welcome, "%"+w+"%"); n != 1 {
		t.Errorf("%d rows for the gap", n)
	}
	// Who asked is not kept: the table has no column for it.
	if n := env.Count(t, "information_schema.columns", "table_name = 'content_gaps' AND column_name LIKE '%user%'"); n != 0 {
		t.Errorf("content_gaps has %d user columns", n)
	}

	list := "/api/insights/list/content-gaps/" + f.welcome
	dismiss := "/api/insights/series/" + f.welcome + "/content-gaps/" + gapID
	for _, c := range []struct {
		who    string
		c      *testenv.Client
		status int
		code   string
	}{
		{"forum member", member, 403, "forbidden"},
		{"outsider", outsider, 404, "notFound"},
		{"guest", env.Client(t), 401, "authenticationRequired"},
	} {
		wantError(t, c.c.Do("GET", list, nil), c.status, c.code)
		wantError(t, c.c.Do("DELETE", dismiss, nil), c.status, c.code)
	}
	for _, q := range []string{"?sort=oldest", "?page=0", "?pageSize=101", "?pageSize=x"} {
		wantError(t, admin.Do("GET", list+q, nil), 400, "validationFailed")
	}
	wantError(t, admin.Do("GET", "/api/insights/list/content-gaps/not-a-uuid", nil), 400, "validationFailed")
	wantError(t, admin.Do("DELETE", "/api/insights/series/"+f.welcome+"/content-gaps/not-a-uuid", nil), 400, "validationFailed")
	wantError(t, admin.Do("DELETE", "/api/insights/series/not-a-uuid/content-gaps/"+gapID, nil), 400, "validationFailed")
	wantError(t, admin.Do("DELETE", "/api/insights/series/"+f.welcome+"/content-gaps/"+uuid.NewString(), nil), 404, "notFound")
	// A gap is dismissed only in its own forum.
	wantError(t, admin.Do("DELETE", "/api/insights/series/"+f.roadmaps+"/content-gaps/"+gapID, nil), 404, "notFound")
	if n := env.Count(t, "content_gaps", "id = $1", gapID); n != 1 {
		t.Fatalf("refused calls removed the gap")
	}

	if r := admin.Do("DELETE", dismiss, nil); r.Status != 204 {
		t.Fatalf("dismiss: %d %s", r.Status, r.Body)
	}
	for _, g := range contentGaps(t, admin, f.welcome, "?pageSize=100").Results {
		if g.ID == gapID {
			t.Errorf("the dismissed gap is still listed")
		}
	}
	wantError(t, admin.Do("DELETE", dismiss, nil), 404, "notFound")
}
