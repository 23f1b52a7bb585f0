package httpapi_test

import (
	"testing"

	"agora/app/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func TestSignInSmoke(t *testing.T) {
	env := testenv.New(t)
	c := env.As(t, "member@demo.agora")
	if r := c.Do("GET", "/api/tokens/decode", nil); r.Status != 200 {
		t.Fatalf("decode: %d %s", r.Status, r.Body)
	}
}

// TestProbesIgnoreCredentials: a stale bearer header on a probe must not make
// a healthy node look down.
func TestProbesIgnoreCredentials(t *testing.T) {
	env := testenv.New(t)
	c := env.Client(t)
	c.Token = "stale-token"
	for _, p := range []string{"/healthz", "/readyz"} {
		if r := c.Do("GET", p, nil); r.Status != 200 {
			t.Errorf("GET %s with a stale token: %d %s", p, r.Status, r.Body)
		}
	}
	if r := c.Do("GET", "/api/tokens/decode", nil); r.Status != 401 || r.Code() != "tokenInvalid" {
		t.Errorf("API call with a stale token: %d %s", r.Status, r.Body)
	}
}
