package httpapi_test

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"agora/app/testenv"
)

// TestMatrixForum: the forum calls and access management by role (see
// feed_matrix_test.go for the matrix and its roles). The creator here is
// a plain member of the forum, as in the feed.
func TestMatrixForum(t *testing.T) {
	env := testenv.New(t)
	m := newMatrixForum(t, env)
	f := "/api/series/" + m.forum.ID
	// A forum of the community per delete, with the forum admin made its admin.
	newForum := func(t *testing.T) string {
		t.Helper()
		g := createForum(t, m.root, m.community)
		wantStatus(t, assign(t, m.root, g.ID, "admin", m.forumAdmin.ProfileID), 204)
		wantStatus(t, assign(t, m.root, g.ID, "member", m.creator.ProfileID, m.reader.ProfileID), 204)
		return "/api/series/" + g.ID
	}
	// Someone of the community to assign, fresh per call.
	assignee := func(t *testing.T) string { return fresh(t, env, m.community, "Assignee").ProfileID }
	// A pending person of the forum (no account yet), to invite.
	r := m.root.Do("POST", "/api/communities/"+m.community+"/profiles", map[string]any{"firstName": "Pat", "lastName": "Pending", "email": freshAddress("MatrixPending")})
	wantStatus(t, r, 201)
	var pending struct {
		ID string `json:"id"`
	}
	r.JSON(t, &pending)
	wantStatus(t, assign(t, m.root, m.forum.ID, "member", pending.ID), 204)
	// The order of the community's forums, which the community admin may change.
	ids := func() []string {
		var l forumList
		m.root.Do("GET", "/api/series?communityId="+m.community, nil).JSON(t, &l)
		out := []string{}
		for i := len(l.Results) - 1; i >= 0; i-- {
			out = append(out, l.Results[i].ID)
		}
		return out
	}

	communityAdmins := func(ok int) map[string]outcome {
		return map[string]outcome{
			"creator": forbidden, "member": forbidden, "forum admin": forbidden, "community admin": allowed(ok),
			// The outsider may not read the community: it is unknown to them.
			"non-member": forbidden, "outsider": hidden, "guest": guestRefused,
		}
	}
	m.run(t, []matrixCall{
		{"order the forums", "PUT", fixed("/api/communities/" + m.community + "/series-order"), map[string]any{"ids": ids()}, communityAdmins(204)},
		{"create a forum", "POST", fixed("/api/communities/" + m.community + "/series"), map[string]any{"name": testenv.Unique("Matrix"), "description": "d"}, communityAdmins(201)},
		{"read the forum", "GET", fixed(f), nil, readers(200, hidden)},
		{"edit the forum", "PATCH", fixed(f), map[string]any{"description": "edited"}, adminsOnly(200, forbidden)},
		{"delete a forum", "DELETE", newForum, nil, adminsOnly(204, forbidden)},
		{"members", "GET", fixed(f + "/members?sort=isExpert%20desc"), nil, readers(200, hidden)},
		{"admins and experts", "GET", fixed(f + "/admin-and-experts"), nil, readers(200, hidden)},
		{"assignables", "GET", fixed(f + "/assignables?isAssigned=false"), nil, adminsOnly(200, forbidden)},
		{"admin count", "POST", fixed(f + "/admin-count"), map[string]any{"assignments": []any{}}, adminsOnly(200, forbidden)},
		{"assignments preview", "POST", fixed(f + "/assignments-invitations-preview"),
			map[string]any{"assignments": []map[string]any{{"roleId": "member", "assigneeIds": []string{m.nonMember.ProfileID}}}}, adminsOnly(200, forbidden)},
		{"invitations", "POST", fixed(f + "/invitations"), map[string]any{"profileIds": []string{pending.ID}}, adminsOnly(200, forbidden)},
		{"give complimentary access", "PUT", fixed(f + "/profiles/" + m.creator.ProfileID + "/complimentary"), nil, adminsOnly(204, forbidden)},
		{"take complimentary access", "DELETE", fixed(f + "/profiles/" + m.creator.ProfileID + "/complimentary"), nil, adminsOnly(204, forbidden)},
	})
	// Assignments need a fresh assignee per role, so the body is built here.
	for _, role := range m.roles() {
		t.Run("assign/"+role.name, func(t *testing.T) {
			who := assignee(t)
			before := m.digest(t)
			r := assign(t, role.c, m.forum.ID, "member", who)
			switch role.name {
			case "forum admin", "community admin":
				wantStatus(t, r, 204)
				if n := env.Count(t, "series_memberships", "series_id = $1 AND profile_id = $2", m.forum.ID, who); n != 1 {
					t.Error("not assigned")
				}
				return
			case "guest":
				wantError(t, r, 401, "authenticationRequired")
			case "non-member", "outsider":
				wantError(t, r, 404, "notFound")
			default:
				wantError(t, r, 403, "forbidden")
			}
			if m.digest(t) != before {
				t.Error("a refused assignment wrote")
			}
		})
	}

	// The list of a community's forums shows each role what it reads.
	for _, role := range m.roles()[:6] {
		var l forumList
		r := role.c.Do("GET", "/api/series?communityId="+m.community+"&pageSize=9999", nil)
		wantStatus(t, r, 200)
		r.JSON(t, &l)
		found := false
		for _, g := range l.Results {
			if g.ID == m.forum.ID {
				found = true
				if want := map[string]string{"creator": "member", "member": "member", "forum admin": "admin", "community admin": "admin"}[role.name]; g.Role != want {
					t.Errorf("%s sees role %q, want %q", role.name, g.Role, want)
				}
			}
		}
		if reads := role.name != "non-member" && role.name != "outsider"; found != reads {
			t.Errorf("%s sees the forum: %v, want %v", role.name, found, reads)
		}
	}
	wantError(t, m.guest.Do("GET", "/api/series?communityId="+m.community, nil), 401, "authenticationRequired")
	wantError(t, m.guest.Do("GET", "/api/trending/series", nil), 401, "authenticationRequired")

	// A community admin administers only their own community.
	other := newCommunity(t, env)
	elsewhere := createForum(t, m.root, other)
	before := m.digest(t)
	// The other community, which they may not read, is unknown to them.
	wantError(t, m.commAdmin.Client.Do("POST", "/api/communities/"+other+"/series", map[string]any{"name": "x", "description": "d"}), 404, "notFound")
	// Its forums, which they may not read, are as unknown to them as any.
	wantError(t, m.commAdmin.Client.Do("PATCH", "/api/series/"+elsewhere.ID, map[string]any{"name": "x"}), 404, "notFound")
	wantError(t, m.commAdmin.Client.Do("DELETE", "/api/series/"+elsewhere.ID, nil), 404, "notFound")
	wantError(t, m.commAdmin.Client.Do("GET", "/api/series/"+elsewhere.ID, nil), 404, "notFound")
	wantError(t, assign(t, m.commAdmin.Client, elsewhere.ID, "member", m.nonMember.ProfileID), 404, "notFound")
	if env.Count(t, "series", "community_id = $1", other) != 1 || m.digest(t) != before {
		t.Error("refusals in another community wrote")
	}
}

// TestMatrixForumBadInput: bad input to the access calls the older tests
// leave out, with its code and nothing written.
func TestMatrixForumBadInput(t *testing.T) {
	env := testenv.New(t)
	m := newMatrixForum(t, env)
	fa := m.forumAdmin.Client
	f := "/api/series/" + m.forum.ID
	unknown := uuid.NewString()
	outsider := profileID(t, env, outsiderEmail)
	cases := []struct {
		name, method, path string
		body               any
		status             int
		code               string
	}{
		{"admin count of an unknown forum", "POST", "/api/series/" + unknown + "/admin-count", map[string]any{"assignments": []any{}}, 404, "notFound"},
		{"admin count of a non-UUID forum", "POST", "/api/series/x/admin-count", map[string]any{"assignments": []any{}}, 400, "validationFailed"},
		{"admin count with an unknown role", "POST", f + "/admin-count", map[string]any{"assignments": []map[string]any{{"roleId": "owner", "assigneeIds": []string{m.reader.ProfileID}}}}, 400, "validationFailed"},
		{"admin count of a non-UUID assignee", "POST", f + "/admin-count", map[string]any{"assignments": []map[string]any{{"roleId": "member", "assigneeIds": []string{"x"}}}}, 400, "validationFailed"},
		{"admin count with state of the wrong type", "POST", f + "/admin-count", map[string]any{"assignments": "all"}, 400, "invalidBody"},
		{"preview of an unknown forum", "POST", "/api/series/" + unknown + "/assignments-invitations-preview", map[string]any{"assignments": []any{}}, 404, "notFound"},
		{"preview without state", "POST", f + "/assignments-invitations-preview", map[string]any{}, 400, "parametersMissingException"},
		{"preview with an unknown role", "POST", f + "/assignments-invitations-preview", map[string]any{"assignments": []map[string]any{{"roleId": "owner", "assigneeIds": []string{m.nonMember.ProfileID}}}}, 400, "validationFailed"},
		{"preview of someone outside the community", "POST", f + "/assignments-invitations-preview", map[string]any{"assignments": []map[string]any{{"roleId": "member", "assigneeIds": []string{outsider}}}}, 400, "validationFailed"},
		{"preview with an unknown field", "POST", f + "/assignments-invitations-preview", map[string]any{"assignments": []any{}, "send": true}, 400, "invalidBody"},
		{"invite to an unknown forum", "POST", "/api/series/" + unknown + "/invitations", map[string]any{"profileIds": []string{m.reader.ProfileID}}, 404, "notFound"},
		{"assign to an unknown forum", "POST", "/api/series/" + unknown + "/assignments", map[string]any{"assignments": []map[string]any{{"roleId": "member", "assigneeIds": []string{m.nonMember.ProfileID}}}}, 404, "notFound"},
		{"assign oneself", "POST", f + "/assignments", map[string]any{"assignments": []map[string]any{{"roleId": "member", "assigneeIds": []string{m.forumAdmin.ProfileID}}}}, 400, "ownAssignment"},
		{"assignables of an unknown forum", "GET", "/api/series/" + unknown + "/assignables", nil, 404, "notFound"},
		{"assignables with a bad page", "GET", f + "/assignables?page=0&pageSize=0", nil, 400, "validationFailed"},
		{"members of a non-UUID forum", "GET", "/api/series/x/members", nil, 400, "validationFailed"},
		{"admins and experts with a bad page", "GET", f + "/admin-and-experts?pageSize=x", nil, 400, "validationFailed"},
		{"rename to nothing", "PATCH", f, map[string]any{"name": ""}, 400, "validationFailed"},
		{"a description of 1001", "PATCH", f, map[string]any{"description": strings.Repeat("d", 1001)}, 400, "validationFailed"},
		{"exclusivity of the wrong kind", "PATCH", f, map[string]any{"exclusivity": "secret"}, 400, "validationFailed"},
		{"exclusivity of the wrong type", "PATCH", f, map[string]any{"exclusivity": true}, 400, "invalidBody"},
		{"delete an unknown forum", "DELETE", "/api/series/" + unknown, nil, 404, "notFound"},
		{"a name with a NUL character", "PATCH", f, map[string]any{"name": "a\x00b"}, 400, "invalidBody"},
		{"a new forum with a NUL character", "POST", "/api/communities/" + m.community + "/series", map[string]any{"name": "a", "description": "\x00"}, 400, "invalidBody"},
		{"a keyword with a NUL character", "GET", f + "/assignables?keyword=a%00b", nil, 400, "validationFailed"},
		{"complimentary access in a non-UUID forum", "PUT", "/api/series/x/profiles/" + m.reader.ProfileID + "/complimentary", nil, 400, "validationFailed"},
		{"complimentary access of a non-UUID profile", "PUT", f + "/profiles/x/complimentary", nil, 400, "validationFailed"},
		{"take complimentary access of a non-UUID profile", "DELETE", f + "/profiles/x/complimentary", nil, 400, "validationFailed"},
		{"complimentary access in an unknown forum", "PUT", "/api/series/" + unknown + "/profiles/" + m.reader.ProfileID + "/complimentary", nil, 404, "notFound"},
		{"complimentary access of an unknown profile", "PUT", f + "/profiles/" + unknown + "/complimentary", nil, 404, "notFound"},
		{"complimentary access of someone not in the forum", "PUT", f + "/profiles/" + m.nonMember.ProfileID + "/complimentary", nil, 404, "notFound"},
		{"complimentary access of oneself", "PUT", f + "/profiles/" + m.forumAdmin.ProfileID + "/complimentary", nil, 400, "ownAssignment"},
	}
	before := m.digest(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { wantError(t, fa.Do(tc.method, tc.path, tc.body), tc.status, tc.code) })
	}
	if m.digest(t) != before {
		t.Error("refused calls wrote")
	}
	// The forum admin cannot demote the last other admin's way out either:
	// with the root admin removed, the forum admin is the last one.
	wantStatus(t, assign(t, m.commAdmin.Client, m.forum.ID, nil, profileID(t, env, adminEmail)), 204)
	before = m.digest(t)
	wantError(t, assign(t, m.commAdmin.Client, m.forum.ID, "member", m.forumAdmin.ProfileID), 400, "lastAdmin")
	wantError(t, assign(t, m.commAdmin.Client, m.forum.ID, nil, m.forumAdmin.ProfileID), 400, "lastAdmin")
	if m.digest(t) != before {
		t.Error("refused demotions of the last admin wrote")
	}
}
