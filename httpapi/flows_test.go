package httpapi_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"agora/app/testenv"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/config"
)

// ---------------------------------------------------------------------------
// Password reset through the dev mailbox

const neutralReset = "If an account exists for this email, a link to reset the password has been sent."

func TestPasswordReset(t *testing.T) {
	env := testenv.New(t)
	m := newMember(t, env, "reset")
	anon := env.Client(t)

	request := func(t *testing.T, email string) {
		t.Helper()
		r := anon.Do("POST", "/api/tokens/passwordReset", map[string]string{"email": email})
		if r.Status != 202 {
			t.Fatalf("request reset for %q: %d %s", email, r.Status, r.Body)
		}
		var b struct {
			Message string `json:"message"`
		}
		r.JSON(t, &b)
		if b.Message != neutralReset {
			t.Errorf("message %q", b.Message)
		}
	}
	resetToken := func(t *testing.T) string {
		t.Helper()
		return newestToken(t, env, m.Email, "/reset-password")
	}

	t.Run("bad requests send nothing", func(t *testing.T) {
		before := env.Count(t, "dev_mail", "")
		tokens := env.Count(t, "tokens", "")
		for name, email := range map[string]string{
			"not an address":      "not-an-email",
			"no dotted domain":    "someone@localhost",
			"display name":        "Some One <" + m.Email + ">",
			"two addresses":       m.Email + "," + m.Email,
			"space inside":        "some one@example.test",
			"address too long":    strings.Repeat("a", 250) + "@example.test",
			"missing at":          "example.test",
			"trailing garbage":    m.Email + " x",
			"angle brackets only": "<" + m.Email + ">",
		} {
			t.Run(name, func(t *testing.T) {
				wantInvalid(t, anon.Do("POST", "/api/tokens/passwordReset", map[string]string{"email": email}), "email")
			})
		}
		wantMissing(t, anon.Do("POST", "/api/tokens/passwordReset", map[string]any{}), "email")
		wantMissing(t, anon.Do("POST", "/api/tokens/passwordReset", map[string]any{"email": "  "}), "email")
		wantMissing(t, anon.Do("POST", "/api/tokens/passwordReset", map[string]any{"email": nil}), "email")
		checkBadBodies(t, anon, "POST", "/api/tokens/passwordReset", map[string]struct{ body, field string }{
			"email of wrong type": {`{"email": ["` + m.Email + `"]}`, "email"},
			"unknown field":       {`{"email": "` + m.Email + `", "username": "x"}`, "username"},
		})
		if n := env.Count(t, "dev_mail", ""); n != before {
			t.Errorf("mails %d → %d", before, n)
		}
		if n := env.Count(t, "tokens", ""); n != tokens {
			t.Errorf("tokens %d → %d", tokens, n)
		}
	})

	t.Run("unknown address gets the same answer and no mail", func(t *testing.T) {
		unknown := freshAddress("ghost")
		known := anon.Do("POST", "/api/tokens/passwordReset", map[string]string{"email": freshAddress("ghost2")})
		r := anon.Do("POST", "/api/tokens/passwordReset", map[string]string{"email": unknown})
		if r.Status != 202 || string(r.Body) != string(known.Body) {
			t.Errorf("got %d %s", r.Status, r.Body)
		}
		if n := len(mailbox(t, env, unknown)); n != 0 {
			t.Errorf("%d mails to an unknown address", n)
		}
		// And it answers like a known address does.
		k := anon.Do("POST", "/api/tokens/passwordReset", map[string]string{"email": m.Email})
		if k.Status != r.Status || string(k.Body) != string(r.Body) {
			t.Errorf("known %d %s, unknown %d %s", k.Status, k.Body, r.Status, r.Body)
		}
	})

	t.Run("end to end", func(t *testing.T) {
		oldSession := signIn(t, env, m.Email, m.Password)
		oldHash := passwordHash(t, env, m.Email)
		mailsBefore := len(mailbox(t, env, m.Email))
		request(t, "  "+strings.ToUpper(m.Email)+" ")
		ms := mailbox(t, env, m.Email)
		if len(ms) != mailsBefore+1 {
			t.Fatalf("%d mails, want %d", len(ms), mailsBefore+1)
		}
		if ms[0].To != m.Email || ms[0].Subject != "Reset your Agora password" || !strings.Contains(ms[0].Body, "1 hour") {
			t.Errorf("mail %+v", ms[0])
		}
		token := linkToken(t, ms[0].Body, "/reset-password")
		if n := env.Count(t, "tokens", "token_hash = $1 AND kind = 'passwordReset' AND user_id = $2 AND used_on IS NULL", auth.HashToken(token), m.UserID); n != 1 {
			t.Fatalf("no stored reset token for the mailed link")
		}

		r := anon.Do("GET", "/api/tokens/passwordReset/"+token, nil)
		var check struct {
			Valid     bool   `json:"valid"`
			ExpiresOn string `json:"expiresOn"`
		}
		r.JSON(t, &check)
		if r.Status != 200 || !check.Valid || check.ExpiresOn == "" {
			t.Fatalf("check: %d %s", r.Status, r.Body)
		}

		use := "/api/tokens/passwordReset/" + token + "/use"
		for name, pw := range map[string]string{
			"too short":     "Short1!",
			"with a space":  "has a space1",
			"leading space": " leadingspace",
			"with a tab":    "tab\tinside1",
			"65 characters": strings.Repeat("p", 65),
		} {
			t.Run(name, func(t *testing.T) {
				wantInvalid(t, anon.Do("POST", use, map[string]string{"password": pw}), "password")
			})
		}
		wantMissing(t, anon.Do("POST", use, map[string]any{}), "password")
		wantMissing(t, anon.Do("POST", use, map[string]any{"password": ""}), "password")
		checkBadBodies(t, anon, "POST", use, map[string]struct{ body, field string }{
			"password of wrong type": {`{"password": 12345678}`, "password"},
			"unknown field":          {`{"password": "long-enough-1", "confirm": "long-enough-1"}`, "confirm"},
		})
		if passwordHash(t, env, m.Email) != oldHash {
			t.Fatal("a refused reset changed the password")
		}
		if r := anon.Do("GET", "/api/tokens/passwordReset/"+token, nil); r.Status != 200 {
			t.Fatalf("refused resets used the token up: %d %s", r.Status, r.Body)
		}
		if r := oldSession.Do("GET", "/api/tokens/decode", nil); r.Status != 200 {
			t.Fatalf("refused resets ended the session: %d %s", r.Status, r.Body)
		}

		// 64 characters is the longest password allowed.
		newPassword := "reset-" + strings.Repeat("Z", 58)
		r = anon.Do("POST", use, map[string]string{"password": newPassword})
		if r.Status != 200 {
			t.Fatalf("reset: %d %s", r.Status, r.Body)
		}
		var done struct {
			Message string `json:"message"`
		}
		r.JSON(t, &done)
		if done.Message != "Password was reset successfully!" {
			t.Errorf("message %q", done.Message)
		}
		if st, code := signInStatus(t, env, m.Email, m.Password); st != 401 || code != "loginAuthentication" {
			t.Errorf("old password: %d %s", st, code)
		}
		signIn(t, env, m.Email, newPassword)
		wantError(t, oldSession.Do("GET", "/api/tokens/decode", nil), 401, "tokenInvalid")
		if n := env.Count(t, "sessions", "user_id = $1 AND revoked_on IS NULL AND created_on < (SELECT used_on FROM tokens WHERE token_hash = $2)", m.UserID, auth.HashToken(token)); n != 0 {
			t.Errorf("%d sessions from before the reset still live", n)
		}

		// Single use.
		wantError(t, anon.Do("POST", use, map[string]string{"password": "another-pass-1"}), 404, "oneTimeTokenInvalid")
		wantError(t, anon.Do("GET", "/api/tokens/passwordReset/"+token, nil), 404, "oneTimeTokenInvalid")
		signIn(t, env, m.Email, newPassword)
		m.Password = newPassword
	})

	t.Run("a newer request retires the older link", func(t *testing.T) {
		request(t, m.Email)
		older := resetToken(t)
		request(t, m.Email)
		newer := resetToken(t)
		if older == newer {
			t.Fatal("the same token twice")
		}
		wantError(t, anon.Do("GET", "/api/tokens/passwordReset/"+older, nil), 404, "oneTimeTokenInvalid")
		hash := passwordHash(t, env, m.Email)
		wantError(t, anon.Do("POST", "/api/tokens/passwordReset/"+older+"/use", map[string]string{"password": "older-link-1"}), 404, "oneTimeTokenInvalid")
		if passwordHash(t, env, m.Email) != hash {
			t.Error("the older link changed the password")
		}
		if r := anon.Do("GET", "/api/tokens/passwordReset/"+newer, nil); r.Status != 200 {
			t.Errorf("newer link: %d %s", r.Status, r.Body)
		}
	})

	t.Run("expired link", func(t *testing.T) {
		request(t, m.Email)
		token := resetToken(t)
		exec(t, env, "UPDATE tokens SET expires_on = now() - interval '1 minute' WHERE token_hash = $1", auth.HashToken(token))
		hash := passwordHash(t, env, m.Email)
		wantError(t, anon.Do("GET", "/api/tokens/passwordReset/"+token, nil), 410, "oneTimeTokenExpired")
		wantError(t, anon.Do("POST", "/api/tokens/passwordReset/"+token+"/use", map[string]string{"password": "too-late-123"}), 410, "oneTimeTokenExpired")
		if passwordHash(t, env, m.Email) != hash {
			t.Error("an expired link changed the password")
		}
		signIn(t, env, m.Email, m.Password)
	})

	t.Run("unknown and foreign tokens", func(t *testing.T) {
		never, _ := auth.NewToken()
		// An invitation token is not a reset token.
		_, invitation := invite(t, env, leadershipCircle, freshAddress("notreset"), "Not", "Reset")
		for name, token := range map[string]string{"never issued": never, "garbage": "garbage", "invitation": invitation} {
			t.Run(name, func(t *testing.T) {
				wantError(t, anon.Do("GET", "/api/tokens/passwordReset/"+token, nil), 404, "oneTimeTokenInvalid")
				wantError(t, anon.Do("POST", "/api/tokens/passwordReset/"+token+"/use", map[string]string{"password": "whatever-123"}), 404, "oneTimeTokenInvalid")
			})
		}
		if r := anon.Do("GET", "/api/tokens/"+invitation+"/validate", nil); r.Status != 200 {
			t.Errorf("the invitation was spent by a reset attempt: %d %s", r.Status, r.Body)
		}
	})
}

// ---------------------------------------------------------------------------
// Registration from an invitation

type invitationBody struct {
	Kind             string  `json:"kind"`
	Email            string  `json:"email"`
	FirstName        string  `json:"firstName"`
	LastName         string  `json:"lastName"`
	ProfileID        *string `json:"profileId"`
	OrganizationName string  `json:"organizationName"`
	HasAccount       bool    `json:"hasAccount"`
	ExpiresOn        string  `json:"expiresOn"`
}

func validate(t *testing.T, env *testenv.Env, token string) invitationBody {
	t.Helper()
	r := env.Client(t).Do("GET", "/api/tokens/"+url.PathEscape(token)+"/validate", nil)
	if r.Status != 200 {
		t.Fatalf("validate: %d %s", r.Status, r.Body)
	}
	var b invitationBody
	r.JSON(t, &b)
	return b
}

func TestInvitationRegistration(t *testing.T) {
	env := testenv.New(t)
	anon := env.Client(t)
	circle := communityID(t, env, leadershipCircle)
	email := freshAddress("invited")
	profile, token := invite(t, env, leadershipCircle, email, " Linus ", "Torvalds ")
	register := "/api/users?token=" + url.QueryEscape(token)
	const password = "kernel-Hacker-1991"

	t.Run("the invitation validates", func(t *testing.T) {
		b := validate(t, env, token)
		if b.Kind != "invitation" || b.Email != email || b.FirstName != "Linus" || b.LastName != "Torvalds" ||
			b.ProfileID == nil || *b.ProfileID != profile || b.OrganizationName != organizationName || b.HasAccount || b.ExpiresOn == "" {
			t.Errorf("validate: %+v", b)
		}
		// The optional email is ignored for invitations.
		r := anon.Do("GET", "/api/tokens/"+token+"/validate?email=someone@example.test", nil)
		if r.Status != 200 {
			t.Errorf("with email: %d %s", r.Status, r.Body)
		}
		if n := env.Count(t, "community_memberships", "profile_id = $1 AND community_id = $2 AND status = 'pending'", profile, circle); n != 1 {
			t.Errorf("membership is not pending before registration")
		}
	})

	t.Run("refused registrations write nothing", func(t *testing.T) {
		good := func(over map[string]any) map[string]any {
			b := map[string]any{"firstName": "Linus", "lastName": "Torvalds", "password": password}
			for k, v := range over {
				if v == nil {
					delete(b, k)
				} else {
					b[k] = v
				}
			}
			return b
		}
		users := env.Count(t, "users", "")
		sessions := env.Count(t, "sessions", "")
		tags := make([]string, 31)
		for i := range tags {
			tags[i] = strings.Repeat("t", i+1)
		}
		invalid := []struct {
			name   string
			body   map[string]any
			fields []string
		}{
			{"password too short", good(map[string]any{"password": "short"}), []string{"password"}},
			{"password with a space", good(map[string]any{"password": "has a space1"}), []string{"password"}},
			{"password of 65", good(map[string]any{"password": strings.Repeat("p", 65)}), []string{"password"}},
			{"blank first name", good(map[string]any{"firstName": "  "}), []string{"firstName"}},
			{"first name of 51", good(map[string]any{"firstName": strings.Repeat("f", 51)}), []string{"firstName"}},
			{"last name of 51", good(map[string]any{"lastName": strings.Repeat("l", 51)}), []string{"lastName"}},
			{"job title of 101", good(map[string]any{"jobTitle": strings.Repeat("j", 101)}), []string{"jobTitle"}},
			{"bio of 1001", good(map[string]any{"bio": strings.Repeat("b", 1001)}), []string{"bio"}},
			{"31 tags", good(map[string]any{"interestTags": tags}), []string{"interestTags"}},
			{"bad avatar", good(map[string]any{"avatar": "file:///etc/passwd"}), []string{"avatar"}},
			{"graduation year 1800", good(map[string]any{"graduationYear": 1800}), []string{"graduationYear"}},
			{"malformed email", good(map[string]any{"email": "not-an-email"}), []string{"email"}},
			{"mismatching email", good(map[string]any{"email": freshAddress("someone-else")}), []string{"email"}},
			{"several", good(map[string]any{"password": "short", "firstName": ""}), []string{"password", "firstName"}},
		}
		for _, tc := range invalid {
			t.Run(tc.name, func(t *testing.T) {
				wantInvalid(t, anon.Do("POST", register, tc.body), tc.fields...)
			})
		}
		missing := []struct {
			name    string
			path    string
			body    map[string]any
			missing []string
		}{
			{"no token", "/api/users", good(nil), []string{"token"}},
			{"empty token", "/api/users?token=", good(nil), []string{"token"}},
			{"empty object", register, map[string]any{}, []string{"firstName", "lastName", "password"}},
			{"nothing at all", "/api/users", map[string]any{}, []string{"token", "firstName", "lastName", "password"}},
			{"no password", register, good(map[string]any{"password": nil}), []string{"password"}},
			{"empty password", register, good(map[string]any{"password": ""}), []string{"password"}},
			{"no names", register, good(map[string]any{"firstName": nil, "lastName": nil}), []string{"firstName", "lastName"}},
		}
		for _, tc := range missing {
			t.Run(tc.name, func(t *testing.T) {
				wantMissing(t, anon.Do("POST", tc.path, tc.body), tc.missing...)
			})
		}
		t.Run("unknown token", func(t *testing.T) {
			never, _ := auth.NewToken()
			wantError(t, anon.Do("POST", "/api/users?token="+never, good(nil)), 404, "invitationValidating")
			wantError(t, anon.Do("GET", "/api/tokens/"+never+"/validate", nil), 404, "invitationValidating")
		})
		t.Run("bad bodies", func(t *testing.T) {
			checkBadBodies(t, anon, "POST", register, map[string]struct{ body, field string }{
				"unknown field":          {`{"firstName": "L", "lastName": "T", "password": "long-enough-1", "role": "super"}`, "role"},
				"password of wrong type": {`{"firstName": "L", "lastName": "T", "password": 123456789}`, "password"},
				"tags of wrong type":     {`{"firstName": "L", "lastName": "T", "password": "long-enough-1", "interestTags": "a"}`, "interestTags"},
			})
		})
		if n := env.Count(t, "users", ""); n != users {
			t.Errorf("users %d → %d", users, n)
		}
		if n := env.Count(t, "sessions", ""); n != sessions {
			t.Errorf("sessions %d → %d", sessions, n)
		}
		if n := env.Count(t, "profiles", "id = $1 AND user_id IS NULL", profile); n != 1 {
			t.Errorf("the profile was joined")
		}
		validate(t, env, token) // still usable
	})

	var newUser sessionBody
	t.Run("registers", func(t *testing.T) {
		users := env.Count(t, "users", "")
		r := anon.Do("POST", register, map[string]any{
			"firstName": " Linus ", "lastName": "Torvalds", "password": password, "email": strings.ToUpper(email),
			"jobTitle": " Kernel Maintainer ", "interestTags": []string{"kernels", "git", " Git "},
		})
		if r.Status != 201 {
			t.Fatalf("register: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &newUser)
		u := newUser.User
		if newUser.AccessToken == "" || newUser.Role != "user" || u.Email != email || u.FirstName != "Linus" || u.LastName != "Torvalds" ||
			u.JobTitle != "Kernel Maintainer" || strings.Join(u.InterestTags, ",") != "kernels,git" || u.Role != "user" {
			t.Errorf("registration body: %s", r.Body)
		}
		if n := env.Count(t, "users", ""); n != users+1 {
			t.Errorf("users %d → %d", users, n)
		}
		if r := withToken(t, env, newUser.AccessToken).Do("GET", "/api/tokens/decode", nil); r.Status != 200 {
			t.Errorf("registration token: %d %s", r.Status, r.Body)
		}
		signIn(t, env, email, password)
		if n := env.Count(t, "profiles", "id = $1 AND user_id = $2", profile, u.ID); n != 1 {
			t.Error("profiles.user_id is not the new user")
		}
		if n := env.Count(t, "community_memberships", "profile_id = $1 AND community_id = $2 AND status = 'active'", profile, circle); n != 1 {
			t.Error("the membership is not active")
		}
		if n := env.Count(t, "tokens", "token_hash = $1 AND used_on IS NOT NULL", auth.HashToken(token)); n != 1 {
			t.Error("the invitation is not marked used")
		}
		// The new member sees their community's people and their own profile.
		c := withToken(t, env, newUser.AccessToken)
		if r := c.Do("GET", "/api/profiles/"+profileID(t, env, memberEmail), nil); r.Status != 200 {
			t.Errorf("a fellow member's profile: %d %s", r.Status, r.Body)
		}
		if r := c.Do("GET", "/api/profiles/"+profile, nil); r.Status != 200 {
			t.Errorf("own profile: %d %s", r.Status, r.Body)
		}
	})
	if newUser.User.ID == "" {
		t.Fatal("registration failed")
	}

	t.Run("joining afterwards is idempotent", func(t *testing.T) {
		join := "/api/users/" + newUser.User.ID + "/profiles?token=" + url.QueryEscape(token)
		for name, c := range map[string]*testenv.Client{"anonymous": anon, "as the user": withToken(t, env, newUser.AccessToken)} {
			t.Run(name, func(t *testing.T) {
				r := c.Do("POST", join, nil)
				if r.Status != 200 {
					t.Fatalf("join: %d %s", r.Status, r.Body)
				}
				var p profileBody
				r.JSON(t, &p)
				if p.ID != profile || p.UserID == nil || *p.UserID != newUser.User.ID || p.Email != email {
					t.Errorf("join body: %s", r.Body)
				}
			})
		}
		wantError(t, env.As(t, memberEmail).Do("POST", join, nil), 403, "forbidden")
		wantMissing(t, anon.Do("POST", "/api/users/"+newUser.User.ID+"/profiles", nil), "token")
		wantInvalid(t, anon.Do("POST", "/api/users/not-a-uuid/profiles?token="+url.QueryEscape(token), nil), "id")
		wantError(t, anon.Do("POST", "/api/users/"+unknownID+"/profiles?token="+url.QueryEscape(token), nil), 404, "notFound")
		// Another account cannot take the used invitation.
		wantError(t, anon.Do("POST", "/api/users/"+userID(t, env, memberEmail)+"/profiles?token="+url.QueryEscape(token), nil), 404, "invitationValidating")
	})

	t.Run("the invitation is used up", func(t *testing.T) {
		users := env.Count(t, "users", "")
		wantError(t, anon.Do("GET", "/api/tokens/"+token+"/validate", nil), 404, "invitationValidating")
		wantError(t, anon.Do("POST", register, map[string]any{"firstName": "Again", "lastName": "Again", "password": "another-pass-1"}), 404, "invitationValidating")
		if n := env.Count(t, "users", ""); n != users {
			t.Errorf("users %d → %d", users, n)
		}
	})

	t.Run("an invitation for someone with an account", func(t *testing.T) {
		again, second := invite(t, env, dataPractitioner, email, "Linus", "Torvalds")
		if again != profile {
			t.Errorf("profile %s, want the organization profile %s", again, profile)
		}
		b := validate(t, env, second)
		if !b.HasAccount || b.Email != email {
			t.Errorf("validate: %+v", b)
		}
		users := env.Count(t, "users", "")
		r := anon.Do("POST", "/api/users?token="+url.QueryEscape(second), map[string]any{"firstName": "L", "lastName": "T", "password": "some-password-1"})
		wantError(t, r, 409, "registrationCreatingExistingEmail")
		if n := env.Count(t, "users", ""); n != users {
			t.Errorf("users %d → %d", users, n)
		}
		// The existing account joins with it instead.
		join := anon.Do("POST", "/api/users/"+newUser.User.ID+"/profiles?token="+url.QueryEscape(second), nil)
		if join.Status != 200 {
			t.Fatalf("join: %d %s", join.Status, join.Body)
		}
		if n := env.Count(t, "community_memberships", "profile_id = $1 AND status = 'active'", profile); n != 2 {
			t.Errorf("%d active memberships, want 2", n)
		}
		signIn(t, env, email, password) // the password is unchanged
	})

	t.Run("an invitation for another address cannot be joined", func(t *testing.T) {
		_, other := invite(t, env, leadershipCircle, freshAddress("elsewhere"), "Else", "Where")
		r := withToken(t, env, newUser.AccessToken).Do("POST", "/api/users/"+newUser.User.ID+"/profiles?token="+url.QueryEscape(other), nil)
		wantError(t, r, 403, "invitationEmailMismatch")
		validate(t, env, other) // still usable by its addressee
	})

	t.Run("token in the body", func(t *testing.T) {
		addr := freshAddress("bodytoken")
		_, tok := invite(t, env, leadershipCircle, addr, "Body", "Token")
		r := anon.Do("POST", "/api/users", map[string]any{"token": tok, "firstName": "Body", "lastName": "Token", "password": "body-Token-123"})
		if r.Status != 201 {
			t.Fatalf("register: %d %s", r.Status, r.Body)
		}
		signIn(t, env, addr, "body-Token-123")
	})

	t.Run("expired invitation", func(t *testing.T) {
		addr := freshAddress("late")
		_, tok := invite(t, env, leadershipCircle, addr, "Too", "Late")
		exec(t, env, "UPDATE tokens SET expires_on = now() - interval '1 minute' WHERE token_hash = $1", auth.HashToken(tok))
		users := env.Count(t, "users", "")
		wantError(t, anon.Do("GET", "/api/tokens/"+tok+"/validate", nil), 404, "invitationValidating")
		wantError(t, anon.Do("POST", "/api/users?token="+tok, map[string]any{"firstName": "T", "lastName": "L", "password": "too-late-123"}), 404, "invitationValidating")
		if n := env.Count(t, "users", ""); n != users {
			t.Errorf("users %d → %d", users, n)
		}
	})
}

// ---------------------------------------------------------------------------
// Dev mailbox and transport-level behaviour

func TestDevMailbox(t *testing.T) {
	dev := testenv.New(t)
	r := dev.Client(t).Do("GET", "/api/dev/mailbox?to="+freshAddress("empty"), nil)
	var b struct {
		Results []mailMsg `json:"results"`
		Total   int       `json:"total"`
	}
	r.JSON(t, &b)
	if r.Status != 200 || b.Results == nil || len(b.Results) != 0 || b.Total != 0 {
		t.Errorf("empty mailbox: %d %s", r.Status, r.Body)
	}

	prod := testenv.New(t, func(c *config.Config) { c.Dev = false })
	wantError(t, prod.Client(t).Do("GET", "/api/dev/mailbox", nil), 404, "notFound")
	wantError(t, prod.Client(t).Do("GET", "/api/dev/mailbox?to="+memberEmail, nil), 404, "notFound")
	// The rest of the API works the same.
	signIn(t, prod, memberEmail, testenv.Password)
}

func TestTransport(t *testing.T) {
	env := testenv.New(t)
	c := env.Client(t)

	// Unknown paths are outside the OpenAPI contract by definition, so they
	// are sent around the contract-checking client.
	t.Run("unknown API paths are JSON 404s, other methods of known ones 405s", func(t *testing.T) {
		for _, rt := range []struct {
			method, path string
			status       int
			code         string
		}{
			{"GET", "/api/nope", 404, "notFound"},
			{"POST", "/api/nope/deeper", 404, "notFound"},
			{"GET", "/api/profiles", 404, "notFound"},
			// These paths exist with other methods (registering, signing in).
			{"GET", "/api/users", 405, "methodNotAllowed"},
			{"GET", "/api/sessions", 405, "methodNotAllowed"},
			{"DELETE", "/api/sessions", 405, "methodNotAllowed"},
		} {
			t.Run(rt.method+" "+rt.path, func(t *testing.T) {
				res := rawDo(t, env, rt.method, rt.path, nil, "")
				body, _ := io.ReadAll(res.Body)
				var e apiError
				if err := json.Unmarshal(body, &e); err != nil || res.StatusCode != rt.status || e.Code != rt.code ||
					!strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
					t.Errorf("got %d %s %s, want a JSON %d %s", res.StatusCode, res.Header.Get("Content-Type"), body, rt.status, rt.code)
				}
				if res.Header.Get("X-Request-Id") == "" {
					t.Error("no X-Request-Id")
				}
			})
		}
	})

	// The server refuses a body over 1 MiB from its Content-Length, before
	// reading it. (A client that keeps sending the body after the answer gets
	// its connection reset, so the request is sent without the body here.)
	t.Run("body over 1 MiB", func(t *testing.T) {
		before := env.Count(t, "sessions", "")
		conn, err := net.Dial("tcp", strings.TrimPrefix(env.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		req := "POST /api/sessions HTTP/1.1\r\nHost: agora.test\r\nContent-Type: application/json\r\n" +
			"Content-Length: " + strconv.Itoa(1<<20+1) + "\r\n\r\n" + `{"email": "member@demo.agora", "password": "agora-demo", "x": "`
		if _, err := conn.Write([]byte(req)); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		var e apiError
		_ = json.Unmarshal(body, &e)
		if res.StatusCode != 413 || e.Code != "requestTooLarge" || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
			t.Errorf("got %d %s %s, want a JSON 413 requestTooLarge", res.StatusCode, res.Header.Get("Content-Type"), body)
		}
		if res.Header.Get("X-Request-Id") == "" {
			t.Errorf("the 413 has no X-Request-Id")
		}
		if n := env.Count(t, "sessions", ""); n != before {
			t.Errorf("sessions %d → %d", before, n)
		}
		// Exactly 1 MiB is within the limit: the body is read and judged.
		exact := `{"email": "member@demo.agora", "password": "agora-demo", "x": "`
		exact += strings.Repeat("a", 1<<20-len(exact)-2) + `"}`
		wantError(t, c.Do("POST", "/api/sessions", exact), 400, "invalidBody")
	})

	t.Run("every response has a request id", func(t *testing.T) {
		member := env.As(t, memberEmail)
		seen := map[string]bool{}
		for _, rt := range []struct {
			c            *testenv.Client
			method, path string
			body         any
		}{
			{c, "GET", "/healthz", nil},
			{c, "POST", "/api/sessions", "[]"},
			{c, "POST", "/api/sessions", map[string]string{"email": memberEmail, "password": "wrong"}},
			{c, "POST", "/api/sessions", map[string]string{"email": memberEmail, "password": testenv.Password}},
			{c, "GET", "/api/tokens/decode", nil},
			{member, "GET", "/api/tokens/decode", nil},
			{member, "GET", "/api/profiles/" + unknownID, nil},
			{member, "POST", "/api/communities/" + communityID(t, env, leadershipCircle) + "/profiles", map[string]any{"firstName": "A", "lastName": "B", "email": freshAddress("rid")}},
			{withToken(t, env, "garbage"), "GET", "/api/tokens/decode", nil},
		} {
			r := rt.c.Do(rt.method, rt.path, rt.body)
			id := r.Header.Get("X-Request-Id")
			if id == "" {
				t.Errorf("%s %s → %d has no X-Request-Id", rt.method, rt.path, r.Status)
				continue
			}
			if seen[id] {
				t.Errorf("request id %s repeated", id)
			}
			seen[id] = true
		}
	})

	t.Run("a safe client request id is kept", func(t *testing.T) {
		res := rawDo(t, env, "GET", "/api/tokens/decode", map[string]string{"X-Request-Id": "trace-abc.123_X"}, "")
		if got := res.Header.Get("X-Request-Id"); got != "trace-abc.123_X" {
			t.Errorf("X-Request-Id %q", got)
		}
		res = rawDo(t, env, "GET", "/api/tokens/decode", map[string]string{"X-Request-Id": "bad id; <script>"}, "")
		if got := res.Header.Get("X-Request-Id"); got == "" || strings.ContainsAny(got, " ;<>") {
			t.Errorf("unsafe id echoed: %q", got)
		}
	})
}
