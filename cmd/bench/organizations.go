package main

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"agora/app/seed"
)

// orgPeople is how many people the measured organization holds: a large
// customer's whole staff, listed by its admins 25 at a time.
const orgPeople = 20_000

// organizationsBench measures the organization admin's people list (GET
// /api/organizations/{id}/profiles) on an organization of orgPeople
// profiles, a first page by name and a keyword search, and the super
// user's organization list with its counts, 8 workers each.
func organizationsBench(ctx context.Context, selected map[string]bool, c *client, pool *pgxpool.Pool, password string, duration, warmup time.Duration) error {
	if !selected["organizations"] {
		return nil
	}
	start := time.Now()
	var org string
	err := pool.QueryRow(ctx, `INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'Bench Org') RETURNING id::text`).Scan(&org)
	if err == nil {
		_, err = pool.Exec(ctx, `INSERT INTO profiles (id, organization_id, role, email, email_key, first_name, last_name, interest_tags)
			SELECT gen_random_uuid(), $1, CASE WHEN i % 100 = 0 THEN 'admin' ELSE 'member' END,
			       'person' || i || '@bench.test', 'person' || i || '@bench.test', 'First' || i, 'Last' || (i * 7919 % $2), '{bench}'
			FROM generate_series(1, $2) AS i`, org, orgPeople)
	}
	if err == nil {
		// The super user manages every organization: no profile needed.
		_, err = pool.Exec(ctx, `ANALYZE profiles`)
	}
	if err != nil {
		return fmt.Errorf("organizations: load: %w", err)
	}
	fmt.Printf("organizations data: one organization of %s profiles, loaded and analyzed in %.1f s\n", thousands(orgPeople), time.Since(start).Seconds())
	token, err := c.signIn(ctx, seed.SuperEmail, password)
	if err != nil {
		return fmt.Errorf("organizations: %w", err)
	}
	for _, m := range []struct{ label, path string }{
		{"GET /organizations/{id}/profiles, page 1 by name:", "/api/organizations/" + org + "/profiles?pageSize=25"},
		{"the same, keyword \"last12\":", "/api/organizations/" + org + "/profiles?pageSize=25&keyword=last12"},
		{"GET /organizations (super user, with counts):", "/api/organizations"},
	} {
		if err := getLoop(ctx, c, token, m.path, m.label, "", 8, warmup, duration); err != nil {
			return fmt.Errorf("organizations: %w", err)
		}
	}
	return nil
}
