package auth_test

import (
	"context"
	"strings"
	"testing"

	"agora/internal/plumbing/auth"
)

func TestCheckPassword(t *testing.T) {
	cases := []struct {
		pw   string
		want string
	}{
		{"abcdefgh", ""},
		{strings.Repeat("x", 64), ""},
		{"abcdefg", "must be 8 to 64 characters"},
		{strings.Repeat("x", 65), "must be 8 to 64 characters"},
		{"has space", "must not contain spaces"},
		{"tab\tinside", "must not contain spaces"},
		{"ünïcödé!", ""}, // eight characters, counted as characters, not bytes
	}
	for _, c := range cases {
		if got := auth.CheckPassword(c.pw); got != c.want {
			t.Errorf("CheckPassword(%q) = %q, want %q", c.pw, got, c.want)
		}
	}
}

func TestHashAndVerify(t *testing.T) {
	h := auth.NewHasher(2)
	ctx := context.Background()
	enc, err := h.Hash(ctx, "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(enc, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q does not carry OWASP's argon2id parameters", enc)
	}
	again, _ := h.Hash(ctx, "correct horse")
	if again == enc {
		t.Fatal("two hashes of one password are equal: the salt is not random")
	}
	if ok, err := h.Verify(ctx, "correct horse", enc); err != nil || !ok {
		t.Fatalf("Verify(right) = %v, %v", ok, err)
	}
	if ok, _ := h.Verify(ctx, "correct horsE", enc); ok {
		t.Fatal("Verify accepted a wrong password")
	}
	for _, bad := range []string{"", "$argon2id$", "$bcrypt$v=19$m=1,t=1,p=1$c2FsdA$aGFzaA", "$argon2id$v=19$m=x$c2FsdA$aGFzaA"} {
		if _, err := h.Verify(ctx, "pw", bad); err == nil {
			t.Errorf("Verify accepted the malformed hash %q", bad)
		}
	}
}

func TestTokens(t *testing.T) {
	a, ha := auth.NewToken()
	b, hb := auth.NewToken()
	if a == b || string(ha) == string(hb) {
		t.Fatal("tokens repeat")
	}
	if len(a) != 43 {
		t.Fatalf("token %q is not 256 bits in URL-safe base64", a)
	}
	if string(auth.HashToken(a)) != string(ha) {
		t.Fatal("HashToken does not reproduce the stored hash")
	}
}

func TestGroups(t *testing.T) {
	cases := []struct {
		g    auth.Group
		role auth.Role
		want bool
	}{
		{auth.GroupAuthenticated, auth.RoleUser, true},
		{auth.GroupAuthenticated, auth.RoleSuper, true},
		{auth.GroupAuthenticated, auth.RoleModerator, true},
		{auth.GroupAuthenticated, auth.RoleGuest, false},
		{auth.GroupAuthenticated, "", false},
		{auth.GroupGuest, "", true},
		{auth.GroupSuper, auth.RoleAdmin, false},
		{auth.GroupUser, auth.RoleAdmin, true},
		{auth.GroupUser, auth.RoleModerator, false},
		{auth.GroupModerator, auth.RoleAdmin, true},
		{auth.GroupEveryone, "", true},
	}
	for _, c := range cases {
		if got := c.g.Allows(c.role); got != c.want {
			t.Errorf("%s.Allows(%q) = %v, want %v", c.g, c.role, got, c.want)
		}
	}
}

func TestEmail(t *testing.T) {
	for s, want := range map[string]bool{
		"a@b.co": true, "A.B@example.org": true, "no-at.example": false, "a@b": false,
		"Name <a@b.co>": false, "a b@c.de": false, "": false,
	} {
		if got := auth.ValidEmail(s); got != want {
			t.Errorf("ValidEmail(%q) = %v", s, got)
		}
	}
	if auth.EmailKey("  Member@Demo.Agora ") != "member@demo.agora" {
		t.Fatal("EmailKey does not normalise")
	}
}
