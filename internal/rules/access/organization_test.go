package access_test

import (
	"errors"
	"testing"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/app/seed"
	"agora/app/testenv"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
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

// TestListRulesMatchOne: the list rules (OrganizationRules,
// CommunityRules' admin) say what InOrganization and InCommunity say, for
// every seeded person and a stranger, in every organization and community.
func TestListRulesMatchOne(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	pool := env.DB.Pool
	type who struct {
		id   uuid.UUID
		role auth.Role
	}
	var people []who
	rows, err := pool.Query(ctx, "SELECT id, role FROM users WHERE email LIKE '%@demo.agora'")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var w who
		if err := rows.Scan(&w.id, &w.role); err != nil {
			t.Fatal(err)
		}
		people = append(people, w)
	}
	people = append(people, who{uuid.New(), auth.RoleUser})
	var orgs, communities []uuid.UUID
	for q, into := range map[string]*[]uuid.UUID{"SELECT id FROM organizations": &orgs, "SELECT id FROM communities": &communities} {
		rows, err := pool.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id uuid.UUID
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			*into = append(*into, id)
		}
	}
	o, c := table.Organizations, table.Communities
	for _, w := range people {
		me, super := UUID(w.id), Bool(w.role == auth.RoleSuper)
		for _, id := range orgs {
			member, admin := access.OrganizationRules(o.ID, me, super)
			var m, a bool
			if err := db.QueryRow(ctx, pool, SELECT(member, admin).FROM(o).WHERE(o.ID.EQ(UUID(id)))).Scan(&m, &a); err != nil {
				t.Fatal(err)
			}
			one, err := access.InOrganization(ctx, pool, w.id, w.role, id)
			if err != nil {
				t.Fatal(err)
			}
			if m != one.Member || a != one.Admin {
				t.Errorf("%s in %s: rules member %v admin %v, InOrganization %+v", w.id, id, m, a, one)
			}
		}
		for _, id := range communities {
			var a bool
			_, manage := access.CommunityRules(c.ID, me, super)
			if err := db.QueryRow(ctx, pool, SELECT(manage).
				FROM(c).WHERE(c.ID.EQ(UUID(id)))).Scan(&a); err != nil {
				t.Fatal(err)
			}
			one, err := access.InCommunity(ctx, pool, w.id, w.role, id)
			if err != nil {
				t.Fatal(err)
			}
			if a != one.Admin {
				t.Errorf("%s in community %s: rule %v, InCommunity admin %v", w.id, id, a, one.Admin)
			}
		}
	}
}
