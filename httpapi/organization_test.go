package httpapi_test

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"agora/app/testenv"
)

// Organizations (spec 000 §6, §7 and the contract of issue 15): the calls
// by role, with nothing written on a refusal.

type orgBody struct {
	ID             string  `json:"id"`
	Name           string  `json:"name"`
	Image          *string `json:"image"`
	Role           string  `json:"role"`
	IdentityClient *string `json:"identityClient"`
	NumCommunities int     `json:"numCommunities"`
	NumMembers     int     `json:"numMembers"`
	CreatedOn      string  `json:"createdOn"`
}

type orgList struct {
	Results []orgBody `json:"results"`
	Total   int       `json:"total"`
}

type organizationPerson struct {
	ID        string   `json:"id"`
	UserID    *string  `json:"userId"`
	FirstName string   `json:"firstName"`
	LastName  string   `json:"lastName"`
	Email     string   `json:"email"`
	Role      string   `json:"role"`
	Tags      []string `json:"tags"`
	JobTitle  string   `json:"jobTitle"`
	Company   string   `json:"company"`
	Avatar    *string  `json:"avatar"`
	Status    string   `json:"status"`
}

type orgProfileList struct {
	Results []organizationPerson `json:"results"`
	Total   int                  `json:"total"`
}

type namedList struct {
	Manage []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"whichOnesCanIManage"`
	AddTo *[]struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"whichOnesCanIAddCommunitiesTo"`
}

func (l namedList) ids() (manage, addTo []string) {
	for _, n := range l.Manage {
		manage = append(manage, n.ID)
	}
	if l.AddTo != nil {
		for _, n := range *l.AddTo {
			addTo = append(addTo, n.ID)
		}
	}
	return manage, addTo
}

// createOrg has the super user make an organization and returns its id.
func createOrg(t *testing.T, env *testenv.Env, name string) string {
	t.Helper()
	r := env.As(t, superEmail).Do("POST", "/api/organizations", map[string]any{"name": name})
	wantStatus(t, r, 201)
	var b struct {
		ID string `json:"id"`
	}
	r.JSON(t, &b)
	return b.ID
}

// addOrgProfile has c add a person to org and returns the profile id.
func addOrgProfile(t *testing.T, c *testenv.Client, org string, body map[string]any) string {
	t.Helper()
	r := c.Do("POST", "/api/organizations/"+org+"/profiles", body)
	wantStatus(t, r, 201)
	var b struct {
		ID string `json:"id"`
	}
	r.JSON(t, &b)
	return b.ID
}

// orgPerson is a fresh person of org with role, invited by the super user
// and registered through the mailed invitation.
func orgPerson(t *testing.T, env *testenv.Env, org, role, prefix string) member {
	t.Helper()
	email := freshAddress(prefix)
	profile := addOrgProfile(t, env.As(t, superEmail), org, map[string]any{
		"firstName": prefix, "lastName": "Person", "email": email, "roleId": role, "sendInvitation": true,
	})
	token := newestToken(t, env, email, "/accept-invitation")
	c := env.Client(t)
	r := c.Do("POST", "/api/users?token="+url.QueryEscape(token), map[string]any{
		"firstName": prefix, "lastName": "Person", "password": freshPassword,
	})
	wantStatus(t, r, 201)
	var s sessionBody
	r.JSON(t, &s)
	c.Token = s.AccessToken
	return member{Email: email, Password: freshPassword, UserID: s.User.ID, ProfileID: profile, Client: c}
}

// orgMatrix is a fresh organization with one person per role of the
// organization calls.
type orgMatrix struct {
	env                      *testenv.Env
	org, community           string
	super                    *testenv.Client
	admin, commAdmin, member member
	outsider                 member // a person of another organization only
	guest                    *testenv.Client
	pending                  string // a profile of the organization without an account
}

func newOrgMatrix(t *testing.T, env *testenv.Env) *orgMatrix {
	t.Helper()
	m := &orgMatrix{env: env, super: env.As(t, superEmail), guest: env.Client(t)}
	m.org = createOrg(t, env, testenv.Unique("Matrix Org"))
	m.admin = orgPerson(t, env, m.org, "admin", "OrgAdmin")
	m.commAdmin = orgPerson(t, env, m.org, "member", "CommAdmin")
	m.member = orgPerson(t, env, m.org, "member", "OrgMember")
	m.outsider = newMember(t, env, "OrgOutsider")
	m.community = queryString(t, env, `INSERT INTO communities (id, organization_id, name, description)
		VALUES (gen_random_uuid(), $1, $2, 'A community of the matrix') RETURNING id::text`, m.org, testenv.Unique("Community"))
	join(t, env, m.community, "admin", m.commAdmin.ProfileID)
	join(t, env, m.community, "member", m.member.ProfileID)
	m.pending = addOrgProfile(t, m.super, m.org, map[string]any{"firstName": "Pat", "lastName": "Pending", "email": freshAddress("OrgPending")})
	return m
}

func (m *orgMatrix) roles() []matrixRole {
	return []matrixRole{
		{"super", m.super},
		{"org admin", m.admin.Client},
		{"community admin", m.commAdmin.Client},
		{"member", m.member.Client},
		{"outsider", m.outsider.Client},
		{"guest", m.guest},
	}
}

// digest fingerprints every organization with its profiles and
// communities, and the invitations and mail, so that a refused call can
// be seen to have written nothing.
func (m *orgMatrix) digest(t *testing.T) string {
	t.Helper()
	return queryString(t, m.env, `SELECT md5(concat_ws('|',
		(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM organizations x),
		(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM profiles x),
		(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM communities x),
		(SELECT count(*)::text FROM tokens), (SELECT count(*)::text FROM dev_mail)))`)
}

// orgCall is one row of the organization matrix; body, when set, is made
// per role (a fresh address each).
type orgCall struct {
	name, method string
	path         func(t *testing.T) string
	body         func() any
	want         map[string]outcome
}

func fixedBody(b any) func() any { return func() any { return b } }

// run asks each call as every role; a role without an outcome is not
// asked; refusals must leave every organization as it was.
func (m *orgMatrix) run(t *testing.T, calls []orgCall) {
	t.Helper()
	for _, c := range calls {
		for _, role := range m.roles() {
			w, ok := c.want[role.name]
			if !ok {
				continue
			}
			t.Run(c.name+"/"+role.name, func(t *testing.T) {
				path := c.path(t)
				var body any
				if c.body != nil {
					body = c.body()
				}
				before := m.digest(t)
				r := role.c.Do(c.method, path, body)
				if w.code == "" {
					if r.Status != w.status {
						t.Fatalf("%s %s: %d %s, want %d", c.method, path, r.Status, r.Body, w.status)
					}
					return
				}
				wantError(t, r, w.status, w.code)
				if after := m.digest(t); after != before {
					t.Errorf("%s %s was refused but wrote", c.method, path)
				}
			})
		}
	}
}

// orgOutcomes is what each role gets: ok for those named, forbidden for
// the organization's other people, hidden (the 404 of an unknown id) for
// the outsider, who has no profile in it.
func orgOutcomes(ok int, who ...string) map[string]outcome {
	out := map[string]outcome{
		"super": forbidden, "org admin": forbidden, "community admin": forbidden, "member": forbidden,
		"outsider": hidden, "guest": guestRefused,
	}
	for _, w := range who {
		out[w] = allowed(ok)
	}
	return out
}

// TestMatrixOrganization: every organization call by role (super user,
// organization admin, community admin who is not an organization admin,
// member, a person of another organization only, guest).
func TestMatrixOrganization(t *testing.T) {
	env := testenv.New(t)
	m := newOrgMatrix(t, env)
	o := "/api/organizations/" + m.org
	everyone := func(ok int) map[string]outcome {
		return map[string]outcome{"super": allowed(ok), "org admin": allowed(ok), "community admin": allowed(ok), "member": allowed(ok),
			"outsider": allowed(ok), "guest": guestRefused}
	}
	// A fresh organization per delete, so that each role has one to try:
	// only the super user sees one nobody belongs to.
	newOrg := func(t *testing.T) string {
		return "/api/organizations/" + createOrg(t, env, testenv.Unique("Doomed Org"))
	}
	// A fresh person per profile edit.
	person := func(t *testing.T) string {
		return "/api/profiles/" + addOrgProfile(t, m.super, m.org, map[string]any{"firstName": "Ed", "lastName": "Ited", "email": freshAddress("OrgEdit")})
	}
	notThisOne := orgOutcomes(0)
	delete(notThisOne, "super") // the super user's delete is the row above
	m.run(t, []orgCall{
		{"list", "GET", fixed("/api/organizations"), nil, everyone(200)},
		{"create", "POST", fixed("/api/organizations"), fixedBody(map[string]any{"name": testenv.Unique("New Org")}), func() map[string]outcome {
			w := orgOutcomes(201, "super")
			w["outsider"] = forbidden
			return w
		}()},
		{"read", "GET", fixed(o), nil, orgOutcomes(200, "super", "org admin", "community admin", "member")},
		{"edit", "PATCH", fixed(o), fixedBody(map[string]any{"image": "https://img.example/org.png"}), orgOutcomes(204, "super", "org admin")},
		{"delete", "DELETE", newOrg, nil, map[string]outcome{"super": allowed(204), "org admin": hidden, "community admin": hidden,
			"member": hidden, "outsider": hidden, "guest": guestRefused}},
		{"delete one's own", "DELETE", fixed(o), nil, notThisOne},
		{"people", "GET", fixed(o + "/profiles"), nil, orgOutcomes(200, "super", "org admin")},
		{"add a person", "POST", fixed(o + "/profiles"), func() any {
			return map[string]any{"firstName": "New", "lastName": "Person", "email": freshAddress("OrgAdd")}
		}, orgOutcomes(201, "super", "org admin")},
		{"edit a person", "PATCH", person, fixedBody(map[string]any{"lastName": "Edited", "roleId": "admin", "tags": "a,b"}), func() map[string]outcome {
			// The new person shares no community with the community admin
			// or the member, who may not read their profile: to them it
			// is unknown (issue 31, G7).
			w := orgOutcomes(204, "super", "org admin")
			w["community admin"], w["member"] = hidden, hidden
			return w
		}()},
		{"invite", "POST", fixed(o + "/invitations"), fixedBody(map[string]any{"profileIds": []string{m.pending}}), orgOutcomes(200, "super", "org admin")},
		{"organization permissions", "GET", fixed("/api/permissions?type=organization"), nil, everyone(200)},
		{"community permissions", "GET", fixed("/api/permissions?type=community"), nil, everyone(200)},
	})

	// What each role is told.
	for _, role := range m.roles()[:5] {
		t.Run("what "+role.name+" sees", func(t *testing.T) {
			var l orgList
			r := role.c.Do("GET", "/api/organizations?pageSize=9999", nil)
			wantStatus(t, r, 200)
			r.JSON(t, &l)
			var found *orgBody
			for i := range l.Results {
				if l.Results[i].ID == m.org {
					found = &l.Results[i]
				}
			}
			want := map[string]string{"super": "super", "org admin": "admin", "community admin": "member", "member": "member"}[role.name]
			switch {
			case want == "" && found != nil:
				t.Errorf("the outsider lists the organization")
			case want != "" && (found == nil || found.Role != want):
				t.Errorf("listed %+v, want role %q", found, want)
			}
			var orgs, communities namedList
			role.c.Do("GET", "/api/permissions?type=organization", nil).JSON(t, &orgs)
			role.c.Do("GET", "/api/permissions?type=community", nil).JSON(t, &communities)
			manage, addTo := orgs.ids()
			manages := role.name == "super" || role.name == "org admin"
			if slices.Contains(manage, m.org) != manages || slices.Contains(addTo, m.org) != manages {
				t.Errorf("organization permissions %+v, want %s in them: %v", orgs, m.org, manages)
			}
			if role.name == "org admin" && len(manage) != 1 {
				t.Errorf("the organization's admin manages %v", manage)
			}
			cm, _ := communities.ids()
			if want := role.name != "member" && role.name != "outsider"; slices.Contains(cm, m.community) != want {
				t.Errorf("community permissions %+v, want %s in them: %v", communities, m.community, want)
			}
			if communities.AddTo != nil {
				t.Errorf("community permissions carry whichOnesCanIAddCommunitiesTo")
			}
		})
	}
}

// TestOrganizationBadInput: bad input to every organization call, by a
// super user and by the organization's admin, with its code and nothing
// written.
func TestOrganizationBadInput(t *testing.T) {
	env := testenv.New(t)
	m := newOrgMatrix(t, env)
	o := "/api/organizations/" + m.org
	other := createOrg(t, env, testenv.Unique("Other Org"))
	stranger := addOrgProfile(t, m.super, other, map[string]any{"firstName": "Stran", "lastName": "Ger", "email": freshAddress("OrgStranger")})
	taken := queryString(t, env, "SELECT email FROM profiles WHERE id = $1", m.pending)
	edited := "/api/profiles/" + m.pending
	long := strings.Repeat("n", 76)
	person := func(kv ...any) map[string]any {
		b := map[string]any{"firstName": "Ada", "lastName": "Lovelace", "email": freshAddress("OrgBad")}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == nil {
				delete(b, kv[i].(string))
				continue
			}
			b[kv[i].(string)] = kv[i+1]
		}
		return b
	}
	tooManyTags := make([]string, 31)
	for i := range tooManyTags {
		tooManyTags[i] = "tag" + strconv.Itoa(i)
	}
	cases := []struct {
		name, method, path string
		body               any
		status             int
		code               string
		fields             []string // validationFailed's fields, or the missing parameters
	}{
		{"create without a name", "POST", "/api/organizations", map[string]any{}, 400, "parametersMissingException", []string{"name"}},
		{"create with a blank name", "POST", "/api/organizations", map[string]any{"name": "   "}, 400, "validationFailed", []string{"name"}},
		{"create with 76 characters", "POST", "/api/organizations", map[string]any{"name": long}, 400, "validationFailed", []string{"name"}},
		{"create with a name of the wrong type", "POST", "/api/organizations", map[string]any{"name": 5}, 400, "invalidBody", nil},
		{"create with a bad image", "POST", "/api/organizations", map[string]any{"name": "x", "image": "javascript:alert(1)"}, 400, "validationFailed", []string{"image"}},
		{"create with an unknown field", "POST", "/api/organizations", map[string]any{"name": "x", "owner": "me"}, 400, "invalidBody", nil},
		{"create with a control character", "POST", "/api/organizations", map[string]any{"name": "a\u202eb"}, 400, "validationFailed", []string{"name"}},
		{"rename to blank", "PATCH", o, map[string]any{"name": " "}, 400, "validationFailed", []string{"name"}},
		{"rename to null", "PATCH", o, map[string]any{"name": nil}, 400, "validationFailed", []string{"name"}},
		{"rename to 76 characters", "PATCH", o, map[string]any{"name": long}, 400, "validationFailed", []string{"name"}},
		{"an image that is no URL", "PATCH", o, map[string]any{"image": "not a url"}, 400, "validationFailed", []string{"image"}},
		{"edit an unknown organization", "PATCH", "/api/organizations/" + unknownID, map[string]any{"name": "x"}, 404, "notFound", nil},
		{"edit a non-UUID organization", "PATCH", "/api/organizations/x", map[string]any{"name": "x"}, 400, "validationFailed", []string{"id"}},
		{"read an unknown organization", "GET", "/api/organizations/" + unknownID, nil, 404, "notFound", nil},
		{"delete an unknown organization", "DELETE", "/api/organizations/" + unknownID, nil, 404, "notFound", nil},
		{"list with an unknown sort", "GET", "/api/organizations?sort=size", nil, 400, "validationFailed", []string{"sort"}},
		{"list with a bad direction", "GET", "/api/organizations?sort=name%20up", nil, 400, "validationFailed", []string{"sort"}},
		{"list with a page of 0", "GET", "/api/organizations?page=0&pageSize=10000", nil, 400, "validationFailed", []string{"page", "pageSize"}},
		// schemathesis found it: the page's offset overflowed into a 500.
		{"list past the last page", "GET", "/api/organizations?page=8645245369921939456&pageSize=1224", nil, 400, "validationFailed", []string{"page"}},
		{"people with an unknown sort", "GET", o + "/profiles?sort=age", nil, 400, "validationFailed", []string{"sort"}},
		{"people of an unknown organization", "GET", "/api/organizations/" + unknownID + "/profiles", nil, 404, "notFound", nil},
		{"add without a first name", "POST", o + "/profiles", person("firstName", nil), 400, "parametersMissingException", []string{"firstName"}},
		{"add with nothing", "POST", o + "/profiles", map[string]any{}, 400, "parametersMissingException", []string{"email", "firstName", "lastName"}},
		{"add with a blank last name", "POST", o + "/profiles", person("lastName", "  "), 400, "validationFailed", []string{"lastName"}},
		{"add with a 51-character first name", "POST", o + "/profiles", person("firstName", strings.Repeat("a", 51)), 400, "validationFailed", []string{"firstName"}},
		{"add with a bad e-mail", "POST", o + "/profiles", person("email", "not-an-address"), 400, "validationFailed", []string{"email"}},
		{"add with an unknown role", "POST", o + "/profiles", person("roleId", "owner"), 400, "validationFailed", []string{"roleId"}},
		{"add with 31 tags", "POST", o + "/profiles", person("tags", tooManyTags), 400, "validationFailed", []string{"tags"}},
		{"add with a 41-character tag", "POST", o + "/profiles", person("tags", "ok, "+strings.Repeat("t", 41)), 400, "validationFailed", []string{"tags"}},
		{"add with tags of the wrong type", "POST", o + "/profiles", person("tags", 5), 400, "invalidBody", nil},
		{"add an address the organization has", "POST", o + "/profiles", person("email", " "+strings.ToUpper(taken)+" "), 409, "emailConflict", nil},
		{"add to an unknown organization", "POST", "/api/organizations/" + unknownID + "/profiles", person(), 404, "notFound", nil},
		{"edit to an address the organization has", "PATCH", "/api/profiles/" + m.member.ProfileID, map[string]any{"email": m.member.Email}, 204, "", nil},
		{"edit another's address into one taken", "PATCH", edited, map[string]any{"email": m.admin.Email}, 409, "emailConflict", nil},
		{"edit to a bad e-mail", "PATCH", edited, map[string]any{"email": "x@"}, 400, "validationFailed", []string{"email"}},
		{"edit to a blank first name", "PATCH", edited, map[string]any{"firstName": ""}, 400, "validationFailed", []string{"firstName"}},
		{"edit to an unknown role", "PATCH", edited, map[string]any{"roleId": "owner"}, 400, "validationFailed", []string{"roleId"}},
		{"rename a registered person", "PATCH", "/api/profiles/" + m.member.ProfileID, map[string]any{"firstName": "Renamed"}, 400, "validationFailed", []string{"firstName"}},
		{"edit an unknown profile", "PATCH", "/api/profiles/" + unknownID, map[string]any{"lastName": "x"}, 404, "notFound", nil},
		{"edit a non-UUID profile", "PATCH", "/api/profiles/x", map[string]any{"lastName": "x"}, 400, "validationFailed", []string{"id"}},
		{"invite without profileIds", "POST", o + "/invitations", map[string]any{}, 400, "parametersMissingException", []string{"profileIds"}},
		{"invite nobody", "POST", o + "/invitations", map[string]any{"profileIds": []string{}}, 400, "validationFailed", []string{"profileIds"}},
		{"invite a non-UUID", "POST", o + "/invitations", map[string]any{"profileIds": []string{"x"}}, 400, "validationFailed", []string{"profileIds"}},
		{"invite someone of another organization", "POST", o + "/invitations", map[string]any{"profileIds": []string{m.pending, stranger}}, 400, "validationFailed", []string{"profileIds"}},
		{"permissions without a type", "GET", "/api/permissions", nil, 400, "parametersMissingException", []string{"type"}},
		{"permissions of an unknown type", "GET", "/api/permissions?type=forum", nil, 400, "validationFailed", []string{"type"}},
	}
	for _, who := range []struct {
		name string
		c    *testenv.Client
	}{{"super", m.super}, {"org admin", m.admin.Client}} {
		for _, tc := range cases {
			if who.name == "org admin" && strings.HasPrefix(tc.name, "create") {
				continue // refused before the input is read: the matrix has it
			}
			t.Run(who.name+"/"+tc.name, func(t *testing.T) {
				before := m.digest(t)
				r := who.c.Do(tc.method, tc.path, tc.body)
				switch tc.code {
				case "":
					wantStatus(t, r, tc.status)
					return
				case "validationFailed":
					wantInvalid(t, r, tc.fields...)
				case "parametersMissingException":
					wantMissing(t, r, tc.fields...)
				default:
					wantError(t, r, tc.status, tc.code)
				}
				if m.digest(t) != before {
					t.Error("a refused call wrote")
				}
			})
		}
	}
}

// TestOrganizationFlows: what the organization calls store and show.
func TestOrganizationFlows(t *testing.T) {
	env := testenv.New(t)
	super := env.As(t, superEmail)
	name := testenv.Unique("Flow Org")
	org := createOrg(t, env, "  "+name+" ")
	o := "/api/organizations/" + org
	get := func(c *testenv.Client) orgBody {
		t.Helper()
		var b orgBody
		r := c.Do("GET", o, nil)
		wantStatus(t, r, 200)
		r.JSON(t, &b)
		return b
	}
	if b := get(super); b.Name != name || b.Image != nil || b.Role != "super" || b.IdentityClient != nil || b.NumCommunities != 0 || b.NumMembers != 0 || b.CreatedOn == "" {
		t.Errorf("created %+v", b)
	}

	t.Run("list by keyword and sort", func(t *testing.T) {
		second := createOrg(t, env, name+" B")
		var l orgList
		r := super.Do("GET", "/api/organizations?keyword="+url.QueryEscape(strings.ToLower(name))+"&sort="+url.QueryEscape("name desc"), nil)
		wantStatus(t, r, 200)
		r.JSON(t, &l)
		if l.Total != 2 || len(l.Results) != 2 || l.Results[0].ID != second || l.Results[1].ID != org {
			t.Errorf("listed %+v", l)
		}
		super.Do("GET", "/api/organizations?keyword="+url.QueryEscape(name)+"&page=2&pageSize=1", nil).JSON(t, &l)
		if l.Total != 2 || len(l.Results) != 1 || l.Results[0].ID != second {
			t.Errorf("page 2: %+v", l)
		}
		// A keyword's wildcards are literal.
		super.Do("GET", "/api/organizations?keyword=%25", nil).JSON(t, &l)
		for _, x := range l.Results {
			if !strings.Contains(x.Name, "%") {
				t.Errorf("%% matched %q", x.Name)
			}
		}
	})

	// People: added with tags and an invitation, listed, edited, invited.
	admin := orgPerson(t, env, org, "admin", "FlowAdmin")
	email := freshAddress("FlowPerson")
	mails := len(mailbox(t, env, email))
	id := addOrgProfile(t, admin.Client, org, map[string]any{
		"firstName": " Grace ", "lastName": " Hopper ", "email": " " + email + " ", "tags": " navy , , compilers, Navy ", "sendInvitation": true,
	})
	if got := mailbox(t, env, email); len(got) != mails+1 || !strings.Contains(got[0].Body, "/accept-invitation?token=") || !strings.Contains(got[0].Subject, name) {
		t.Errorf("invitation mail: %+v", got)
	}
	profiles := func(q string) orgProfileList {
		t.Helper()
		var l orgProfileList
		r := admin.Client.Do("GET", o+"/profiles"+q, nil)
		wantStatus(t, r, 200)
		r.JSON(t, &l)
		return l
	}
	l := profiles("?keyword=grace%20hop")
	if l.Total != 1 || len(l.Results) != 1 {
		t.Fatalf("found %+v", l)
	}
	if p := l.Results[0]; p.ID != id || p.FirstName != "Grace" || p.LastName != "Hopper" || p.Email != email || p.Role != "member" ||
		strings.Join(p.Tags, ",") != "navy,compilers" || p.Status != "invited" || p.UserID != nil {
		t.Errorf("profile %+v", p)
	}
	// Past the last page, the total is still told, with and without a keyword.
	for _, q := range []string{"?keyword=hopper&page=3&pageSize=1", "?page=3&pageSize=1"} {
		if l := profiles(q); len(l.Results) != 0 || l.Total != map[bool]int{true: 1, false: 2}[strings.Contains(q, "keyword")] {
			t.Errorf("%s: %+v", q, l)
		}
	}
	if l := profiles("?sort=name"); l.Total != 2 || l.Results[0].LastName != "Hopper" || l.Results[1].Status != "active" || l.Results[1].ID != admin.ProfileID {
		t.Errorf("by name: %+v", l)
	}
	wantStatus(t, admin.Client.Do("PATCH", "/api/profiles/"+id, map[string]any{
		"firstName": "Amazing", "email": strings.ToUpper(email), "roleId": "admin", "tags": []string{"rear admiral"},
	}), 204)
	if p := profiles("?keyword=amazing").Results; len(p) != 1 || p[0].FirstName != "Amazing" || p[0].LastName != "Hopper" ||
		p[0].Email != strings.ToUpper(email) || p[0].Role != "admin" || strings.Join(p[0].Tags, ",") != "rear admiral" {
		t.Errorf("edited %+v", p)
	}
	// A registered person's role and tags change; their names sent as
	// they are are no change.
	wantStatus(t, super.Do("PATCH", "/api/profiles/"+admin.ProfileID, map[string]any{
		"firstName": "FlowAdmin", "lastName": "Person", "email": strings.ToUpper(admin.Email), "tags": "lead",
	}), 204)
	// Invited again within the hour of the first mail, the person is not
	// mailed again (AGORA_INVITATION_RESEND_AFTER), and the answer says so.
	var inv struct{ Invited, Skipped, AlreadyInvited int }
	r := admin.Client.Do("POST", o+"/invitations", map[string]any{"profileIds": []string{id, admin.ProfileID, id}})
	wantStatus(t, r, 200)
	r.JSON(t, &inv)
	if inv.Invited != 0 || inv.AlreadyInvited != 1 || inv.Skipped != 1 || len(mailbox(t, env, email)) != mails+1 {
		t.Errorf("invited %+v", inv)
	}
	// The admin renames the organization; the image comes and goes.
	wantStatus(t, admin.Client.Do("PATCH", o, map[string]any{"name": name + " Renamed", "image": "https://img.example/o.png"}), 204)
	if b := get(admin.Client); b.Name != name+" Renamed" || b.Image == nil || *b.Image != "https://img.example/o.png" || b.Role != "admin" || b.NumMembers != 2 {
		t.Errorf("renamed %+v", b)
	}
	wantStatus(t, admin.Client.Do("PATCH", o, map[string]any{"image": nil}), 204)
	if b := get(admin.Client); b.Image != nil || b.Name != name+" Renamed" {
		t.Errorf("image removed %+v", b)
	}
	// Single sign-on shows as its issuer URL.
	exec(t, env, "UPDATE organizations SET identity_client = $2 WHERE id = $1", org, "https://idp.example/realms/flow")
	if b := get(admin.Client); b.IdentityClient == nil || *b.IdentityClient != "https://idp.example/realms/flow" {
		t.Errorf("identity client %+v", b)
	}

	t.Run("delete takes what hangs off the organization", func(t *testing.T) {
		community := queryString(t, env, `INSERT INTO communities (id, organization_id, name, description)
			VALUES (gen_random_uuid(), $1, 'Doomed', 'd') RETURNING id::text`, org)
		join(t, env, community, "admin", admin.ProfileID)
		f := createForum(t, admin.Client, community)
		if b := get(admin.Client); b.NumCommunities != 1 {
			t.Errorf("communities %d", b.NumCommunities)
		}
		wantStatus(t, super.Do("DELETE", o, nil), 204)
		for table, where := range map[string]string{
			"organizations": "id = $1", "profiles": "organization_id = $1", "communities": "organization_id = $1",
		} {
			if n := env.Count(t, table, where, org); n != 0 {
				t.Errorf("%d %s left", n, table)
			}
		}
		if n := env.Count(t, "series", "id = $1", f.ID); n != 0 {
			t.Error("the forum is left")
		}
		wantError(t, super.Do("GET", o, nil), 404, "notFound")
		// The admin's account stays, without the organization.
		var l orgList
		admin.Client.Do("GET", "/api/organizations", nil).JSON(t, &l)
		if l.Total != 0 {
			t.Errorf("the admin still lists %+v", l)
		}
	})
}
