package httpapi_test

import (
	"slices"
	"testing"

	"github.com/google/uuid"

	"agora/app/testenv"
)

// personProfileBody is GET /users/{userId}/profile's answer.
type personProfileBody struct {
	UserID         string   `json:"userId"`
	FirstName      string   `json:"firstName"`
	LastName       string   `json:"lastName"`
	Email          string   `json:"email"`
	Bio            string   `json:"bio"`
	InterestTags   []string `json:"interestTags"`
	Location       *string  `json:"location"`
	ExpertInSeries []string `json:"expertInSeries"`
	Status         string   `json:"status"`
}

// profileTarget is a fresh person whose only community is a fresh one
// shared with the matrix's community admin and member (not with the
// organization admin, the super user or the outsider): newMember puts
// everyone in the first community, which would make them all peers.
func profileTarget(t *testing.T, env *testenv.Env, m *matrixCommunity) (member, string) {
	t.Helper()
	c := m.community(t)
	target := newMember(t, env, "Target")
	exec(t, env, "DELETE FROM community_memberships WHERE profile_id = $1", target.ProfileID)
	join(t, env, c, "member", target.ProfileID)
	return target, c
}

// TestMatrixPersonProfile: a person's profile is read by themself and by
// their peers (an active member of a community they share, admin or not);
// the organization admin, a super user and an outsider who share no
// community with them, and a former member, get the 404 of an unknown id;
// a guest 401. Nothing is written by any of it.
func TestMatrixPersonProfile(t *testing.T) {
	env := testenv.New(t)
	m := newMatrixCommunity(t, env)
	target, c := profileTarget(t, env, m)
	path := "/api/users/" + target.UserID + "/profile"
	peers := map[string]outcome{"super": hidden, "org admin": hidden, "community admin": allowed(200),
		"member": allowed(200), "outsider": hidden, "guest": guestRefused}
	digest := func() string {
		return queryString(t, env, `SELECT md5(concat_ws('|',
			(SELECT x::text FROM users x WHERE x.id = $1),
			(SELECT string_agg(x::text, ',' ORDER BY x.profile_id) FROM community_memberships x WHERE x.community_id = $2)))`, target.UserID, c)
	}
	for _, role := range m.roles() {
		t.Run(role.name, func(t *testing.T) {
			w := peers[role.name]
			before := digest()
			r := role.c.Do("GET", path, nil)
			if w.code == "" {
				wantStatus(t, r, w.status)
				var p personProfileBody
				r.JSON(t, &p)
				if p.UserID != target.UserID || p.Email != target.Email || p.FirstName != "Fresh" {
					t.Errorf("%s reads %+v", role.name, p)
				}
			} else {
				wantError(t, r, w.status, w.code)
			}
			if digest() != before {
				t.Error("reading a profile wrote")
			}
		})
	}
	// Themself, whatever their communities.
	wantStatus(t, target.Client.Do("GET", path, nil), 200)
	alone := newMember(t, env, "Alone")
	exec(t, env, "DELETE FROM community_memberships WHERE profile_id = $1", alone.ProfileID)
	wantStatus(t, alone.Client.Do("GET", "/api/users/"+alone.UserID+"/profile", nil), 200)
	wantError(t, alone.Client.Do("GET", path, nil), 404, "notFound")
	// A membership that is not active makes no peer.
	exec(t, env, "UPDATE community_memberships SET status = 'pending' WHERE profile_id = $1 AND community_id = $2", m.memberM.ProfileID, c)
	wantError(t, m.member.Do("GET", path, nil), 404, "notFound")
	// Bad and unknown ids.
	wantError(t, m.commAdmin.Do("GET", "/api/users/not-a-uuid/profile", nil), 400, "validationFailed")
	wantError(t, m.commAdmin.Do("GET", "/api/users/"+uuid.NewString()+"/profile", nil), 404, "notFound")
}

// TestProfilePersonFields: the dialog's fields as the person edited them,
// and their expertise only in the forums the caller reads.
func TestProfilePersonFields(t *testing.T) {
	env := testenv.New(t)
	m := newMatrixCommunity(t, env)
	target, c := profileTarget(t, env, m)
	wantStatus(t, target.Client.Do("PATCH", "/api/users/me", map[string]any{
		"firstName": "Ada", "lastName": "Lovelace", "jobTitle": "Analyst", "company": "Engines Ltd",
		"bio": "Notes on the engine.", "interestTags": []string{"math", "poetry"},
	}), 200)
	root := env.As(t, adminEmail)
	shared, private := createForum(t, root, c), createForum(t, root, c)
	wantStatus(t, assign(t, root, shared.ID, "member", target.ProfileID, m.memberM.ProfileID), 204)
	wantStatus(t, assign(t, root, private.ID, "member", target.ProfileID), 204)
	// Expert in these two alone: as a member of the community they are
	// also a member of its open forums.
	exec(t, env, "UPDATE series_memberships SET is_expert = true WHERE profile_id = $1 AND series_id IN ($2, $3)", target.ProfileID, shared.ID, private.ID)

	read := func(c *testenv.Client) personProfileBody {
		t.Helper()
		r := c.Do("GET", "/api/users/"+target.UserID+"/profile", nil)
		wantStatus(t, r, 200)
		var p personProfileBody
		r.JSON(t, &p)
		return p
	}
	p := read(m.member)
	if p.FirstName != "Ada" || p.LastName != "Lovelace" || p.Bio != "Notes on the engine." ||
		!slices.Equal(p.InterestTags, []string{"math", "poetry"}) || p.Location != nil || p.Status != "offline" {
		t.Errorf("profile %+v", p)
	}
	// The member reads only the shared forum; the community admin both.
	if !slices.Equal(p.ExpertInSeries, []string{shared.ID}) {
		t.Errorf("member sees expertise %v, want only %s", p.ExpertInSeries, shared.ID)
	}
	if got := read(m.commAdmin).ExpertInSeries; len(got) != 2 || !slices.Contains(got, private.ID) {
		t.Errorf("community admin sees expertise %v, want both forums", got)
	}
}
