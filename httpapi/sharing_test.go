package httpapi_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/google/uuid"

	"agora/app/testenv"
)

// The share dialog of a community (spec 000 §2.7, §4): its roles, the
// people of the organization it lists, staged and bulk changes, and
// invitations, for those who manage the community only.

// shareFixture is a fresh community of the demo organization with one
// person per role of the matrix.
type shareFixture struct {
	env       *testenv.Env
	community string
	// orgAdmin is the demo admin, an organization admin who is not a
	// member of the fresh community.
	super, orgAdmin, outsider, guest *testenv.Client
	commAdmin, member                member
	forum                            forumBody
}

func newShareFixture(t *testing.T, env *testenv.Env) *shareFixture {
	t.Helper()
	f := &shareFixture{env: env, community: newCommunity(t, env)}
	f.super, f.orgAdmin, f.outsider, f.guest = env.As(t, superEmail), env.As(t, adminEmail), env.As(t, outsiderEmail), env.Client(t)
	f.commAdmin = communityAdmin(t, env, f.community)
	f.member = fresh(t, env, f.community, "ShareMember")
	f.forum = createForum(t, f.orgAdmin, f.community)
	wantStatus(t, assign(t, f.orgAdmin, f.forum.ID, "member", f.member.ProfileID), 204)
	return f
}

func (f *shareFixture) roles() []matrixRole {
	return []matrixRole{
		{"super", f.super}, {"org admin", f.orgAdmin}, {"community admin", f.commAdmin.Client},
		{"member", f.member.Client}, {"outsider", f.outsider}, {"guest", f.guest},
	}
}

// digest is a fingerprint of what the share calls may write: the
// community's memberships, its forums' memberships, the organization's
// profiles, invitations and mail.
func (f *shareFixture) digest(t *testing.T) string {
	t.Helper()
	return queryString(t, f.env, `SELECT md5(concat_ws('|',
		(SELECT string_agg(x::text, ',' ORDER BY x.profile_id) FROM community_memberships x WHERE x.community_id = $1),
		(SELECT string_agg(x::text, ',' ORDER BY x.series_id, x.profile_id) FROM series_memberships x JOIN series s ON s.id = x.series_id WHERE s.community_id = $1),
		(SELECT count(*)::text FROM profiles), (SELECT count(*)::text FROM tokens), (SELECT count(*)::text FROM dev_mail)))`, f.community)
}

// orgProfile is a new person of the demo organization, in no community,
// without an account.
func orgProfile(t *testing.T, env *testenv.Env, first, last string) string {
	t.Helper()
	return queryString(t, env, `INSERT INTO profiles (id, organization_id, email, email_key, first_name, last_name)
		SELECT gen_random_uuid(), organization_id, $1, lower($1), $2, $3 FROM communities WHERE name = $4 RETURNING id::text`,
		freshAddress(first), first, last, leadershipCircle)
}

func TestMatrixCommunitySharing(t *testing.T) {
	env := testenv.New(t)
	f := newShareFixture(t, env)
	c := "/api/communities/" + f.community
	pending := orgProfile(t, env, "Pending", testenv.Unique("Invitee"))
	join(t, env, f.community, "member", pending)
	type call struct {
		name, method string
		path         string
		body         func(t *testing.T) any
	}
	calls := []call{
		{"roles", "GET", c + "/roles", nil},
		{"assignables", "GET", c + "/assignables", nil},
		{"assign", "POST", c + "/assignments", func(t *testing.T) any {
			return []map[string]any{{"roleId": "member", "assigneeIds": []string{orgProfile(t, env, "Assignee", "Matrix")}}}
		}},
		{"bulk assign", "POST", c + "/assignments/bulk", func(t *testing.T) any {
			last := testenv.Unique("Bulk")
			orgProfile(t, env, "Bulk", last)
			return map[string]any{"roleId": "member", "keyword": last}
		}},
		{"invite", "POST", c + "/invitations", func(t *testing.T) any { return map[string]any{"profileIds": []string{pending}} }},
	}
	for _, cl := range calls {
		want := managersOnly(200)
		for _, role := range f.roles() {
			t.Run(cl.name+"/"+role.name, func(t *testing.T) {
				var body any
				if cl.body != nil {
					body = cl.body(t)
				}
				before := f.digest(t)
				r := role.c.Do(cl.method, cl.path, body)
				w := want[role.name]
				if w.code == "" {
					wantStatus(t, r, w.status)
					return
				}
				wantError(t, r, w.status, w.code)
				if f.digest(t) != before {
					t.Errorf("%s %s was refused but wrote", cl.method, cl.path)
				}
			})
		}
	}
	// A community admin manages only their own community: another one of
	// the organization, which they are not in, is as unknown to them as any.
	other := newCommunity(t, env)
	someone := orgProfile(t, env, "Other", "Community")
	before := f.digest(t)
	for _, r := range []*testenv.Response{
		f.commAdmin.Client.Do("GET", "/api/communities/"+other+"/assignables", nil),
		f.commAdmin.Client.Do("POST", "/api/communities/"+other+"/assignments", []map[string]any{{"roleId": "admin", "assigneeIds": []string{someone}}}),
		f.commAdmin.Client.Do("POST", "/api/communities/"+other+"/assignments/bulk", map[string]any{"roleId": nil}),
	} {
		wantError(t, r, 404, "notFound")
	}
	if f.digest(t) != before || env.Count(t, "community_memberships", "community_id = $1", other) != 0 {
		t.Error("refusals in another community wrote")
	}
}

func TestMatrixCommunitySharingBadInput(t *testing.T) {
	env := testenv.New(t)
	f := newShareFixture(t, env)
	c := "/api/communities/" + f.community
	admin := f.commAdmin.Client
	someone := orgProfile(t, env, "Some", "One")
	// A person of another organization.
	foreign := queryString(t, env, `WITH o AS (INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), $1) RETURNING id)
		INSERT INTO profiles (id, organization_id, email, email_key, first_name, last_name)
		SELECT gen_random_uuid(), o.id, $2, lower($2), 'For', 'Eign' FROM o RETURNING id::text`, testenv.Unique("Elsewhere"), freshAddress("foreign"))
	staged := func(role any, ids ...string) []map[string]any {
		return []map[string]any{{"roleId": role, "assigneeIds": ids}}
	}
	unknown := uuid.NewString()
	cases := []struct {
		name, method, path string
		body               any
		status             int
		code               string
	}{
		{"roles of an unknown community", "GET", "/api/communities/" + unknown + "/roles", nil, 404, "notFound"},
		{"roles of a non-UUID community", "GET", "/api/communities/x/roles", nil, 400, "validationFailed"},
		{"assignables of an unknown community", "GET", "/api/communities/" + unknown + "/assignables", nil, 404, "notFound"},
		{"assignables with a bad page", "GET", c + "/assignables?page=0&pageSize=10000", nil, 400, "validationFailed"},
		{"assignables with an unknown preset", "GET", c + "/assignables?presetFilter=everyone", nil, 400, "validationFailed"},
		{"assignables with an unknown filter", "GET", c + "/assignables?filters=role:owner", nil, 400, "validationFailed"},
		{"assignables with an unknown sort", "GET", c + "/assignables?sort=age", nil, 400, "validationFailed"},
		{"assignables with a bad direction", "GET", c + "/assignables?sort=name%20up", nil, 400, "validationFailed"},
		{"assignables with a long keyword", "GET", c + "/assignables?keyword=" + strings.Repeat("k", 201), nil, 400, "validationFailed"},
		{"assign in an unknown community", "POST", "/api/communities/" + unknown + "/assignments", staged("member", someone), 404, "notFound"},
		{"assign in a non-UUID community", "POST", "/api/communities/x/assignments", staged("member", someone), 400, "validationFailed"},
		{"assign an unknown role", "POST", c + "/assignments", staged("owner", someone), 400, "validationFailed"},
		{"assign the account manager role", "POST", c + "/assignments", staged("accountManager", someone), 400, "validationFailed"},
		{"assign a non-UUID person", "POST", c + "/assignments", staged("member", "x"), 400, "validationFailed"},
		{"assign nobody", "POST", c + "/assignments", []any{}, 400, "validationFailed"},
		{"assign an empty group", "POST", c + "/assignments", staged("member"), 400, "validationFailed"},
		{"assign a person twice", "POST", c + "/assignments", []map[string]any{{"roleId": "member", "assigneeIds": []string{someone}}, {"roleId": nil, "assigneeIds": []string{someone}}}, 400, "validationFailed"},
		{"assign oneself", "POST", c + "/assignments", staged("member", f.commAdmin.ProfileID), 400, "ownAssignment"},
		{"remove oneself", "POST", c + "/assignments", staged(nil, f.commAdmin.ProfileID), 400, "ownAssignment"},
		{"oneself among others", "POST", c + "/assignments", staged("admin", someone, f.commAdmin.ProfileID), 400, "ownAssignment"},
		{"assign someone of another organization", "POST", c + "/assignments", staged("member", someone, foreign), 400, "validationFailed"},
		{"assign an unknown person", "POST", c + "/assignments", staged("member", unknown), 400, "validationFailed"},
		{"assignments as an object", "POST", c + "/assignments", map[string]any{"assignments": staged("member", someone)}, 400, "invalidBody"},
		{"assignments with an unknown field", "POST", c + "/assignments", []map[string]any{{"roleId": "member", "assigneeIds": []string{someone}, "expert": true}}, 400, "invalidBody"},
		{"bulk without a role", "POST", c + "/assignments/bulk", map[string]any{"keyword": "x"}, 400, "parametersMissingException"},
		{"bulk with an unknown role", "POST", c + "/assignments/bulk", map[string]any{"roleId": "owner"}, 400, "validationFailed"},
		{"bulk with an unknown preset", "POST", c + "/assignments/bulk", map[string]any{"roleId": nil, "presetFilter": "all"}, 400, "validationFailed"},
		{"bulk with an unknown filter", "POST", c + "/assignments/bulk", map[string]any{"roleId": nil, "filters": "tag:x"}, 400, "validationFailed"},
		{"bulk in an unknown community", "POST", "/api/communities/" + unknown + "/assignments/bulk", map[string]any{"roleId": "member"}, 404, "notFound"},
		{"invite without ids", "POST", c + "/invitations", map[string]any{}, 400, "parametersMissingException"},
		{"invite nobody", "POST", c + "/invitations", map[string]any{"profileIds": []string{}}, 400, "validationFailed"},
		{"invite a non-UUID", "POST", c + "/invitations", map[string]any{"profileIds": []string{"x"}}, 400, "validationFailed"},
		{"invite someone outside the community", "POST", c + "/invitations", map[string]any{"profileIds": []string{someone}}, 400, "validationFailed"},
		{"invite someone of another organization", "POST", c + "/invitations", map[string]any{"profileIds": []string{foreign}}, 400, "validationFailed"},
		{"invite to an unknown community", "POST", "/api/communities/" + unknown + "/invitations", map[string]any{"profileIds": []string{someone}}, 404, "notFound"},
	}
	before := f.digest(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { wantError(t, admin.Do(tc.method, tc.path, tc.body), tc.status, tc.code) })
	}
	if f.digest(t) != before {
		t.Error("refused calls wrote")
	}
}

// shareAssignable is a CommunityAssignable as a test reads it.
type shareAssignable struct {
	ID               string  `json:"id"`
	UserID           *string `json:"userId"`
	FirstName        string  `json:"firstName"`
	LastName         string  `json:"lastName"`
	Email            string  `json:"email"`
	AssignmentStatus *string `json:"assignmentStatus"`
	Role             *struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"role"`
	AssignedOn *string `json:"assignedOn"`
	IsMe       bool    `json:"isMe"`
}

type shareList struct {
	Results []shareAssignable `json:"results"`
	Total   int               `json:"total"`
}

func listAssignables(t *testing.T, c *testenv.Client, community, query string) shareList {
	t.Helper()
	r := c.Do("GET", "/api/communities/"+community+"/assignables?"+query, nil)
	wantStatus(t, r, 200)
	var l shareList
	r.JSON(t, &l)
	return l
}

func shareAssign(t *testing.T, c *testenv.Client, community string, role any, ids ...string) int {
	t.Helper()
	r := c.Do("POST", "/api/communities/"+community+"/assignments", []map[string]any{{"roleId": role, "assigneeIds": ids}})
	wantStatus(t, r, 200)
	var n struct{ Changed int }
	r.JSON(t, &n)
	return n.Changed
}

func TestCommunityRoles(t *testing.T) {
	env := testenv.New(t)
	f := newShareFixture(t, env)
	r := f.commAdmin.Client.Do("GET", "/api/communities/"+f.community+"/roles", nil)
	wantStatus(t, r, 200)
	if got := strings.TrimSpace(string(r.Body)); got != `[{"id":"admin","name":"Admin"},{"id":"member","name":"Member"}]` {
		t.Errorf("roles %s", got)
	}
}

func TestCommunityAssignables(t *testing.T) {
	env := testenv.New(t)
	f := newShareFixture(t, env)
	org := queryString(t, env, "SELECT organization_id::text FROM communities WHERE id = $1", f.community)
	all := env.Count(t, "profiles", "organization_id = $1", org)
	admin := f.commAdmin.Client

	t.Run("every person of the organization, the caller first, 50 a page", func(t *testing.T) {
		// Enough people for two pages of the default size.
		for i := all; i < 60; i++ {
			orgProfile(t, env, "Filler", fmt.Sprintf("Aaron-%03d", i))
		}
		all = env.Count(t, "profiles", "organization_id = $1", org)
		l := listAssignables(t, admin, f.community, "")
		if l.Total != all || len(l.Results) != 50 {
			t.Fatalf("total %d, %d results; want %d, 50", l.Total, len(l.Results), all)
		}
		if me := l.Results[0]; me.ID != f.commAdmin.ProfileID || !me.IsMe || me.Role == nil || me.Role.ID != "admin" || me.Role.Name != "Admin" ||
			me.AssignmentStatus == nil || *me.AssignmentStatus != "active" || me.AssignedOn == nil || me.Email != f.commAdmin.Email {
			t.Errorf("first row %+v, want the caller as an active admin", me)
		}
		seen := map[string]bool{}
		for i, a := range l.Results {
			if i > 0 && a.IsMe {
				t.Errorf("row %d is also isMe", i)
			}
			seen[a.ID] = true
		}
		// By last name after the caller.
		for i := 2; i < len(l.Results); i++ {
			if strings.ToLower(l.Results[i-1].LastName) > strings.ToLower(l.Results[i].LastName) {
				t.Errorf("rows %d and %d out of order: %s, %s", i-1, i, l.Results[i-1].LastName, l.Results[i].LastName)
			}
		}
		rest := listAssignables(t, admin, f.community, "page=2")
		if want := min(all-50, 50); len(rest.Results) != want {
			t.Errorf("page 2 has %d, want %d", len(rest.Results), want)
		}
		for _, a := range rest.Results {
			if seen[a.ID] || a.IsMe {
				t.Errorf("%s on both pages or isMe on page 2", a.ID)
			}
		}
		// An organization admin or a super user who is no member sees their
		// own profile of the organization first, unassigned.
		for _, c := range []struct {
			who   string
			email string
			c     *testenv.Client
		}{{"org admin", adminEmail, f.orgAdmin}, {"super", superEmail, f.super}} {
			l := listAssignables(t, c.c, f.community, "pageSize=9999")
			if me := l.Results[0]; me.ID != profileID(t, env, c.email) || !me.IsMe || me.Role != nil || me.AssignmentStatus != nil {
				t.Errorf("the %s's first row %+v", c.who, me)
			}
			for _, a := range l.Results[1:] {
				if a.IsMe {
					t.Errorf("%s: isMe for %s too", c.who, a.ID)
				}
			}
		}
	})

	t.Run("filters, keyword and sort", func(t *testing.T) {
		family := testenv.Unique("Share")
		unassigned := orgProfile(t, env, "Una", family)
		pendingAdmin := orgProfile(t, env, "Pat", family)
		shareAssign(t, admin, f.community, "admin", pendingAdmin)
		ids := func(l shareList) []string {
			var out []string
			for _, a := range l.Results {
				out = append(out, a.ID)
			}
			return out
		}
		kw := "keyword=" + url.QueryEscape(strings.ToUpper(family))
		l := listAssignables(t, admin, f.community, kw)
		if l.Total != 2 || strings.Join(ids(l), ",") != pendingAdmin+","+unassigned {
			t.Errorf("keyword: %+v", l)
		}
		// Given a role, not yet mailed an invitation: not invited yet.
		if a := l.Results[0]; a.AssignmentStatus == nil || *a.AssignmentStatus != "notInvited" || a.Role == nil || a.Role.ID != "admin" || a.UserID != nil {
			t.Errorf("pending admin %+v", a)
		}
		if a := l.Results[1]; a.AssignmentStatus != nil || a.Role != nil || a.AssignedOn != nil {
			t.Errorf("unassigned %+v", a)
		}
		if l := listAssignables(t, admin, f.community, kw+"&presetFilter=unassigned"); strings.Join(ids(l), ",") != unassigned {
			t.Errorf("unassigned: %v", ids(l))
		}
		if l := listAssignables(t, admin, f.community, kw+"&presetFilter=assigned&filters=role:admin"); strings.Join(ids(l), ",") != pendingAdmin {
			t.Errorf("assigned admins: %v", ids(l))
		}
		if l := listAssignables(t, admin, f.community, kw+"&filters=role:member"); l.Total != 0 {
			t.Errorf("members: %v", ids(l))
		}
		if l := listAssignables(t, admin, f.community, kw+"&sort=name%20desc"); strings.Join(ids(l), ",") != unassigned+","+pendingAdmin {
			t.Errorf("name desc: %v", ids(l))
		}
		// Two words: each must match (first name and last name here).
		if l := listAssignables(t, admin, f.community, "keyword="+url.QueryEscape("una "+family)); strings.Join(ids(l), ",") != unassigned {
			t.Errorf("two words: %v", ids(l))
		}
		// A LIKE wildcard is a literal character.
		if l := listAssignables(t, admin, f.community, "keyword=%25"); l.Total != 0 {
			t.Errorf("%% matched %d", l.Total)
		}
		// Every assigned person with presetFilter=assigned: the community's memberships.
		if l := listAssignables(t, admin, f.community, "presetFilter=assigned&pageSize=9999"); l.Total != env.Count(t, "community_memberships", "community_id = $1", f.community) {
			t.Errorf("assigned total %d", l.Total)
		}
	})
}

func TestCommunityAssignments(t *testing.T) {
	env := testenv.New(t)
	f := newShareFixture(t, env)
	admin := f.commAdmin.Client
	status := func(profile string) string {
		t.Helper()
		return queryString(t, env, `SELECT coalesce((SELECT role || '/' || status FROM community_memberships WHERE community_id = $1 AND profile_id = $2), 'none')`,
			f.community, profile)
	}

	t.Run("join, change and remove", func(t *testing.T) {
		invitee := orgProfile(t, env, "Ina", "Vitee")
		joined := newMember(t, env, "Joined") // has an account; a member of another community
		if n := shareAssign(t, admin, f.community, "member", invitee, joined.ProfileID); n != 2 {
			t.Errorf("changed %d, want 2", n)
		}
		if status(invitee) != "member/pending" || status(joined.ProfileID) != "member/active" {
			t.Errorf("after joining: %s, %s", status(invitee), status(joined.ProfileID))
		}
		// The same role again changes nothing; a new one changes the role
		// and keeps the status.
		if n := shareAssign(t, admin, f.community, "member", invitee); n != 0 {
			t.Errorf("same role changed %d", n)
		}
		r := admin.Do("POST", "/api/communities/"+f.community+"/assignments", []map[string]any{
			{"roleId": "admin", "assigneeIds": []string{invitee}}, {"roleId": nil, "assigneeIds": []string{joined.ProfileID}},
		})
		wantStatus(t, r, 200)
		var n struct{ Changed int }
		r.JSON(t, &n)
		if n.Changed != 2 || status(invitee) != "admin/pending" || status(joined.ProfileID) != "none" {
			t.Errorf("changed %d: %s, %s", n.Changed, status(invitee), status(joined.ProfileID))
		}
	})

	t.Run("a removed member loses the community and its forums", func(t *testing.T) {
		m := fresh(t, env, f.community, "Removed")
		wantStatus(t, assign(t, f.orgAdmin, f.forum.ID, "member", m.ProfileID), 204)
		wantStatus(t, m.Client.Do("GET", "/api/series/"+f.forum.ID, nil), 200)
		if n := shareAssign(t, f.orgAdmin, f.community, nil, m.ProfileID); n != 1 {
			t.Errorf("changed %d, want 1", n)
		}
		// Of this community's forums: the first community's open forums,
		// which the person's invitation gave them, stay theirs.
		if n := env.Count(t, "series_memberships", "profile_id = $1 AND series_id IN (SELECT id FROM series WHERE community_id = $2)", m.ProfileID, f.community); n != 0 {
			t.Errorf("%d forum memberships left", n)
		}
		wantError(t, m.Client.Do("GET", "/api/series/"+f.forum.ID, nil), 404, "notFound")
		if communityListed(t, m.Client, f.community) {
			t.Error("the community is still in the removed member's list")
		}
		// Invited again, they do not get the forum back.
		shareAssign(t, f.orgAdmin, f.community, "member", m.ProfileID)
		wantError(t, m.Client.Do("GET", "/api/series/"+f.forum.ID, nil), 404, "notFound")
		if !communityListed(t, m.Client, f.community) {
			t.Error("the community is not in the re-added member's list")
		}
	})

	t.Run("a cascading admin given admin is unchanged", func(t *testing.T) {
		p := orgProfile(t, env, "Cas", "Cading")
		join(t, env, f.community, "cascadingAdmin", p)
		if n := shareAssign(t, admin, f.community, "admin", p); n != 0 || status(p) != "cascadingAdmin/pending" {
			t.Errorf("changed %d: %s", n, status(p))
		}
	})

	t.Run("bulk: everyone selected but the caller", func(t *testing.T) {
		family := testenv.Unique("Bulk")
		a, b := orgProfile(t, env, "Abe", family), orgProfile(t, env, "Bea", family)
		other := orgProfile(t, env, "Not", testenv.Unique("Selected"))
		bulk := func(c *testenv.Client, body map[string]any) int {
			t.Helper()
			r := c.Do("POST", "/api/communities/"+f.community+"/assignments/bulk", body)
			wantStatus(t, r, 200)
			var n struct{ Changed int }
			r.JSON(t, &n)
			return n.Changed
		}
		if n := bulk(admin, map[string]any{"roleId": "member", "keyword": family}); n != 2 || status(a) != "member/pending" || status(b) != "member/pending" || status(other) != "none" {
			t.Errorf("bulk add changed %d: %s %s %s", n, status(a), status(b), status(other))
		}
		if n := bulk(admin, map[string]any{"roleId": "admin", "keyword": family, "presetFilter": "assigned", "filters": "role:member"}); n != 2 || status(a) != "admin/pending" {
			t.Errorf("bulk promote changed %d: %s", n, status(a))
		}
		// Everyone removed: all but the caller leave.
		members := env.Count(t, "community_memberships", "community_id = $1", f.community)
		if n := bulk(admin, map[string]any{"roleId": nil}); n != members-1 {
			t.Errorf("bulk removal changed %d, want %d", n, members-1)
		}
		if got := env.Count(t, "community_memberships", "community_id = $1", f.community); got != 1 || status(f.commAdmin.ProfileID) != "admin/active" {
			t.Errorf("%d memberships left; the caller is %s", got, status(f.commAdmin.ProfileID))
		}
		if n := env.Count(t, "series_memberships sm JOIN series s ON s.id = sm.series_id", "s.community_id = $1", f.community); n != 0 {
			t.Errorf("%d forum memberships left after removing everyone", n)
		}
	})
}

// communityListed reports whether GET /api/communities lists community.
func communityListed(t *testing.T, c *testenv.Client, community string) bool {
	t.Helper()
	r := c.Do("GET", "/api/communities?page=1&pageSize=9999", nil)
	wantStatus(t, r, 200)
	var l struct {
		Results []struct {
			ID string `json:"id"`
		} `json:"results"`
	}
	r.JSON(t, &l)
	for _, x := range l.Results {
		if x.ID == community {
			return true
		}
	}
	return false
}

func TestCommunityInvitations(t *testing.T) {
	env := testenv.New(t)
	f := newShareFixture(t, env)
	admin := f.commAdmin.Client
	email := freshAddress("ShareInvitee")
	p := queryString(t, env, `INSERT INTO profiles (id, organization_id, email, email_key, first_name, last_name)
		SELECT gen_random_uuid(), organization_id, $1, lower($1), 'Ivo', 'Invitee' FROM communities WHERE id = $2 RETURNING id::text`, email, f.community)
	shareAssign(t, admin, f.community, "member", p)

	r := admin.Do("POST", "/api/communities/"+f.community+"/invitations", map[string]any{"profileIds": []string{p, f.member.ProfileID, p}})
	wantStatus(t, r, 200)
	var n struct{ Invited, Skipped int }
	r.JSON(t, &n)
	if n.Invited != 1 || n.Skipped != 1 {
		t.Errorf("invited %d, skipped %d; want 1, 1", n.Invited, n.Skipped)
	}
	if len(mailbox(t, env, f.member.Email)) != 1 { // the one that made their account
		t.Error("a member with an account was mailed")
	}
	ms := mailbox(t, env, email)
	if len(ms) != 1 || !strings.Contains(ms[0].Body, "Hello Ivo") || !strings.Contains(ms[0].Subject, organizationName) {
		t.Fatalf("mails %+v", ms)
	}
	token := linkToken(t, ms[0].Body, "/accept-invitation")
	// The mailed link opens, registration joins the profile, and the
	// community is then in the new member's list as an active membership.
	c := env.Client(t)
	// The invitation names the community, where the new member lands.
	name := queryString(t, env, "SELECT name FROM communities WHERE id = $1", f.community)
	if !strings.Contains(ms[0].Subject, name) {
		t.Errorf("subject %q does not name the community %q", ms[0].Subject, name)
	}
	v := c.Do("GET", "/api/tokens/"+url.PathEscape(token)+"/validate", nil)
	wantStatus(t, v, 200)
	var inv struct {
		Community *struct{ ID, Name string }
		Forum     *struct{ ID, Name string }
	}
	v.JSON(t, &inv)
	if inv.Community == nil || inv.Community.ID != f.community || inv.Community.Name != name || inv.Forum != nil {
		t.Errorf("the invitation leads to %+v / %+v, want the community %s", inv.Community, inv.Forum, name)
	}
	reg := c.Do("POST", "/api/users?token="+url.QueryEscape(token), map[string]any{"firstName": "Ivo", "lastName": "Invitee", "password": freshPassword})
	wantStatus(t, reg, 201)
	var s sessionBody
	reg.JSON(t, &s)
	c.Token = s.AccessToken
	if !communityListed(t, c, f.community) {
		t.Error("the community is not in the new member's list")
	}
	if got := queryString(t, env, "SELECT status FROM community_memberships WHERE community_id = $1 AND profile_id = $2", f.community, p); got != "active" {
		t.Errorf("membership %s, want active", got)
	}
	// Now that they have an account, inviting them again sends nothing.
	r = admin.Do("POST", "/api/communities/"+f.community+"/invitations", map[string]any{"profileIds": []string{p}})
	wantStatus(t, r, 200)
	r.JSON(t, &n)
	if n.Invited != 0 || n.Skipped != 1 || len(mailbox(t, env, email)) != 1 {
		t.Errorf("second invitation: %+v", n)
	}
}

// TestHubCommunityMemberRemoved: removing a member through the share dialog
// reaches, live, the removed member (who then leaves the community and its
// forums without reloading) and the community's other members.
func TestHubCommunityMemberRemoved(t *testing.T) {
	pipe := testenv.StartPipeline(t)
	env := testenv.NewLive(t, testenv.Live{Pipeline: pipe})
	f := newShareFixture(t, env)
	gone := fresh(t, env, f.community, "Gone")
	wantStatus(t, assign(t, f.orgAdmin, f.forum.ID, "member", gone.ProfileID), 204)
	removed, other := dial(t, env, "", bearer(gone.Client.Token)), dial(t, env, "", bearer(f.member.Client.Token))
	removed.t, other.t = t, t

	shareAssign(t, f.commAdmin.Client, f.community, nil, gone.ProfileID)
	key := "community:" + f.community
	communityEvent := func(m hubMsg) bool { return m.Event == "community.members.removed" && m.ContextKey == key }
	forumEvent := is("series.members.removed", "series:"+f.forum.ID)
	check := func(m hubMsg) {
		t.Helper()
		ids, _ := m.Payload["profileIds"].([]any)
		if m.Payload["communityId"] != f.community || len(ids) != 1 || ids[0] != gone.ProfileID {
			t.Errorf("payload %s", m.Raw)
		}
	}
	check(other.waitFor(liveWait, "community.members.removed at another member", communityEvent))
	// The removed member is told of both, in either order: the two tables'
	// changes travel apart.
	seen := map[string]bool{}
	for len(seen) < 2 {
		m := removed.waitFor(liveWait, "both removals at the removed member", func(m hubMsg) bool { return communityEvent(m) || forumEvent(m) })
		if communityEvent(m) {
			check(m)
		}
		seen[m.Event] = true
	}
}
