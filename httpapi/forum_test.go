package httpapi_test

import (
	"net/url"
	"strings"
	"testing"

	"agora/app/testenv"
)

// Forums (series) and their access management (spec 001).

const (
	welcomeForum    = "Welcome & Introductions"
	roundtableForum = "Leadership Roundtable"
)

type forumBody struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	Description  string  `json:"description"`
	Image        *string `json:"image"`
	Exclusivity  string  `json:"exclusivity"`
	ShareEnabled bool    `json:"shareEnabled"`
	Position     int     `json:"position"`
	Context      struct {
		CommunityID string `json:"communityId"`
	} `json:"context"`
	Role           string  `json:"role"`
	IsSubscribed   bool    `json:"isSubscribed"`
	MainChannelID  string  `json:"mainChannelId"`
	AdminChannelID *string `json:"adminChannelId"`
}

type forumList struct {
	Results []forumBody `json:"results"`
	Total   int         `json:"total"`
}

type forumMember struct {
	ID         string  `json:"id"`
	UserID     *string `json:"userId"`
	LastName   string  `json:"lastName"`
	Email      string  `json:"email"`
	IsExpert   bool    `json:"isExpert"`
	Role       *string `json:"role"`
	IsAssigned bool    `json:"isAssigned"`
}

type memberList struct {
	Results []forumMember `json:"results"`
	Total   int           `json:"total"`
}

func seriesID(t *testing.T, env *testenv.Env, name string) string {
	t.Helper()
	return queryString(t, env, "SELECT id::text FROM series WHERE name = $1", name)
}

// newCommunity makes an empty community in the demo organization (whose
// admin, the demo admin, manages it without being a member, so that the
// forums made here stay off the demo logins' home pages).
func newCommunity(t *testing.T, env *testenv.Env) string {
	t.Helper()
	return queryString(t, env, `INSERT INTO communities (id, organization_id, name, description)
		SELECT gen_random_uuid(), organization_id, $1, 'A test community' FROM communities WHERE name = $2 RETURNING id::text`,
		testenv.Unique("Community"), leadershipCircle)
}

// createForum has c create a forum in community and returns it.
func createForum(t *testing.T, c *testenv.Client, community string) forumBody {
	t.Helper()
	r := c.Do("POST", "/api/communities/"+community+"/series", map[string]any{
		"name": testenv.Unique("Forum"), "description": "A forum made by a test",
	})
	if r.Status != 201 {
		t.Fatalf("create forum: %d %s", r.Status, r.Body)
	}
	var f forumBody
	r.JSON(t, &f)
	return f
}

// join makes profiles members of community with role.
func join(t *testing.T, env *testenv.Env, community, role string, profiles ...string) {
	t.Helper()
	exec(t, env, `INSERT INTO community_memberships (community_id, profile_id, role, status)
		SELECT $1, id, $2, CASE WHEN user_id IS NULL THEN 'pending' ELSE 'active' END FROM profiles WHERE id = ANY($3::uuid[])
		ON CONFLICT (community_id, profile_id) DO UPDATE SET role = EXCLUDED.role`, community, role, profiles)
}

// communityAdmin is a fresh person made an admin of community, who
// belongs to no forum.
func communityAdmin(t *testing.T, env *testenv.Env, community string) member {
	t.Helper()
	m := newMember(t, env, "CommAdmin")
	join(t, env, community, "admin", m.ProfileID)
	return m
}

// fresh is a fresh person who is a member of community.
func fresh(t *testing.T, env *testenv.Env, community, prefix string) member {
	t.Helper()
	m := newMember(t, env, prefix)
	join(t, env, community, "member", m.ProfileID)
	return m
}

func assign(t *testing.T, c *testenv.Client, forum string, role any, ids ...string) *testenv.Response {
	t.Helper()
	return c.Do("POST", "/api/series/"+forum+"/assignments", map[string]any{
		"assignments": []map[string]any{{"roleId": role, "assigneeIds": ids}},
	})
}

func wantStatus(t *testing.T, r *testenv.Response, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r.Body)
	}
}

func TestCreateSeries(t *testing.T) {
	env := testenv.New(t)
	circle := newCommunity(t, env)
	path := "/api/communities/" + circle + "/series"
	admin := env.As(t, adminEmail)

	t.Run("admin creates", func(t *testing.T) {
		name := testenv.Unique("Forum")
		before := env.Count(t, "series", "community_id = $1", circle)
		r := admin.Do("POST", path, map[string]any{"name": "  " + name + " ", "description": " About things ", "image": "https://img.example/x.png"})
		wantStatus(t, r, 201)
		var f forumBody
		r.JSON(t, &f)
		if f.Name != name || f.Description != "About things" || f.Image == nil || *f.Image != "https://img.example/x.png" ||
			f.Exclusivity != "inviteOnly" || f.ShareEnabled || f.Role != "admin" || f.Context.CommunityID != circle ||
			f.AdminChannelID == nil || f.MainChannelID == "" || !f.IsSubscribed || f.Position != before {
			t.Errorf("forum %+v", f)
		}
		if n := env.Count(t, "channels", "series_id = $1", f.ID); n != 2 {
			t.Errorf("%d channels, want 2", n)
		}
		if n := env.Count(t, "series_memberships", "series_id = $1 AND profile_id = $2 AND role = 'admin' AND status = 'active'",
			f.ID, profileID(t, env, adminEmail)); n != 1 {
			t.Errorf("creator is not the forum's admin")
		}
	})

	t.Run("open and shared", func(t *testing.T) {
		r := admin.Do("POST", path, map[string]any{"name": testenv.Unique("Forum"), "description": "d", "exclusivity": "open", "shareEnabled": true, "image": ""})
		wantStatus(t, r, 201)
		var f forumBody
		r.JSON(t, &f)
		if f.Exclusivity != "open" || !f.ShareEnabled || f.Image != nil {
			t.Errorf("forum %+v", f)
		}
	})

	t.Run("permissions", func(t *testing.T) {
		cadmin := communityAdmin(t, env, circle)
		cmember := fresh(t, env, circle, "CircleMember")
		for _, c := range []struct {
			who    string
			client *testenv.Client
			status int
		}{
			{"super", env.As(t, superEmail), 201},
			{"community admin", cadmin.Client, 201},
			{"member", cmember.Client, 403},
			// Those who may not read the community are told it does not
			// exist (issue 31, G7).
			{"member elsewhere", env.As(t, memberEmail), 404},
			{"outsider", env.As(t, outsiderEmail), 404},
		} {
			t.Run(c.who, func(t *testing.T) {
				before := env.Count(t, "series", "")
				r := c.client.Do("POST", path, map[string]any{"name": testenv.Unique("Forum"), "description": "d"})
				if r.Status != c.status {
					t.Fatalf("status %d, want %d: %s", r.Status, c.status, r.Body)
				}
				if c.status >= 400 {
					wantError(t, r, c.status, map[int]string{403: "forbidden", 404: "notFound"}[c.status])
					if after := env.Count(t, "series", ""); after != before {
						t.Errorf("series %d → %d", before, after)
					}
				}
			})
		}
		wantError(t, env.Client(t).Do("POST", path, map[string]any{"name": "x", "description": "d"}), 401, "authenticationRequired")
	})

	t.Run("bad input writes nothing", func(t *testing.T) {
		before := env.Count(t, "series", "")
		long := func(n int) string { return strings.Repeat("é", n) }
		wantMissing(t, admin.Do("POST", path, map[string]any{}), "description", "name")
		wantMissing(t, admin.Do("POST", path, map[string]any{"name": "x"}), "description")
		for name, c := range map[string]struct {
			body   map[string]any
			fields []string
		}{
			"empty":       {map[string]any{"name": "", "description": ""}, []string{"name", "description"}},
			"blank":       {map[string]any{"name": "   ", "description": "\t\n"}, []string{"name", "description"}},
			"invisible":   {map[string]any{"name": "\u200b\u200c", "description": " \ufeff\u2060\u200d "}, []string{"name", "description"}},
			"too long":    {map[string]any{"name": long(91), "description": long(1001)}, []string{"name", "description"}},
			"image":       {map[string]any{"name": "x", "description": "d", "image": "ftp://example.com/x"}, []string{"image"}},
			"relative":    {map[string]any{"name": "x", "description": "d", "image": "/x.png"}, []string{"image"}},
			"exclusivity": {map[string]any{"name": "x", "description": "d", "exclusivity": "private"}, []string{"exclusivity"}},
			"all at once": {map[string]any{"name": long(91), "description": "d", "image": "nope", "exclusivity": ""}, []string{"name", "image", "exclusivity"}},
		} {
			t.Run(name, func(t *testing.T) { wantInvalid(t, admin.Do("POST", path, c.body), c.fields...) })
		}
		okAtLimit := admin.Do("POST", path, map[string]any{"name": testenv.Unique("F") + long(60), "description": long(1000)})
		wantStatus(t, okAtLimit, 201)
		before++
		checkBadBodies(t, admin, "POST", path, map[string]struct{ body, field string }{
			"name a number":  {`{"name": 5, "description": "d"}`, "name"},
			"share a string": {`{"name": "x", "description": "d", "shareEnabled": "yes"}`, "shareEnabled"},
			"unknown field":  {`{"name": "x", "description": "d", "color": "red"}`, "color"},
		})
		wantInvalid(t, admin.Do("POST", "/api/communities/not-a-uuid/series", map[string]any{"name": "x", "description": "d"}), "communityId")
		wantError(t, admin.Do("POST", "/api/communities/"+unknownID+"/series", map[string]any{"name": "x", "description": "d"}), 404, "notFound")
		if after := env.Count(t, "series", ""); after != before {
			t.Errorf("series %d → %d", before, after)
		}
	})
}

func TestGetSeries(t *testing.T) {
	env := testenv.New(t)
	welcome, roundtable := seriesID(t, env, welcomeForum), seriesID(t, env, roundtableForum)
	cadmin := communityAdmin(t, env, communityID(t, env, leadershipCircle))
	for _, c := range []struct {
		who, email string
		client     *testenv.Client
		forum      string
		status     int
		code, role string
	}{
		{"forum admin", adminEmail, nil, welcome, 200, "", "admin"},
		{"member", memberEmail, nil, welcome, 200, "", "member"},
		{"super", superEmail, nil, roundtable, 200, "", "admin"},
		{"community admin", "", cadmin.Client, roundtable, 200, "", "admin"},
		// A forum one may not read is as unknown as a random id (F12).
		{"non-member of the forum", memberEmail, nil, roundtable, 404, "notFound", ""},
		{"outsider", outsiderEmail, nil, welcome, 404, "notFound", ""},
		{"unknown forum", adminEmail, nil, unknownID, 404, "notFound", ""},
		{"not a UUID", adminEmail, nil, "nope", 400, "validationFailed", ""},
	} {
		t.Run(c.who, func(t *testing.T) {
			cl := c.client
			if cl == nil {
				cl = env.As(t, c.email)
			}
			r := cl.Do("GET", "/api/series/"+c.forum, nil)
			if c.code != "" {
				wantError(t, r, c.status, c.code)
				return
			}
			wantStatus(t, r, 200)
			var f forumBody
			r.JSON(t, &f)
			if f.ID != c.forum || f.Role != c.role || (f.AdminChannelID != nil) != (c.role == "admin") || f.MainChannelID == "" {
				t.Errorf("forum %+v", f)
			}
		})
	}
}

func TestUpdateSeries(t *testing.T) {
	env := testenv.New(t)
	admin := env.As(t, adminEmail)
	community := newCommunity(t, env)
	f := createForum(t, admin, community)
	path := "/api/series/" + f.ID

	t.Run("admin edits", func(t *testing.T) {
		name := testenv.Unique("Renamed")
		r := admin.Do("PATCH", path, map[string]any{"name": " " + name + " ", "image": "http://x.example/a.png", "shareEnabled": true})
		wantStatus(t, r, 200)
		var g forumBody
		r.JSON(t, &g)
		if g.Name != name || g.Description != f.Description || g.Image == nil || !g.ShareEnabled || g.Exclusivity != "inviteOnly" {
			t.Errorf("forum %+v", g)
		}
		r = admin.Do("PATCH", path, map[string]any{"image": nil})
		wantStatus(t, r, 200)
		r.JSON(t, &g)
		if g.Image != nil || g.Name != name {
			t.Errorf("image not cleared: %+v", g)
		}
	})

	t.Run("permissions", func(t *testing.T) {
		m := fresh(t, env, community, "Patcher")
		wantStatus(t, assign(t, admin, f.ID, "member", m.ProfileID), 204)
		wantError(t, m.Client.Do("PATCH", path, map[string]any{"name": "x"}), 403, "forbidden")
		wantError(t, env.As(t, memberEmail).Do("PATCH", path, map[string]any{"name": "x"}), 404, "notFound")
		wantError(t, env.As(t, outsiderEmail).Do("PATCH", path, map[string]any{"name": "x"}), 404, "notFound")
		wantStatus(t, communityAdmin(t, env, community).Client.Do("PATCH", path, map[string]any{"description": "By the community admin"}), 200)
		wantStatus(t, env.As(t, superEmail).Do("PATCH", path, map[string]any{"description": "By super"}), 200)
	})

	t.Run("bad input writes nothing", func(t *testing.T) {
		before := queryString(t, env, "SELECT name || description || exclusivity || updated_on::text FROM series WHERE id = $1", f.ID)
		wantInvalid(t, admin.Do("PATCH", path, map[string]any{"name": "  ", "description": strings.Repeat("x", 1001)}), "name", "description")
		wantInvalid(t, admin.Do("PATCH", path, map[string]any{"exclusivity": "closed", "image": "javascript:alert(1)"}), "exclusivity", "image")
		wantInvalid(t, admin.Do("PATCH", path, map[string]any{"name": nil, "description": nil, "exclusivity": nil, "shareEnabled": nil}),
			"name", "description", "exclusivity", "shareEnabled")
		checkBadBodies(t, admin, "PATCH", path, map[string]struct{ body, field string }{
			"name null":     {`{"name": null, "description": 3}`, "description"},
			"unknown field": {`{"owner": "me"}`, "owner"},
		})
		wantInvalid(t, admin.Do("PATCH", "/api/series/123", map[string]any{"name": "x"}), "id")
		wantError(t, admin.Do("PATCH", "/api/series/"+unknownID, map[string]any{"name": "x"}), 404, "notFound")
		after := queryString(t, env, "SELECT name || description || exclusivity || updated_on::text FROM series WHERE id = $1", f.ID)
		if after != before {
			t.Errorf("forum changed: %q → %q", before, after)
		}
	})

	t.Run("open cannot be undone", func(t *testing.T) {
		wantStatus(t, admin.Do("PATCH", path, map[string]any{"exclusivity": "open"}), 200)
		wantError(t, admin.Do("PATCH", path, map[string]any{"exclusivity": "inviteOnly", "name": "Back"}), 400, "exclusivityLocked")
		if got := queryString(t, env, "SELECT exclusivity || name FROM series WHERE id = $1", f.ID); strings.HasSuffix(got, "Back") || !strings.HasPrefix(got, "open") {
			t.Errorf("stored %q", got)
		}
		wantStatus(t, admin.Do("PATCH", path, map[string]any{"exclusivity": "open"}), 200)
	})
}

func TestDeleteSeries(t *testing.T) {
	env := testenv.New(t)
	admin := env.As(t, adminEmail)
	community := newCommunity(t, env)
	f := createForum(t, admin, community)
	path := "/api/series/" + f.ID
	m := fresh(t, env, community, "Deleter")
	wantStatus(t, assign(t, admin, f.ID, "member-expert", m.ProfileID), 204)
	wantError(t, m.Client.Do("DELETE", path, nil), 403, "forbidden")
	for _, c := range []*testenv.Client{env.As(t, memberEmail), env.As(t, outsiderEmail)} {
		wantError(t, c.Do("DELETE", path, nil), 404, "notFound")
	}
	wantInvalid(t, admin.Do("DELETE", "/api/series/x", nil), "id")
	if n := env.Count(t, "series", "id = $1", f.ID); n != 1 {
		t.Fatal("forum gone after refusals")
	}
	wantStatus(t, admin.Do("DELETE", path, nil), 204)
	if n := env.Count(t, "series", "id = $1", f.ID) + env.Count(t, "channels", "series_id = $1", f.ID) +
		env.Count(t, "series_memberships", "series_id = $1", f.ID); n != 0 {
		t.Errorf("%d rows left", n)
	}
	wantError(t, admin.Do("DELETE", path, nil), 404, "notFound")
	g := createForum(t, admin, community)
	wantStatus(t, communityAdmin(t, env, community).Client.Do("DELETE", "/api/series/"+g.ID, nil), 204)
}

func TestListSeries(t *testing.T) {
	env := testenv.New(t)
	circle := communityID(t, env, leadershipCircle)
	list := func(c *testenv.Client, query string) forumList {
		t.Helper()
		r := c.Do("GET", "/api/series?"+query, nil)
		wantStatus(t, r, 200)
		var l forumList
		r.JSON(t, &l)
		return l
	}
	all := env.Count(t, "series", "community_id = $1", circle)
	if l := list(env.As(t, adminEmail), "communityId="+circle); l.Total != all || len(l.Results) != all {
		t.Errorf("admin sees %d/%d of %d", len(l.Results), l.Total, all)
	}
	if l := list(env.As(t, superEmail), "communityId="+circle+"&page=1&pageSize=9999"); l.Total != all {
		t.Errorf("super sees %d of %d", l.Total, all)
	}
	mine := env.Count(t, "series_memberships sm JOIN series s ON s.id = sm.series_id", "s.community_id = $1 AND sm.profile_id = $2 AND sm.status = 'active'",
		circle, profileID(t, env, memberEmail))
	l := list(env.As(t, memberEmail), "communityId="+circle)
	if l.Total != mine || mine == 0 {
		t.Errorf("member sees %d, is in %d", l.Total, mine)
	}
	for _, f := range l.Results {
		if f.Role != "member" || f.AdminChannelID != nil || f.Name == roundtableForum {
			t.Errorf("member sees %+v", f)
		}
	}
	for i := 1; i < len(l.Results); i++ {
		if l.Results[i-1].Position > l.Results[i].Position {
			t.Errorf("not in order: %+v", l.Results)
		}
	}
	if l := list(env.As(t, adminEmail), "communityId="+circle+"&pageSize=1&page=2"); l.Total != all || len(l.Results) != 1 {
		t.Errorf("page 2: %+v", l)
	}
	if l := list(env.As(t, outsiderEmail), "communityId="+circle); l.Total != 0 || len(l.Results) != 0 {
		t.Errorf("outsider sees %+v", l)
	}
	admin := env.As(t, adminEmail)
	wantMissing(t, admin.Do("GET", "/api/series", nil), "communityId")
	wantInvalid(t, admin.Do("GET", "/api/series?communityId=nope", nil), "communityId")
	wantInvalid(t, admin.Do("GET", "/api/series?communityId="+circle+"&pageSize=10000&page=0", nil), "page", "pageSize")
	wantInvalid(t, admin.Do("GET", "/api/series?communityId="+circle+"&pageSize=ten", nil), "pageSize")
	wantError(t, admin.Do("GET", "/api/series?communityId="+unknownID, nil), 404, "notFound")
}

func TestSeriesOrder(t *testing.T) {
	env := testenv.New(t)
	admin := env.As(t, adminEmail)
	community := newCommunity(t, env)
	a, b, c := createForum(t, admin, community), createForum(t, admin, community), createForum(t, admin, community)
	path := "/api/communities/" + community + "/series-order"
	positions := func() string {
		return queryString(t, env, "SELECT string_agg(id::text, ',' ORDER BY position) FROM series WHERE community_id = $1", community)
	}
	if want := a.ID + "," + b.ID + "," + c.ID; positions() != want {
		t.Fatalf("created order %s", positions())
	}
	wantStatus(t, admin.Do("PUT", path, map[string]any{"ids": []string{c.ID, a.ID, b.ID}}), 204)
	want := c.ID + "," + a.ID + "," + b.ID
	if got := positions(); got != want {
		t.Errorf("order %s, want %s", got, want)
	}
	other := seriesID(t, env, welcomeForum)
	for name, ids := range map[string][]string{
		"one missing":      {c.ID, a.ID},
		"twice":            {c.ID, a.ID, a.ID},
		"another's forum":  {c.ID, a.ID, other},
		"an unknown forum": {c.ID, a.ID, b.ID, unknownID},
		"empty":            {},
	} {
		t.Run(name, func(t *testing.T) { wantInvalid(t, admin.Do("PUT", path, map[string]any{"ids": ids}), "ids") })
	}
	wantMissing(t, admin.Do("PUT", path, map[string]any{}), "ids")
	checkBadBodies(t, admin, "PUT", path, map[string]struct{ body, field string }{
		"ids a string":  {`{"ids": "x"}`, "ids"},
		"unknown field": {`{"ids": [], "order": 1}`, "order"},
	})
	wantError(t, admin.Do("PUT", path, map[string]any{"ids": []string{"nope"}}), 400, "invalidBody")
	body := map[string]any{"ids": []string{a.ID, b.ID, c.ID}}
	wantError(t, fresh(t, env, community, "OrderMember").Client.Do("PUT", path, body), 403, "forbidden")
	// Those who may not read the community are told it does not exist.
	wantError(t, env.As(t, memberEmail).Do("PUT", path, body), 404, "notFound")
	wantError(t, env.As(t, outsiderEmail).Do("PUT", path, body), 404, "notFound")
	wantError(t, admin.Do("PUT", "/api/communities/"+unknownID+"/series-order", body), 404, "notFound")
	if got := positions(); got != want {
		t.Errorf("order changed by refused calls: %s", got)
	}
	wantStatus(t, env.As(t, superEmail).Do("PUT", path, body), 204)
}

func TestTrendingSeries(t *testing.T) {
	env := testenv.New(t)
	admin := env.As(t, adminEmail)
	community := newCommunity(t, env)
	quiet, busy := createForum(t, admin, community), createForum(t, admin, community)
	x, y := fresh(t, env, community, "TrendX"), fresh(t, env, community, "TrendY")
	wantStatus(t, assign(t, admin, busy.ID, "member", x.ProfileID, y.ProfileID), 204)

	r := admin.Do("GET", "/api/trending/series?pageSize=9999", nil)
	wantStatus(t, r, 200)
	var l forumList
	r.JSON(t, &l)
	at := map[string]int{}
	for i, f := range l.Results {
		at[f.ID] = i
	}
	bi, ok1 := at[busy.ID]
	qi, ok2 := at[quiet.ID]
	if !ok1 || !ok2 || bi > qi {
		t.Errorf("busy at %d (%v), quiet at %d (%v)", bi, ok1, qi, ok2)
	}
	r = env.As(t, memberEmail).Do("GET", "/api/trending/series?pageSize=9999", nil)
	wantStatus(t, r, 200)
	r.JSON(t, &l)
	reads := env.Count(t, "series_memberships", "profile_id = $1 AND status = 'active'", profileID(t, env, memberEmail))
	if l.Total != reads {
		t.Errorf("member sees %d forums, reads %d", l.Total, reads)
	}
	r = env.As(t, outsiderEmail).Do("GET", "/api/trending/series", nil)
	wantStatus(t, r, 200)
	r.JSON(t, &l)
	if l.Total != 0 {
		t.Errorf("outsider sees %d", l.Total)
	}
	wantInvalid(t, admin.Do("GET", "/api/trending/series?pageSize=0&page=x", nil), "page")
	wantInvalid(t, admin.Do("GET", "/api/trending/series?pageSize=0", nil), "pageSize")
}

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
