package httpapi_test

import (
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"agora/app/testenv"
)

func TestUpdateMe(t *testing.T) {
	env := testenv.New(t)
	m := newMember(t, env, "patch")
	c := m.Client

	t.Run("updates and trims fields", func(t *testing.T) {
		r := c.Do("PATCH", "/api/users/me", map[string]any{
			"firstName": "  Grace ", "lastName": " Hopper", "jobTitle": " Rear Admiral ", "company": " Navy ",
			"bio":          "  Wrote the first compiler.  ",
			"interestTags": []string{" compilers ", "COBOL", "Compilers", "cobol "}, "school": " Yale ",
			"degree": "PhD", "fieldOfStudy": " Mathematics ", "graduationYear": 1934,
		})
		if r.Status != 200 {
			t.Fatalf("status %d: %s", r.Status, r.Body)
		}
		var u userBody
		r.JSON(t, &u)
		want := userBody{
			ID: m.UserID, Email: m.Email, FirstName: "Grace", LastName: "Hopper", JobTitle: "Rear Admiral", Company: "Navy",
			Bio: "Wrote the first compiler.", InterestTags: []string{"compilers", "COBOL"}, School: "Yale", Degree: "PhD",
			FieldOfStudy: "Mathematics", Role: "user",
		}
		if u.Avatar != nil || u.GraduationYear == nil || *u.GraduationYear != 1934 {
			t.Errorf("avatar %v, graduationYear %v", u.Avatar, u.GraduationYear)
		}
		u.Avatar, u.GraduationYear, u.CreatedOn = nil, nil, ""
		if !reflect.DeepEqual(u, want) {
			t.Errorf("user\n got %+v\nwant %+v", u, want)
		}
		// Stored, and shown on the person's profile.
		if got := queryString(t, env, "SELECT first_name || '|' || job_title || '|' || array_to_string(interest_tags, ',') FROM users WHERE id = $1", m.UserID); got != "Grace|Rear Admiral|compilers,COBOL" {
			t.Errorf("stored %q", got)
		}
		pr := c.Do("GET", "/api/profiles/"+m.ProfileID, nil)
		var p profileBody
		pr.JSON(t, &p)
		if pr.Status != 200 || p.Name != "Grace Hopper" || p.JobTitle != "Rear Admiral" {
			t.Errorf("profile after update: %d %s", pr.Status, pr.Body)
		}
	})

	t.Run("absent fields are kept, null clears", func(t *testing.T) {
		r := c.Do("PATCH", "/api/users/me", map[string]any{"avatar": nil, "graduationYear": nil})
		if r.Status != 200 {
			t.Fatalf("status %d: %s", r.Status, r.Body)
		}
		var u userBody
		r.JSON(t, &u)
		if u.Avatar != nil || u.GraduationYear != nil {
			t.Errorf("avatar %v, graduationYear %v; want both cleared", u.Avatar, u.GraduationYear)
		}
		if u.FirstName != "Grace" || u.Bio != "Wrote the first compiler." || len(u.InterestTags) != 2 {
			t.Errorf("fields not sent changed: %s", r.Body)
		}
		if n := env.Count(t, "users", "id = $1 AND avatar IS NULL AND graduation_year IS NULL", m.UserID); n != 1 {
			t.Errorf("not cleared in the database")
		}
		// An empty patch changes nothing and answers the user.
		r = c.Do("PATCH", "/api/users/me", map[string]any{})
		var same userBody
		r.JSON(t, &same)
		if r.Status != 200 || same.FirstName != "Grace" {
			t.Errorf("empty patch: %d %s", r.Status, r.Body)
		}
		// An empty tag list clears the tags.
		r = c.Do("PATCH", "/api/users/me", map[string]any{"interestTags": []string{}})
		r.JSON(t, &same)
		if r.Status != 200 || len(same.InterestTags) != 0 || same.InterestTags == nil {
			t.Errorf("empty tags: %d %s", r.Status, r.Body)
		}
	})

	t.Run("invalid values change nothing", func(t *testing.T) {
		tags := make([]string, 31)
		for i := range tags {
			tags[i] = "tag" + strconv.Itoa(i)
		}
		cases := []struct {
			name   string
			body   map[string]any
			fields []string
		}{
			{"bio of 1001", map[string]any{"bio": strings.Repeat("b", 1001)}, []string{"bio"}},
			{"blank first name", map[string]any{"firstName": "   "}, []string{"firstName"}},
			{"invisible first name", map[string]any{"firstName": "\u200b\u2060 \ufeff"}, []string{"firstName"}},
			{"invisible tag", map[string]any{"interestTags": []string{"ok", "\u200d"}}, []string{"interestTags"}},
			{"first name of 51", map[string]any{"firstName": strings.Repeat("é", 51)}, []string{"firstName"}},
			{"last name of 51", map[string]any{"lastName": strings.Repeat("l", 51)}, []string{"lastName"}},
			{"job title of 101", map[string]any{"jobTitle": strings.Repeat("j", 101)}, []string{"jobTitle"}},
			{"company of 101", map[string]any{"company": strings.Repeat("c", 101)}, []string{"company"}},
			{"school of 101", map[string]any{"school": strings.Repeat("s", 101)}, []string{"school"}},
			{"degree of 101", map[string]any{"degree": strings.Repeat("d", 101)}, []string{"degree"}},
			{"field of study of 101", map[string]any{"fieldOfStudy": strings.Repeat("f", 101)}, []string{"fieldOfStudy"}},
			{"avatar not a URL", map[string]any{"avatar": "not a url"}, []string{"avatar"}},
			{"avatar ftp", map[string]any{"avatar": "ftp://example.test/a.png"}, []string{"avatar"}},
			{"avatar javascript", map[string]any{"avatar": "javascript:alert(1)"}, []string{"avatar"}},
			{"avatar empty", map[string]any{"avatar": ""}, []string{"avatar"}},
			{"avatar too long", map[string]any{"avatar": "https://example.test/" + strings.Repeat("a", 2048)}, []string{"avatar"}},
			// Issue 31, G9: an image elsewhere would tell its site who views the member.
			{"avatar on another site", map[string]any{"avatar": "https://img.example.test/grace.png"}, []string{"avatar"}},
			{"avatar on another site over http", map[string]any{"avatar": " http://tracker.example.test/p.gif?viewer=1 "}, []string{"avatar"}},
			{"graduation year 1800", map[string]any{"graduationYear": 1800}, []string{"graduationYear"}},
			{"graduation year 2101", map[string]any{"graduationYear": 2101}, []string{"graduationYear"}},
			{"31 tags", map[string]any{"interestTags": tags}, []string{"interestTags"}},
			{"blank tag", map[string]any{"interestTags": []string{"ok", " "}}, []string{"interestTags"}},
			{"tag of 41", map[string]any{"interestTags": []string{strings.Repeat("t", 41)}}, []string{"interestTags"}},
			// Names reach mail headers and other members' screens (issue 14, F2).
			{"first name with CR LF and a header", map[string]any{"firstName": "J\r\nBcc: a@evil.test"}, []string{"firstName"}},
			{"last name with a tab", map[string]any{"lastName": "Li\tu"}, []string{"lastName"}},
			{"first name with a right-to-left override", map[string]any{"firstName": "Grace\u202Egnp.exe"}, []string{"firstName"}},
			{"last name with an isolate", map[string]any{"lastName": "\u2067Liu\u2069"}, []string{"lastName"}},
			{"company with a line feed", map[string]any{"company": "Acme\nInc"}, []string{"company"}},
			{"job title with a C1 control inside", map[string]any{"jobTitle": "Le\u0085ad"}, []string{"jobTitle"}},
			{"tag with a bidi mark", map[string]any{"interestTags": []string{"go\u200F"}}, []string{"interestTags"}},
			{"several at once", map[string]any{"bio": strings.Repeat("b", 1001), "graduationYear": 1800, "firstName": ""}, []string{"bio", "graduationYear", "firstName"}},
			{"one bad among good", map[string]any{"jobTitle": "Changed", "graduationYear": 1800}, []string{"graduationYear"}},
			{"bad new password", map[string]any{"currentPassword": m.Password, "password": "short"}, []string{"password"}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				before := userRow(t, env, m.Email)
				wantInvalid(t, c.Do("PATCH", "/api/users/me", tc.body), tc.fields...)
				if after := userRow(t, env, m.Email); after != before {
					t.Errorf("user changed:\n%s\n%s", before, after)
				}
			})
		}
	})

	t.Run("bad bodies change nothing", func(t *testing.T) {
		before := userRow(t, env, m.Email)
		checkBadBodies(t, c, "PATCH", "/api/users/me", map[string]struct{ body, field string }{
			"email is not editable":  {`{"email": "new@example.test"}`, "email"},
			"role is not editable":   {`{"role": "super"}`, "role"},
			"unknown field":          {`{"nickname": "g"}`, "nickname"},
			"year as string":         {`{"graduationYear": "1934"}`, "graduationYear"},
			"year as fraction":       {`{"graduationYear": 1934.5}`, "graduationYear"},
			"tags as string":         {`{"interestTags": "a,b"}`, "interestTags"},
			"first name as number":   {`{"firstName": 7}`, "firstName"},
			"avatar as object":       {`{"avatar": {"url": "https://x.test"}}`, ""},
			"bio as bool":            {`{"bio": true}`, "bio"},
			"password as number":     {`{"currentPassword": "x", "password": 12345678}`, "password"},
			"current password array": {`{"currentPassword": [], "password": "x"}`, "currentPassword"},
		})
		if after := userRow(t, env, m.Email); after != before {
			t.Errorf("user changed:\n%s\n%s", before, after)
		}
	})

	t.Run("password change", func(t *testing.T) {
		other := signIn(t, env, m.Email, m.Password)
		before := passwordHash(t, env, m.Email)
		const next = "second-Pass-456"

		wantMissing(t, c.Do("PATCH", "/api/users/me", map[string]any{"password": next}), "currentPassword")
		wantInvalid(t, c.Do("PATCH", "/api/users/me", map[string]any{"password": next, "currentPassword": "wrong-password"}), "currentPassword")
		for name, pw := range map[string]string{"too short": "short1!", "with a space": "has a space1", "65 characters": strings.Repeat("x", 65)} {
			t.Run(name, func(t *testing.T) {
				wantInvalid(t, c.Do("PATCH", "/api/users/me", map[string]any{"password": pw, "currentPassword": m.Password}), "password")
			})
		}
		// A wrong current password also keeps the other fields as they were.
		wantInvalid(t, c.Do("PATCH", "/api/users/me", map[string]any{"password": next, "currentPassword": "wrong-password", "bio": "changed"}), "currentPassword")
		if got := passwordHash(t, env, m.Email); got != before {
			t.Fatal("refused changes changed the password")
		}
		if got := queryString(t, env, "SELECT bio FROM users WHERE id = $1", m.UserID); got == "changed" {
			t.Error("a refused password change saved the bio")
		}
		if r := other.Do("GET", "/api/tokens/decode", nil); r.Status != 200 {
			t.Fatalf("refused changes ended the other session: %d %s", r.Status, r.Body)
		}

		r := c.Do("PATCH", "/api/users/me", map[string]any{"password": next, "currentPassword": m.Password})
		if r.Status != 200 {
			t.Fatalf("change: %d %s", r.Status, r.Body)
		}
		if strings.Contains(string(r.Body), "password") || strings.Contains(string(r.Body), "$argon2") {
			t.Errorf("the answer shows password data: %s", r.Body)
		}
		if r := c.Do("GET", "/api/tokens/decode", nil); r.Status != 200 {
			t.Errorf("the current session ended: %d %s", r.Status, r.Body)
		}
		wantError(t, other.Do("GET", "/api/tokens/decode", nil), 401, "tokenInvalid")
		if st, code := signInStatus(t, env, m.Email, m.Password); st != 401 || code != "loginAuthentication" {
			t.Errorf("old password: %d %s", st, code)
		}
		signIn(t, env, m.Email, next)
	})
}

// ---------------------------------------------------------------------------
// GET /api/profiles/{id}

func TestGetProfile(t *testing.T) {
	env := testenv.New(t)
	clients := map[string]*testenv.Client{}
	for _, e := range []string{superEmail, adminEmail, expertEmail, memberEmail, outsiderEmail} {
		clients[e] = env.As(t, e)
	}
	cases := []struct {
		viewer, owner string
		status        int
	}{
		{memberEmail, memberEmail, 200},
		{memberEmail, expertEmail, 200},   // same community
		{memberEmail, adminEmail, 200},    // same community
		{memberEmail, camilaEmail, 404},   // only in the other community
		{memberEmail, outsiderEmail, 404}, // in no community
		{expertEmail, memberEmail, 200},
		{outsiderEmail, outsiderEmail, 200},
		{outsiderEmail, memberEmail, 404},
		{outsiderEmail, expertEmail, 404},
		{outsiderEmail, adminEmail, 404},
		{superEmail, outsiderEmail, 200},
		{superEmail, camilaEmail, 200},
		{superEmail, memberEmail, 200},
		{adminEmail, outsiderEmail, 200}, // organization admin
		{adminEmail, camilaEmail, 200},
	}
	for _, tc := range cases {
		t.Run(tc.viewer+" reads "+tc.owner, func(t *testing.T) {
			id := profileID(t, env, tc.owner)
			r := clients[tc.viewer].Do("GET", "/api/profiles/"+id, nil)
			if tc.status != 200 {
				wantError(t, r, tc.status, "notFound")
				return
			}
			if r.Status != 200 {
				t.Fatalf("status %d: %s", r.Status, r.Body)
			}
			var p profileBody
			r.JSON(t, &p)
			if p.ID != id || p.Email != tc.owner || p.UserID == nil || *p.UserID != userID(t, env, tc.owner) || p.Name != p.FirstName+" "+p.LastName {
				t.Errorf("profile %s", r.Body)
			}
		})
	}

	t.Run("expert's forums", func(t *testing.T) {
		r := clients[memberEmail].Do("GET", "/api/profiles/"+profileID(t, env, expertEmail), nil)
		var p profileBody
		r.JSON(t, &p)
		if !p.IsExpert || len(p.ExpertInSeries) != 1 || p.ExpertInSeries[0].Name != "Roadmaps & Prioritization" {
			t.Errorf("expert profile: %s", r.Body)
		}
		r = clients[memberEmail].Do("GET", "/api/profiles/"+profileID(t, env, memberEmail), nil)
		r.JSON(t, &p)
		if p.IsExpert || p.ExpertInSeries == nil || len(p.ExpertInSeries) != 0 {
			t.Errorf("member profile: %s", r.Body)
		}
	})

	t.Run("bad ids", func(t *testing.T) {
		c := clients[superEmail]
		wantError(t, c.Do("GET", "/api/profiles/"+unknownID, nil), 404, "notFound")
		for _, id := range []string{"not-a-uuid", "123", "01000000-0000-7000-8000-0000deadbee", url.PathEscape("' OR 1=1 --")} {
			wantInvalid(t, c.Do("GET", "/api/profiles/"+id, nil), "id")
		}
	})
}
