package access_test

import (
	"errors"
	"testing"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/internal/access"
	"agora/internal/auth"
	"agora/internal/seed"
)

func TestInOrganization(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	user := func(email string) uuid.UUID {
		t.Helper()
		var v uuid.UUID
		if err := env.DB.Pool.QueryRow(ctx, "SELECT id FROM users WHERE email_key = $1", email).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	stranger := uuid.New() // an account with no profile in the organization
	cases := []struct {
		who                        string
		id                         uuid.UUID
		role                       auth.Role
		see, admin, super, profile bool
	}{
		{"admin", user(seed.AdminEmail), auth.RoleUser, true, true, false, true},
		{"member", user(seed.MemberEmail), auth.RoleUser, true, false, false, true},
		{"outsider", user(seed.OutsiderEmail), auth.RoleUser, true, false, false, true},
		{"super", user(seed.SuperEmail), auth.RoleSuper, true, true, true, true},
		{"stranger", stranger, auth.RoleUser, false, false, false, false},
	}
	for _, c := range cases {
		got, err := access.InOrganization(ctx, env.DB.Pool, c.id, c.role, seed.OrganizationID)
		if err != nil {
			t.Fatal(c.who, err)
		}
		if got.See() != c.see || got.Admin != c.admin || got.Super != c.super || (got.ProfileID != uuid.Nil) != c.profile {
			t.Errorf("%s: %+v, want see %v admin %v super %v profile %v", c.who, got, c.see, c.admin, c.super, c.profile)
		}
		_, err = access.SeeOrganization(ctx, env.DB.Pool, c.id, c.role, seed.OrganizationID)
		if (err == nil) != c.see {
			t.Errorf("%s: SeeOrganization %v", c.who, err)
		}
	}
	if _, err := access.InOrganization(ctx, env.DB.Pool, stranger, auth.RoleUser, uuid.New()); !errors.Is(err, access.ErrOrganizationNotFound) {
		t.Fatalf("unknown organization: %v", err)
	}
}
