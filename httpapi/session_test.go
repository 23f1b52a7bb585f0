package httpapi_test

import (
	"testing"
	"time"

	"agora/app/testenv"
	"agora/internal/plumbing/auth"
)

// A node remembers a valid session for a moment (query/account's session
// cache). A revocation through this node ends the session at once; one
// made elsewhere (here: straight in the database, as another API node's
// sign-out would) ends it within that moment.
func TestSessionRevocationReachesEveryCall(t *testing.T) {
	env := testenv.New(t)

	t.Run("sign-out through this node refuses the token at once", func(t *testing.T) {
		c := env.As(t, "member@demo.agora")
		if r := c.Do("GET", "/api/tokens/decode", nil); r.Status != 200 {
			t.Fatalf("decode: %d %s", r.Status, r.Body)
		}
		if r := c.Do("DELETE", "/api/sessions/current", nil); r.Status != 204 {
			t.Fatalf("sign-out: %d %s", r.Status, r.Body)
		}
		wantError(t, c.Do("GET", "/api/tokens/decode", nil), 401, "tokenInvalid")
	})

	t.Run("a revocation made elsewhere ends the session within a second or so", func(t *testing.T) {
		c := env.As(t, "member@demo.agora")
		if r := c.Do("GET", "/api/tokens/decode", nil); r.Status != 200 {
			t.Fatalf("decode: %d %s", r.Status, r.Body)
		}
		exec(t, env, "UPDATE sessions SET revoked_on = now() WHERE token_hash = $1", auth.HashToken(c.Token))
		deadline := time.Now().Add(5 * time.Second)
		for {
			r := c.Do("GET", "/api/tokens/decode", nil)
			if r.Status == 401 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the revoked session still works after 5 s: %d", r.Status)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})

	t.Run("a password change through this node ends the other sessions at once", func(t *testing.T) {
		email := "member@demo.agora"
		other := env.As(t, email)
		if r := other.Do("GET", "/api/tokens/decode", nil); r.Status != 200 {
			t.Fatalf("decode: %d %s", r.Status, r.Body)
		}
		me := env.As(t, email)
		r := me.Do("PATCH", "/api/users/me", map[string]string{"currentPassword": testenv.Password, "password": testenv.Password})
		if r.Status != 200 {
			t.Fatalf("password change: %d %s", r.Status, r.Body)
		}
		wantError(t, other.Do("GET", "/api/tokens/decode", nil), 401, "tokenInvalid")
		if r := me.Do("GET", "/api/tokens/decode", nil); r.Status != 200 {
			t.Fatalf("the session that changed the password: %d %s", r.Status, r.Body)
		}
	})
}
