package httpapi_test

import (
	"strings"
	"testing"

	"agora/app/testenv"
)

// The communities' calls by role (contract of issue 15, spec 000 §6): a
// super user, an admin of the organization (a fresh one, who is not a
// member of the test's communities), a community admin, a member, an
// outsider (a profile of the organization, in no community of the test)
// and a guest. The organization's admins become members of what they
// create: fresh ones keep the demo logins' lists as the seed made them.

// communityBody is a community as GET /communities and GET
// /communities/{id} answer it.
type communityBody struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	Description   string  `json:"description"`
	Image         *string `json:"image"`
	Video         *string `json:"video"`
	VideoCover    *string `json:"videoCover"`
	SSOAccess     bool    `json:"ssoAccess"`
	Role          *string `json:"role"`
	IsSubscribed  bool    `json:"isSubscribed"`
	Price         int     `json:"price"`
	IsFree        bool    `json:"isFree"`
	NumShares     int     `json:"numShares"`
	LastVisitedOn *string `json:"lastVisitedOn"`
	CreatedOn     string  `json:"createdOn"`
	AssignedOn    *string `json:"assignedOn"`
	Organization  struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"organization"`
	Permissions struct {
		CanManage        bool `json:"canManage"`
		CanShare         bool `json:"canShare"`
		CanUploadMembers bool `json:"canUploadMembers"`
	} `json:"permissions"`
	Series []struct {
		ID string `json:"id"`
	} `json:"series"`
}

type communityPage struct {
	Results []communityBody `json:"results"`
	Total   int             `json:"total"`
}

// ids are the ids of a page's communities, in order.
func (p communityPage) ids() []string {
	out := []string{}
	for _, c := range p.Results {
		out = append(out, c.ID)
	}
	return out
}

func listCommunities(t *testing.T, c *testenv.Client, query string) communityPage {
	t.Helper()
	r := c.Do("GET", "/api/communities"+query, nil)
	wantStatus(t, r, 200)
	var p communityPage
	r.JSON(t, &p)
	return p
}

// matrixCommunity is a community of the demo organization with one person
// per role.
type matrixCommunity struct {
	env                                                 *testenv.Env
	org                                                 string
	super, orgAdmin, commAdmin, member, outsider, guest *testenv.Client
	orgAdminM, commAdminM, memberM                      member
}

func newMatrixCommunity(t *testing.T, env *testenv.Env) *matrixCommunity {
	t.Helper()
	m := &matrixCommunity{env: env}
	m.org = queryString(t, env, "SELECT organization_id::text FROM communities WHERE name = $1", leadershipCircle)
	m.super, m.outsider, m.guest = env.As(t, superEmail), env.As(t, outsiderEmail), env.Client(t)
	m.orgAdminM, m.commAdminM, m.memberM = newMember(t, env, "OrgAdmin"), newMember(t, env, "CommAdmin"), newMember(t, env, "CommMember")
	exec(t, env, "UPDATE profiles SET role = 'admin' WHERE id = $1", m.orgAdminM.ProfileID)
	m.orgAdmin, m.commAdmin, m.member = m.orgAdminM.Client, m.commAdminM.Client, m.memberM.Client
	return m
}

// community makes a fresh community of the organization with the
// community admin and the member in it.
func (m *matrixCommunity) community(t *testing.T) string {
	t.Helper()
	id := newCommunity(t, m.env)
	join(t, m.env, id, "admin", m.commAdminM.ProfileID)
	join(t, m.env, id, "member", m.memberM.ProfileID)
	return id
}

func (m *matrixCommunity) roles() []matrixRole {
	return []matrixRole{
		{"super", m.super}, {"org admin", m.orgAdmin}, {"community admin", m.commAdmin},
		{"member", m.member}, {"outsider", m.outsider}, {"guest", m.guest},
	}
}

// digest is a fingerprint of a community's rows and of the organization's
// communities, for checking that a refused call wrote nothing.
func (m *matrixCommunity) digest(t *testing.T, community string) string {
	t.Helper()
	return queryString(t, m.env, `SELECT md5(concat_ws('|',
		(SELECT string_agg(x::text, ',') FROM communities x WHERE x.id::text = $1),
		(SELECT string_agg(x::text, ',' ORDER BY x.profile_id) FROM community_memberships x WHERE x.community_id::text = $1),
		(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM series x WHERE x.community_id::text = $1),
		(SELECT count(*)::text FROM communities WHERE organization_id::text = $2),
		(SELECT count(*)::text FROM community_memberships)))`, community, m.org)
}

// managersOnly is the outcome of a call only a community's managers make.
func managersOnly(ok int) map[string]outcome {
	return map[string]outcome{"super": allowed(ok), "org admin": allowed(ok), "community admin": allowed(ok),
		"member": forbidden, "outsider": hidden, "guest": guestRefused}
}

// communityReaders is the outcome of a call a community's readers make.
func communityReaders(ok int) map[string]outcome {
	return map[string]outcome{"super": allowed(ok), "org admin": allowed(ok), "community admin": allowed(ok),
		"member": allowed(ok), "outsider": hidden, "guest": guestRefused}
}

// TestMatrixCommunity: every community call of issue 15's communities core,
// by role, with the documented status and code, and nothing written on a
// refusal.
func TestMatrixCommunity(t *testing.T) {
	env := testenv.New(t)
	m := newMatrixCommunity(t, env)
	c := m.community(t)
	fresh := func(t *testing.T) string { return m.community(t) }
	calls := []struct {
		name, method string
		// path makes the call's community (fresh for a delete) and path.
		path func(t *testing.T) (community, path string)
		body any
		want map[string]outcome
	}{
		{"read", "GET", func(*testing.T) (string, string) { return c, "/api/communities/" + c }, nil, communityReaders(200)},
		{"members", "GET", func(*testing.T) (string, string) { return c, "/api/communities/" + c + "/members" }, nil, communityReaders(200)},
		{"highlighted members", "POST", func(*testing.T) (string, string) { return c, "/api/communities/get-highlighted-members" },
			map[string]any{"communityIds": []string{c}}, map[string]outcome{"super": allowed(200), "org admin": allowed(200),
				"community admin": allowed(200), "member": allowed(200), "outsider": allowed(200), "guest": guestRefused}},
		{"list", "GET", func(*testing.T) (string, string) { return c, "/api/communities?presetFilter=manageable" }, nil,
			map[string]outcome{"super": allowed(200), "org admin": allowed(200), "community admin": allowed(200),
				"member": allowed(200), "outsider": allowed(200), "guest": guestRefused}},
		{"edit", "PATCH", func(*testing.T) (string, string) { return c, "/api/communities/" + c }, map[string]any{"description": testenv.Unique("edited")}, managersOnly(204)},
		{"delete", "DELETE", func(t *testing.T) (string, string) { id := fresh(t); return id, "/api/communities/" + id }, nil, managersOnly(204)},
		{"give complimentary access", "PUT", func(*testing.T) (string, string) {
			return c, "/api/communities/" + c + "/profiles/" + m.memberM.ProfileID + "/complimentary"
		}, nil, managersOnly(204)},
		{"take complimentary access", "DELETE", func(*testing.T) (string, string) {
			return c, "/api/communities/" + c + "/profiles/" + m.memberM.ProfileID + "/complimentary"
		}, nil, managersOnly(204)},
		{"create", "POST", func(*testing.T) (string, string) { return c, "/api/organizations/" + m.org + "/communities" },
			map[string]any{"name": testenv.Unique("Made"), "description": "A community made by the matrix"},
			// The community admin, the member and the outsider have profiles
			// in the organization: they see it, and may not add to it.
			map[string]outcome{"super": allowed(201), "org admin": allowed(201), "community admin": forbidden,
				"member": forbidden, "outsider": forbidden, "guest": guestRefused}},
	}
	for _, call := range calls {
		for _, role := range m.roles() {
			w := call.want[role.name]
			t.Run(call.name+"/"+role.name, func(t *testing.T) {
				community, path := call.path(t)
				before := m.digest(t, community)
				r := role.c.Do(call.method, path, call.body)
				if w.code == "" {
					wantStatus(t, r, w.status)
					if role.name == "super" && call.method == "POST" && w.status == 201 {
						// The super user has a profile in the demo
						// organization, and so became the new community's
						// admin: it goes, so that their list stays the seed's.
						var made struct {
							ID string `json:"id"`
						}
						r.JSON(t, &made)
						exec(t, env, "DELETE FROM communities WHERE id = $1", made.ID)
					}
					return
				}
				wantError(t, r, w.status, w.code)
				if m.digest(t, community) != before {
					t.Errorf("%s %s was refused but wrote", call.method, path)
				}
			})
		}
	}

	// What each role sees of the community: its role, permissions, and
	// whether the lists hold it.
	type seen struct {
		role                     string // "" for null
		manage, mine, manageable bool
		highlighted              bool
	}
	want := map[string]seen{
		"super":           {"", true, false, true, true},
		"org admin":       {"", true, false, true, true},
		"community admin": {"admin", true, true, true, true},
		"member":          {"member", false, true, false, true},
		"outsider":        {highlighted: false},
	}
	for _, role := range m.roles()[:5] {
		t.Run("sees/"+role.name, func(t *testing.T) {
			w := want[role.name]
			if role.name != "outsider" {
				var v communityBody
				r := role.c.Do("GET", "/api/communities/"+c, nil)
				wantStatus(t, r, 200)
				r.JSON(t, &v)
				got := ""
				if v.Role != nil {
					got = *v.Role
				}
				p := v.Permissions
				if got != w.role || p.CanManage != w.manage || p.CanShare != w.manage || p.CanUploadMembers != w.manage {
					t.Errorf("role %q permissions %+v, want role %q and all %v", got, p, w.role, w.manage)
				}
				// The community is free: everyone who sees it has access,
				// a manager who is not a member too (isSubscribed is access).
				if (v.AssignedOn == nil) != (w.role == "") || !v.IsSubscribed {
					t.Errorf("assignedOn %v isSubscribed %v for role %q", v.AssignedOn, v.IsSubscribed, got)
				}
				if v.NumShares != 2 || v.Organization.ID != m.org || v.Organization.Name != organizationName {
					t.Errorf("numShares %d organization %+v", v.NumShares, v.Organization)
				}
			}
			in := func(p communityPage) bool { return strings.Contains(strings.Join(p.ids(), ","), c) }
			if got := in(listCommunities(t, role.c, "")); got != w.mine {
				t.Errorf("in the default list: %v, want %v", got, w.mine)
			}
			if got := in(listCommunities(t, role.c, "?presetFilter=manageable&page=1&pageSize=9999")); got != w.manageable {
				t.Errorf("in the manageable list: %v, want %v", got, w.manageable)
			}
			var h map[string]any
			r := role.c.Do("POST", "/api/communities/get-highlighted-members", map[string]any{"communityIds": []string{c}})
			r.JSON(t, &h)
			if _, got := h[c]; got != w.highlighted {
				t.Errorf("highlighted members given: %v, want %v", got, w.highlighted)
			}
		})
	}

	// The creator with a profile in the organization becomes its active
	// admin (it is in their list); a super user without one does not.
	t.Run("the creator", func(t *testing.T) {
		var made struct {
			ID string `json:"id"`
		}
		r := m.orgAdmin.Do("POST", "/api/organizations/"+m.org+"/communities", map[string]any{"name": testenv.Unique("Mine"), "description": "d"})
		wantStatus(t, r, 201)
		r.JSON(t, &made)
		if n := env.Count(t, "community_memberships cm JOIN profiles p ON p.id = cm.profile_id",
			"cm.community_id = $1 AND p.id = $2 AND cm.role = 'admin' AND cm.status = 'active'", made.ID, m.orgAdminM.ProfileID); n != 1 {
			t.Errorf("the org admin is not the new community's active admin")
		}
		// Another organization, where the super user has no profile, and
		// which the demo organization's admin does not see.
		other := queryString(t, env, "INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), $1) RETURNING id::text", testenv.Unique("Org"))
		before := env.Count(t, "communities", "organization_id = $1", other)
		wantError(t, m.orgAdmin.Do("POST", "/api/organizations/"+other+"/communities", map[string]any{"name": "x", "description": "d"}), 404, "notFound")
		if env.Count(t, "communities", "organization_id = $1", other) != before {
			t.Error("a refused creation wrote")
		}
		r = m.super.Do("POST", "/api/organizations/"+other+"/communities", map[string]any{"name": testenv.Unique("Super's"), "description": "d"})
		wantStatus(t, r, 201)
		r.JSON(t, &made)
		if n := env.Count(t, "community_memberships", "community_id = $1", made.ID); n != 0 {
			t.Errorf("the super user's community has %d members", n)
		}
	})

	// Unknown ids are as unknown to the managers.
	t.Run("unknown", func(t *testing.T) {
		for _, call := range [][2]string{{"GET", "/api/communities/" + unknownID}, {"PATCH", "/api/communities/" + unknownID},
			{"DELETE", "/api/communities/" + unknownID}, {"GET", "/api/communities/" + unknownID + "/members"},
			{"POST", "/api/organizations/" + unknownID + "/communities"}} {
			var body any
			if call[0] == "PATCH" || call[0] == "POST" {
				body = map[string]any{"name": "x", "description": "d"}
			}
			wantError(t, m.super.Do(call[0], call[1], body), 404, "notFound")
		}
	})
}

// TestCommunityBadInput: the form's rules (spec 000 §5) on a new community
// and on an edit, each refused with its code and nothing written.
func TestCommunityBadInput(t *testing.T) {
	env := testenv.New(t)
	m := newMatrixCommunity(t, env)
	c := m.community(t)
	create, edit := "/api/organizations/"+m.org+"/communities", "/api/communities/"+c
	ok := func(extra map[string]any) map[string]any {
		b := map[string]any{"name": "A community", "description": "About it"}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	cases := []struct {
		name   string
		body   map[string]any
		fields []string // validationFailed fields; nil with missing
		miss   []string
	}{
		{"a name of 76", ok(map[string]any{"name": strings.Repeat("n", 76)}), []string{"name"}, nil},
		{"a blank name", ok(map[string]any{"name": "  \t "}), []string{"name"}, nil},
		{"an empty name", ok(map[string]any{"name": ""}), []string{"name"}, nil},
		{"a description of 751", ok(map[string]any{"description": strings.Repeat("d", 751)}), []string{"description"}, nil},
		{"a blank description", ok(map[string]any{"description": " "}), []string{"description"}, nil},
		{"a price of -1", ok(map[string]any{"price": -1}), []string{"price"}, nil},
		{"a price of 9999901", ok(map[string]any{"price": 9999901}), []string{"price"}, nil},
		{"a video elsewhere", ok(map[string]any{"video": "https://example.com/watch?v=1"}), []string{"video"}, nil},
		{"a video that is no URL", ok(map[string]any{"video": "youtube.com"}), []string{"video"}, nil},
		{"an image that is no http URL", ok(map[string]any{"image": "javascript:alert(1)"}), []string{"image"}, nil},
		{"a video cover that is no URL", ok(map[string]any{"videoCover": "cover.png"}), []string{"videoCover"}, nil},
		{"another membership type", ok(map[string]any{"membershipType": "open"}), []string{"membershipType"}, nil},
		{"a null name", ok(map[string]any{"name": nil}), []string{"name"}, nil},
		{"a null price", ok(map[string]any{"price": nil}), []string{"price"}, nil},
		{"everything wrong", ok(map[string]any{"name": "", "description": "", "price": -5}), []string{"name", "description", "price"}, nil},
	}
	before := m.digest(t, c)
	for _, tc := range cases {
		t.Run("create/"+tc.name, func(t *testing.T) { wantInvalid(t, m.orgAdmin.Do("POST", create, tc.body), tc.fields...) })
		t.Run("edit/"+tc.name, func(t *testing.T) { wantInvalid(t, m.commAdmin.Do("PATCH", edit, tc.body), tc.fields...) })
	}
	t.Run("missing", func(t *testing.T) {
		wantMissing(t, m.orgAdmin.Do("POST", create, map[string]any{"description": "d"}), "name")
		wantMissing(t, m.orgAdmin.Do("POST", create, map[string]any{"name": "n"}), "description")
		wantMissing(t, m.orgAdmin.Do("POST", create, map[string]any{}), "name", "description")
	})
	t.Run("bodies", func(t *testing.T) {
		for _, b := range []string{`{"name":"n","description":"d","price":"free"}`, `{"name":"n","description":"d","price":1.5}`,
			`{"name":"n","description":"d","owner":"me"}`, `{"name":"n","description":"d","ssoAccess":"yes"}`} {
			wantError(t, m.orgAdmin.Do("POST", create, b), 400, "invalidBody")
			wantError(t, m.commAdmin.Do("PATCH", edit, b), 400, "invalidBody")
		}
		checkBadBodies(t, m.orgAdmin, "POST", create, nil)
		checkBadBodies(t, m.commAdmin, "PATCH", edit, nil)
	})
	t.Run("ids", func(t *testing.T) {
		wantInvalid(t, m.orgAdmin.Do("POST", "/api/organizations/x/communities", ok(nil)), "organizationId")
		wantInvalid(t, m.commAdmin.Do("PATCH", "/api/communities/x", ok(nil)), "communityId")
		wantInvalid(t, m.commAdmin.Do("DELETE", "/api/communities/x", nil), "communityId")
		wantInvalid(t, m.commAdmin.Do("GET", "/api/communities/x", nil), "communityId")
		complimentary := "/api/communities/" + c + "/profiles/"
		wantInvalid(t, m.commAdmin.Do("PUT", "/api/communities/x/profiles/"+m.memberM.ProfileID+"/complimentary", nil), "communityId")
		wantInvalid(t, m.commAdmin.Do("PUT", complimentary+"x/complimentary", nil), "profileId")
		wantInvalid(t, m.commAdmin.Do("DELETE", complimentary+"x/complimentary", nil), "profileId")
		// Someone who is no member, or no one, is unknown; one's own
		// access is not one's to give.
		wantError(t, m.commAdmin.Do("PUT", complimentary+m.orgAdminM.ProfileID+"/complimentary", nil), 404, "notFound")
		wantError(t, m.commAdmin.Do("PUT", complimentary+unknownID+"/complimentary", nil), 404, "notFound")
		wantError(t, m.commAdmin.Do("PUT", "/api/communities/"+unknownID+"/profiles/"+m.memberM.ProfileID+"/complimentary", nil), 404, "notFound")
		wantError(t, m.commAdmin.Do("PUT", complimentary+m.commAdminM.ProfileID+"/complimentary", nil), 400, "ownAssignment")
	})
	if m.digest(t, c) != before {
		t.Error("refused calls wrote")
	}

	// The limits themselves pass, trimmed; null clears a link.
	t.Run("the limits", func(t *testing.T) {
		name := strings.Repeat("n", 75)
		body := map[string]any{"name": "  " + name + "  ", "description": strings.Repeat("d", 750), "price": 9999900, "isFree": false,
			"video": "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "videoCover": "https://example.com/c.png", "image": "https://example.com/i.png",
			"ssoAccess": true, "membershipType": "invitationOnly"}
		wantStatus(t, m.commAdmin.Do("PATCH", edit, body), 204)
		var v communityBody
		m.commAdmin.Do("GET", edit, nil).JSON(t, &v)
		if v.Name != name || len(v.Description) != 750 || v.Price != 9999900 || v.IsFree || !v.SSOAccess || v.Video == nil || v.Image == nil || v.VideoCover == nil {
			t.Errorf("after the edit: %+v", v)
		}
		wantStatus(t, m.commAdmin.Do("PATCH", edit, map[string]any{"video": "https://vimeo.com/76979871", "price": 0, "image": nil, "videoCover": ""}), 204)
		m.commAdmin.Do("GET", edit, nil).JSON(t, &v)
		if v.Name != name || v.Price != 0 || v.Video == nil || *v.Video != "https://vimeo.com/76979871" || v.Image != nil || v.VideoCover != nil {
			t.Errorf("after the second edit: %+v", v)
		}
		r := m.orgAdmin.Do("POST", create, map[string]any{"name": " Trimmed ", "description": " d "})
		wantStatus(t, r, 201)
		var made struct {
			ID string `json:"id"`
		}
		r.JSON(t, &made)
		m.orgAdmin.Do("GET", "/api/communities/"+made.ID, nil).JSON(t, &v)
		if v.Name != "Trimmed" || v.Description != "d" || v.Price != 3995 || v.SSOAccess || v.Role == nil || *v.Role != "admin" {
			t.Errorf("a new community's defaults: %+v", v)
		}
	})
}
