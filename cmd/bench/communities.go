package main

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"agora/app/seed"
)

// communitiesBench measures the community list (GET /api/communities) of
// the demo member made a member of 200 more communities, each with two
// forums and the organization's people in it, among 1,000 communities of
// the organization they are not in:
//
//	communities  the default list (every community of the member, page 1
//	             of 9999, with their forums), and the home page's filter and
//	             sort (presetFilter=visited, filters=role:member, sort=latest
//	             desc), each from 4 workers.
const (
	benchCommunities = 200
	otherCommunities = 1000
	communityWorkers = 4
)

// loadCommunities makes the benchmark's communities in SQL and returns how
// many the member now has.
func loadCommunities(ctx context.Context, pool *pgxpool.Pool) (int, error) {
	stmts := []string{
		// The member's 200 (every third visited, every tenth administered)
		// and 1,000 others, in the member's organization.
		`INSERT INTO communities (id, organization_id, name, description, created_on)
		SELECT gen_random_uuid(), p.organization_id, format('Bench community %s', lpad(g::text, 4, '0')), 'A community of the benchmark',
		       now() - g * interval '1 hour'
		FROM profiles p, generate_series(1, $2::int + $3::int) g WHERE p.email_key = $1`,
		`INSERT INTO community_memberships (community_id, profile_id, role, status, assigned_on, last_visited_on)
		SELECT c.id, p.id, CASE WHEN n % 10 = 0 THEN 'admin' ELSE 'member' END, 'active', now() - n * interval '1 minute',
		       CASE WHEN n % 3 = 0 THEN now() END
		FROM (SELECT id, row_number() OVER (ORDER BY name) AS n FROM communities WHERE name LIKE 'Bench community %') c,
		     profiles p
		WHERE p.email_key = $1 AND c.n <= $2`,
		// Everyone else of the organization joins the member's ones.
		`INSERT INTO community_memberships (community_id, profile_id, role, status)
		SELECT m.community_id, o.id, 'member', CASE WHEN o.user_id IS NULL THEN 'pending' ELSE 'active' END
		FROM community_memberships m JOIN profiles p ON p.id = m.profile_id AND p.email_key = $1
		JOIN communities c ON c.id = m.community_id AND c.name LIKE 'Bench community %'
		JOIN profiles o ON o.organization_id = p.organization_id AND o.id <> p.id`,
		`INSERT INTO series (id, community_id, name, description, position)
		SELECT gen_random_uuid(), m.community_id, format('Bench forum %s', k), 'A forum of the benchmark', k
		FROM community_memberships m JOIN profiles p ON p.id = m.profile_id AND p.email_key = $1
		JOIN communities c ON c.id = m.community_id AND c.name LIKE 'Bench community %', generate_series(1, 2) k`,
		`INSERT INTO series_memberships (series_id, profile_id, role, status)
		SELECT s.id, p.id, 'member', 'active' FROM series s JOIN community_memberships m ON m.community_id = s.community_id
		JOIN profiles p ON p.id = m.profile_id AND p.email_key = $1 WHERE s.name = 'Bench forum 1'`,
	}
	for _, s := range stmts {
		// Statements that do not use every parameter are given only theirs.
		args := []any{seed.MemberEmail, benchCommunities, otherCommunities}
		switch {
		case s == stmts[0]:
		case s == stmts[1]:
			args = args[:2]
		default:
			args = args[:1]
		}
		if _, err := pool.Exec(ctx, s, args...); err != nil {
			return 0, err
		}
	}
	if _, err := pool.Exec(ctx, "ANALYZE"); err != nil {
		return 0, err
	}
	var n int
	err := pool.QueryRow(ctx, `SELECT count(*) FROM community_memberships m JOIN profiles p ON p.id = m.profile_id
		WHERE p.email_key = $1 AND m.status = 'active'`, seed.MemberEmail).Scan(&n)
	return n, err
}

func communitiesBench(ctx context.Context, selected map[string]bool, c *client, pool *pgxpool.Pool, password string, duration, warmup time.Duration) error {
	if !selected["communities"] {
		return nil
	}
	start := time.Now()
	n, err := loadCommunities(ctx, pool)
	if err != nil {
		return fmt.Errorf("communities: %w", err)
	}
	fmt.Printf("communities data: the member in %d communities (2 forums each), %d more in the organization; loaded in %.1f s\n",
		n, otherCommunities, time.Since(start).Seconds())
	token, err := c.signIn(ctx, seed.MemberEmail, password)
	if err != nil {
		return fmt.Errorf("communities: %w", err)
	}
	for _, q := range []struct{ label, query string }{
		{"default", ""},
		{"visited, role:member, latest desc", "?presetFilter=visited&filters=role:member&sort=latest%20desc"},
	} {
		var page struct {
			Results []struct {
				Series []any `json:"series"`
			} `json:"results"`
			Total int `json:"total"`
		}
		if _, err := c.do(ctx, "GET", "/api/communities"+q.query, token, nil, &page); err != nil {
			return fmt.Errorf("communities: %w", err)
		}
		if q.query == "" && (page.Total != n || len(page.Results) != n) {
			return fmt.Errorf("communities: the list has %d of %d communities, want %d", len(page.Results), page.Total, n)
		}
		if err := getLoop(ctx, c, token, "/api/communities"+q.query, "GET /api/communities "+q.label+", 4 workers:",
			fmt.Sprintf("%d communities a page, ", len(page.Results)), communityWorkers, warmup, duration); err != nil {
			return fmt.Errorf("communities: %w", err)
		}
	}
	return nil
}
