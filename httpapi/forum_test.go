package httpapi_test

import (
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
