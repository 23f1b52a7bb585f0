package httpapi_test

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"agora/app/seed"
	"agora/app/testenv"
	"agora/internal/plumbing/config"
)

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
