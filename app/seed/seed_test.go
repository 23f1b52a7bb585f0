package seed_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"agora/app/seed"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/standins/pgserver"
)

const password = "agora-demo"

// openDB starts a throw-away Postgres cluster, migrates a fresh database and
// returns its pool; everything is torn down with the test.
func openDB(t *testing.T) *pgxpool.Pool {
	t.Helper()
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "agora-seed-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	// The server may run as another OS user, which must be able to reach dir.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	srv, err := pgserver.Start(ctx, dir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatalf("start postgres: %v", err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	if err := srv.CreateDatabase(ctx, "agora"); err != nil {
		t.Fatal(err)
	}
	d, err := db.Open(ctx, srv.URL("agora"), 4)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	if _, err := db.Migrate(ctx, d.Pool); err != nil {
		t.Fatal(err)
	}
	return d.Pool
}

func count(t *testing.T, d *pgxpool.Pool, query string, args ...any) int {
	t.Helper()
	var n int
	if err := d.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func TestSeed(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	hasher := auth.NewHasher(2)

	created, err := seed.Seed(ctx, d, hasher, password, seed.Options{})
	if err != nil {
		t.Fatalf("first seed: %v", err)
	}
	if !created {
		t.Fatal("first seed: created = false, want true")
	}
	users := count(t, d, "SELECT count(*) FROM users")
	if users < 35 {
		t.Errorf("users = %d, want at least 35", users)
	}
	tables := []string{"organizations", "profiles", "communities", "series", "community_memberships", "series_memberships"}
	before := map[string]int{}
	for _, tbl := range tables {
		before[tbl] = count(t, d, "SELECT count(*) FROM "+tbl)
	}

	t.Run("second seed writes nothing", func(t *testing.T) {
		created, err := seed.Seed(ctx, d, hasher, password, seed.Options{})
		if err != nil {
			t.Fatalf("second seed: %v", err)
		}
		if created {
			t.Error("second seed: created = true, want false")
		}
		if n := count(t, d, "SELECT count(*) FROM users"); n != users {
			t.Errorf("users after second seed = %d, want %d", n, users)
		}
		for _, tbl := range tables {
			if n := count(t, d, "SELECT count(*) FROM "+tbl); n != before[tbl] {
				t.Errorf("%s after second seed = %d, want %d", tbl, n, before[tbl])
			}
		}
	})

	t.Run("logins", func(t *testing.T) {
		want := map[string]string{
			seed.SuperEmail: "super", seed.AdminEmail: "user", seed.ExpertEmail: "user",
			seed.MemberEmail: "user", seed.OutsiderEmail: "user",
		}
		logins := seed.Logins()
		if len(logins) != 5 || logins[0] != seed.SuperEmail || logins[4] != seed.OutsiderEmail {
			t.Errorf("Logins() = %v", logins)
		}
		for _, email := range logins {
			var role, hash string
			var profiles int
			err := d.QueryRow(ctx, `SELECT u.role, u.password_hash,
				(SELECT count(*) FROM profiles p WHERE p.user_id = u.id AND p.email_key = u.email_key)
				FROM users u WHERE u.email_key = $1`, email).Scan(&role, &hash, &profiles)
			if err != nil {
				t.Errorf("%s: %v", email, err)
				continue
			}
			if role != want[email] {
				t.Errorf("%s: role = %q, want %q", email, role, want[email])
			}
			if profiles != 1 {
				t.Errorf("%s: %d joined profiles, want 1", email, profiles)
			}
			ok, err := hasher.Verify(ctx, password, hash)
			if err != nil || !ok {
				t.Errorf("%s: password does not verify (ok=%v, err=%v)", email, ok, err)
			}
		}
	})

	profileOf := func(email string) string {
		var id string
		if err := d.QueryRow(ctx, "SELECT id FROM profiles WHERE email_key = $1", email).Scan(&id); err != nil {
			t.Fatalf("profile of %s: %v", email, err)
		}
		return id
	}
	seriesCount := count(t, d, "SELECT count(*) FROM series")

	t.Run("admin", func(t *testing.T) {
		p := profileOf(seed.AdminEmail)
		if n := count(t, d, "SELECT count(*) FROM series_memberships WHERE profile_id = $1 AND role = 'admin'", p); n != seriesCount {
			t.Errorf("admin of %d series, want all %d", n, seriesCount)
		}
		if n := count(t, d, "SELECT count(*) FROM community_memberships WHERE profile_id = $1 AND role = 'admin'", p); n != 2 {
			t.Errorf("admin of %d communities, want 2", n)
		}
		if n := count(t, d, "SELECT count(*) FROM profiles WHERE id = $1 AND role = 'admin'", p); n != 1 {
			t.Error("admin's profile is not an organization admin")
		}
	})

	t.Run("member", func(t *testing.T) {
		p := profileOf(seed.MemberEmail)
		if n := count(t, d, "SELECT count(*) FROM series_memberships WHERE profile_id = $1 AND role = 'member'", p); n != 2 {
			t.Errorf("member in %d series, want 2", n)
		}
		if n := count(t, d, "SELECT count(*) FROM community_memberships WHERE profile_id = $1 AND role = 'member'", p); n != 1 {
			t.Errorf("member in %d communities, want 1", n)
		}
		// The community holds a forum the member is not in.
		if n := count(t, d, `SELECT count(*) FROM series s JOIN community_memberships cm ON cm.community_id = s.community_id
			WHERE cm.profile_id = $1 AND NOT EXISTS (SELECT 1 FROM series_memberships sm WHERE sm.series_id = s.id AND sm.profile_id = $1)`, p); n < 1 {
			t.Error("member's community has no forum the member is outside of")
		}
	})

	t.Run("outsider", func(t *testing.T) {
		p := profileOf(seed.OutsiderEmail)
		if n := count(t, d, "SELECT count(*) FROM community_memberships WHERE profile_id = $1", p); n != 0 {
			t.Errorf("outsider in %d communities, want 0", n)
		}
		if n := count(t, d, "SELECT count(*) FROM series_memberships WHERE profile_id = $1", p); n != 0 {
			t.Errorf("outsider in %d series, want 0", n)
		}
	})

	t.Run("expert", func(t *testing.T) {
		p := profileOf(seed.ExpertEmail)
		if n := count(t, d, "SELECT count(*) FROM series_memberships WHERE profile_id = $1 AND is_expert", p); n != 1 {
			t.Errorf("expert is_expert in %d series, want 1", n)
		}
		if n := count(t, d, "SELECT count(*) FROM profiles WHERE id = $1 AND is_expert", p); n != 1 {
			t.Error("expert's profile is not is_expert")
		}
	})

	t.Run("forums", func(t *testing.T) {
		for _, ex := range []string{"open", "inviteOnly"} {
			if n := count(t, d, "SELECT count(*) FROM series WHERE exclusivity = $1", ex); n < 1 {
				t.Errorf("no %s series", ex)
			}
		}
		if n := count(t, d, "SELECT count(*) FROM communities"); n != 2 {
			t.Errorf("communities = %d, want 2", n)
		}
	})

	t.Run("person fields on users and profiles match", func(t *testing.T) {
		if n := count(t, d, `SELECT count(*) FROM users u JOIN profiles p ON p.user_id = u.id
			WHERE (u.first_name, u.last_name, u.job_title, u.company, u.bio, u.interest_tags, u.school, u.degree, u.field_of_study, u.graduation_year)
			   IS DISTINCT FROM (p.first_name, p.last_name, p.job_title, p.company, p.bio, p.interest_tags, p.school, p.degree, p.field_of_study, p.graduation_year)`); n != 0 {
			t.Errorf("%d users differ from their profiles", n)
		}
		if n := count(t, d, "SELECT count(*) FROM users WHERE cardinality(interest_tags) NOT BETWEEN 2 AND 4 OR email_key <> lower(trim(email))"); n != 0 {
			t.Errorf("%d users with bad interest tags or email key", n)
		}
	})
}

// TestEveryForumHasItsChannels: the schema gives each forum its main and
// admin channel, with time-ordered (version 7) ids.
func TestEveryForumHasItsChannels(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	if _, err := seed.Seed(ctx, d, auth.NewHasher(2), password, seed.Options{}); err != nil {
		t.Fatal(err)
	}
	series := count(t, d, "SELECT count(*) FROM series")
	for _, kind := range []string{"main", "admin"} {
		if n := count(t, d, "SELECT count(DISTINCT series_id) FROM channels WHERE kind = '"+kind+"'"); n != series {
			t.Errorf("%d of %d forums have a %s channel", n, series, kind)
		}
	}
	if n := count(t, d, "SELECT count(*) FROM channels WHERE substring(id::text, 15, 1) <> '7'"); n != 0 {
		t.Errorf("%d channel ids are not UUIDv7", n)
	}
	if n := count(t, d, "SELECT count(*) FROM channels WHERE abs(extract(epoch FROM now()) - ('x' || substring(replace(id::text, '-', ''), 1, 12))::bit(48)::bigint / 1000.0) > 3600"); n != 0 {
		t.Errorf("%d channel ids do not carry the time they were made", n)
	}
}
