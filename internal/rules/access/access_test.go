package access_test

import (
	"testing"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/internal/plumbing/auth"
	"agora/internal/rules/access"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func TestInForum(t *testing.T) {
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
	forum := func(name string) uuid.UUID { return id("SELECT id FROM series WHERE name = $1", name) }
	welcome, roundtable, ml := forum("Welcome & Introductions"), forum("Leadership Roundtable"), forum("Applied Machine Learning")
	expertIn := id(`SELECT sm.series_id FROM series_memberships sm JOIN profiles p ON p.id = sm.profile_id
		JOIN users u ON u.id = p.user_id WHERE u.email_key = 'expert@demo.agora' AND sm.is_expert`)

	cases := []struct {
		who                 string
		role                auth.Role
		forum               uuid.UUID
		read, admin, expert bool
	}{
		{"member@demo.agora", auth.RoleUser, welcome, true, false, false},
		{"member@demo.agora", auth.RoleUser, roundtable, false, false, false}, // a forum of their community they are not in
		{"member@demo.agora", auth.RoleUser, ml, false, false, false},         // another community
		{"expert@demo.agora", auth.RoleUser, expertIn, true, false, true},
		{"admin@demo.agora", auth.RoleUser, roundtable, true, true, false},
		{"admin@demo.agora", auth.RoleUser, ml, true, true, false},
		{"outsider@demo.agora", auth.RoleUser, welcome, false, false, false},
		{"super@demo.agora", auth.RoleSuper, ml, true, true, false}, // super users manage every forum
	}
	for _, c := range cases {
		f, err := access.InForum(ctx, env.DB.Pool, user(c.who), c.role, c.forum)
		if err != nil {
			t.Fatalf("%s: %v", c.who, err)
		}
		if f.Read() != c.read || f.Admin != c.admin || f.Expert != c.expert {
			t.Errorf("%s in %s: read %v admin %v expert %v, want %v %v %v", c.who, c.forum, f.Read(), f.Admin, f.Expert, c.read, c.admin, c.expert)
		}
	}
	if _, err := access.InForum(ctx, env.DB.Pool, user("member@demo.agora"), auth.RoleUser, uuid.New()); err != access.ErrForumNotFound {
		t.Fatalf("unknown forum: %v", err)
	}
}
