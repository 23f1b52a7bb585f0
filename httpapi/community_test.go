package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"agora/app/testenv"
)

// POST /api/communities/{communityId}/profiles

// writes counts what adding a profile writes.
type writes struct{ profiles, memberships, tokens, mails int }

func countWrites(t *testing.T, env *testenv.Env) writes {
	t.Helper()
	return writes{
		profiles:    env.Count(t, "profiles", ""),
		memberships: env.Count(t, "community_memberships", ""),
		tokens:      env.Count(t, "tokens", ""),
		mails:       env.Count(t, "dev_mail", ""),
	}
}

func wantNoWrites(t *testing.T, env *testenv.Env, before writes) {
	t.Helper()
	if after := countWrites(t, env); after != before {
		t.Errorf("rows changed: %+v → %+v", before, after)
	}
}

func TestAddCommunityProfile(t *testing.T) {
	env := testenv.New(t)
	circle := communityID(t, env, leadershipCircle)
	data := communityID(t, env, dataPractitioner)
	admin := env.As(t, adminEmail)
	path := "/api/communities/" + circle + "/profiles"

	t.Run("admin adds and invites", func(t *testing.T) {
		email := freshAddress("Added")
		before := countWrites(t, env)
		r := admin.Do("POST", path, map[string]any{
			"firstName": "  Ada ", "lastName": " Lovelace ", "email": "  " + email + " ", "sendInvitation": true,
			"roleId": "member", "tags": " analytics , , engines ",
		})
		if r.Status != 201 {
			t.Fatalf("status %d: %s", r.Status, r.Body)
		}
		var b struct {
			ID string `json:"id"`
		}
		r.JSON(t, &b)
		if b.ID != profileID(t, env, email) {
			t.Errorf("id %s is not the stored profile", b.ID)
		}
		after := countWrites(t, env)
		if after.profiles != before.profiles+1 || after.memberships != before.memberships+1 || after.tokens != before.tokens+1 || after.mails != before.mails+1 {
			t.Errorf("writes %+v → %+v, want one of each", before, after)
		}
		got := queryString(t, env, `SELECT p.first_name || '|' || p.last_name || '|' || p.email || '|' || (p.user_id IS NULL) || '|' ||
			array_to_string(p.interest_tags, ',') || '|' || m.role || '|' || m.status
			FROM profiles p JOIN community_memberships m ON m.profile_id = p.id AND m.community_id = $2 WHERE p.id = $1`, b.ID, circle)
		if want := "Ada|Lovelace|" + email + "|true|analytics,engines|member|pending"; got != want {
			t.Errorf("stored %q, want %q", got, want)
		}
		if n := env.Count(t, "tokens", "kind = 'invitation' AND profile_id = $1 AND used_on IS NULL AND expires_on > now() + interval '13 days'", b.ID); n != 1 {
			t.Errorf("%d live invitations for the profile, want 1", n)
		}
		ms := mailbox(t, env, email)
		if len(ms) != 1 {
			t.Fatalf("%d mails, want 1", len(ms))
		}
		if ms[0].To != email || !strings.Contains(ms[0].Subject, "invited you") || !strings.Contains(ms[0].Subject, organizationName) ||
			!strings.Contains(ms[0].Body, "Hello Ada") || !strings.Contains(ms[0].Body, "Jordan Ellis") {
			t.Errorf("mail %+v", ms[0])
		}
		linkToken(t, ms[0].Body, "/accept-invitation")
	})

	t.Run("without invitation no mail", func(t *testing.T) {
		for name, send := range map[string]any{"false": false, "absent": nil} {
			t.Run(name, func(t *testing.T) {
				email := freshAddress("quiet")
				body := map[string]any{"firstName": "Q", "lastName": "Uiet", "email": email}
				if send != nil {
					body["sendInvitation"] = send
				}
				before := countWrites(t, env)
				r := admin.Do("POST", path, body)
				if r.Status != 201 {
					t.Fatalf("status %d: %s", r.Status, r.Body)
				}
				if n := len(mailbox(t, env, email)); n != 0 {
					t.Errorf("%d mails, want none", n)
				}
				after := countWrites(t, env)
				if after.tokens != before.tokens || after.mails != before.mails || after.profiles != before.profiles+1 {
					t.Errorf("writes %+v → %+v", before, after)
				}
			})
		}
	})

	t.Run("admin role", func(t *testing.T) {
		email := freshAddress("coadmin")
		r := admin.Do("POST", path, map[string]any{"firstName": "Co", "lastName": "Admin", "email": email, "roleId": "admin"})
		if r.Status != 201 {
			t.Fatalf("status %d: %s", r.Status, r.Body)
		}
		if n := env.Count(t, "community_memberships", "community_id = $1 AND profile_id = $2 AND role = 'admin'", circle, profileID(t, env, email)); n != 1 {
			t.Errorf("membership role is not admin")
		}
	})

	t.Run("super user may add", func(t *testing.T) {
		r := env.As(t, superEmail).Do("POST", "/api/communities/"+data+"/profiles", map[string]any{
			"firstName": "By", "lastName": "Super", "email": freshAddress("bysuper"),
		})
		if r.Status != 201 {
			t.Errorf("status %d: %s", r.Status, r.Body)
		}
	})

	t.Run("a second community reuses the organization profile", func(t *testing.T) {
		email := freshAddress("both")
		first := admin.Do("POST", path, map[string]any{"firstName": "B", "lastName": "Oth", "email": email})
		before := countWrites(t, env)
		second := admin.Do("POST", "/api/communities/"+data+"/profiles", map[string]any{"firstName": "Other", "lastName": "Name", "email": strings.ToUpper(email)})
		if first.Status != 201 || second.Status != 201 {
			t.Fatalf("statuses %d, %d: %s %s", first.Status, second.Status, first.Body, second.Body)
		}
		var a, b struct {
			ID string `json:"id"`
		}
		first.JSON(t, &a)
		second.JSON(t, &b)
		if a.ID != b.ID {
			t.Errorf("profiles %s and %s, want the same", a.ID, b.ID)
		}
		after := countWrites(t, env)
		if after.profiles != before.profiles || after.memberships != before.memberships+1 {
			t.Errorf("writes %+v → %+v, want one membership only", before, after)
		}
	})

	// A member of the community is refused; one who cannot see it is
	// told it does not exist, as by every community call.
	t.Run("permissions", func(t *testing.T) {
		cases := []struct {
			who, community string
			status         int
			code           string
		}{
			{memberEmail, circle, 403, "forbidden"},  // a plain member of the community
			{expertEmail, circle, 403, "forbidden"},  // a forum expert, still a plain community member
			{outsiderEmail, circle, 404, "notFound"}, // in no community
			{memberEmail, data, 404, "notFound"},     // not in that community
		}
		for _, tc := range cases {
			t.Run(tc.who, func(t *testing.T) {
				email := freshAddress("forbidden")
				before := countWrites(t, env)
				r := env.As(t, tc.who).Do("POST", "/api/communities/"+tc.community+"/profiles", map[string]any{
					"firstName": "Not", "lastName": "Allowed", "email": email, "sendInvitation": true,
				})
				wantError(t, r, tc.status, tc.code)
				wantNoWrites(t, env, before)
				if n := env.Count(t, "profiles", "email_key = $1", email); n != 0 {
					t.Errorf("profile written")
				}
			})
		}
	})

	t.Run("a community admin manages only their community", func(t *testing.T) {
		email := freshAddress("cadmin")
		r := admin.Do("POST", path, map[string]any{"firstName": "Comm", "lastName": "Admin", "email": email, "roleId": "admin", "sendInvitation": true})
		if r.Status != 201 {
			t.Fatalf("add: %d %s", r.Status, r.Body)
		}
		token := newestToken(t, env, email, "/accept-invitation")
		reg := env.Client(t).Do("POST", "/api/users?token="+token, map[string]any{"firstName": "Comm", "lastName": "Admin", "password": "comm-Admin-1"})
		if reg.Status != 201 {
			t.Fatalf("register: %d %s", reg.Status, reg.Body)
		}
		var s sessionBody
		reg.JSON(t, &s)
		c := withToken(t, env, s.AccessToken)
		if r := c.Do("POST", path, map[string]any{"firstName": "By", "lastName": "Cadmin", "email": freshAddress("bycadmin")}); r.Status != 201 {
			t.Errorf("own community: %d %s", r.Status, r.Body)
		}
		before := countWrites(t, env)
		wantError(t, c.Do("POST", "/api/communities/"+data+"/profiles", map[string]any{
			"firstName": "Not", "lastName": "Theirs", "email": freshAddress("nottheirs"), "sendInvitation": true,
		}), 404, "notFound")
		wantNoWrites(t, env, before)
	})

	t.Run("unknown and malformed community ids", func(t *testing.T) {
		before := countWrites(t, env)
		body := map[string]any{"firstName": "A", "lastName": "B", "email": freshAddress("nowhere"), "sendInvitation": true}
		wantError(t, admin.Do("POST", "/api/communities/"+unknownID+"/profiles", body), 404, "notFound")
		for _, id := range []string{"not-a-uuid", "42", strings.Repeat("f", 40)} {
			wantInvalid(t, admin.Do("POST", "/api/communities/"+id+"/profiles", body), "communityId")
		}
		wantNoWrites(t, env, before)
	})

	t.Run("duplicate member", func(t *testing.T) {
		for name, email := range map[string]string{
			"same address":   memberEmail,
			"other spelling": "  Member@Demo.Agora ",
			"the admin":      adminEmail,
		} {
			t.Run(name, func(t *testing.T) {
				before := countWrites(t, env)
				r := admin.Do("POST", path, map[string]any{"firstName": "Chris", "lastName": "Morgan", "email": email, "sendInvitation": true})
				wantError(t, r, 409, "emailConflict")
				wantNoWrites(t, env, before)
			})
		}
		// Added twice through the API: the second is a conflict too.
		email := freshAddress("twice")
		body := map[string]any{"firstName": "T", "lastName": "Wice", "email": email, "sendInvitation": true}
		if r := admin.Do("POST", path, body); r.Status != 201 {
			t.Fatalf("first: %d %s", r.Status, r.Body)
		}
		before := countWrites(t, env)
		wantError(t, admin.Do("POST", path, body), 409, "emailConflict")
		wantNoWrites(t, env, before)
		if n := len(mailbox(t, env, email)); n != 1 {
			t.Errorf("%d mails, want 1", n)
		}
	})

	t.Run("invalid values", func(t *testing.T) {
		long := strings.Repeat("n", 51)
		tags := distinctTags(31) + ","
		cases := []struct {
			name   string
			body   map[string]any
			fields []string
		}{
			{"bad email", map[string]any{"firstName": "A", "lastName": "B", "email": "not-an-email"}, []string{"email"}},
			{"email without dotted domain", map[string]any{"firstName": "A", "lastName": "B", "email": "a@localhost"}, []string{"email"}},
			{"email with display name", map[string]any{"firstName": "A", "lastName": "B", "email": "A B <ab@example.test>"}, []string{"email"}},
			{"blank email", map[string]any{"firstName": "A", "lastName": "B", "email": "  "}, []string{"email"}},
			{"email too long", map[string]any{"firstName": "A", "lastName": "B", "email": strings.Repeat("e", 250) + "@example.test"}, []string{"email"}},
			{"blank first name", map[string]any{"firstName": " ", "lastName": "B", "email": freshAddress("v")}, []string{"firstName"}},
			{"first name of 51", map[string]any{"firstName": long, "lastName": "B", "email": freshAddress("v")}, []string{"firstName"}},
			{"last name of 51", map[string]any{"firstName": "A", "lastName": long, "email": freshAddress("v")}, []string{"lastName"}},
			{"first name with CR LF and a header", map[string]any{"firstName": "J\r\nBcc: a@evil.test", "lastName": "B", "email": freshAddress("v"), "sendInvitation": true}, []string{"firstName"}},
			{"last name with a right-to-left override", map[string]any{"firstName": "A", "lastName": "B\u202E", "email": freshAddress("v")}, []string{"lastName"}},
			{"unknown role", map[string]any{"firstName": "A", "lastName": "B", "email": freshAddress("v"), "roleId": "owner"}, []string{"roleId"}},
			{"tag of 41", map[string]any{"firstName": "A", "lastName": "B", "email": freshAddress("v"), "tags": strings.Repeat("x", 41)}, []string{"tags"}},
			{"31 tags", map[string]any{"firstName": "A", "lastName": "B", "email": freshAddress("v"), "tags": tags + "last"}, []string{"tags"}},
			{"everything wrong", map[string]any{"firstName": "", "lastName": "", "email": "x"}, []string{"firstName", "lastName", "email"}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				before := countWrites(t, env)
				wantInvalid(t, admin.Do("POST", path, tc.body), tc.fields...)
				wantNoWrites(t, env, before)
			})
		}
	})

	t.Run("missing fields", func(t *testing.T) {
		cases := []struct {
			name    string
			body    map[string]any
			missing []string
		}{
			{"empty object", map[string]any{}, []string{"email", "firstName", "lastName"}},
			{"only email", map[string]any{"email": freshAddress("m")}, []string{"firstName", "lastName"}},
			{"no email", map[string]any{"firstName": "A", "lastName": "B", "sendInvitation": true}, []string{"email"}},
			{"null names", map[string]any{"firstName": nil, "lastName": nil, "email": freshAddress("m")}, []string{"firstName", "lastName"}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				before := countWrites(t, env)
				wantMissing(t, admin.Do("POST", path, tc.body), tc.missing...)
				wantNoWrites(t, env, before)
			})
		}
	})

	t.Run("bad bodies", func(t *testing.T) {
		before := countWrites(t, env)
		checkBadBodies(t, admin, "POST", path, map[string]struct{ body, field string }{
			"email of wrong type":      {`{"firstName": "A", "lastName": "B", "email": 5}`, "email"},
			"sendInvitation as string": {`{"firstName": "A", "lastName": "B", "email": "x@example.test", "sendInvitation": "yes"}`, "sendInvitation"},
			"tags as array":            {`{"firstName": "A", "lastName": "B", "email": "x@example.test", "tags": ["a"]}`, "tags"},
			"unknown field":            {`{"firstName": "A", "lastName": "B", "email": "x@example.test", "phone": "555"}`, "phone"},
		})
		wantNoWrites(t, env, before)
	})
}

// distinctTags is n different tags as one comma-separated text (repeats
// are dropped, so they would not count toward the limit).
func distinctTags(n int) string {
	tags := make([]string, n)
	for i := range tags {
		tags[i] = fmt.Sprint("t", i)
	}
	return strings.Join(tags, ",")
}
