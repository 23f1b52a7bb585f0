package access_test

import (
	"fmt"
	"testing"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/internal/access"
	"agora/internal/auth"
)

func TestInCommunity(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	id := func(q string, args ...any) uuid.UUID {
		t.Helper()
		var v uuid.UUID
		if err := env.DB.Pool.QueryRow(ctx, q, args...).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	user := func(email string) uuid.UUID { return id("SELECT id FROM users WHERE email_key = $1", email) }
	community := func(name string) uuid.UUID { return id("SELECT id FROM communities WHERE name = $1", name) }
	circle, data := community("Product Leadership Circle"), community("Data & AI Practitioners")
	cases := []struct {
		who                   string
		role                  auth.Role
		community             uuid.UUID
		member, admin, profil bool
	}{
		{"member@demo.agora", auth.RoleUser, circle, true, false, true},
		{"member@demo.agora", auth.RoleUser, data, false, false, true},
		{"admin@demo.agora", auth.RoleUser, circle, true, true, true},
		{"outsider@demo.agora", auth.RoleUser, circle, false, false, true},
		{"super@demo.agora", auth.RoleSuper, data, false, true, false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.who, c.community), func(t *testing.T) {
			got, err := access.InCommunity(ctx, env.DB.Pool, user(c.who), c.role, c.community)
			if err != nil {
				t.Fatal(err)
			}
			if got.Member != c.member || got.Admin != c.admin || got.OrganizationID == uuid.Nil {
				t.Errorf("%s: %+v, want member %v admin %v", c.who, got, c.member, c.admin)
			}
			if c.profil && got.ProfileID == uuid.Nil {
				t.Errorf("%s has no profile", c.who)
			}
		})
	}
	if _, err := access.InCommunity(ctx, env.DB.Pool, user("member@demo.agora"), auth.RoleUser, uuid.New()); err != access.ErrCommunityNotFound {
		t.Fatalf("unknown community: %v", err)
	}
}

// TestForumSQLAgreesWithInForum checks that the list rule, as the text the
// feed's statement embeds (ForumSQL renders ForumRules), and the one-forum
// rule give every demo login the same forums.
func TestForumSQLAgreesWithInForum(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	member, admin := access.ForumSQL("$1", "$2")
	for _, email := range []string{"super@demo.agora", "admin@demo.agora", "expert@demo.agora", "member@demo.agora", "outsider@demo.agora"} {
		var uid uuid.UUID
		var role string
		if err := env.DB.Pool.QueryRow(ctx, "SELECT id, role FROM users WHERE email_key = $1", email).Scan(&uid, &role); err != nil {
			t.Fatal(err)
		}
		rows, err := env.DB.Pool.Query(ctx, `SELECT s.id, `+member+` OR `+admin+`, `+admin+` FROM series s`, uid, role == "super")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var sid uuid.UUID
			var read, adm bool
			if err := rows.Scan(&sid, &read, &adm); err != nil {
				t.Fatal(err)
			}
			f, err := access.InForum(ctx, env.DB.Pool, uid, auth.Role(role), sid)
			if err != nil {
				t.Fatal(err)
			}
			if f.Read() != read || f.Admin != adm {
				t.Errorf("%s in %s: SQL read %v admin %v, InForum %v %v", email, sid, read, adm, f.Read(), f.Admin)
			}
		}
		rows.Close()
	}
}
