package httpapi_test

import (
	"testing"

	"agora/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func TestSignInSmoke(t *testing.T) {
	env := testenv.New(t)
	c := env.As(t, "member@demo.agora")
	if r := c.Do("GET", "/api/tokens/decode", nil); r.Status != 200 {
		t.Fatalf("decode: %d %s", r.Status, r.Body)
	}
}
