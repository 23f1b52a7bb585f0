package httpapi_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"agora/app/testenv"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/config"
)

// The demo logins of the seed (app/seed), all with testenv.Password.
const (
	superEmail    = "super@demo.agora"
	adminEmail    = "admin@demo.agora"
	expertEmail   = "expert@demo.agora"
	memberEmail   = "member@demo.agora"
	outsiderEmail = "outsider@demo.agora"

	// The seeded communities: the demo member and expert are in the first,
	// the admin in both, the outsider in neither.
	leadershipCircle = "Product Leadership Circle"
	dataPractitioner = "Data & AI Practitioners"
	// camilaEmail is a seeded member of the second community only.
	camilaEmail = "camila.duarte@demo.agora"

	organizationName = "Northwind Learning"

	// unknownID is a well-formed id that names nothing.
	unknownID = "01000000-0000-7000-8000-0000deadbeef"
)

// ---------------------------------------------------------------------------
// Shared helpers for the tests of this package.

// apiError is the one error body of the API.
type apiError struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details"`
}

// sessionBody is what sign-in and registration answer.
type sessionBody struct {
	User        userBody `json:"user"`
	AccessToken string   `json:"accessToken"`
	Role        string   `json:"role"`
	ExpiresOn   string   `json:"expiresOn"`
}

type userBody struct {
	ID             string   `json:"id"`
	Email          string   `json:"email"`
	FirstName      string   `json:"firstName"`
	LastName       string   `json:"lastName"`
	Avatar         *string  `json:"avatar"`
	Role           string   `json:"role"`
	JobTitle       string   `json:"jobTitle"`
	Company        string   `json:"company"`
	Bio            string   `json:"bio"`
	InterestTags   []string `json:"interestTags"`
	School         string   `json:"school"`
	Degree         string   `json:"degree"`
	FieldOfStudy   string   `json:"fieldOfStudy"`
	GraduationYear *int     `json:"graduationYear"`
	CreatedOn      string   `json:"createdOn"`
}

type profileBody struct {
	ID             string   `json:"id"`
	UserID         *string  `json:"userId"`
	OrganizationID string   `json:"organizationId"`
	FirstName      string   `json:"firstName"`
	LastName       string   `json:"lastName"`
	Name           string   `json:"name"`
	Email          string   `json:"email"`
	Avatar         *string  `json:"avatar"`
	JobTitle       string   `json:"jobTitle"`
	Bio            string   `json:"bio"`
	InterestTags   []string `json:"interestTags"`
	GraduationYear *int     `json:"graduationYear"`
	IsExpert       bool     `json:"isExpert"`
	ExpertInSeries []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"expertInSeries"`
}

// wantError checks a response's status and catalogue code and returns its body.
func wantError(t *testing.T, r *testenv.Response, status int, code string) apiError {
	t.Helper()
	var e apiError
	if r.Status != status || r.Code() != code {
		t.Errorf("got %d %q, want %d %q; body: %s", r.Status, r.Code(), status, code, r.Body)
		_ = json.Unmarshal(r.Body, &e)
		return e
	}
	r.JSON(t, &e)
	if e.Message == "" {
		t.Errorf("error %s has no message", code)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("error content type %q, want JSON", ct)
	}
	return e
}

// wantMissing checks a 400 parametersMissingException naming exactly names.
func wantMissing(t *testing.T, r *testenv.Response, names ...string) {
	t.Helper()
	e := wantError(t, r, 400, "parametersMissingException")
	var got []string
	if m, ok := e.Details["missing"].([]any); ok {
		for _, n := range m {
			s, _ := n.(string)
			got = append(got, s)
		}
	}
	want := append([]string(nil), names...)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("details.missing = %v, want %v; body: %s", got, want, r.Body)
	}
}

// wantInvalid checks a 400 validationFailed whose details.fields names
// exactly fields.
func wantInvalid(t *testing.T, r *testenv.Response, fields ...string) {
	t.Helper()
	e := wantError(t, r, 400, "validationFailed")
	var got []string
	if m, ok := e.Details["fields"].(map[string]any); ok {
		for k, v := range m {
			if s, _ := v.(string); s == "" {
				t.Errorf("details.fields.%s has no message", k)
			}
			got = append(got, k)
		}
	}
	sort.Strings(got)
	want := append([]string(nil), fields...)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("details.fields = %v, want %v; body: %s", got, want, r.Body)
	}
}

// badBody is a body that is not one JSON object.
type badBody struct {
	name string
	body string
}

// notAnObject are the bodies every JSON endpoint refuses as invalidBody.
var notAnObject = []badBody{
	{"empty body", ""},
	{"whitespace body", "   \n"},
	{"array", "[]"},
	{"string", `"hello"`},
	{"number", "42"},
	{"null", "null"},
	{"malformed JSON", `{"email": `},
	{"not JSON", `{email: x}`},
	{"trailing data", `{}{}`},
}

// checkBadBodies sends every body of notAnObject plus extra to path and
// expects 400 invalidBody each time; details.field is checked when given.
func checkBadBodies(t *testing.T, c *testenv.Client, method, path string, extra map[string]struct{ body, field string }) {
	t.Helper()
	for _, b := range notAnObject {
		t.Run(b.name, func(t *testing.T) {
			wantError(t, c.Do(method, path, b.body), 400, "invalidBody")
		})
	}
	for name, b := range extra {
		t.Run(name, func(t *testing.T) {
			e := wantError(t, c.Do(method, path, b.body), 400, "invalidBody")
			if b.field != "" && e.Details["field"] != b.field {
				t.Errorf("details.field = %v, want %q; details: %v", e.Details["field"], b.field, e.Details)
			}
		})
	}
}

// signIn signs in with a password and returns the client, failing the test
// unless it works.
func signIn(t *testing.T, env *testenv.Env, email, password string) *testenv.Client {
	t.Helper()
	c := env.Client(t)
	r := c.Do("POST", "/api/sessions", map[string]string{"email": email, "password": password})
	if r.Status != 200 {
		t.Fatalf("sign in %s: %d %s", email, r.Status, r.Body)
	}
	var s sessionBody
	r.JSON(t, &s)
	c.Token = s.AccessToken
	return c
}

// signInStatus is the status of a sign-in attempt with email and password.
func signInStatus(t *testing.T, env *testenv.Env, email, password string) (int, string) {
	t.Helper()
	r := env.Client(t).Do("POST", "/api/sessions", map[string]string{"email": email, "password": password})
	return r.Status, r.Code()
}

// withToken is an anonymous client that sends token as its bearer.
func withToken(t *testing.T, env *testenv.Env, token string) *testenv.Client {
	c := env.Client(t)
	c.Token = token
	return c
}

// queryString runs a one-value query.
func queryString(t *testing.T, env *testenv.Env, q string, args ...any) string {
	t.Helper()
	var s string
	if err := env.DB.Pool.QueryRow(context.Background(), q, args...).Scan(&s); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return s
}

func exec(t *testing.T, env *testenv.Env, q string, args ...any) {
	t.Helper()
	if _, err := env.DB.Pool.Exec(context.Background(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func communityID(t *testing.T, env *testenv.Env, name string) string {
	t.Helper()
	return queryString(t, env, "SELECT id::text FROM communities WHERE name = $1", name)
}

func profileID(t *testing.T, env *testenv.Env, email string) string {
	t.Helper()
	return queryString(t, env, "SELECT id::text FROM profiles WHERE email_key = lower($1)", email)
}

func userID(t *testing.T, env *testenv.Env, email string) string {
	t.Helper()
	return queryString(t, env, "SELECT id::text FROM users WHERE email_key = lower($1)", email)
}

func passwordHash(t *testing.T, env *testenv.Env, email string) string {
	t.Helper()
	return queryString(t, env, "SELECT password_hash FROM users WHERE email_key = lower($1)", email)
}

// userRow is the stored state of a user, to check that refused calls
// changed nothing.
func userRow(t *testing.T, env *testenv.Env, email string) string {
	t.Helper()
	return queryString(t, env, "SELECT row_to_json(u)::text FROM users u WHERE email_key = lower($1)", email)
}

// mailMsg is a message of the dev mailbox.
type mailMsg struct {
	ID      string `json:"id"`
	To      string `json:"to"`
	Subject string `json:"subject"`
	Body    string `json:"body"`
}

// mailbox lists the dev mailbox for one address, newest first.
func mailbox(t *testing.T, env *testenv.Env, to string) []mailMsg {
	t.Helper()
	r := env.Client(t).Do("GET", "/api/dev/mailbox?to="+url.QueryEscape(to), nil)
	if r.Status != 200 {
		t.Fatalf("mailbox: %d %s", r.Status, r.Body)
	}
	var b struct {
		Results []mailMsg `json:"results"`
		Total   int       `json:"total"`
	}
	r.JSON(t, &b)
	if b.Total != len(b.Results) {
		t.Errorf("mailbox total %d, %d results", b.Total, len(b.Results))
	}
	return b.Results
}

// linkToken extracts the token of a mailed link to path.
func linkToken(t *testing.T, body, path string) string {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(path) + `\?token=([^\s&]+)`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no %s link in mail:\n%s", path, body)
	}
	tok, err := url.QueryUnescape(m[1])
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// newestToken is the token of the newest mail to an address, which must
// link to path.
func newestToken(t *testing.T, env *testenv.Env, to, path string) string {
	t.Helper()
	ms := mailbox(t, env, to)
	if len(ms) == 0 {
		t.Fatalf("no mail to %s", to)
	}
	return linkToken(t, ms[0].Body, path)
}

// freshAddress is an address no account or profile has.
func freshAddress(prefix string) string {
	return testenv.Unique(prefix) + "@example.test"
}

// invite has the demo admin add email to a community with an invitation
// and returns the profile id and the mailed invitation token.
func invite(t *testing.T, env *testenv.Env, community, email, first, last string) (profile, token string) {
	t.Helper()
	admin := env.As(t, adminEmail)
	r := admin.Do("POST", "/api/communities/"+communityID(t, env, community)+"/profiles", map[string]any{
		"firstName": first, "lastName": last, "email": email, "sendInvitation": true,
	})
	if r.Status != 201 {
		t.Fatalf("invite %s: %d %s", email, r.Status, r.Body)
	}
	var b struct {
		ID string `json:"id"`
	}
	r.JSON(t, &b)
	return b.ID, newestToken(t, env, email, "/accept-invitation")
}

// member is a person made for one test through the invitation flow, so
// tests that change passwords or fields leave the demo logins alone.
type member struct {
	Email, Password, UserID, ProfileID string
	Client                             *testenv.Client
}

const freshPassword = "first-Pass-123"

// newMember invites a fresh address to the first community and registers it.
func newMember(t *testing.T, env *testenv.Env, prefix string) member {
	t.Helper()
	email := freshAddress(prefix)
	profile, token := invite(t, env, leadershipCircle, email, "Fresh", "Member")
	c := env.Client(t)
	r := c.Do("POST", "/api/users?token="+url.QueryEscape(token), map[string]any{
		"firstName": "Fresh", "lastName": "Member", "password": freshPassword,
	})
	if r.Status != 201 {
		t.Fatalf("register %s: %d %s", email, r.Status, r.Body)
	}
	var s sessionBody
	r.JSON(t, &s)
	c.Token = s.AccessToken
	return member{Email: email, Password: freshPassword, UserID: s.User.ID, ProfileID: profile, Client: c}
}

// rawDo sends a request with the given headers, bypassing the client (for
// headers the client cannot send).
func rawDo(t *testing.T, env *testenv.Env, method, path string, headers map[string]string, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, env.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// retryAfter checks a 429 tooManyRequests and returns its Retry-After.
func retryAfter(t *testing.T, r *testenv.Response, max int) int {
	t.Helper()
	wantError(t, r, 429, "tooManyRequests")
	n, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil || n < 1 || n > max {
		t.Errorf("Retry-After = %q, want 1..%d", r.Header.Get("Retry-After"), max)
	}
	return n
}

// ---------------------------------------------------------------------------
// POST /api/sessions

func TestSignIn(t *testing.T) {
	env := testenv.New(t)

	t.Run("every demo login", func(t *testing.T) {
		roles := map[string]string{superEmail: "super", adminEmail: "user", expertEmail: "user", memberEmail: "user", outsiderEmail: "user"}
		for _, email := range []string{superEmail, adminEmail, expertEmail, memberEmail, outsiderEmail} {
			t.Run(email, func(t *testing.T) {
				before := env.Count(t, "sessions", "user_id = (SELECT id FROM users WHERE email_key = $1)", email)
				r := env.Client(t).Do("POST", "/api/sessions", map[string]string{"email": email, "password": testenv.Password})
				if r.Status != 200 {
					t.Fatalf("status %d: %s", r.Status, r.Body)
				}
				var s sessionBody
				r.JSON(t, &s)
				if s.User.Email != email || s.AccessToken == "" || s.Role != roles[email] || s.User.Role != roles[email] {
					t.Errorf("body %+v, want email %s, a token and role %s", s, email, roles[email])
				}
				if s.ExpiresOn == "" || s.User.ID == "" || s.User.FirstName == "" {
					t.Errorf("incomplete body: %s", r.Body)
				}
				if after := env.Count(t, "sessions", "user_id = (SELECT id FROM users WHERE email_key = $1)", email); after != before+1 {
					t.Errorf("sessions %d → %d, want one more", before, after)
				}
				// The token is stored only as its hash.
				if n := env.Count(t, "sessions", "token_hash = $1 AND revoked_on IS NULL AND expires_on > now()", auth.HashToken(s.AccessToken)); n != 1 {
					t.Errorf("%d live sessions with the token's hash, want 1", n)
				}
				if d := withToken(t, env, s.AccessToken).Do("GET", "/api/tokens/decode", nil); d.Status != 200 {
					t.Errorf("the new token does not work: %d %s", d.Status, d.Body)
				}
			})
		}
	})

	t.Run("accepted address spellings", func(t *testing.T) {
		for name, body := range map[string]map[string]string{
			"username alias":         {"username": memberEmail, "password": testenv.Password},
			"upper case":             {"email": "MEMBER@Demo.Agora", "password": testenv.Password},
			"surrounding whitespace": {"email": "  member@demo.agora \t", "password": testenv.Password},
			"username trimmed":       {"username": " Member@demo.agora ", "password": testenv.Password},
			"empty email, username":  {"email": "", "username": memberEmail, "password": testenv.Password},
		} {
			t.Run(name, func(t *testing.T) {
				r := env.Client(t).Do("POST", "/api/sessions", body)
				if r.Status != 200 {
					t.Fatalf("status %d: %s", r.Status, r.Body)
				}
				var s sessionBody
				r.JSON(t, &s)
				if s.User.Email != memberEmail || s.AccessToken == "" {
					t.Errorf("body %s", r.Body)
				}
			})
		}
	})

	t.Run("refused credentials", func(t *testing.T) {
		var first []byte
		cases := []struct {
			name string
			body map[string]string
		}{
			{"wrong password", map[string]string{"email": memberEmail, "password": "not-the-password"}},
			{"password case", map[string]string{"email": memberEmail, "password": strings.ToUpper(testenv.Password)}},
			{"password with spaces around", map[string]string{"email": memberEmail, "password": " " + testenv.Password + " "}},
			{"unknown address", map[string]string{"email": freshAddress("nobody"), "password": testenv.Password}},
			{"not an address", map[string]string{"email": "member", "password": testenv.Password}},
			{"over-long address", map[string]string{"email": strings.Repeat("a", 250) + "@demo.agora", "password": testenv.Password}},
			{"over-long password", map[string]string{"email": memberEmail, "password": strings.Repeat("p", 1025)}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				before := env.Count(t, "sessions", "")
				r := env.Client(t).Do("POST", "/api/sessions", tc.body)
				e := wantError(t, r, 401, "loginAuthentication")
				if len(e.Details) != 0 {
					t.Errorf("details reveal something: %v", e.Details)
				}
				// Wrong password and unknown address answer alike.
				if first == nil {
					first = r.Body
				} else if string(r.Body) != string(first) {
					t.Errorf("body %s differs from %s", r.Body, first)
				}
				if after := env.Count(t, "sessions", ""); after != before {
					t.Errorf("sessions %d → %d", before, after)
				}
			})
		}
	})

	t.Run("missing fields", func(t *testing.T) {
		cases := []struct {
			name    string
			body    any
			missing []string
		}{
			{"empty object", map[string]any{}, []string{"email", "password"}},
			{"no password", map[string]any{"email": memberEmail}, []string{"password"}},
			{"empty password", map[string]any{"email": memberEmail, "password": ""}, []string{"password"}},
			{"no email", map[string]any{"password": testenv.Password}, []string{"email"}},
			{"blank email", map[string]any{"email": "   ", "password": testenv.Password}, []string{"email"}},
			{"blank username", map[string]any{"username": " ", "password": testenv.Password}, []string{"email"}},
			{"nulls", map[string]any{"email": nil, "password": nil}, []string{"email", "password"}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				before := env.Count(t, "sessions", "")
				wantMissing(t, env.Client(t).Do("POST", "/api/sessions", tc.body), tc.missing...)
				if after := env.Count(t, "sessions", ""); after != before {
					t.Errorf("sessions %d → %d", before, after)
				}
			})
		}
	})

	t.Run("bad bodies", func(t *testing.T) {
		before := env.Count(t, "sessions", "")
		checkBadBodies(t, env.Client(t), "POST", "/api/sessions", map[string]struct{ body, field string }{
			"email of wrong type":    {`{"email": 1, "password": "agora-demo"}`, "email"},
			"password of wrong type": {`{"email": "member@demo.agora", "password": ["agora-demo"]}`, "password"},
			"unknown field":          {`{"email": "member@demo.agora", "password": "agora-demo", "remember": true}`, "remember"},
		})
		if after := env.Count(t, "sessions", ""); after != before {
			t.Errorf("sessions %d → %d", before, after)
		}
	})
}

// ---------------------------------------------------------------------------
// Bearer tokens: GET /api/tokens/decode, DELETE /api/sessions/current

func TestTokens(t *testing.T) {
	env := testenv.New(t)

	t.Run("decode", func(t *testing.T) {
		for _, email := range []string{superEmail, memberEmail} {
			c := env.As(t, email)
			r := c.Do("GET", "/api/tokens/decode", nil)
			if r.Status != 200 {
				t.Fatalf("decode: %d %s", r.Status, r.Body)
			}
			var d struct {
				User      userBody `json:"user"`
				Role      string   `json:"role"`
				SessionID string   `json:"sessionId"`
				ExpiresOn string   `json:"expiresOn"`
			}
			r.JSON(t, &d)
			wantRole := "user"
			if email == superEmail {
				wantRole = "super"
			}
			if d.User.Email != email || d.Role != wantRole || d.ExpiresOn == "" {
				t.Errorf("decode %s: %s", email, r.Body)
			}
			if want := queryString(t, env, "SELECT id::text FROM sessions WHERE token_hash = $1", auth.HashToken(c.Token)); d.SessionID != want {
				t.Errorf("sessionId %s, want %s", d.SessionID, want)
			}
		}
	})

	t.Run("sign out revokes the token", func(t *testing.T) {
		c := env.As(t, memberEmail)
		other := env.As(t, memberEmail)
		r := c.Do("DELETE", "/api/sessions/current", nil)
		if r.Status != 204 || len(r.Body) != 0 {
			t.Fatalf("sign out: %d %s", r.Status, r.Body)
		}
		if n := env.Count(t, "sessions", "token_hash = $1 AND revoked_on IS NOT NULL", auth.HashToken(c.Token)); n != 1 {
			t.Errorf("session not marked revoked")
		}
		wantError(t, c.Do("GET", "/api/tokens/decode", nil), 401, "tokenInvalid")
		wantError(t, c.Do("DELETE", "/api/sessions/current", nil), 401, "tokenInvalid")
		// A revoked token fails open routes too, so the client learns at once.
		wantError(t, c.Do("POST", "/api/sessions", map[string]string{"email": memberEmail, "password": testenv.Password}), 401, "tokenInvalid")
		// Only that session ended.
		if r := other.Do("GET", "/api/tokens/decode", nil); r.Status != 200 {
			t.Errorf("another session of the same user: %d %s", r.Status, r.Body)
		}
	})

	t.Run("expired token", func(t *testing.T) {
		token, hash := auth.NewToken()
		exec(t, env, `INSERT INTO sessions (id, user_id, token_hash, created_on, expires_on)
			SELECT gen_random_uuid(), id, $1, now() - interval '31 days', now() - interval '1 minute' FROM users WHERE email_key = $2`,
			hash, memberEmail)
		c := withToken(t, env, token)
		wantError(t, c.Do("GET", "/api/tokens/decode", nil), 401, "tokenExpired")
		wantError(t, c.Do("PATCH", "/api/users/me", map[string]any{"bio": "x"}), 401, "tokenExpired")
	})

	t.Run("invalid tokens", func(t *testing.T) {
		garbage, _ := auth.NewToken() // well-formed but never issued
		for name, token := range map[string]string{
			"garbage":        "garbage",
			"never issued":   garbage,
			"too long":       strings.Repeat("a", 300),
			"quotes":         `"abc"`,
			"hash of a real": base64.RawURLEncoding.EncodeToString(auth.HashToken(env.As(t, memberEmail).Token)),
		} {
			t.Run(name, func(t *testing.T) {
				wantError(t, withToken(t, env, token).Do("GET", "/api/tokens/decode", nil), 401, "tokenInvalid")
			})
		}
		for name, header := range map[string]string{
			"not bearer":   "Basic bWVtYmVyOmFnb3JhLWRlbW8=",
			"empty bearer": "Bearer ",
			"blank bearer": "Bearer    ",
		} {
			t.Run(name, func(t *testing.T) {
				res := rawDo(t, env, "GET", "/api/tokens/decode", map[string]string{"Authorization": header}, "")
				if res.StatusCode != 401 {
					t.Errorf("status %d, want 401", res.StatusCode)
				}
			})
		}
	})

	t.Run("authentication required", func(t *testing.T) {
		anon := env.Client(t)
		cid := communityID(t, env, leadershipCircle)
		for _, rt := range []struct {
			method, path string
			body         any
		}{
			{"GET", "/api/tokens/decode", nil},
			{"DELETE", "/api/sessions/current", nil},
			{"PATCH", "/api/users/me", map[string]any{"bio": "x"}},
			{"GET", "/api/profiles/" + profileID(t, env, memberEmail), nil},
			{"POST", "/api/communities/" + cid + "/profiles", map[string]any{"firstName": "A", "lastName": "B", "email": freshAddress("anon")}},
		} {
			t.Run(rt.method+" "+rt.path, func(t *testing.T) {
				before := env.Count(t, "profiles", "")
				wantError(t, anon.Do(rt.method, rt.path, rt.body), 401, "authenticationRequired")
				if after := env.Count(t, "profiles", ""); after != before {
					t.Errorf("profiles %d → %d", before, after)
				}
			})
		}
	})
}

// ---------------------------------------------------------------------------
// Rate limits

func TestSignInRateLimitPerIP(t *testing.T) {
	env := testenv.New(t, func(c *config.Config) { c.Auth.SignInPerIPPerMinute = 6 })
	before := env.Count(t, "sessions", "user_id = (SELECT id FROM users WHERE email_key = $1)", memberEmail)
	for i := 1; i <= 6; i++ {
		// Different addresses, so only the per-IP limit can trip.
		if st, code := signInStatus(t, env, freshAddress("ip"), "wrong-password"); st != 401 || code != "loginAuthentication" {
			t.Fatalf("attempt %d: %d %s", i, st, code)
		}
	}
	// The seventh attempt is refused even with the right password.
	r := env.Client(t).Do("POST", "/api/sessions", map[string]string{"email": memberEmail, "password": testenv.Password})
	retryAfter(t, r, 60)
	if after := env.Count(t, "sessions", "user_id = (SELECT id FROM users WHERE email_key = $1)", memberEmail); after != before {
		t.Errorf("sessions %d → %d after a refused sign-in", before, after)
	}
	// Requests without credentials are still told what is missing.
	wantMissing(t, env.Client(t).Do("POST", "/api/sessions", map[string]string{}), "email", "password")
}

// signInFrom is a failed-password sign-in with a fresh address sent with
// the forwarding headers h, as a proxy would send it; it returns the status.
func signInFrom(t *testing.T, env *testenv.Env, h http.Header) int {
	t.Helper()
	c := env.Client(t)
	c.Header = h
	return c.Do("POST", "/api/sessions", map[string]string{"email": freshAddress("fwd"), "password": "wrong-password"}).Status
}

func forwardedFor(list string) http.Header { return http.Header{"X-Forwarded-For": {list}} }

// TestSignInRateLimitBehindProxy: behind a trusted proxy (the tests' peer is
// loopback) the per-address limit counts the forwarded client, so one
// client locked out leaves the others signing in; what the client writes
// left of the proxy's entry does not move it to another count.
func TestSignInRateLimitBehindProxy(t *testing.T) {
	env := testenv.New(t, func(c *config.Config) {
		c.Auth.SignInPerIPPerMinute = 3
		c.TrustedProxies = "127.0.0.1, 10.9.0.0/16"
	})
	attacker := "203.0.113.7"
	for i := 1; i <= 3; i++ {
		if st := signInFrom(t, env, forwardedFor(attacker)); st != 401 {
			t.Fatalf("attempt %d: %d", i, st)
		}
	}
	for name, h := range map[string]http.Header{
		"same client":                        forwardedFor(attacker),
		"a forged address left of it":        forwardedFor("198.51.100.9, " + attacker),
		"through a second trusted proxy":     forwardedFor(attacker + ", 10.9.1.1"),
		"as X-Real-IP":                       {"X-Real-Ip": {attacker}},
		"forged on a second header line too": {"X-Forwarded-For": {"198.51.100.10", attacker}},
	} {
		t.Run(name, func(t *testing.T) {
			if st := signInFrom(t, env, h); st != 429 {
				t.Errorf("status %d, want 429", st)
			}
		})
	}
	// Another client behind the same proxy still signs in.
	c := env.Client(t)
	c.Header = forwardedFor("198.51.100.77")
	if r := c.Do("POST", "/api/sessions", map[string]string{"email": memberEmail, "password": testenv.Password}); r.Status != 200 {
		t.Errorf("another client: %d %s", r.Status, r.Body)
	}
}

// TestSignInRateLimitIgnoresUntrustedForwarding: a peer that is not a
// trusted proxy cannot dodge the limit by naming another address.
func TestSignInRateLimitIgnoresUntrustedForwarding(t *testing.T) {
	env := testenv.New(t, func(c *config.Config) {
		c.Auth.SignInPerIPPerMinute = 3
		c.TrustedProxies = "10.9.0.0/16" // not the tests' loopback peer
	})
	for i := 1; i <= 3; i++ {
		if st := signInFrom(t, env, forwardedFor("198.51.100."+strconv.Itoa(i))); st != 401 {
			t.Fatalf("attempt %d: %d", i, st)
		}
	}
	h := forwardedFor("198.51.100.4")
	h.Set("X-Real-IP", "198.51.100.5")
	if st := signInFrom(t, env, h); st != 429 {
		t.Errorf("a fourth attempt under another forwarded address: %d, want 429", st)
	}
}

func TestSignInRateLimitPerAccount(t *testing.T) {
	env := testenv.New(t, func(c *config.Config) {
		c.Auth.SignInPerAccountPerMinute = 3
		c.Auth.SignInPerIPPerMinute = 1000
	})
	for i := 1; i <= 3; i++ {
		if st, code := signInStatus(t, env, memberEmail, "wrong-password"); st != 401 || code != "loginAuthentication" {
			t.Fatalf("attempt %d: %d %s", i, st, code)
		}
	}
	before := env.Count(t, "sessions", "user_id = (SELECT id FROM users WHERE email_key = $1)", memberEmail)
	for name, email := range map[string]string{"same address": memberEmail, "other spelling": " MEMBER@demo.agora "} {
		t.Run(name, func(t *testing.T) {
			r := env.Client(t).Do("POST", "/api/sessions", map[string]string{"email": email, "password": testenv.Password})
			retryAfter(t, r, 60)
		})
	}
	if after := env.Count(t, "sessions", "user_id = (SELECT id FROM users WHERE email_key = $1)", memberEmail); after != before {
		t.Errorf("sessions %d → %d after refused sign-ins", before, after)
	}
	// Other accounts are not affected.
	if st, code := signInStatus(t, env, expertEmail, testenv.Password); st != 200 {
		t.Errorf("another account: %d %s", st, code)
	}
}

func TestPasswordResetRateLimitPerAccount(t *testing.T) {
	env := testenv.New(t, func(c *config.Config) { c.Auth.ResetPerAccountPerHour = 1 })
	m := newMember(t, env, "limited")
	c := env.Client(t)
	if r := c.Do("POST", "/api/tokens/passwordReset", map[string]string{"email": m.Email}); r.Status != 202 {
		t.Fatalf("first reset: %d %s", r.Status, r.Body)
	}
	if n := len(mailbox(t, env, m.Email)); n != 2 { // the invitation and the reset
		t.Fatalf("%d mails after the first reset, want 2", n)
	}
	tokens := env.Count(t, "tokens", "kind = 'passwordReset' AND user_id = $1", m.UserID)
	for name, email := range map[string]string{"same address": m.Email, "other spelling": " " + strings.ToUpper(m.Email)} {
		t.Run(name, func(t *testing.T) {
			r := c.Do("POST", "/api/tokens/passwordReset", map[string]string{"email": email})
			retryAfter(t, r, 3600)
		})
	}
	if n := len(mailbox(t, env, m.Email)); n != 2 {
		t.Errorf("%d mails after refused resets, want 2", n)
	}
	if n := env.Count(t, "tokens", "kind = 'passwordReset' AND user_id = $1", m.UserID); n != tokens {
		t.Errorf("reset tokens %d → %d after refused resets", tokens, n)
	}
	// Unknown addresses are limited the same way, which reveals nothing.
	unknown := freshAddress("unknown")
	if r := c.Do("POST", "/api/tokens/passwordReset", map[string]string{"email": unknown}); r.Status != 202 {
		t.Errorf("unknown address, first: %d %s", r.Status, r.Body)
	}
	retryAfter(t, c.Do("POST", "/api/tokens/passwordReset", map[string]string{"email": unknown}), 3600)
}

// ---------------------------------------------------------------------------
// PATCH /api/users/me

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
