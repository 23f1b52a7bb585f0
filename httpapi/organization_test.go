package httpapi_test

import (
	"net/url"
	"slices"
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

type orgProfile struct {
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
	Results []orgProfile `json:"results"`
	Total   int          `json:"total"`
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
		{"edit a person", "PATCH", person, fixedBody(map[string]any{"lastName": "Edited", "roleId": "admin", "tags": "a,b"}), orgOutcomes(204, "super", "org admin")},
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
