package httpapi_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"agora/app/testenv"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/config"
	"agora/internal/standins/oidcserver"
)

// ssoOrg is an organization of its own with single sign-on through a real
// OpenID Provider on loopback.
type ssoOrg struct {
	env              *testenv.Env
	idp              *oidcserver.Provider
	id               string
	clientID, secret string
}

func startIdP(t *testing.T) *oidcserver.Provider {
	t.Helper()
	idp, err := oidcserver.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = idp.Close() })
	return idp
}

// ssoEnv starts n identity providers on loopback and a server that may
// reach them, each by its exact address (AGORA_OUTBOUND_ALLOW), and no
// other internal address.
func ssoEnv(t *testing.T, n int, options ...func(*config.Config)) (*testenv.Env, []*oidcserver.Provider) {
	t.Helper()
	idps := make([]*oidcserver.Provider, n)
	for i := range idps {
		idps[i] = startIdP(t)
		options = append(options, testenv.AllowOutbound(idps[i].Addr()))
	}
	return testenv.New(t, options...), idps
}

// newSSOOrg turns single sign-on on for a new organization through idp,
// which env may reach.
func newSSOOrg(t *testing.T, env *testenv.Env, idp *oidcserver.Provider) *ssoOrg {
	t.Helper()
	o := &ssoOrg{env: env, idp: idp, clientID: testenv.Unique("agora"), secret: testenv.Unique("secret")}
	o.id = queryString(t, env, `INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), $1) RETURNING id::text`, testenv.Unique("SSO Org"))
	o.idp.AddClient(oidcserver.Client{ID: o.clientID, Secret: o.secret, RedirectURIs: []string{env.URL + "/callbacks/auth"}})
	wantStatus(t, env.As(t, superEmail).Do("PUT", "/api/organizations/"+o.id+"/identity-client",
		map[string]any{"issuer": o.idp.Issuer, "clientId": o.clientID, "clientSecret": o.secret}), 204)
	return o
}

// person adds a profile of the organization and the same person at the
// provider; verified says whether the provider vouches for the address.
func (o *ssoOrg) person(t *testing.T, verified bool) string {
	t.Helper()
	email := freshAddress("Sso")
	addProfile(t, o.env, o.id, email)
	o.idp.AddUser(oidcserver.User{Email: email, EmailVerified: verified, GivenName: "Sam", FamilyName: "Sso"})
	return email
}

func addProfile(t *testing.T, env *testenv.Env, org, email string) string {
	t.Helper()
	return queryString(t, env, `INSERT INTO profiles (id, organization_id, email, email_key, first_name, last_name)
		VALUES (gen_random_uuid(), $1, $2, lower($2), 'Sam', 'Sso') RETURNING id::text`, org, email)
}

// callback starts single sign-on for typed, signs in at the provider as
// idpEmail the way a browser does, and returns the state and code the
// provider sends back to /callbacks/auth.
func (o *ssoOrg) callback(t *testing.T, typed, idpEmail, redirect string) (state, code string) {
	t.Helper()
	r := o.env.Client(t).Do("POST", "/api/sso/start", map[string]any{"email": typed, "redirect": redirect})
	wantStatus(t, r, 200)
	var started struct {
		AuthorizationURL string `json:"authorizationUrl"`
	}
	r.JSON(t, &started)
	browser := &http.Client{CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), o.env.URL) {
			return http.ErrUseLastResponse // back at our app: the test takes over
		}
		return nil
	}}
	res, err := browser.Get(started.AuthorizationURL)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	requestID := res.Request.URL.Query().Get("authRequestID")
	if res.StatusCode != 200 || requestID == "" {
		t.Fatalf("provider login page: %d %s", res.StatusCode, res.Request.URL)
	}
	res, err = browser.PostForm(o.idp.Issuer+"/login", url.Values{"authRequestID": {requestID}, "email": {idpEmail}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	back, err := url.Parse(res.Header.Get("Location"))
	if res.StatusCode != http.StatusFound || err != nil || back.Path != "/callbacks/auth" {
		t.Fatalf("provider did not send the browser back: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	return back.Query().Get("state"), back.Query().Get("code")
}

func (o *ssoOrg) complete(t *testing.T, state, code string) *testenv.Response {
	t.Helper()
	return o.env.Client(t).Do("POST", "/api/sso/callback", map[string]any{"state": state, "code": code})
}

type ssoSession struct {
	sessionBody
	Redirect *string `json:"redirect"`
}

func TestSSOSignIn(t *testing.T) {
	env, idps := ssoEnv(t, 1)
	o := newSSOOrg(t, env, idps[0])
	if got := queryString(t, env, `SELECT coalesce(identity_client, '') FROM organizations WHERE id = $1`, o.id); got != o.idp.Issuer {
		t.Errorf("organizations.identity_client = %q, want the issuer", got)
	}
	// The organization says that single sign-on is on, and never the secret.
	r := env.As(t, superEmail).Do("GET", "/api/organizations/"+o.id, nil)
	wantStatus(t, r, 200)
	var org struct {
		IdentityClient *string `json:"identityClient"`
	}
	r.JSON(t, &org)
	if org.IdentityClient == nil || *org.IdentityClient != o.idp.Issuer || strings.Contains(string(r.Body), o.secret) {
		t.Errorf("GET /api/organizations/{id}: %s", r.Body)
	}
	email := o.person(t, true)

	open := queryString(t, env, `INSERT INTO communities (id, organization_id, name, description, sso_access) VALUES (gen_random_uuid(), $1, $2, 'd', true) RETURNING id::text`, o.id, testenv.Unique("SSO Community"))
	closed := queryString(t, env, `INSERT INTO communities (id, organization_id, name, description) VALUES (gen_random_uuid(), $1, $2, 'd') RETURNING id::text`, o.id, testenv.Unique("Invited Community"))

	t.Run("a first sign-in makes the account and joins the profile", func(t *testing.T) {
		state, code := o.callback(t, email, email, "/communities/x")
		r := o.complete(t, state, code)
		wantStatus(t, r, 200)
		var s ssoSession
		r.JSON(t, &s)
		if !strings.EqualFold(s.User.Email, email) || s.AccessToken == "" || s.Redirect == nil || *s.Redirect != "/communities/x" {
			t.Fatalf("session %+v", s)
		}
		c := env.Client(t)
		c.Token = s.AccessToken
		wantStatus(t, c.Do("GET", "/api/tokens/decode", nil), 200)
		if n := env.Count(t, "profiles", "organization_id = $1 AND email_key = lower($2) AND user_id = $3", o.id, email, s.User.ID); n != 1 {
			t.Error("the profile was not joined to the account")
		}
		// Communities open to single sign-on take the person in; others
		// still need an invitation.
		member := "profile_id = (SELECT id FROM profiles WHERE organization_id = $1 AND email_key = lower($2)) AND community_id = $3 AND status = 'active'"
		if env.Count(t, "community_memberships", member, o.id, email, open) != 1 || env.Count(t, "community_memberships", member, o.id, email, closed) != 0 {
			t.Error("the memberships do not follow the communities' ssoAccess")
		}
		t.Run("the same state is refused a second time", func(t *testing.T) {
			wantError(t, o.complete(t, state, code), 400, "ssoStateInvalid")
		})
		t.Run("the next sign-in links the same account", func(t *testing.T) {
			state, code := o.callback(t, email, email, "")
			r := o.complete(t, state, code)
			wantStatus(t, r, 200)
			var again ssoSession
			r.JSON(t, &again)
			if again.User.ID != s.User.ID || again.Redirect != nil {
				t.Errorf("second sign-in: %+v, want user %s and no redirect", again, s.User.ID)
			}
		})
		t.Run("a redirect a browser reads as another site is dropped", func(t *testing.T) {
			state, code := o.callback(t, email, email, "/\t/evil.example")
			r := o.complete(t, state, code)
			wantStatus(t, r, 200)
			var again ssoSession
			r.JSON(t, &again)
			if again.Redirect != nil {
				t.Errorf("redirect %q kept", *again.Redirect)
			}
		})
	})

	t.Run("an unknown state", func(t *testing.T) {
		wantError(t, o.complete(t, "not-a-state", "code"), 400, "ssoStateInvalid")
		wantError(t, env.Client(t).Do("POST", "/api/sso/callback", map[string]any{"code": "c"}), 400, "parametersMissingException")
	})

	t.Run("an expired flow", func(t *testing.T) {
		state, code := o.callback(t, email, email, "")
		exec(t, env, `UPDATE sso_flows SET expires_on = now() - interval '1 second' WHERE organization_id = $1 AND used_on IS NULL`, o.id)
		wantError(t, o.complete(t, state, code), 400, "ssoFlowExpired")
	})

	t.Run("an address the provider has not verified", func(t *testing.T) {
		unverified := o.person(t, false)
		state, code := o.callback(t, unverified, unverified, "")
		wantError(t, o.complete(t, state, code), 403, "ssoEmailNotVerified")
		if n := env.Count(t, "users", "email_key = lower($1)", unverified); n != 0 {
			t.Error("an account was made")
		}
	})

	t.Run("an ID token of another issuer", func(t *testing.T) {
		state, code := o.callback(t, email, email, "")
		o.idp.SetTokenIssuer("http://127.0.0.1:1/elsewhere")
		defer o.idp.SetTokenIssuer("")
		wantError(t, o.complete(t, state, code), 401, "ssoTokenInvalid")
	})

	t.Run("a person of another organization", func(t *testing.T) {
		// The provider vouches for an address that only another
		// organization holds: this organization's provider cannot sign
		// them in.
		other := freshAddress("Other")
		addProfile(t, env, queryString(t, env, `SELECT organization_id::text FROM communities WHERE name = $1`, leadershipCircle), other)
		o.idp.AddUser(oidcserver.User{Email: other, EmailVerified: true})
		state, code := o.callback(t, email, other, "")
		wantError(t, o.complete(t, state, code), 403, "ssoNotMember")
		if n := env.Count(t, "users", "email_key = lower($1)", other); n != 0 {
			t.Error("an account was made")
		}
	})

	t.Run("an account that has not joined the organization", func(t *testing.T) {
		m := newMember(t, env, "Unlinked")
		addProfile(t, env, o.id, m.Email)
		o.idp.AddUser(oidcserver.User{Email: m.Email, EmailVerified: true})
		state, code := o.callback(t, m.Email, m.Email, "")
		wantError(t, o.complete(t, state, code), 409, "ssoAccountNotLinked")
		if n := env.Count(t, "profiles", "organization_id = $1 AND user_id IS NOT NULL AND email_key = lower($2)", o.id, m.Email); n != 0 {
			t.Error("the profile was joined")
		}
	})

	t.Run("addresses without single sign-on get one answer", func(t *testing.T) {
		for _, a := range []string{freshAddress("Nobody"), memberEmail} {
			wantError(t, env.Client(t).Do("POST", "/api/sso/start", map[string]any{"email": a}), 404, "ssoUnavailable")
		}
	})
}

func TestSSOWrongAudience(t *testing.T) {
	env, idps := ssoEnv(t, 1)
	o := newSSOOrg(t, env, idps[0])
	email := o.person(t, true)
	state, code := o.callback(t, email, email, "")
	// The provider answers with an ID token, signed with its key, meant
	// for another application.
	o.idp.SetIDTokenAudience([]string{"someone-else"})
	wantError(t, o.complete(t, state, code), 401, "ssoTokenInvalid")
}

func TestSSORedeemAccessToken(t *testing.T) {
	env, idps := ssoEnv(t, 1)
	o := newSSOOrg(t, env, idps[0])
	email := o.person(t, true)
	token, err := o.idp.IssueAccessToken(t.Context(), o.clientID, email)
	if err != nil {
		t.Fatal(err)
	}
	c := env.Client(t)
	c.Token = token
	r := c.Do("POST", "/api/sso/tokens/redeem", nil)
	wantStatus(t, r, 200)
	var s sessionBody
	r.JSON(t, &s)
	if !strings.EqualFold(s.User.Email, email) || s.AccessToken == "" {
		t.Fatalf("session %+v", s)
	}
	c.Token = s.AccessToken
	wantStatus(t, c.Do("GET", "/api/tokens/decode", nil), 200)

	t.Run("a token the provider did not issue", func(t *testing.T) {
		c := env.Client(t)
		c.Token = token[:len(token)-4] + "AAAA"
		wantError(t, c.Do("POST", "/api/sso/tokens/redeem", nil), 401, "ssoTokenInvalid")
		wantError(t, env.Client(t).Do("POST", "/api/sso/tokens/redeem", nil), 401, "authenticationRequired")
	})
}

// TestMatrixIdentityClient: only an organization's admins and super users
// set or remove its identity client; a refusal writes nothing.
func TestMatrixIdentityClient(t *testing.T) {
	// The second provider is stopped below: an issuer whose discovery fails.
	env, idps := ssoEnv(t, 2)
	o := newSSOOrg(t, env, idps[0])
	admin, member, outsider := newMember(t, env, "OrgAdmin"), newMember(t, env, "OrgMember"), newMember(t, env, "Outsider")
	exec(t, env, `INSERT INTO profiles (id, organization_id, user_id, role, email, email_key, first_name, last_name)
		SELECT gen_random_uuid(), $1, u.id, r.role, u.email, u.email_key, u.first_name, u.last_name
		FROM users u JOIN (VALUES ($2::uuid, 'admin'), ($3::uuid, 'member')) AS r (id, role) ON r.id = u.id`, o.id, admin.UserID, member.UserID)
	path := "/api/organizations/" + o.id + "/identity-client"
	body := map[string]any{"issuer": o.idp.Issuer, "clientId": o.clientID, "clientSecret": o.secret}
	digest := func() string {
		return queryString(t, env, `SELECT coalesce((SELECT row_to_json(i)::text FROM identity_clients i WHERE organization_id = $1), 'none')
			|| coalesce((SELECT identity_client FROM organizations WHERE id = $1), 'null')`, o.id)
	}
	guest := env.Client(t)
	for _, c := range []struct {
		name   string
		client *testenv.Client
		status int
		code   string
	}{
		{"super", env.As(t, superEmail), 204, ""},
		{"org admin", admin.Client, 204, ""},
		{"org member", member.Client, 403, "forbidden"},
		{"outsider", outsider.Client, 404, "notFound"},
		{"guest", guest, 401, "authenticationRequired"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, method := range []string{"PUT", "DELETE"} {
				before := digest()
				var b any
				if method == "PUT" {
					b = body
				}
				r := c.client.Do(method, path, b)
				if c.status != 204 {
					wantError(t, r, c.status, c.code)
					if digest() != before {
						t.Errorf("a refused %s wrote", method)
					}
					continue
				}
				wantStatus(t, r, 204)
				want := o.idp.Issuer
				if method == "DELETE" {
					want = ""
				}
				if got := queryString(t, env, `SELECT coalesce(identity_client, '') FROM organizations WHERE id = $1`, o.id); got != want {
					t.Errorf("after %s identity_client = %q, want %q", method, got, want)
				}
			}
			// Leave single sign-on on for the next role.
			wantStatus(t, env.As(t, superEmail).Do("PUT", path, body), 204)
		})
	}

	super := env.As(t, superEmail)
	t.Run("bad input writes nothing", func(t *testing.T) {
		before := digest()
		wantError(t, super.Do("PUT", path, map[string]any{"issuer": o.idp.Issuer}), 400, "parametersMissingException")
		wantError(t, super.Do("PUT", path, map[string]any{"issuer": "ftp://idp.example", "clientId": "a", "clientSecret": "b"}), 400, "validationFailed")
		// An issuer whose discovery fails is refused on save.
		dead := idps[1]
		_ = dead.Close()
		wantError(t, super.Do("PUT", path, map[string]any{"issuer": dead.Issuer, "clientId": "a", "clientSecret": "b"}), 400, "validationFailed")
		if digest() != before {
			t.Error("refused input wrote")
		}
	})
}

// TestRedeemAccessToken: an access link grants its profile to the account
// of the address it was sent to, once.
func TestRedeemAccessToken(t *testing.T) {
	env := testenv.New(t)
	m := newMember(t, env, "Access")
	org := queryString(t, env, `INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), $1) RETURNING id::text`, testenv.Unique("Access Org"))
	profile := addProfile(t, env, org, m.Email)
	community := queryString(t, env, `INSERT INTO communities (id, organization_id, name, description) VALUES (gen_random_uuid(), $1, $2, 'd') RETURNING id::text`, org, testenv.Unique("Access Community"))
	exec(t, env, `INSERT INTO community_memberships (community_id, profile_id, status) VALUES ($1, $2, 'pending')`, community, profile)
	accessToken := func(email string, expires string) string {
		tok, hash := auth.NewToken()
		exec(t, env, `INSERT INTO tokens (id, kind, token_hash, profile_id, email, expires_on) VALUES (gen_random_uuid(), 'access', $1, $2, $3, now() + $4::interval)`,
			hash, profile, email, expires)
		return tok
	}

	t.Run("someone else's link grants nothing", func(t *testing.T) {
		other := newMember(t, env, "NotAddressee")
		wantError(t, other.Client.Do("POST", "/api/tokens/"+accessToken(m.Email, "1 hour")+"/redeem", nil), 403, "invitationEmailMismatch")
		wantError(t, m.Client.Do("POST", "/api/tokens/"+accessToken(m.Email, "-1 second")+"/redeem", nil), 404, "accessTokenInvalid")
		wantError(t, m.Client.Do("POST", "/api/tokens/not-a-token/redeem", nil), 404, "accessTokenInvalid")
		wantError(t, env.Client(t).Do("POST", "/api/tokens/"+accessToken(m.Email, "1 hour")+"/redeem", nil), 401, "authenticationRequired")
		if n := env.Count(t, "profiles", "id = $1 AND user_id IS NOT NULL", profile); n != 0 {
			t.Fatal("a refused link joined the profile")
		}
	})

	tok := accessToken(m.Email, "1 hour")
	r := m.Client.Do("POST", "/api/tokens/"+tok+"/redeem", nil)
	wantStatus(t, r, 200)
	if n := env.Count(t, "community_memberships", "community_id = $1 AND profile_id = $2 AND status = 'active'", community, profile); n != 1 {
		t.Error("the membership is not active")
	}
	if n := env.Count(t, "profiles", "id = $1 AND user_id = $2", profile, m.UserID); n != 1 {
		t.Error("the profile is not joined")
	}
	// A second click answers the same; the link is used up for anyone else.
	wantStatus(t, m.Client.Do("POST", "/api/tokens/"+tok+"/redeem", nil), 200)
	wantError(t, newMember(t, env, "Late").Client.Do("POST", "/api/tokens/"+tok+"/redeem", nil), 404, "accessTokenInvalid")
}

// TestSSOStart: the address picks the organization; one in several
// organizations with single sign-on chooses among them.
func TestSSOStart(t *testing.T) {
	env, idps := ssoEnv(t, 2)
	a, b := newSSOOrg(t, env, idps[0]), newSSOOrg(t, env, idps[1])
	email := a.person(t, true)
	addProfile(t, env, b.id, email)
	c := env.Client(t)
	var started struct {
		AuthorizationURL string `json:"authorizationUrl"`
		Organizations    []struct {
			ID string `json:"id"`
		} `json:"organizations"`
	}
	r := c.Do("POST", "/api/sso/start", map[string]any{"email": email})
	wantStatus(t, r, 200)
	r.JSON(t, &started)
	if started.AuthorizationURL != "" || len(started.Organizations) != 2 {
		t.Fatalf("two organizations hold the address: %s", r.Body)
	}
	r = c.Do("POST", "/api/sso/start", map[string]any{"email": strings.ToUpper(email), "organizationId": b.id})
	wantStatus(t, r, 200)
	r.JSON(t, &started)
	if !strings.HasPrefix(started.AuthorizationURL, b.idp.Issuer+"/") || !strings.Contains(started.AuthorizationURL, "code_challenge_method=S256") ||
		!strings.Contains(started.AuthorizationURL, "nonce=") {
		t.Errorf("authorization URL %q: not b's provider, or no PKCE or nonce", started.AuthorizationURL)
	}
	before := env.Count(t, "sso_flows", "")
	wantError(t, c.Do("POST", "/api/sso/start", map[string]any{}), 400, "parametersMissingException")
	wantError(t, c.Do("POST", "/api/sso/start", map[string]any{"email": "not an address"}), 400, "validationFailed")
	if env.Count(t, "sso_flows", "") != before {
		t.Error("a refused start stored a flow")
	}
}

// TestSSOOutboundGuard (issue 31, G1): an identity provider on an
// internal address is never reached: an issuer on loopback that
// AGORA_OUTBOUND_ALLOW does not name (agora dev included), a discovery
// document that redirects there, and a token endpoint there that a
// discovery document names, which would receive the code and the client
// secret. Each is refused and the internal server sees no connection.
func TestSSOOutboundGuard(t *testing.T) {
	inside := startIdP(t)    // not allowed
	var trapped atomic.Int64 // connections, not only requests
	trap := httptest.NewUnstartedServer(http.NotFoundHandler())
	trap.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			trapped.Add(1)
		}
	}
	trap.Start()
	t.Cleanup(trap.Close)
	// An allowed server standing in for a public one: it redirects its
	// discovery to the internal provider, or serves a document of its own
	// whose token and key endpoints are internal.
	var front *httptest.Server
	front = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/redirect/.well-known/openid-configuration":
			http.Redirect(w, r, inside.Issuer+"/.well-known/openid-configuration", http.StatusFound)
		case "/named/.well-known/openid-configuration":
			iss := front.URL + "/named"
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"issuer": iss, "authorization_endpoint": iss + "/authorize",
				"token_endpoint": trap.URL + "/token", "jwks_uri": trap.URL + "/keys", "userinfo_endpoint": trap.URL + "/userinfo",
				"response_types_supported": []string{"code"}, "subject_types_supported": []string{"public"},
				"id_token_signing_alg_values_supported": []string{"RS256"}})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(front.Close)
	env := testenv.New(t, testenv.AllowOutbound(netip.MustParseAddrPort(front.Listener.Addr().String())))
	super := env.As(t, superEmail)
	org := queryString(t, env, `INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), $1) RETURNING id::text`, testenv.Unique("Guarded Org"))
	path := "/api/organizations/" + org + "/identity-client"
	for _, issuer := range []string{inside.Issuer, "https://127.0.0.1:1/", "https://169.254.169.254/", front.URL + "/redirect"} {
		wantError(t, super.Do("PUT", path, map[string]any{"issuer": issuer, "clientId": "a", "clientSecret": "b"}), 400, "validationFailed")
	}
	if n := env.Count(t, "identity_clients", "organization_id = $1", org); n != 0 {
		t.Error("an internal issuer was saved")
	}
	if n := inside.Discoveries(); n != 0 {
		t.Errorf("the internal provider was asked for its discovery document %d times", n)
	}

	// The document itself is public: saved. The code exchange that follows
	// a sign-in may not reach its internal token endpoint.
	wantStatus(t, super.Do("PUT", path, map[string]any{"issuer": front.URL + "/named", "clientId": "a", "clientSecret": "secret"}), 204)
	email := freshAddress("Guarded")
	addProfile(t, env, org, email)
	r := env.Client(t).Do("POST", "/api/sso/start", map[string]any{"email": email})
	wantStatus(t, r, 200)
	var started struct {
		AuthorizationURL string `json:"authorizationUrl"`
	}
	r.JSON(t, &started)
	u, err := url.Parse(started.AuthorizationURL)
	if err != nil || u.Query().Get("state") == "" {
		t.Fatalf("authorization URL %q", started.AuthorizationURL)
	}
	r = env.Client(t).Do("POST", "/api/sso/callback", map[string]any{"state": u.Query().Get("state"), "code": "a-code"})
	if r.Status < 400 {
		t.Fatalf("a sign-in through an internal token endpoint answered %d", r.Status)
	}
	if n := trapped.Load(); n != 0 {
		t.Errorf("the internal token endpoint got %d connections", n)
	}
}

// TestSSODiscoveryReused: the provider's discovery document, read when
// single sign-on was turned on, serves the sign-ins that follow; they ask
// the provider for no discovery again.
func TestSSODiscoveryReused(t *testing.T) {
	env, idps := ssoEnv(t, 1)
	o := newSSOOrg(t, env, idps[0])
	turnedOn := o.idp.Discoveries()
	if turnedOn == 0 {
		t.Fatal("turning single sign-on on did not read the discovery document")
	}
	email := o.person(t, true)
	for i := range 2 {
		state, code := o.callback(t, email, email, "")
		wantStatus(t, o.complete(t, state, code), 200)
		if n := o.idp.Discoveries(); n != turnedOn {
			t.Fatalf("sign-in %d: the discovery document was read %d times in all, want %d", i+1, n, turnedOn)
		}
	}
}
