package insights_test

import (
	"fmt"
	"testing"

	"github.com/google/uuid"

	"agora/app/testenv"
)

// TestDimensionsFollowTheRows: organizations and communities written,
// renamed and deleted in Postgres follow in the warehouse's dimension
// tables, so that facts can be read by community and organization.
func TestDimensionsFollowTheRows(t *testing.T) {
	ins := testenv.NewInsights(t)
	ctx := t.Context()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := ins.DB.Pool.Exec(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	org, community := uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7())
	exec("INSERT INTO organizations (id, name) VALUES ($1, 'Warehouse Org')", org)
	exec("INSERT INTO communities (id, organization_id, name, description) VALUES ($1, $2, 'Warehouse Circle', 'd')", community, org)
	// read is what the warehouse has of an id, newest version.
	read := func(q string, id uuid.UUID) string {
		t.Helper()
		rows, err := ins.Warehouse.Query(ctx, q, id)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := ""
		for rows.Next() {
			var owner uuid.UUID
			var name string
			var active uint8
			var created uint64
			if err := rows.Scan(&owner, &name, &active, &created); err != nil {
				t.Fatal(err)
			}
			out += fmt.Sprintf("%s %q active=%d created=%v;", owner, name, active, created > 0)
		}
		return out
	}
	organizations := func() string {
		return read("SELECT organization_id, name, active, created_ms FROM organizations FINAL WHERE organization_id = ?", org)
	}
	communities := func() string {
		return read("SELECT organization_id, name, active, created_ms FROM communities FINAL WHERE community_id = ?", community)
	}
	wait := func(what string, got func() string, want string) {
		t.Helper()
		eventually(t, what, func() (bool, string) { g := got(); return g == want, g })
	}
	wait("the organization", organizations, fmt.Sprintf("%s %q active=1 created=true;", org, "Warehouse Org"))
	wait("the community", communities, fmt.Sprintf("%s %q active=1 created=true;", org, "Warehouse Circle"))

	exec("UPDATE organizations SET name = 'Renamed Org' WHERE id = $1", org)
	exec("UPDATE communities SET name = 'Renamed Circle' WHERE id = $1", community)
	wait("the renamed organization", organizations, fmt.Sprintf("%s %q active=1 created=true;", org, "Renamed Org"))
	wait("the renamed community", communities, fmt.Sprintf("%s %q active=1 created=true;", org, "Renamed Circle"))

	// A post in a forum of the community counts for the organization in the
	// README's example query.
	series, post := uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7())
	exec("INSERT INTO series (id, community_id, name, description) VALUES ($1, $2, 'Warehouse Forum', 'd')", series, community)
	exec(`INSERT INTO threads (id, channel_id, series_id, creator_id, raw, created_on, updated_on)
		SELECT $1, c.id, $2, (SELECT id FROM users ORDER BY created_on LIMIT 1), 'Counted', now(), now()
		FROM channels c WHERE c.series_id = $2 AND c.kind = 'main'`, post, series)
	eventually(t, "the posts by organization", func() (bool, string) {
		rows, err := ins.Warehouse.Query(ctx, postsByOrganization)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		got := ""
		for rows.Next() {
			var name string
			var posts uint64
			if err := rows.Scan(&name, &posts); err != nil {
				t.Fatal(err)
			}
			if name == "Renamed Org" {
				got = fmt.Sprintf("%s %d", name, posts)
			}
		}
		return got == "Renamed Org 1", got
	})

	exec("DELETE FROM organizations WHERE id = $1", org)
	wait("the deleted organization", organizations, fmt.Sprintf("%s %q active=0 created=true;", org, "Renamed Org"))
	wait("its community, deleted with it", communities, fmt.Sprintf("%s %q active=0 created=true;", org, "Renamed Circle"))
}

// postsByOrganization is the example query of analytics/README.md.
const postsByOrganization = `SELECT name AS organization, posts
FROM (
    SELECT organization_id, sum(posts) AS posts
    FROM (
        SELECT community_id, count() AS posts
        FROM (
            SELECT community_id, object_id, argMax(active, version) AS active
            FROM facts
            WHERE kind = 'post' AND day >= today() - 29
            GROUP BY community_id, object_id
        )
        WHERE active = 1
        GROUP BY community_id
    )
    ANY INNER JOIN (SELECT community_id, organization_id FROM communities FINAL) USING community_id
    GROUP BY organization_id
)
ANY INNER JOIN (SELECT organization_id, name FROM organizations FINAL WHERE active = 1) USING organization_id
ORDER BY posts DESC`
