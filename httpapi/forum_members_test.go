package httpapi_test

import (
	"net/url"
	"strings"
	"testing"

	"agora/app/testenv"
)

func TestSeriesMembers(t *testing.T) {
	env := testenv.New(t)
	welcome, roundtable := seriesID(t, env, welcomeForum), seriesID(t, env, roundtableForum)
	member := env.As(t, memberEmail)
	get := func(c *testenv.Client, path string) memberList {
		t.Helper()
		r := c.Do("GET", path, nil)
		wantStatus(t, r, 200)
		var l memberList
		r.JSON(t, &l)
		return l
	}
	n := env.Count(t, "series_memberships", "series_id = $1", welcome)
	l := get(member, "/api/series/"+welcome+"/members?sort=isExpert%20desc&pageSize=9999")
	if l.Total != n || len(l.Results) != n {
		t.Errorf("%d/%d members, want %d", len(l.Results), l.Total, n)
	}
	for i, m := range l.Results {
		if i > 0 && m.IsExpert && !l.Results[i-1].IsExpert {
			t.Errorf("expert %s after a non-expert", m.ID)
		}
		if m.Role == nil || (m.IsExpert != strings.HasSuffix(*m.Role, "-expert")) {
			t.Errorf("member %+v", m)
		}
	}
	if p := get(member, "/api/series/"+welcome+"/members?pageSize=3"); len(p.Results) != min(3, n) || p.Total != n {
		t.Errorf("preview %d/%d", len(p.Results), p.Total)
	}
	admins := get(member, "/api/series/"+welcome+"/members?roleName=admin&pageSize=9999")
	if admins.Total != env.Count(t, "series_memberships", "series_id = $1 AND role = 'admin'", welcome) || admins.Total == 0 {
		t.Errorf("%d admins", admins.Total)
	}
	for _, m := range admins.Results {
		if !strings.HasPrefix(*m.Role, "admin") {
			t.Errorf("roleName=admin gave %+v", m)
		}
	}
	ae := get(env.As(t, adminEmail), "/api/series/"+welcome+"/admin-and-experts?pageSize=100")
	if want := env.Count(t, "series_memberships", "series_id = $1 AND (role = 'admin' OR is_expert)", welcome); ae.Total != want || want == 0 {
		t.Errorf("%d admins and experts, want %d", ae.Total, want)
	}
	for _, path := range []string{"/members", "/admin-and-experts"} {
		t.Run(path, func(t *testing.T) {
			get(env.As(t, superEmail), "/api/series/"+roundtable+path)
			wantError(t, member.Do("GET", "/api/series/"+roundtable+path, nil), 404, "notFound")
			wantError(t, env.As(t, outsiderEmail).Do("GET", "/api/series/"+welcome+path, nil), 404, "notFound")
			wantError(t, member.Do("GET", "/api/series/"+unknownID+path, nil), 404, "notFound")
			wantInvalid(t, member.Do("GET", "/api/series/nope"+path, nil), "id")
			wantInvalid(t, member.Do("GET", "/api/series/"+welcome+path+"?page=0&pageSize=10000", nil), "page", "pageSize")
		})
	}
	wantInvalid(t, member.Do("GET", "/api/series/"+welcome+"/members?sort=name&roleName=owner", nil), "sort", "roleName")
}

func TestSeriesAssignables(t *testing.T) {
	env, _ := testenv.NewSearch(t)
	admin := env.As(t, adminEmail)
	circle := newCommunity(t, env)
	f := createForum(t, admin, circle)
	path := "/api/series/" + f.ID + "/assignables"
	m, other := fresh(t, env, circle, "Assignable"), fresh(t, env, circle, "Other")
	get := func(query string) memberList {
		t.Helper()
		r := admin.Do("GET", path+"?"+query, nil)
		wantStatus(t, r, 200)
		var l memberList
		r.JSON(t, &l)
		return l
	}
	if l := get("pageSize=9999"); l.Total != env.Count(t, "community_memberships", "community_id = $1", circle) {
		t.Errorf("%d assignables", l.Total)
	}
	if l := get("isAssigned=true"); l.Total != 0 {
		t.Errorf("assigned %+v", l)
	}
	// The keyword is searched in the member index, filled a moment after
	// the commit.
	var l memberList
	eventually(t, func() bool {
		l = get("isAssigned=false&keyword=" + strings.ToUpper(m.Email[:len(m.Email)-5]))
		return l.Total > 0
	})
	if l.Total != 1 || l.Results[0].ID != m.ProfileID || l.Results[0].IsAssigned || l.Results[0].Role != nil {
		t.Errorf("keyword %+v", l)
	}
	if l := get("keyword=%25"); l.Total != 0 {
		t.Errorf("%% matched %d", l.Total)
	}
	wantStatus(t, assign(t, admin, f.ID, "member-expert", m.ProfileID, other.ProfileID), 204)
	eventually(t, func() bool { return get("isAssigned=true&keyword="+url.QueryEscape(m.Email)).Total == 1 })
	if l := get("isAssigned=true&pageSize=1&page=2"); l.Total != 2 || len(l.Results) != 1 || !l.Results[0].IsAssigned ||
		l.Results[0].Role == nil || *l.Results[0].Role != "member-expert" {
		t.Errorf("page 2 %+v", l)
	}
	wantError(t, m.Client.Do("GET", path, nil), 403, "forbidden")
	wantError(t, env.As(t, outsiderEmail).Do("GET", path, nil), 404, "notFound")
	wantStatus(t, communityAdmin(t, env, circle).Client.Do("GET", path, nil), 200)
	wantInvalid(t, admin.Do("GET", path+"?isAssigned=yes&keyword="+strings.Repeat("k", 201), nil), "isAssigned", "keyword")
	wantError(t, admin.Do("GET", "/api/series/"+unknownID+"/assignables", nil), 404, "notFound")
}

func TestSeriesAssignments(t *testing.T) {
	env := testenv.New(t)
	admin := env.As(t, adminEmail)
	community := newCommunity(t, env)
	f := createForum(t, admin, community)
	path := "/api/series/" + f.ID + "/assignments"
	me := profileID(t, env, adminEmail)
	a, b := fresh(t, env, community, "AssignA"), fresh(t, env, community, "AssignB")
	row := func(profile string) string {
		return queryString(t, env, `SELECT coalesce((SELECT role || '|' || is_expert || '|' || status FROM series_memberships
			WHERE series_id = $1 AND profile_id = $2), 'none')`, f.ID, profile)
	}
	memberships := func() int { return env.Count(t, "series_memberships", "series_id = $1", f.ID) }

	t.Run("admin assigns", func(t *testing.T) {
		r := admin.Do("POST", path, map[string]any{"assignments": []map[string]any{
			{"roleId": "member-expert", "assigneeIds": []string{a.ProfileID}},
			{"roleId": "admin", "assigneeIds": []string{b.ProfileID}},
		}})
		wantStatus(t, r, 204)
		if row(a.ProfileID) != "member|true|active" || row(b.ProfileID) != "admin|false|active" {
			t.Errorf("rows %s %s", row(a.ProfileID), row(b.ProfileID))
		}
		wantStatus(t, a.Client.Do("GET", "/api/series/"+f.ID, nil), 200)
		wantStatus(t, assign(t, admin, f.ID, "admin-expert", a.ProfileID), 204)
		if row(a.ProfileID) != "admin|true|active" {
			t.Errorf("row %s", row(a.ProfileID))
		}
	})

	t.Run("admin count", func(t *testing.T) {
		count := func(c *testenv.Client, state []map[string]any) []string {
			t.Helper()
			r := c.Do("POST", "/api/series/"+f.ID+"/admin-count", map[string]any{"assignments": state})
			wantStatus(t, r, 200)
			var body struct {
				Set []string `json:"selfExclusiveAdminSet"`
			}
			r.JSON(t, &body)
			return body.Set
		}
		if got := count(admin, []map[string]any{}); len(got) != 2 {
			t.Errorf("others %v, want a and b", got)
		}
		got := count(admin, []map[string]any{{"roleId": "member", "assigneeIds": []string{a.ProfileID, b.ProfileID}}})
		if len(got) != 0 {
			t.Errorf("others %v, want none", got)
		}
		if got := count(a.Client, []map[string]any{{"roleId": nil, "assigneeIds": []string{b.ProfileID}}}); len(got) != 1 || got[0] != me {
			t.Errorf("a's others %v, want the demo admin", got)
		}
		wantMissing(t, admin.Do("POST", "/api/series/"+f.ID+"/admin-count", map[string]any{}), "assignments")
		wantError(t, env.As(t, memberEmail).Do("POST", "/api/series/"+f.ID+"/admin-count", map[string]any{"assignments": []any{}}), 404, "notFound")
	})

	t.Run("preview", func(t *testing.T) {
		c := fresh(t, env, community, "Previewed")
		r := admin.Do("POST", "/api/series/"+f.ID+"/assignments-invitations-preview", map[string]any{"assignments": []map[string]any{
			{"roleId": "member", "assigneeIds": []string{c.ProfileID, a.ProfileID}},
			{"roleId": nil, "assigneeIds": []string{b.ProfileID}},
		}})
		wantStatus(t, r, 200)
		var p struct {
			Actor struct {
				FirstName string `json:"firstName"`
			} `json:"actor"`
			Subject               string `json:"subject"`
			NumExpectedRecipients int    `json:"numExpectedRecipients"`
			TotalAssignees        int    `json:"totalAssignees"`
		}
		r.JSON(t, &p)
		if p.Actor.FirstName == "" || !strings.Contains(p.Subject, f.Name) || p.NumExpectedRecipients != 1 || p.TotalAssignees != 2 {
			t.Errorf("preview %+v", p)
		}
		if row(c.ProfileID) != "none" {
			t.Error("preview wrote")
		}
		wantError(t, c.Client.Do("POST", "/api/series/"+f.ID+"/assignments-invitations-preview", map[string]any{"assignments": []any{}}), 404, "notFound")
	})

	t.Run("rules write nothing", func(t *testing.T) {
		before := memberships()
		rows := row(a.ProfileID) + row(b.ProfileID) + row(me)
		wantError(t, assign(t, admin, f.ID, "member", me), 400, "ownAssignment")
		wantError(t, admin.Do("POST", path, map[string]any{"assignments": []map[string]any{
			{"roleId": "member", "assigneeIds": []string{a.ProfileID}}, {"roleId": nil, "assigneeIds": []string{me}},
		}}), 400, "ownAssignment")
		// A community admin outside the forum demotes every admin.
		cadmin := communityAdmin(t, env, community)
		wantError(t, assign(t, cadmin.Client, f.ID, "member", me, a.ProfileID, b.ProfileID), 400, "lastAdmin")
		wantError(t, assign(t, cadmin.Client, f.ID, nil, me, a.ProfileID, b.ProfileID), 400, "lastAdmin")
		outsider := profileID(t, env, outsiderEmail)
		stranger := profileID(t, env, memberEmail) // in the demo community, not this one
		for name, c := range map[string]struct {
			body   any
			fields []string
		}{
			"empty state":       {[]any{}, []string{"assignments"}},
			"unknown role":      {[]map[string]any{{"roleId": "owner", "assigneeIds": []string{a.ProfileID}}}, []string{"assignments[0].roleId"}},
			"expert alone":      {[]map[string]any{{"roleId": "expert", "assigneeIds": []string{a.ProfileID}}}, []string{"assignments[0].roleId"}},
			"no assignees":      {[]map[string]any{{"roleId": "member", "assigneeIds": []string{}}}, []string{"assignments[0].assigneeIds"}},
			"not a UUID":        {[]map[string]any{{"roleId": "member", "assigneeIds": []string{"nope"}}}, []string{"assignments[0].assigneeIds"}},
			"twice":             {[]map[string]any{{"roleId": "member", "assigneeIds": []string{a.ProfileID}}, {"roleId": "admin", "assigneeIds": []string{a.ProfileID}}}, []string{"assignments[1].assigneeIds"}},
			"unknown profile":   {[]map[string]any{{"roleId": "member", "assigneeIds": []string{unknownID}}}, []string{"assigneeIds"}},
			"outside community": {[]map[string]any{{"roleId": "member", "assigneeIds": []string{outsider}}}, []string{"assigneeIds"}},
			"other community":   {[]map[string]any{{"roleId": "member", "assigneeIds": []string{a.ProfileID, stranger}}}, []string{"assigneeIds"}},
		} {
			t.Run(name, func(t *testing.T) {
				wantInvalid(t, admin.Do("POST", path, map[string]any{"assignments": c.body}), c.fields...)
			})
		}
		wantMissing(t, admin.Do("POST", path, map[string]any{}), "assignments")
		checkBadBodies(t, admin, "POST", path, map[string]struct{ body, field string }{
			"role a number":    {`{"assignments": [{"roleId": 1, "assigneeIds": []}]}`, "roleId"},
			"state an object":  {`{"assignments": {}}`, "assignments"},
			"unknown field":    {`{"assignments": [], "notify": true}`, "notify"},
			"unknown in entry": {`{"assignments": [{"roleId": null, "assigneeIds": [], "x": 1}]}`, "x"},
		})
		for _, c := range []*testenv.Client{env.As(t, memberEmail), env.As(t, outsiderEmail)} {
			wantError(t, assign(t, c, f.ID, "member", a.ProfileID), 404, "notFound")
		}
		wantError(t, assign(t, admin, unknownID, "member", a.ProfileID), 404, "notFound")
		wantInvalid(t, assign(t, admin, "nope", "member", a.ProfileID), "id")
		if after := memberships(); after != before || row(a.ProfileID)+row(b.ProfileID)+row(me) != rows {
			t.Errorf("memberships %d → %d", before, after)
		}
	})

	t.Run("removal", func(t *testing.T) {
		wantStatus(t, assign(t, admin, f.ID, nil, b.ProfileID), 204)
		if row(b.ProfileID) != "none" {
			t.Errorf("b still %s", row(b.ProfileID))
		}
		wantError(t, b.Client.Do("GET", "/api/series/"+f.ID, nil), 404, "notFound")
	})

	t.Run("open forum keeps its members", func(t *testing.T) {
		wantStatus(t, admin.Do("PATCH", "/api/series/"+f.ID, map[string]any{"exclusivity": "open"}), 200)
		before := memberships()
		wantError(t, assign(t, admin, f.ID, nil, a.ProfileID), 400, "exclusivityOpen")
		if memberships() != before {
			t.Error("removed from an open forum")
		}
		wantStatus(t, assign(t, admin, f.ID, "member", a.ProfileID), 204)
	})
}

func TestSeriesInvitations(t *testing.T) {
	env := testenv.New(t)
	admin := env.As(t, adminEmail)
	circle := communityID(t, env, leadershipCircle)
	community := newCommunity(t, env)
	f := createForum(t, admin, community)
	path := "/api/series/" + f.ID + "/invitations"
	email := freshAddress("ForumInvite")
	r := admin.Do("POST", "/api/communities/"+circle+"/profiles", map[string]any{"firstName": "Ivy", "lastName": "Invited", "email": email})
	wantStatus(t, r, 201)
	var created struct {
		ID string `json:"id"`
	}
	r.JSON(t, &created)
	join(t, env, community, "member", created.ID)
	joined := fresh(t, env, community, "Joined")
	wantStatus(t, assign(t, admin, f.ID, "member", created.ID, joined.ProfileID), 204)
	if got := queryString(t, env, "SELECT status FROM series_memberships WHERE series_id = $1 AND profile_id = $2", f.ID, created.ID); got != "pending" {
		t.Errorf("status %s, want pending", got)
	}

	before := countWrites(t, env)
	r = admin.Do("POST", path, map[string]any{"profileIds": []string{created.ID, joined.ProfileID, created.ID}})
	wantStatus(t, r, 200)
	var n struct{ Invited, Skipped int }
	r.JSON(t, &n)
	if n.Invited != 1 || n.Skipped != 1 {
		t.Errorf("counts %+v", n)
	}
	ms := mailbox(t, env, email)
	if len(ms) != 1 || !strings.Contains(ms[0].Body, "Hello Ivy") || !strings.Contains(ms[0].Subject, f.Name) {
		t.Fatalf("mails %+v, want one naming the forum %q", ms, f.Name)
	}
	// The invitation leads into the forum, inside its community.
	v := env.Client(t).Do("GET", "/api/tokens/"+url.PathEscape(linkToken(t, ms[0].Body, "/accept-invitation"))+"/validate", nil)
	wantStatus(t, v, 200)
	var inv struct {
		Community *struct{ ID string }
		Forum     *struct{ ID, Name string }
	}
	v.JSON(t, &inv)
	if inv.Community == nil || inv.Community.ID != community || inv.Forum == nil || inv.Forum.ID != f.ID || inv.Forum.Name != f.Name {
		t.Errorf("the invitation leads to %+v / %+v, want the forum %s of %s", inv.Community, inv.Forum, f.ID, community)
	}
	if after := countWrites(t, env); after.tokens != before.tokens+1 || after.mails != before.mails+1 {
		t.Errorf("writes %+v → %+v", before, after)
	}

	before = countWrites(t, env)
	wantMissing(t, admin.Do("POST", path, map[string]any{}), "profileIds")
	wantInvalid(t, admin.Do("POST", path, map[string]any{"profileIds": []string{}}), "profileIds")
	wantInvalid(t, admin.Do("POST", path, map[string]any{"profileIds": []string{"nope"}}), "profileIds")
	wantInvalid(t, admin.Do("POST", path, map[string]any{"profileIds": []string{created.ID, profileID(t, env, outsiderEmail)}}), "profileIds")
	wantInvalid(t, admin.Do("POST", path, map[string]any{"profileIds": []string{unknownID}}), "profileIds")
	checkBadBodies(t, admin, "POST", path, map[string]struct{ body, field string }{
		"ids a string":  {`{"profileIds": "x"}`, "profileIds"},
		"unknown field": {`{"profileIds": [], "message": "hi"}`, "message"},
	})
	body := map[string]any{"profileIds": []string{created.ID}}
	wantError(t, joined.Client.Do("POST", path, body), 403, "forbidden")
	wantError(t, env.As(t, outsiderEmail).Do("POST", path, body), 404, "notFound")
	wantError(t, admin.Do("POST", "/api/series/"+unknownID+"/invitations", body), 404, "notFound")
	wantNoWrites(t, env, before)
}

// TestSeriesAssignmentsRace has two admins demote each other at once: the
// forum's row lock queues them, so one wins and the forum keeps an admin.
func TestSeriesAssignmentsRace(t *testing.T) {
	env := testenv.New(t)
	admin := env.As(t, adminEmail)
	community := newCommunity(t, env)
	for i := 0; i < 5; i++ {
		f := createForum(t, admin, community)
		a := fresh(t, env, community, "Racer")
		wantStatus(t, assign(t, admin, f.ID, "admin", a.ProfileID), 204)
		me := profileID(t, env, adminEmail)
		statuses := make(chan int, 2)
		for _, c := range []struct {
			client *testenv.Client
			target string
		}{{admin, a.ProfileID}, {a.Client, me}} {
			go func() {
				statuses <- c.client.Do("POST", "/api/series/"+f.ID+"/assignments", map[string]any{
					"assignments": []map[string]any{{"roleId": "member", "assigneeIds": []string{c.target}}},
				}).Status
			}()
		}
		s1, s2 := <-statuses, <-statuses
		if n := env.Count(t, "series_memberships", "series_id = $1 AND role = 'admin'", f.ID); n != 1 {
			t.Errorf("%d admins left (statuses %d, %d), want 1", n, s1, s2)
		}
		if (s1 == 204) == (s2 == 204) {
			t.Errorf("statuses %d and %d, want one 204", s1, s2)
		}
	}
}
