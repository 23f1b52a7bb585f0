package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"agora/app"
	"agora/app/seed"
	"agora/internal/plumbing/config"
	"agora/projections"
	"agora/projections/notifications"
)

// The notifications benchmark, on a forum of notesMembers members (and the
// demo member, who writes):
//
//	notification fan-out  the time from committing posts that mention every
//	                      member to the last of their notifications written
//	                      by the notifications projection, through the way
//	                      agora dev takes (the relay, the embedded broker,
//	                      the projection). A post holds at most 50 mentions
//	                      (command/feed), so each round commits notesPosts
//	                      posts of 50 mentions at once, through the API.
//	GET /api/notifications
//	                      the list of a member with notesMany notifications
//	                      (500 dismissed, 500 read), a first and a deep page,
//	                      4 workers.
const (
	notesMembers  = 1000
	notesMentions = 50 // command/feed's maxMentions
	notesPosts    = notesMembers / notesMentions
	notesRounds   = 5
	notesMany     = 10_000
	notesWorkers  = 4
	notesPoll     = 2 * time.Millisecond
)

// loadNotes makes the forum in SQL and returns it, its main channel and its
// members' ids.
func loadNotes(ctx context.Context, pool *pgxpool.Pool) (forum, channel string, members []string, err error) {
	member := seed.MemberEmail
	stmts := []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO communities (id, organization_id, name, description)
		SELECT gen_random_uuid(), p.organization_id, 'Bench notes', 'The notifications benchmark''s community' FROM profiles p WHERE p.email_key = $1`,
			[]any{member}},
		{`INSERT INTO series (id, community_id, name, description)
		SELECT gen_random_uuid(), id, 'Bench notes', 'The notifications benchmark''s forum' FROM communities WHERE name = 'Bench notes'`, nil},
		{`INSERT INTO users (id, email, email_key, first_name, last_name, password_hash)
		SELECT gen_random_uuid(), format('note%s@bench.agora', g), format('note%s@bench.agora', g), format('Note%s', g), 'Bench', 'x'
		FROM generate_series(1, $1::int) g`, []any{notesMembers}},
		{`INSERT INTO profiles (id, organization_id, email, email_key, first_name, last_name, user_id)
		SELECT gen_random_uuid(), m.organization_id, u.email, u.email_key, u.first_name, u.last_name, u.id
		FROM users u, profiles m WHERE u.email_key LIKE 'note%@bench.agora' AND m.email_key = $1`, []any{member}},
		{`INSERT INTO community_memberships (community_id, profile_id, role, status)
		SELECT c.id, p.id, 'member', 'active' FROM communities c, profiles p
		WHERE c.name = 'Bench notes' AND (p.email_key LIKE 'note%@bench.agora' OR p.email_key = $1)
		ON CONFLICT DO NOTHING`, []any{member}},
		{`INSERT INTO series_memberships (series_id, profile_id, role, status)
		SELECT s.id, p.id, 'member', 'active' FROM series s, profiles p
		WHERE s.name = 'Bench notes' AND (p.email_key LIKE 'note%@bench.agora' OR p.email_key = $1)
		ON CONFLICT DO NOTHING`, []any{member}},
	}
	for _, s := range stmts {
		if _, err := pool.Exec(ctx, s.sql, s.args...); err != nil {
			return "", "", nil, err
		}
	}
	if err := pool.QueryRow(ctx, `SELECT s.id::text, c.id::text FROM series s JOIN channels c ON c.series_id = s.id AND c.kind = 'main'
		WHERE s.name = 'Bench notes'`).Scan(&forum, &channel); err != nil {
		return "", "", nil, err
	}
	rows, err := pool.Query(ctx, "SELECT id::text FROM users WHERE email_key LIKE 'note%@bench.agora' ORDER BY email_key")
	if err != nil {
		return "", "", nil, err
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return "", "", nil, err
		}
		members = append(members, id)
	}
	return forum, channel, members, rows.Err()
}

// loadManyNotes gives the demo member notesMany notifications of the forum
// (half comments, half mentions, over a year, and a tenth of replies that
// the list leaves out) and a personalization that dismisses 500 and reads
// 500 of them.
func loadManyNotes(ctx context.Context, pool *pgxpool.Pool, forum, channel string) error {
	if _, err := pool.Exec(ctx, `INSERT INTO notifications (id, user_id, kind, source_id, post_id, series_id, community_id, channel_id, author_id, preview, created_on)
		SELECT gen_random_uuid(), m.id, CASE WHEN g % 10 = 0 THEN 'reply' WHEN g % 2 = 0 THEN 'comment' ELSE 'mention' END,
		       gen_random_uuid(), gen_random_uuid(), s.id, s.community_id, $2::uuid,
		       (SELECT id FROM users WHERE email_key = format('note%s@bench.agora', 1 + g % 1000)),
		       format('bench notification %s', g), now() - make_interval(secs => g * 3000)
		FROM generate_series(1, $3::int) g, users m, series s WHERE m.email_key = $4 AND s.id = $1::uuid`,
		forum, channel, notesMany+notesMany/9, seed.MemberEmail); err != nil {
		return err
	}
	var ids []string
	rows, err := pool.Query(ctx, `SELECT n.id::text FROM notifications n JOIN users m ON m.id = n.user_id
		WHERE m.email_key = $1 AND n.kind <> 'reply' ORDER BY n.created_on DESC LIMIT 1000`, seed.MemberEmail)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	var dismissed, read []string
	for i, id := range ids {
		if i%2 == 0 {
			dismissed = append(dismissed, id)
		} else {
			read = append(read, id)
		}
	}
	data, _ := json.Marshal(map[string]any{
		"notifications.posts.dismissed": dismissed, "notifications.posts.read": read,
		"notifications.posts.lastSeenAt": time.Now().Add(-60 * 24 * time.Hour).UTC().Format(time.RFC3339),
	})
	_, err = pool.Exec(ctx, `INSERT INTO user_personalization (user_id, data) SELECT id, $2::jsonb FROM users WHERE email_key = $1
		ON CONFLICT (user_id) DO UPDATE SET data = user_personalization.data || EXCLUDED.data`, seed.MemberEmail, string(data))
	if err == nil {
		_, err = pool.Exec(ctx, "ANALYZE notifications")
	}
	return err
}

func notificationsBench(ctx context.Context, selected map[string]bool, cfg config.Config, d *app.Database, c *client, duration, warmup time.Duration, log *slog.Logger) error {
	if !selected["notifications"] {
		return nil
	}
	start := time.Now()
	forum, channel, members, err := loadNotes(ctx, d.Pool)
	if err != nil {
		return fmt.Errorf("notifications: load: %w", err)
	}
	token, err := c.signIn(ctx, seed.MemberEmail, cfg.DemoPassword)
	if err != nil {
		return fmt.Errorf("notifications: %w", err)
	}
	proj, err := notifications.New(d.Pool, log)
	if err != nil {
		return err
	}
	pipe, err := app.StartPipeline(ctx, cfg, d.URL, log, app.PipelineOptions{Relay: true, Projections: []projections.Handler{proj}})
	if err != nil {
		return err
	}
	defer pipe.Close()
	write := func(k int, mentioned []string) (string, error) {
		var raw strings.Builder
		fmt.Fprintf(&raw, "bench post %d:", k)
		for i, id := range mentioned {
			fmt.Fprintf(&raw, " [Note%d](%s)", i, id)
		}
		body, _ := json.Marshal(map[string]any{"channelId": channel, "raw": raw.String()})
		var p struct {
			ID string `json:"id"`
		}
		if _, err := c.do(ctx, "POST", "/api/series/"+forum+"/threads", token, body, &p); err != nil {
			return "", err
		}
		return p.ID, nil
	}
	// wait polls until the posts' notifications number want.
	wait := func(posts []string, want int, within time.Duration) error {
		deadline := time.Now().Add(within)
		for {
			var n int
			if err := d.Pool.QueryRow(ctx, "SELECT count(*) FROM notifications WHERE source_id = ANY($1::uuid[])", posts).Scan(&n); err != nil {
				return err
			}
			if n >= want {
				return nil
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("%d of %d notifications after %v", n, want, within)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(notesPoll):
			}
		}
	}
	// The consumer group joins and the relay's snapshot passes before the
	// clock starts: one post's notification must be written first.
	warm, err := write(-1, members[:1])
	if err != nil {
		return fmt.Errorf("notifications: %w", err)
	}
	if err := wait([]string{warm}, 1, 2*time.Minute); err != nil {
		return fmt.Errorf("notifications: warm-up: %w", err)
	}
	fmt.Printf("notifications: a forum of %d members, relay + embedded broker + notifications projection (ready in %.1f s)\n",
		notesMembers, time.Since(start).Seconds())

	var fromLast, fromFirst []time.Duration
	for round := range notesRounds {
		posts := make([]string, notesPosts)
		answered := make([]time.Time, notesPosts)
		errc := make(chan error, notesPosts)
		var wg sync.WaitGroup
		for i := range notesPosts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id, err := write(round*notesPosts+i, members[i*notesMentions:(i+1)*notesMentions])
				posts[i], answered[i] = id, time.Now()
				errc <- err
			}()
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			if err != nil {
				return fmt.Errorf("notifications: %w", err)
			}
		}
		if err := wait(posts, notesMembers, time.Minute); err != nil {
			return fmt.Errorf("notifications: round %d: %w", round, err)
		}
		done := time.Now()
		fromLast = append(fromLast, done.Sub(slices.MaxFunc(answered, func(a, b time.Time) int { return a.Compare(b) })))
		fromFirst = append(fromFirst, done.Sub(slices.MinFunc(answered, func(a, b time.Time) int { return a.Compare(b) })))
	}
	slices.Sort(fromLast)
	slices.Sort(fromFirst)
	fmt.Printf("%-48s p50 %7.1f ms  max %7.1f ms  (from the first post's commit: p50 %.1f ms, max %.1f ms; %d rounds of %d posts × %d mentions committed at once through the API, polled every %v)\n",
		fmt.Sprintf("notification fan-out, %d members:", notesMembers), ms(fromLast[len(fromLast)/2]), ms(fromLast[len(fromLast)-1]),
		ms(fromFirst[len(fromFirst)/2]), ms(fromFirst[len(fromFirst)-1]), notesRounds, notesPosts, notesMentions, notesPoll)

	if err := loadManyNotes(ctx, d.Pool, forum, channel); err != nil {
		return fmt.Errorf("notifications: load the list: %w", err)
	}
	for _, q := range []struct{ label, query string }{
		{"first page", ""},
		{"page 200", "?page=200"},
	} {
		var page struct {
			Results []any `json:"results"`
			Total   int   `json:"total"`
			Unread  int   `json:"unread"`
		}
		if _, err := c.do(ctx, "GET", "/api/notifications"+q.query, token, nil, &page); err != nil {
			return fmt.Errorf("notifications: %w", err)
		}
		if page.Total < notesMany-500 || len(page.Results) != 20 {
			return fmt.Errorf("notifications: %s has %d of %d, want 20 of %d or more", q.label, len(page.Results), page.Total, notesMany-500)
		}
		if err := getLoop(ctx, c, token, "/api/notifications"+q.query, "GET /api/notifications "+q.label+", 4 workers:",
			fmt.Sprintf("%d listed, %d unread, ", page.Total, page.Unread), notesWorkers, warmup, duration); err != nil {
			return fmt.Errorf("notifications: %w", err)
		}
	}
	return nil
}
