package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"agora/app/seed"
	"agora/internal/adapters/sfu"
)

// Meet Up join tokens: how many are asked for, and by how many workers at
// once (the browsers of a Meet Up joining at its start).
const (
	meetupJoins   = 4000
	meetupWorkers = 8
)

// benchSFU signs the join tokens of the measured API. Signing needs only
// the key pair: no LiveKit server is contacted by a join, so none runs
// here.
func benchSFU() (*sfu.Client, error) {
	return sfu.New(sfu.Config{URL: "ws://127.0.0.1:7880", APIKey: "benchkey", APISecret: "bench-secret-of-at-least-thirty-two-characters"})
}

// meetupsJoinBench measures POST /api/meetings/join-token: the demo member
// asks meetupJoins tokens for a private Meet Up of theirs starting in five
// minutes (within the grace window), from meetupWorkers workers, and the
// latencies' p50 and p99 are printed. Each call reads the Meet Up and the
// member's rights in its forum and signs a token.
func meetupsJoinBench(ctx context.Context, selected map[string]bool, c *client, pool *pgxpool.Pool, password string) error {
	if !selected["meetups-join"] {
		return nil
	}
	token, err := c.signIn(ctx, seed.MemberEmail, password)
	if err != nil {
		return fmt.Errorf("meetups-join: %w", err)
	}
	var me, expert, forum string
	err = pool.QueryRow(ctx, `SELECT m.id::text, e.id::text, sm.series_id::text
		FROM users m, users e, profiles p, series_memberships sm
		WHERE m.email_key = $1 AND e.email_key = $2 AND p.user_id = m.id AND sm.profile_id = p.id AND sm.status = 'active'
			-- a forum of both (the communities benchmark adds the member to hundreds without the expert)
			AND EXISTS (SELECT 1 FROM series_memberships se JOIN profiles pe ON pe.id = se.profile_id
				WHERE se.series_id = sm.series_id AND pe.user_id = e.id AND se.status = 'active')
		ORDER BY sm.series_id LIMIT 1`, seed.MemberEmail, seed.ExpertEmail).Scan(&me, &expert, &forum)
	if err != nil {
		return fmt.Errorf("meetups-join: the member's forum: %w", err)
	}
	form, _ := json.Marshal(map[string]any{"name": "Bench sync", "agenda": "", "startTime": time.Now().Add(5 * time.Minute).UTC().Format(time.RFC3339),
		"duration": 60, "open": false, "seatCount": nil, "invitees": map[string]string{expert: "member"}, "breakouts": []string{}})
	var post struct {
		Meeting struct {
			RoomID string `json:"roomId"`
		} `json:"meeting"`
	}
	if _, err := c.do(ctx, "POST", "/api/series/"+forum+"/meetings", token, form, &post); err != nil {
		return fmt.Errorf("meetups-join: schedule: %w", err)
	}
	body, _ := json.Marshal(map[string]string{"roomId": post.Meeting.RoomID, "userId": me})
	call := func() error {
		var jt struct{ Token string }
		if _, err := c.do(ctx, "POST", "/api/meetings/join-token", token, body, &jt); err != nil {
			return err
		}
		if jt.Token == "" {
			return fmt.Errorf("no token")
		}
		return nil
	}
	for range 50 { // warm-up: connections, prepared statements
		if err := call(); err != nil {
			return fmt.Errorf("meetups-join: %w", err)
		}
	}
	lat := make([]time.Duration, meetupJoins)
	var next atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	start := time.Now()
	for range meetupWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= meetupJoins {
					return
				}
				t0 := time.Now()
				if err := call(); err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
				lat[i] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	if err, _ := firstErr.Load().(error); err != nil {
		return fmt.Errorf("meetups-join: %w", err)
	}
	r := newResult(lat, time.Since(start))
	fmt.Printf("%-48s p50 %6.2f ms  p99 %6.2f ms  %7.0f tokens/s  (n=%d, %.2f s)\n",
		fmt.Sprintf("POST /api/meetings/join-token, %d workers:", meetupWorkers), ms(r.p(50)), ms(r.p(99)), r.rate(), r.n(), r.wall.Seconds())
	return nil
}
