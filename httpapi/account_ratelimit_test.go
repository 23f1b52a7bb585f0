package httpapi_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"agora/app/testenv"
	"agora/internal/plumbing/config"
)

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
