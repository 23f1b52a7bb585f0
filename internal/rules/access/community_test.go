package access_test

import (
	"fmt"

	"testing"

	. "github.com/go-jet/jet/v2/postgres"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
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
	// A community of the organization with nobody in it: its organization's
	// admin and the super user manage it without being members; the others
	// may not read it.
	empty := id(`INSERT INTO communities (id, organization_id, name, description)
		SELECT gen_random_uuid(), organization_id, 'Empty '||gen_random_uuid(), 'd' FROM communities WHERE id = $1 RETURNING id`, circle)
	for who, want := range map[string]bool{"admin@demo.agora": true, "super@demo.agora": true, "member@demo.agora": false, "outsider@demo.agora": false} {
		role := auth.RoleUser
		if who == "super@demo.agora" {
			role = auth.RoleSuper
		}
		got, err := access.InCommunity(ctx, env.DB.Pool, user(who), role, empty)
		if err != nil {
			t.Fatal(err)
		}
		if got.Member || got.Admin != want || got.Read() != want {
			t.Errorf("%s in an empty community: %+v, want admin %v", who, got, want)
		}
		if _, err := access.ReadCommunity(ctx, env.DB.Pool, user(who), role, empty); (err == nil) != want {
			t.Errorf("%s reads an empty community: %v, want %v", who, err, want)
		}
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

// TestCommunityRulesAgreeWithInCommunity checks that the list rule
// (CommunityRules, as GET /communities and the live audiences apply it)
// and the one-community rule give every demo login the same communities.
func TestCommunityRulesAgreeWithInCommunity(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	for _, email := range []string{"super@demo.agora", "admin@demo.agora", "expert@demo.agora", "member@demo.agora", "outsider@demo.agora"} {
		var uid uuid.UUID
		var role string
		if err := env.DB.Pool.QueryRow(ctx, "SELECT id, role FROM users WHERE email_key = $1", email).Scan(&uid, &role); err != nil {
			t.Fatal(err)
		}
		c := table.Communities
		member, admin := access.CommunityRules(c.ID, UUID(uid), Bool(role == "super"))
		rows, err := db.All[struct {
			ID            uuid.UUID
			Member, Admin bool
		}](ctx, env.DB.Pool, SELECT(c.ID.AS("id"), member.AS("member"), admin.AS("admin")).FROM(c))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			one, err := access.InCommunity(ctx, env.DB.Pool, uid, auth.Role(role), r.ID)
			if err != nil {
				t.Fatal(err)
			}
			if one.Member != r.Member || one.Admin != r.Admin {
				t.Errorf("%s, community %s: list rule member %v admin %v, InCommunity %+v", email, r.ID, r.Member, r.Admin, one)
			}
		}
	}
}

// TestForumRulesAmongAgreeWithForumRules checks the live audiences' shape
// of the forum rules (and of the channel rule built on them) against the
// one-reader shape, for every demo user and every forum channel, with a
// paid forum whose members have not all paid among them.
func TestForumRulesAmongAgreeWithForumRules(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	// One forum made paid: its members without a complimentary
	// membership or a subscription lose it, its admins keep it.
	if _, err := env.DB.Pool.Exec(ctx, `UPDATE series SET is_free = false, price_cents = 900
		WHERE id = (SELECT id FROM series WHERE name = 'Roadmaps & Prioritization')`); err != nil {
		t.Fatal(err)
	}
	v, c, f := table.Users.AS("v"), table.Channels.AS("c"), table.Series.AS("f")
	super := v.Role.EQ(String("super"))
	member, admin := access.ForumRules(f.ID, f.CommunityID, v.ID, super)
	memberAmong, adminAmong := access.ForumRulesAmong(f.ID, f.CommunityID, v.ID, super)
	rows, err := db.All[struct {
		User, Channel                  uuid.UUID
		Kind                           string
		Member, MemberAmong            bool
		Admin, AdminAmong, Read, Among bool
	}](ctx, env.DB.Pool, SELECT(v.ID.AS("user"), c.ID.AS("channel"), c.Kind.AS("kind"),
		member.IS_TRUE().AS("member"), memberAmong.IS_TRUE().AS("member_among"),
		admin.IS_TRUE().AS("admin"), adminAmong.IS_TRUE().AS("admin_among"),
		access.ChannelRead(c.Kind, f.ID, f.CommunityID, v.ID, super).IS_TRUE().AS("read"),
		access.ChannelReaderAmong(c.Kind, f.ID, f.CommunityID, v.ID, super).IS_TRUE().AS("among")).
		FROM(v.CROSS_JOIN(c.INNER_JOIN(f, f.ID.EQ(c.SeriesID)))))
	if err != nil {
		t.Fatal(err)
	}
	pairs := map[string]int{}
	for _, r := range rows {
		if r.Member != r.MemberAmong || r.Admin != r.AdminAmong || r.Read != r.Among {
			t.Errorf("user %s, %s channel %s: ForumRules member %v admin %v read %v; ForumRulesAmong %v %v %v",
				r.User, r.Kind, r.Channel, r.Member, r.Admin, r.Read, r.MemberAmong, r.AdminAmong, r.Among)
		}
		pairs[fmt.Sprintf("%s read %v", r.Kind, r.Read)]++
		pairs[fmt.Sprintf("member %v admin %v", r.Member, r.Admin)]++
	}
	// Both kinds of channel, read and not, and each kind of reader.
	for _, k := range []string{"main read true", "main read false", "admin read true", "admin read false",
		"member true admin false", "member false admin true", "member false admin false"} {
		if pairs[k] == 0 {
			t.Errorf("no pair %q: %v", k, pairs)
		}
	}
	t.Logf("pairs: %v", pairs)
}
