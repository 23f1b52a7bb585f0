package vapid_test

import (
	"testing"

	"agora/internal/plumbing/vapid"
)

func TestCheck(t *testing.T) {
	a, err := vapid.GenerateKeys()
	if err != nil {
		t.Fatal(err)
	}
	b, err := vapid.GenerateKeys()
	if err != nil {
		t.Fatal(err)
	}
	if a == b {
		t.Fatal("two generated pairs are the same")
	}
	for _, c := range []struct {
		name string
		keys vapid.Keys
		ok   bool
	}{
		{"a generated pair", a, true},
		{"padded base64url", vapid.Keys{Public: a.Public + "=", Private: a.Private + "="}, true},
		{"another pair's public key", vapid.Keys{Public: b.Public, Private: a.Private}, false},
		{"a private key that is not base64url", vapid.Keys{Public: a.Public, Private: "not base64!"}, false},
		{"a private key of the wrong length", vapid.Keys{Public: a.Public, Private: a.Private[:20]}, false},
		{"no public key", vapid.Keys{Private: a.Private}, false},
	} {
		if err := c.keys.Check(); (err == nil) != c.ok {
			t.Errorf("%s: Check() = %v, want ok %v", c.name, err, c.ok)
		}
	}
}
