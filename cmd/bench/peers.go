package main

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"agora/app/seed"
)

// peersBench measures the private chat's peers list (GET /api/peers) of the
// demo member in a community of 10,000 members with accounts, a tenth of
// them connected (online, away or do-not-disturb):
//
//	peers  the first page (25, connected first, then by name) and a deep
//	       page, each from 4 workers.
const (
	benchPeers   = 10_000
	peersWorkers = 4
)

// loadPeers makes the benchmark's community in SQL and returns how many
// peers the member has.
func loadPeers(ctx context.Context, pool *pgxpool.Pool) (int, error) {
	member := seed.MemberEmail
	stmts := []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO communities (id, organization_id, name, description)
		SELECT gen_random_uuid(), p.organization_id, 'Bench peers', 'The peers benchmark''s community' FROM profiles p WHERE p.email_key = $1`,
			[]any{member}},
		{`INSERT INTO users (id, email, email_key, first_name, last_name, password_hash, company, job_title)
		SELECT gen_random_uuid(), format('peer%s@bench.agora', g), format('peer%s@bench.agora', g),
		       format('Peer%s', g % 97), format('Bench%s', lpad((g * 7919 % $1::int)::text, 5, '0')), 'x', 'Bench Inc', 'Tester'
		FROM generate_series(1, $1::int) g`, []any{benchPeers}},
		{`INSERT INTO profiles (id, organization_id, email, email_key, first_name, last_name, user_id)
		SELECT gen_random_uuid(), m.organization_id, u.email, u.email_key, u.first_name, u.last_name, u.id
		FROM users u, profiles m WHERE u.email_key LIKE 'peer%@bench.agora' AND m.email_key = $1`, []any{member}},
		{`INSERT INTO community_memberships (community_id, profile_id, role, status)
		SELECT c.id, p.id, 'member', 'active' FROM communities c, profiles p
		WHERE c.name = 'Bench peers' AND (p.email_key LIKE 'peer%@bench.agora' OR p.email_key = $1)`, []any{member}},
		{`INSERT INTO online_users (user_id, nodes, idle_nodes, do_not_disturb, status)
		SELECT u.id, 1, (n % 3 = 1)::int, n % 3 = 2, CASE n % 3 WHEN 0 THEN 'online' WHEN 1 THEN 'away' ELSE 'do-not-disturb' END
		FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM users WHERE email_key LIKE 'peer%@bench.agora') u
		WHERE u.n % 10 = 0`, nil},
	}
	for _, s := range stmts {
		if _, err := pool.Exec(ctx, s.sql, s.args...); err != nil {
			return 0, err
		}
	}
	if _, err := pool.Exec(ctx, "ANALYZE"); err != nil {
		return 0, err
	}
	var n int
	err := pool.QueryRow(ctx, `SELECT count(DISTINCT p.user_id) FROM community_memberships m JOIN profiles p ON p.id = m.profile_id
		WHERE m.status = 'active' AND p.user_id IS NOT NULL AND p.email_key <> $1 AND m.community_id IN (
			SELECT m2.community_id FROM community_memberships m2 JOIN profiles p2 ON p2.id = m2.profile_id
			WHERE p2.email_key = $1 AND m2.status = 'active')`, seed.MemberEmail).Scan(&n)
	return n, err
}

func peersBench(ctx context.Context, selected map[string]bool, c *client, pool *pgxpool.Pool, password string, duration, warmup time.Duration) error {
	if !selected["peers"] {
		return nil
	}
	start := time.Now()
	n, err := loadPeers(ctx, pool)
	if err != nil {
		return fmt.Errorf("peers: %w", err)
	}
	fmt.Printf("peers data: the member has %d peers (a community of %d, a tenth connected); loaded in %.1f s\n",
		n, benchPeers, time.Since(start).Seconds())
	token, err := c.signIn(ctx, seed.MemberEmail, password)
	if err != nil {
		return fmt.Errorf("peers: %w", err)
	}
	for _, q := range []struct{ label, query string }{
		{"first page", ""},
		{"page 200", "?page=200"},
	} {
		var page struct {
			Results []any `json:"results"`
			Total   int   `json:"total"`
		}
		if _, err := c.do(ctx, "GET", "/api/peers"+q.query, token, nil, &page); err != nil {
			return fmt.Errorf("peers: %w", err)
		}
		if page.Total != n || len(page.Results) != 25 {
			return fmt.Errorf("peers: %s has %d of %d peers, want 25 of %d", q.label, len(page.Results), page.Total, n)
		}
		if err := getLoop(ctx, c, token, "/api/peers"+q.query, "GET /api/peers "+q.label+", 4 workers:",
			fmt.Sprintf("%d peers, ", page.Total), peersWorkers, warmup, duration); err != nil {
			return fmt.Errorf("peers: %w", err)
		}
	}
	return nil
}
