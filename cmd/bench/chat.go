package main

import (
	"cmp"
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
	"agora/app/seed"
	"agora/internal/plumbing/config"
	"agora/live"
	"agora/search"
)

// The chat benchmark: private message delivery latency, from the moment
// POST /api/threads/private has answered (the message committed) to the
// moment the other member's hub socket has received its thread.created,
// through the whole way agora dev takes: the relay, the embedded broker,
// the API node's realtime projection and its hub. Messages are offered at
// chatRate a second, open loop (each sent at its time whatever the earlier
// ones' answers), each to the next of chatPairs conversations among
// chatPeople members of one community, every member with a socket open.
//
// A busy API answers a POST well after its commit (the answer reads the
// message again, queued behind the other requests for the pool), so the
// latency is also printed from the message's createdOn, set in its
// transaction just before the commit (the same clock: the API runs in this
// process), and from the POST sent.
//
// It says whether the rate was sustained, and which part was not: the
// bench starting the messages on time, the API answering them as fast, or
// the delivery keeping up. Delivery keeps up when no message is lost (not
// received chatLost after the last answer) or late (received more than
// chatLate after its createdOn), and that latency does not grow over the
// run (the last second's p50 at most twice the first second's, plus
// 100 ms): a node falling behind the stream makes each message wait longer
// than the one before.
const (
	chatRate   = 200
	chatPairs  = 1000
	chatPeople = 50 // 1,225 possible pairs
	chatLate   = time.Second
	chatLost   = 10 * time.Second
)

func chatBench(ctx context.Context, selected map[string]bool, cfg config.Config, d *app.Database, first *client, duration, warmup time.Duration, log *slog.Logger) error {
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
	// The members' sockets coming online make a user.connected each, whose
	// audience the node reads from Postgres, seconds of work on a busy
	// machine that would delay the first measured messages: the clock starts
	// once a super user's socket, open before theirs (so that it is told of
	// each), has received them all. It must receive no message.
	superToken, err := first.signIn(ctx, seed.SuperEmail, cfg.DemoPassword)
	if err != nil {
		return fmt.Errorf("chat: %w", err)
	}
	var superID string
	if err := d.Pool.QueryRow(ctx, `SELECT id::text FROM users WHERE email = $1`, seed.SuperEmail).Scan(&superID); err != nil {
		return fmt.Errorf("chat: %w", err)
	}
	for i, token := range append([]string{superToken}, tokens...) {
		user := superID
		if i > 0 {
			user = ids[i-1]
		}
		conn, _, err := websocket.DefaultDialer.DialContext(ctx, "ws"+strings.TrimPrefix(c.base, "http")+"/api/hub", http.Header{"Authorization": {"Bearer " + token}})
		if err != nil {
			return fmt.Errorf("chat: dial the hub: %w", err)
		}
		defer conn.Close()
		go got.read(conn, user)
	}
	pairs := chatPairList()
	// The k-th message goes to the k-th conversation, the other way on
	// every second round; to is its recipient.
	route := func(k int) (from, to int) {
		p := pairs[k%len(pairs)]
		if k/len(pairs)%2 == 1 {
			return p[1], p[0]
		}
		return p[0], p[1]
	}
	sendOne := func(k int) (string, time.Time, error) {
		from, to := route(k)
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
	if err := got.waitOnline(ctx, ids, 2*time.Minute); err != nil {
		return fmt.Errorf("chat: warm-up: %w", err)
	}
	fmt.Printf("chat: %d members of one community with a hub socket each, relay + embedded broker + realtime projection (ready in %.1f s)\n",
		chatPeople, time.Since(start).Seconds())

	// The first warmup's messages are not measured: the node's connections
	// to Postgres and the bench's to the node open during them.
	w, n := int(warmup.Seconds()*chatRate), int(duration.Seconds()*chatRate)
	out := make([]chatSent, w+n)
	var wg sync.WaitGroup
	begin := time.Now().Add(20 * time.Millisecond)
	for i := range out {
		_, to := route(i + 1)
		out[i].due, out[i].to = begin.Add(time.Duration(i)*time.Second/chatRate), ids[to]
		time.Sleep(time.Until(out[i].due))
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &out[i]
			s.start = time.Now()
			s.id, s.at, s.err = sendOne(i + 1)
		}()
	}
	wg.Wait()
	return chatReport(ctx, got, out[w:], min(n, chatPairs))
}

// chatSent is one message of the run: when it was due and started, its id
// and when its POST answered.
type chatSent struct {
	due, start, at time.Time
	id, to         string // the message, its recipient
	err            error
}

// chatReport waits for the messages' receipts and prints the figures.
func chatReport(ctx context.Context, got *receipts, out []chatSent, conversations int) error {
	begin := out[0].due
	var lastStart, lastAnswer time.Time
	failed := 0
	var firstErr error
	for _, s := range out {
		lastStart = later(lastStart, s.start)
		if s.err != nil {
			failed++
			firstErr = cmp.Or(firstErr, s.err)
			continue
		}
		lastAnswer = later(lastAnswer, s.at)
	}
	if failed > 0 {
		return fmt.Errorf("chat: %d of %d messages failed, first: %w", failed, len(out), firstErr)
	}
	n := len(out)
	var lat, fromWritten, fromSent, first, last []time.Duration
	lost, late, early := 0, 0, 0
	for _, s := range out {
		at, err := got.wait(ctx, s.id, max(0, time.Until(lastAnswer.Add(chatLost))))
		written := got.written(s.id)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			lost++
			continue
		}
		// A busy API can answer after the event has reached the socket:
		// counted, and taken as 0.
		if at.Before(s.at) {
			early++
		}
		d, w := max(0, at.Sub(s.at)), at.Sub(written)
		lat, fromWritten, fromSent = append(lat, d), append(fromWritten, w), append(fromSent, at.Sub(s.start))
		if w > chatLate {
			late++
		}
		switch since := s.due.Sub(begin); {
		case since < time.Second:
			first = append(first, w)
		case since >= out[n-1].due.Sub(begin)-time.Second:
			last = append(last, w)
		}
	}
	to := map[string]string{}
	for _, s := range out {
		to[s.id] = s.to
	}
	if wrong := got.misdelivered(to); wrong > 0 {
		return fmt.Errorf("chat: %d messages reached a socket of someone not in their conversation", wrong)
	}
	r, rw, rs := newResult(lat, 0), newResult(fromWritten, 0), newResult(fromSent, 0)
	fmt.Printf("%-48s p50 %7.1f ms  p99 %7.1f ms  (n=%d of %d, %d lost, %d before the answer; over %d conversations)\n",
		"private message, answered to the other's socket:", ms(r.p(50)), ms(r.p(99)), r.n(), n, lost, early, conversations)
	fmt.Printf("%-48s p50 %7.1f ms  p99 %7.1f ms  (%d later than %v)\n",
		"private message, written to the other's socket:", ms(rw.p(50)), ms(rw.p(99)), late, chatLate)
	fmt.Printf("%-48s p50 %7.1f ms  p99 %7.1f ms\n", "private message, sent to the other's socket:", ms(rs.p(50)), ms(rs.p(99)))

	// Rates over the run: n-1 intervals between the first and the last.
	started := float64(n-1) / lastStart.Sub(out[0].start).Seconds()
	answered := float64(n) / lastAnswer.Sub(begin).Seconds()
	p50First, p50Last := newResult(first, 0).p(50), newResult(last, 0).p(50)
	var short []string
	if started < 0.97*chatRate {
		short = append(short, fmt.Sprintf("the bench started only %.0f msg/s", started))
	}
	if answered < 0.97*chatRate {
		short = append(short, fmt.Sprintf("the API answered only %.0f msg/s", answered))
	}
	if lost > 0 || late > 0 || p50Last > 2*p50First+100*time.Millisecond {
		short = append(short, "the delivery fell behind")
	}
	verdict := "sustained"
	if len(short) > 0 {
		verdict = "NOT sustained: " + strings.Join(short, "; ")
	}
	fmt.Printf("%-48s %d msg/s offered, %.0f started, %.0f answered; delivery p50 first second %.1f ms, last second %.1f ms: %s\n",
		"", chatRate, started, answered, ms(p50First), ms(p50Last), verdict)
	return nil
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
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
	if tokens, err = signInAll(ctx, c, emails, password); err != nil {
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

// receipts records when each message's thread.created first reached a
// socket, and whose sockets it reached.
// It also records each message's createdOn, and who was told online
// (user.connected).
type receipts struct {
	mu      sync.Mutex
	at      map[string]time.Time
	created map[string]time.Time
	by      map[string][]string
	online  map[string]bool
	wake    chan struct{}
}

func newReceipts() *receipts {
	return &receipts{at: map[string]time.Time{}, created: map[string]time.Time{}, by: map[string][]string{}, online: map[string]bool{}, wake: make(chan struct{})}
}

// read records the thread.created events conn receives for user: a
// message's other member (not the author's own tab).
func (r *receipts) read(conn *websocket.Conn, user string) {
	for {
		_, frame, err := conn.ReadMessage()
		if err != nil {
			return
		}
		now := time.Now()
		for _, b := range live.Messages(frame) {
			r.add(b, user, now)
		}
	}
}

// add records one message conn received at now.
func (r *receipts) add(b []byte, user string, now time.Time) {
	var m struct {
		Event string `json:"event"`
		Data  struct {
			Payload struct {
				ID        string    `json:"id"`
				CreatorID string    `json:"creatorId"`
				UserID    string    `json:"userId"`
				CreatedOn time.Time `json:"createdOn"`
			} `json:"payload"`
		} `json:"data"`
	}
	if json.Unmarshal(b, &m) != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch id := m.Data.Payload.ID; {
	case m.Event == "user.connected":
		r.online[m.Data.Payload.UserID] = true
	case m.Event == "thread.created" && m.Data.Payload.CreatorID != user:
		if _, ok := r.at[id]; !ok {
			r.at[id], r.created[id] = now, m.Data.Payload.CreatedOn
		}
		r.by[id] = append(r.by[id], user)
	}
	close(r.wake)
	r.wake = make(chan struct{})
}

// written is message id's createdOn, as its event told it.
func (r *receipts) written(id string) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.created[id]
}

// misdelivered is how many of the messages (id to recipient) reached
// anyone's socket but their recipient's, or reached it twice.
func (r *receipts) misdelivered(to map[string]string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for id, recipient := range to {
		if by := r.by[id]; len(by) > 1 || len(by) == 1 && by[0] != recipient {
			n++
		}
	}
	return n
}

// waitOnline waits up to limit for users to have been told online.
func (r *receipts) waitOnline(ctx context.Context, users []string, limit time.Duration) error {
	deadline := time.After(limit)
	for {
		r.mu.Lock()
		missing := 0
		for _, u := range users {
			if !r.online[u] {
				missing++
			}
		}
		wake := r.wake
		r.mu.Unlock()
		if missing == 0 {
			return nil
		}
		select {
		case <-wake:
		case <-deadline:
			return fmt.Errorf("%d of %d members not told online within %v", missing, len(users), limit)
		case <-ctx.Done():
			return ctx.Err()
		}
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
