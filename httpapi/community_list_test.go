package httpapi_test

import (
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/google/uuid"

	"agora/app/testenv"
)

// TestCommunityListParameters: GET /api/communities filters and sorts on
// the server (spec 000 §4, §7): keyword, presetFilter, filters, sort with
// its direction, and paging, over communities of one fresh person.
func TestCommunityListParameters(t *testing.T) {
	env := testenv.New(t)
	p := newMember(t, env, "Lister") // an active member of the first demo community
	org := queryString(t, env, "SELECT organization_id::text FROM communities WHERE name = $1", leadershipCircle)
	other := queryString(t, env, "INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), $1) RETURNING id::text", testenv.Unique("Org"))
	otherProfile := queryString(t, env, `INSERT INTO profiles (id, organization_id, user_id, email, email_key, first_name, last_name)
		VALUES (gen_random_uuid(), $1, $2, $3, lower($3), 'Fresh', 'Member') RETURNING id::text`, other, p.UserID, p.Email)
	tag := strings.ReplaceAll(testenv.Unique("Zq"), "-", "")
	// Three communities named for the test, made and joined on known days:
	// b is the newest and unvisited, a the oldest; the person administers c,
	// which is in the other organization.
	made := map[string]string{}
	for i, x := range []struct{ name, org, profile, role, created, assigned, visited string }{
		{"a", org, p.ProfileID, "member", "2024-01-01", "2024-03-01", "2024-04-01"},
		{"b", org, p.ProfileID, "member", "2024-03-01", "2024-02-01", ""},
		{"c", other, otherProfile, "admin", "2024-02-01", "2024-01-01", "2024-04-02"},
	} {
		var visited any
		if x.visited != "" {
			visited = x.visited
		}
		made[x.name] = queryString(t, env, `WITH c AS (INSERT INTO communities (id, organization_id, name, description, created_on)
			VALUES (gen_random_uuid(), $1, $2, 'd', $3) RETURNING id)
			INSERT INTO community_memberships (community_id, profile_id, role, status, assigned_on, last_visited_on)
			SELECT c.id, $4, $5, 'active', $6, $7 FROM c RETURNING community_id::text`,
			x.org, fmt.Sprintf("%s %s %d", tag, strings.ToUpper(x.name), i), x.created, x.profile, x.role, x.assigned, visited)
	}
	a, b, c := made["a"], made["b"], made["c"]
	list := func(q string) []string {
		t.Helper()
		return listCommunities(t, p.Client, "?keyword="+tag+q).ids()
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"", []string{a, b, c}},
		{"&sort=name", []string{a, b, c}},
		{"&sort=name%20asc", []string{a, b, c}},
		{"&sort=name%20desc", []string{c, b, a}},
		{"&sort=latest", []string{b, c, a}},
		{"&sort=latest%20desc", []string{b, c, a}},
		{"&sort=latest%20asc", []string{a, c, b}},
		{"&sort=event", []string{a, b, c}}, // no Meet Ups: assignedOn, newest first
		{"&sort=event%20desc", []string{c, b, a}},
		{"&presetFilter=new", []string{b}},
		{"&presetFilter=visited", []string{a, c}},
		{"&presetFilter=manageable", []string{c}},
		{"&filters=role:admin", []string{c}},
		{"&filters=role:member", []string{a, b}},
		{"&filters=organizationId:" + other, []string{c}},
		{"&filters=organizationId:" + org + ",role:member&sort=latest", []string{b, a}},
		{"&filters=organizationId:" + org + "&presetFilter=visited", []string{a}},
		{"&pageSize=2", []string{a, b}},
		{"&pageSize=2&page=2", []string{c}},
		{"&pageSize=2&page=3", []string{}},
	} {
		if got := list(tc.query); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("?keyword=…%s: %v, want %v", tc.query, got, tc.want)
		}
	}
	if page := listCommunities(t, p.Client, "?keyword="+tag+"&pageSize=2&page=3"); page.Total != 3 {
		t.Errorf("a page past the end: total %d, want 3", page.Total)
	}
	// Case-insensitive, and % and _ are letters.
	if got := listCommunities(t, p.Client, "?keyword="+strings.ToLower(tag)+"%20b").ids(); !reflect.DeepEqual(got, []string{b}) {
		t.Errorf("lower-case keyword: %v", got)
	}
	if got := listCommunities(t, p.Client, "?keyword="+url.QueryEscape(tag+"_")).ids(); len(got) != 0 {
		t.Errorf("_ matched a character: %v", got)
	}

	for _, q := range []string{"presetFilter=old", "presetFilter=MANAGEABLE", "sort=popular", "sort=name%20sideways", "sort=latest%20desc%20asc",
		"filters=role:owner", "filters=colour:red", "filters=organizationId:x", "filters=role", "keyword=" + strings.Repeat("k", 201)} {
		r := p.Client.Do("GET", "/api/communities?"+q, nil)
		if r.Status != 400 || r.Code() != "validationFailed" {
			t.Errorf("?%s: %d %s, want 400 validationFailed", q, r.Status, r.Body)
		}
	}
}

// TestCommunityMembers: GET /api/communities/{id}/members lists the
// active and invited people, the caller first on page 1, then experts,
// then by last and first name; and the highlighted members give three,
// admins and experts first, with the total.
func TestCommunityMembers(t *testing.T) {
	env, _ := testenv.NewSearch(t)
	c := newCommunity(t, env)
	me := newMember(t, env, "Me")
	join(t, env, c, "member", me.ProfileID)
	// People named so that the order is known: Zed the admin, Yves the
	// expert, then Abel and Bea, and Cleo who has not registered.
	person := func(first, last, role string, expert bool) string {
		t.Helper()
		m := newMember(t, env, first)
		exec(t, env, "UPDATE users SET first_name = $2, last_name = $3 WHERE id = $1", m.UserID, first, last)
		exec(t, env, "UPDATE profiles SET is_expert = $2 WHERE id = $1", m.ProfileID, expert)
		join(t, env, c, role, m.ProfileID)
		return m.ProfileID
	}
	zed, yves, abel, bea := person("Zed", "Zulu", "admin", false), person("Yves", "Young", "member", true), person("Abel", "Adams", "member", false),
		person("Bea", "Brown", "member", false)
	pending := queryString(t, env, `INSERT INTO profiles (id, organization_id, email, email_key, first_name, last_name)
		SELECT gen_random_uuid(), organization_id, $2, lower($2), 'Cleo', 'Clark' FROM communities WHERE id = $1 RETURNING id::text`, c, freshAddress("Cleo"))
	join(t, env, c, "member", pending)

	type memberRow struct {
		ID               string  `json:"id"`
		UserID           *string `json:"userId"`
		FirstName        string  `json:"firstName"`
		IsExpert         bool    `json:"isExpert"`
		AssignmentStatus string  `json:"assignmentStatus"`
		Role             string  `json:"role"`
	}
	type page struct {
		Results []memberRow `json:"results"`
		Total   int         `json:"total"`
	}
	get := func(cl *testenv.Client, q string) page {
		t.Helper()
		r := cl.Do("GET", "/api/communities/"+c+"/members"+q, nil)
		wantStatus(t, r, 200)
		var p page
		r.JSON(t, &p)
		return p
	}
	ids := func(p page) []string {
		out := []string{}
		for _, m := range p.Results {
			out = append(out, m.ID)
		}
		return out
	}
	all := get(me.Client, "")
	if want := []string{me.ProfileID, yves, abel, bea, pending, zed}; !reflect.DeepEqual(ids(all), want) || all.Total != 6 {
		t.Errorf("members %v (total %d), want %v", ids(all), all.Total, want)
	}
	for _, m := range all.Results {
		switch m.ID {
		case pending:
			// Added, never mailed an invitation: not invited yet.
			if m.AssignmentStatus != "notInvited" || m.UserID != nil || m.FirstName != "Cleo" {
				t.Errorf("the person without an account: %+v", m)
			}
		case zed:
			if m.Role != "admin" || m.AssignmentStatus != "active" {
				t.Errorf("the admin: %+v", m)
			}
		case yves:
			if !m.IsExpert {
				t.Errorf("the expert: %+v", m)
			}
		}
	}
	if got := ids(get(me.Client, "?sort=name")); !reflect.DeepEqual(got, []string{me.ProfileID, abel, bea, pending, yves, zed}) {
		t.Errorf("by name: %v", got)
	}
	// Page 2 does not repeat the caller; the pages make up the list.
	p1, p2 := get(me.Client, "?pageSize=3"), get(me.Client, "?pageSize=3&page=2")
	if got := append(ids(p1), ids(p2)...); !reflect.DeepEqual(got, ids(all)) || p2.Total != 6 {
		t.Errorf("pages %v + %v, want %v", ids(p1), ids(p2), ids(all))
	}
	// A reader who is not a member has no place of their own.
	if got := ids(get(env.As(t, adminEmail), "?pageSize=2")); !reflect.DeepEqual(got, []string{yves, abel}) {
		t.Errorf("the organization admin, not a member: %v", got)
	}
	// A keyword is searched in the member index: a moment behind the
	// commits, a typo forgiven, first, last or full name, best match first.
	eventually(t, func() bool { return get(me.Client, "?keyword=Brown").Total == 1 })
	for _, q := range []string{"BROWN", "bea%20brown", "Bea", "brow"} {
		if got := ids(get(me.Client, "?keyword="+q)); !reflect.DeepEqual(got, []string{bea}) {
			t.Errorf("keyword %q: %v, want Bea Brown", q, got)
		}
	}
	// As the member search reads a word of five letters or more.
	if got := ids(get(me.Client, "?keyword=Adamz")); !reflect.DeepEqual(got, []string{abel}) {
		t.Errorf("a typo: %v, want Abel Adams", got)
	}
	if got := ids(get(me.Client, "?keyword=cleo")); !reflect.DeepEqual(got, []string{pending}) {
		t.Errorf("the invited person by name: %v", got)
	}
	if p := get(me.Client, "?keyword=%25"); p.Total != 0 || len(p.Results) != 0 {
		t.Errorf("punctuation alone matched %d", p.Total)
	}
	// Someone of another community with the same name is not in this one.
	other := newMember(t, env, "Other")
	exec(t, env, "UPDATE users SET first_name = 'Bea', last_name = 'Brown' WHERE id = $1", other.UserID)
	join(t, env, newCommunity(t, env), "member", other.ProfileID)
	if got := ids(get(me.Client, "?keyword=brown")); !reflect.DeepEqual(got, []string{bea}) {
		t.Errorf("keyword over another community's people: %v", got)
	}
	for _, q := range []string{"?sort=isExpert", "?pageSize=0", "?page=x", "?keyword=" + strings.Repeat("k", 201)} {
		wantError(t, me.Client.Do("GET", "/api/communities/"+c+"/members"+q, nil), 400, "validationFailed")
	}

	// Highlighted: three people, the admin and the expert first; the
	// total; a community without people; and none for the unreadable.
	empty := newCommunity(t, env)
	hidden := communityID(t, env, dataPractitioner) // the fresh person is not in it
	r := env.As(t, superEmail).Do("POST", "/api/communities/get-highlighted-members", map[string]any{"communityIds": []string{c, empty, unknownID}})
	wantStatus(t, r, 200)
	var h map[string]struct {
		Total              int         `json:"total"`
		HighlightedMembers []memberRow `json:"highlightedMembers"`
	}
	r.JSON(t, &h)
	var got []string
	for _, m := range h[c].HighlightedMembers {
		got = append(got, m.ID)
	}
	if want := []string{zed, yves, abel}; !reflect.DeepEqual(got, want) || h[c].Total != 6 {
		t.Errorf("highlighted %v (total %d), want %v", got, h[c].Total, want)
	}
	if e, ok := h[empty]; !ok || e.Total != 0 || len(e.HighlightedMembers) != 0 {
		t.Errorf("an empty community: %+v %v", e, ok)
	}
	if _, ok := h[unknownID]; ok || len(h) != 2 {
		t.Errorf("answered %d communities", len(h))
	}
	r = me.Client.Do("POST", "/api/communities/get-highlighted-members", map[string]any{"communityIds": []string{c, hidden}})
	h = nil
	r.JSON(t, &h)
	if _, ok := h[hidden]; ok || len(h[c].HighlightedMembers) != 3 {
		t.Errorf("a member's highlights: %+v", h)
	}
	many := make([]string, 101)
	for i := range many {
		many[i] = uuid.NewString()
	}
	wantInvalid(t, me.Client.Do("POST", "/api/communities/get-highlighted-members", map[string]any{"communityIds": many}), "communityIds")
	wantMissing(t, me.Client.Do("POST", "/api/communities/get-highlighted-members", map[string]any{}), "communityIds")
	wantError(t, me.Client.Do("POST", "/api/communities/get-highlighted-members", map[string]any{"communityIds": []string{"x"}}), 400, "invalidBody")
}
