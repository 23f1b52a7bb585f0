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
