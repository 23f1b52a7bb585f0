package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/app"
	"agora/internal/config"
	"agora/internal/seed"
	"agora/live"
	"agora/search"
)

// The chat benchmark: private message delivery latency, from the moment
// POST /api/threads/private has answered (the message committed) to the
// moment the other member's hub socket has received its thread.created,
// through the whole way agora dev takes: the relay, the embedded broker,
// the API node's realtime projection and its hub. Messages are offered at
// chatRate a second (open loop, paced), each to the next of chatPairs
// conversations among chatPeople members of one community, every member
// with a socket open.
const (
	chatRate   = 200
	chatPairs  = 1000
	chatPeople = 50 // 1,225 possible pairs
)

func chatBench(ctx context.Context, selected map[string]bool, cfg config.Config, d *app.Database, first *client, duration time.Duration, log *slog.Logger) error {
	if !selected["chat"] {
		return nil
	}
	start := time.Now()
	tokens, ids, err := chatPeopleLoad(ctx, first, d.Pool, cfg.DemoPassword)
	if err != nil {
		return fmt.Errorf("chat: load: %w", err)
	}
	pipe, err := app.StartPipeline(ctx, cfg, d.URL, log, app.PipelineOptions{Relay: true})
	if err != nil {
		return err
	}
	defer pipe.Close()
	// An API node of its own, with live events on the pipeline, and a
	// search store of its own (the first node holds the data folder's).
	store, err := search.OpenEmbedded(filepath.Join(cfg.DataDir, "chat-search"))
	if err != nil {
		return err
	}
	defer store.Close()
	srv, err := app.NewAPI(cfg, d.DB, log, app.WithPipeline(pipe), app.WithRealtime(live.HubOptions{}, 0), app.WithSearch(store))
	if err != nil {
		return err
	}
	c, stop, err := serveAPI(ctx, srv)
	if err != nil {
		return fmt.Errorf("chat: %w", err)
	}
	defer func() { _ = stop() }()
	// The tokens were signed in on the first node: the same database.
	got := newReceipts()
	for i, token := range tokens {
		conn, _, err := websocket.DefaultDialer.DialContext(ctx, "ws"+strings.TrimPrefix(c.base, "http")+"/api/hub", http.Header{"Authorization": {"Bearer " + token}})
		if err != nil {
			return fmt.Errorf("chat: dial the hub: %w", err)
		}
		defer conn.Close()
		go got.read(conn, ids[i])
	}
	pairs := chatPairList()
	sendOne := func(k int) (string, time.Time, error) {
		p := pairs[k%len(pairs)]
		from, to := p[0], p[1]
		if k/len(pairs)%2 == 1 {
			from, to = to, from
		}
		body, _ := json.Marshal(map[string]any{"memberIds": []string{ids[to]}, "raw": fmt.Sprintf("bench message %d", k)})
		var m struct {
			ID string `json:"id"`
		}
		if _, err := c.do(ctx, "POST", "/api/threads/private", tokens[from], body, &m); err != nil {
			return "", time.Time{}, err
		}
		return m.ID, time.Now(), nil
	}
	// The node's consumer group joins and the relay's snapshot passes
	// before the clock starts: one message must arrive first.
	warm, _, err := sendOne(0)
	if err != nil {
		return fmt.Errorf("chat: %w", err)
	}
	if _, err := got.wait(ctx, warm, 2*time.Minute); err != nil {
		return fmt.Errorf("chat: warm-up: %w", err)
	}
	fmt.Printf("chat: %d members of one community with a hub socket each, %d conversations, relay + embedded broker + realtime projection (ready in %.1f s)\n",
		chatPeople, chatPairs, time.Since(start).Seconds())

	n := int(duration.Seconds() * chatRate)
	type sent struct {
		id string
		at time.Time
	}
	out := make([]sent, n)
	var wg sync.WaitGroup
	errc := make(chan error, n)
	begin := time.Now().Add(20 * time.Millisecond)
	var next sync.Mutex
	k := 0
	// Enough senders that a slow answer does not hold back the offered rate.
	for w := 0; w < 32; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				next.Lock()
				i := k
				k++
				next.Unlock()
				if i >= n {
					return
				}
				time.Sleep(time.Until(begin.Add(time.Duration(i) * time.Second / chatRate)))
				id, at, err := sendOne(i + 1)
				if err != nil {
					errc <- err
					continue
				}
				out[i] = sent{id, at}
			}
		}()
	}
	wg.Wait()
	wall := time.Since(begin)
	close(errc)
	errs := len(errc)
	if err := <-errc; err != nil {
		return fmt.Errorf("chat: %d of %d messages failed, first: %w", errs, n, err)
	}
	lat := make([]time.Duration, 0, n)
	for _, s := range out {
		at, err := got.wait(ctx, s.id, time.Minute)
		if err != nil {
			return fmt.Errorf("chat: %w", err)
		}
		lat = append(lat, max(0, at.Sub(s.at)))
	}
	r := newResult(lat, wall)
	fmt.Printf("%-48s p50 %7.1f ms  p99 %7.1f ms  (n=%d at %.0f msg/s offered over %d conversations)\n",
		"private message, answered to the other's socket:", ms(r.p(50)), ms(r.p(99)), r.n(), float64(n)/wall.Seconds(), chatPairs)
	return nil
}

// chatPeopleLoad makes chatPeople members of a new community of the demo
// organization, with the demo member's password, and signs them in.
func chatPeopleLoad(ctx context.Context, c *client, pool *pgxpool.Pool, password string) (tokens, ids []string, err error) {
	var community string
	err = pool.QueryRow(ctx, `INSERT INTO communities (id, organization_id, name, description)
		SELECT gen_random_uuid(), organization_id, 'Bench chat', 'private chat benchmark' FROM profiles p JOIN users u ON u.id = p.user_id
		WHERE u.email = $1 LIMIT 1 RETURNING id::text`, seed.MemberEmail).Scan(&community)
	if err != nil {
		return nil, nil, err
	}
	rows, err := pool.Query(ctx, `WITH u AS (
			INSERT INTO users (id, email, email_key, password_hash, role, first_name, last_name)
			SELECT gen_random_uuid(), 'chat' || i || '@bench.test', 'chat' || i || '@bench.test',
			       (SELECT password_hash FROM users WHERE email = $2), 'user', 'Chat', 'Person' || i
			FROM generate_series(1, $3) AS i RETURNING id, email, first_name, last_name),
		p AS (
			INSERT INTO profiles (id, organization_id, user_id, email, email_key, first_name, last_name)
			SELECT gen_random_uuid(), (SELECT organization_id FROM communities WHERE id = $1), u.id, u.email, u.email, u.first_name, u.last_name
			FROM u RETURNING id, user_id),
		m AS (
			INSERT INTO community_memberships (community_id, profile_id, role, status)
			SELECT $1, p.id, 'member', 'active' FROM p)
		SELECT id::text, email FROM u ORDER BY email`, community, seed.MemberEmail, chatPeople)
	if err != nil {
		return nil, nil, err
	}
	var emails []string
	for rows.Next() {
		var id, email string
		if err := rows.Scan(&id, &email); err != nil {
			return nil, nil, err
		}
		ids, emails = append(ids, id), append(emails, email)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	// Sign-ins hash a password each: 4 at once, as the server allows.
	tokens = make([]string, len(emails))
	var wg sync.WaitGroup
	errc := make(chan error, len(emails))
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(emails); i += 4 {
				t, err := c.signIn(ctx, emails[i], password)
				if err != nil {
					errc <- err
					return
				}
				tokens[i] = t
			}
		}()
	}
	wg.Wait()
	close(errc)
	if err := <-errc; err != nil {
		return nil, nil, err
	}
	return tokens, ids, nil
}

// chatPairList is chatPairs distinct pairs of the chatPeople members,
// spread so that each member is in about as many as the others.
func chatPairList() [][2]int {
	var pairs [][2]int
	for gap := 1; len(pairs) < chatPairs; gap++ {
		for i := 0; i < chatPeople && len(pairs) < chatPairs; i++ {
			if j := (i + gap) % chatPeople; gap < chatPeople-gap || gap == chatPeople-gap && i < j {
				pairs = append(pairs, [2]int{i, j})
			}
		}
	}
	return pairs
}

// receipts records when each message's thread.created reached a socket.
type receipts struct {
	mu   sync.Mutex
	at   map[string]time.Time
	wake chan struct{}
}

func newReceipts() *receipts { return &receipts{at: map[string]time.Time{}, wake: make(chan struct{})} }

// read records the thread.created events conn receives for user: a
// message's other member (not the author's own tab).
func (r *receipts) read(conn *websocket.Conn, user string) {
	for {
		_, b, err := conn.ReadMessage()
		if err != nil {
			return
		}
		now := time.Now()
		var m struct {
			Event string `json:"event"`
			Data  struct {
				Payload struct {
					ID        string `json:"id"`
					CreatorID string `json:"creatorId"`
				} `json:"payload"`
			} `json:"data"`
		}
		if json.Unmarshal(b, &m) != nil || m.Event != "thread.created" || m.Data.Payload.CreatorID == user {
			continue
		}
		r.mu.Lock()
		r.at[m.Data.Payload.ID] = now
		close(r.wake)
		r.wake = make(chan struct{})
		r.mu.Unlock()
	}
}

// wait is when message id was received, waiting up to limit for it.
func (r *receipts) wait(ctx context.Context, id string, limit time.Duration) (time.Time, error) {
	deadline := time.After(limit)
	for {
		r.mu.Lock()
		at, ok := r.at[id]
		wake := r.wake
		r.mu.Unlock()
		if ok {
			return at, nil
		}
		select {
		case <-wake:
		case <-deadline:
			return time.Time{}, fmt.Errorf("message %s not received within %v", id, limit)
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		}
	}
}
