package main

// The real engines under faults: Debezium's Postgres connector on Kafka
// Connect and three KRaft brokers (replication factor 3, min ISR 2, every
// producer acks=all), two agora api nodes behind deploy's nginx
// configuration and agora projector, all on loopback, as deploy/ runs
// them. Under continuous writes a broker of three is killed with SIGKILL
// and comes back, Connect is killed and resumes from its offsets, and
// Postgres is killed and started again; after each, agora projector check
// finds every projection equal to a rebuild from Postgres, and a member's
// hub sockets, opened through nginx on both API nodes, got the live event
// of every write once. The projector's consumer groups (kafka-go against
// Kafka 4.4) join, move to a new coordinator, commit and resume from their
// offsets across the faults and the projector's restart after each check.
//
// One topology for the whole test: three brokers and Connect take a few
// minutes to start on a loaded machine.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/google/uuid"
	kafkago "github.com/segmentio/kafka-go"

	"agora/app/seed"
	"agora/deploy"
	"agora/internal/standins/nginxserver"
	"agora/live"
	"agora/projections"
	"agora/projections/change"
	"agora/projections/realtime"
)

func TestRealEnginesFaults(t *testing.T) {
	begin := time.Now()
	s := newFaultStack(t, faultOptions{engines: 3})
	t.Logf("postgres, clickhouse, 3 kafka brokers, connect with debezium and the projector started in %v", time.Since(begin).Round(time.Second))
	// The projections take the writes at full speed in a forum the
	// member does not read; the member's forum gets a statement a second,
	// whose events the member's sockets must get. A hub queues at most 64
	// messages for a connection and closes one whose queue is full
	// (1013, too slow): the writes made while Connect or a broker was
	// down arrive in one burst once it is back, and at full speed that
	// burst overflowed the queue (see the report of issue 33).
	s.writers = []forumWriter{s.otherForum(), {series: s.series, channel: s.channel, author: s.member, other: s.other, pace: time.Second}}
	apis := []*apiProcess{s.startAPI("api-1"), s.startAPI("api-2")}
	lb := s.loadBalancer(apis)
	// A member with the app open in two tabs: nginx's least_conn puts the
	// second socket on the node that holds none.
	socks := []*hubSocket{lb.openHub(t), lb.openHub(t)}
	s.waitPresence(2)
	t.Logf("two API nodes behind nginx, a hub socket on each, %v after the start", time.Since(begin).Round(time.Second))

	faults := []struct {
		name  string
		fault func()
	}{
		{"kill -9 a broker of three", func() {
			// The one that coordinates the search projection's group, so
			// that the group moves to another coordinator.
			victim := s.coordinator(projections.GroupID("agora", "search"))
			before := victim.Restarts()
			if err := victim.Kill(); err != nil {
				t.Fatal(err)
			}
			took := waitStartedAgain(t, fmt.Sprintf("kafka broker %d", victim.ID()), victim.Restarts, before)
			if err := s.engines.Kafka.WaitReady(t.Context(), 2*time.Minute); err != nil {
				t.Fatal(err)
			}
			t.Logf("broker %d (the search group's coordinator) killed, started again in %v", victim.ID(), took)
		}},
		{"kill -9 Kafka Connect", func() {
			c := s.engines.Connect
			before := c.Restarts()
			if err := c.Kill(); err != nil {
				t.Fatal(err)
			}
			took := waitStartedAgain(t, "kafka connect", c.Restarts, before)
			t.Logf("connect killed, started again and its task running in %v", took)
		}},
		{"kill -9 Postgres", func() {
			before := s.pg.Restarts()
			if err := s.pg.Kill(); err != nil {
				t.Fatal(err)
			}
			took := waitStartedAgain(t, "postgres", s.pg.Restarts, before)
			t.Logf("postgres killed, started again and recovered in %v", took)
		}},
	}
	for _, f := range faults {
		start := time.Now()
		t.Logf("-- %s, under writes", f.name)
		ws := s.underWrites(1, func(int) { f.fault() })
		// check stopped the projector: it runs again, from its groups'
		// committed offsets, for the next fault.
		s.projector = startAgora(t, s.env, "projector")
		s.checkHub(ws[1], s.writers[1].other, socks)
		t.Logf("-- %s: checked in %v", f.name, time.Since(start).Round(time.Second))
	}
	if t.Failed() || testing.Verbose() {
		for i, a := range apis {
			t.Logf("api-%d stderr:\n%s", i+1, a.stderr.String())
		}
		t.Logf("projector stderr:\n%s", s.projector.stderr.String())
	}
	t.Logf("the real engines' suite took %v", time.Since(begin).Round(time.Second))
}

// loadBalancer runs nginx over deploy's configuration with apis as its
// upstream servers api-1 and api-2, and answers a client of it.
func (s *faultStack) loadBalancer(apis []*apiProcess) *apiProcess {
	t := s.t
	listen := freeAddr(t)
	conf, err := deploy.LoadBalancerFor(map[string]string{
		"api-1": strings.TrimPrefix(apis[0].url, "http://"), "api-2": strings.TrimPrefix(apis[1].url, "http://"),
		// No SFU here: nothing asks for /livekit/.
		"livekit": freeAddr(t),
	}, listen)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := nginxserver.Start(t.Context(), filepath.Join(s.dir, "nginx"), conf, listen)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Stop()
		if t.Failed() {
			t.Logf("nginx:\n%s", srv.Log())
		}
	})
	lb := &apiProcess{url: "http://" + listen, http: &http.Client{Timeout: 15 * time.Second}}
	var session struct {
		AccessToken string `json:"accessToken"`
	}
	status, _, body := lb.call("POST", "/api/sessions", map[string]string{"email": seed.MemberEmail, "password": demoPassword}, "")
	if status != http.StatusOK || json.Unmarshal(body, &session) != nil {
		t.Fatalf("sign in through nginx: %d %s", status, body)
	}
	lb.token = session.AccessToken
	return lb
}

// hubSocket is a browser's live connection: GET /api/hub with a ticket,
// as the web app opens it, counting the events it receives by what they
// are about (eventKey).
type hubSocket struct {
	conn   *websocket.Conn
	mu     sync.Mutex
	seen   map[string]int
	closed chan struct{}
	err    error // why the read loop ended; read after closed
}

// openHub asks for a ticket and opens the hub with it, through a's
// address.
func (a *apiProcess) openHub(t *testing.T) *hubSocket {
	t.Helper()
	status, _, body := a.call("POST", "/api/hub/tickets", nil, "")
	var ticket struct {
		Ticket string `json:"ticket"`
	}
	if status != http.StatusCreated || json.Unmarshal(body, &ticket) != nil {
		t.Fatalf("POST /api/hub/tickets: %d %s", status, body)
	}
	conn, res, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(a.url, "http")+"/api/hub?ticket="+ticket.Ticket, nil)
	if err != nil {
		code := 0
		if res != nil {
			code = res.StatusCode
		}
		t.Fatalf("open the hub: %v (status %d)", err, code)
	}
	h := &hubSocket{conn: conn, seen: map[string]int{}, closed: make(chan struct{})}
	go func() {
		defer close(h.closed)
		for {
			_, frame, err := conn.ReadMessage()
			if err != nil {
				h.err = err
				return
			}
			for _, b := range live.Messages(frame) {
				var m live.Message
				if err := json.Unmarshal(b, &m); err != nil {
					h.err = fmt.Errorf("%w: %s", err, b)
					return
				}
				if k := eventKey(m); k != "" {
					h.mu.Lock()
					h.seen[k]++
					h.mu.Unlock()
				}
			}
		}
	}()
	t.Cleanup(func() {
		_ = conn.Close()
		<-h.closed
	})
	return h
}

// eventKey names what a forum event received is about, as the writes
// name what they did (expectedKeys): the post created, the comment, its
// notice to the post's author, the reaction of a member to a post, the
// text an edit gave a post. Other events are "".
func eventKey(m live.Message) string {
	var p struct {
		ID       string `json:"id"`
		ThreadID string `json:"threadId"`
		UserID   string `json:"userId"`
		Raw      string `json:"raw"`
	}
	b, _ := json.Marshal(m.Data.Payload)
	_ = json.Unmarshal(b, &p)
	switch m.Event {
	case realtime.ThreadCreated:
		return "post " + p.ID
	case realtime.ThreadUpdated:
		return "edit " + p.ID + " " + p.Raw
	case realtime.ReplyCreated:
		return "comment " + p.ID
	case "channel.thread.reply.created":
		return "notice " + p.ID
	case realtime.Reacted:
		return "reaction " + p.ThreadID + " " + p.UserID
	}
	return ""
}

// expectedKeys are the event keys of w's writes: the post author (the
// socket's member) is told of each post, edit, comment and reaction in
// the forum, and of each comment on a post of theirs.
func expectedKeys(w write, other uuid.UUID) []string {
	switch w.kind {
	case "post":
		return []string{"post " + w.id.String()}
	case "edit":
		return []string{"edit " + w.id.String() + " " + w.raw}
	case "comment":
		return []string{"comment " + w.id.String(), "notice " + w.id.String()}
	case "reaction":
		return []string{"reaction " + w.id.String() + " " + other.String()}
	}
	return nil
}

// checkHub waits until each socket has the event of every committed write
// and both API nodes' realtime groups have read the topics to their ends,
// then fails for an event missing or received twice. A statement that
// failed may have committed: its event may come, once.
func (s *faultStack) checkHub(w *writes, other uuid.UUID, socks []*hubSocket) {
	t := s.t
	w.mu.Lock()
	defer w.mu.Unlock()
	want := map[string]bool{}
	for _, x := range w.committed {
		for _, k := range expectedKeys(x, other) {
			want[k] = true
		}
	}
	ours := map[string]bool{}
	for k := range want {
		ours[k] = true
	}
	for _, x := range w.unsure {
		for _, k := range expectedKeys(x, other) {
			ours[k] = true
		}
	}
	deadline := time.Now().Add(2 * time.Minute)
	for _, h := range socks {
		for time.Now().Before(deadline) && len(h.missing(want)) > 0 {
			select {
			case <-h.closed:
				t.Fatalf("a hub socket closed: %v", h.err)
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	s.waitRealtimeApplied()
	for i, h := range socks {
		missing := h.missing(want)
		doubled := h.doubled(ours)
		t.Logf("hub socket %d: %d events of the writes expected, %d missing, %d doubled", i+1, len(want), len(missing), len(doubled))
		if len(missing) > 0 || len(doubled) > 0 {
			t.Errorf("hub socket %d: missing %s; received twice or more %s", i+1, examples(missing), examples(doubled))
		}
	}
}

// missing are the keys of want the socket has not received.
func (h *hubSocket) missing(want map[string]bool) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for k := range want {
		if h.seen[k] == 0 {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// doubled are the keys of ours the socket received more than once.
func (h *hubSocket) doubled(ours map[string]bool) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for k, n := range h.seen {
		if ours[k] && n > 1 {
			out = append(out, fmt.Sprintf("%s ×%d", k, n))
		}
	}
	sort.Strings(out)
	return out
}

func examples(keys []string) string {
	if len(keys) > 5 {
		return fmt.Sprintf("%q and %d more", keys[:5], len(keys)-5)
	}
	return fmt.Sprintf("%q", keys)
}

// realtimeGroup is an API node's realtime projection as its consumer group
// names it, for projections.WaitApplied (which reads its name and tables).
type realtimeGroup struct{ name string }

func (g realtimeGroup) Name() string { return g.name }
func (g realtimeGroup) Tables() []string {
	return append(realtime.Tables(), "public.sessions")
}
func (g realtimeGroup) Apply(context.Context, change.Change) error { return nil }

// waitRealtimeApplied waits until every API node's realtime group (found
// by listing the cluster's groups) has committed the ends of its topics:
// whatever event it had to deliver, it has.
func (s *faultStack) waitRealtimeApplied() {
	t := s.t
	ctx := t.Context()
	client := &kafkago.Client{Addr: kafkago.TCP(s.brokers...)}
	res, err := client.ListGroups(ctx, &kafkago.ListGroupsRequest{})
	if err != nil {
		t.Fatalf("list the consumer groups: %v", err)
	}
	prefix := projections.GroupID("agora", "")
	var groups []string
	for _, g := range res.Groups {
		if name := strings.TrimPrefix(g.GroupID, prefix); strings.HasPrefix(name, "realtime.") {
			groups = append(groups, name)
		}
	}
	if len(groups) != 2 {
		t.Fatalf("%d realtime groups (%v), want one per API node", len(groups), res.Groups)
	}
	for _, g := range groups {
		if err := projections.WaitApplied(ctx, projections.Config{Brokers: s.brokers}, realtimeGroup{g}, 2*time.Minute); err != nil {
			t.Fatalf("realtime group %s: %v", g, err)
		}
	}
}

// coordinator is the broker that coordinates group.
func (s *faultStack) coordinator(group string) interface {
	Kill() error
	Restarts() int
	ID() int
} {
	t := s.t
	client := &kafkago.Client{Addr: kafkago.TCP(s.brokers...)}
	// Coordinator Not Available until the cluster has made
	// __consumer_offsets (at the first group's first request).
	var res *kafkago.FindCoordinatorResponse
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		var err error
		res, err = client.FindCoordinator(t.Context(), &kafkago.FindCoordinatorRequest{Key: group, KeyType: kafkago.CoordinatorKeyTypeConsumer})
		if err == nil && res.Error == nil {
			break
		}
		if err == nil {
			err = res.Error
		}
		if time.Now().After(deadline) {
			t.Fatalf("find the coordinator of %s: %v", group, err)
		}
	}
	for _, b := range s.engines.Kafka.Nodes() {
		if b.ID() == res.Coordinator.NodeID {
			return b
		}
	}
	t.Fatalf("the coordinator of %s is node %d, not a broker of the cluster", group, res.Coordinator.NodeID)
	return nil
}

// otherForum is a writer at full speed in a forum of the seed that the
// seed member does not read, by two of its members.
func (s *faultStack) otherForum() forumWriter {
	t := s.t
	f := forumWriter{pace: 10 * time.Millisecond}
	err := s.pool.QueryRow(t.Context(), `SELECT s.id, c.id, a.user_id, b.user_id FROM series s
		JOIN channels c ON c.series_id = s.id AND c.kind = 'main'
		JOIN series_memberships ma ON ma.series_id = s.id JOIN profiles a ON a.id = ma.profile_id AND a.user_id IS NOT NULL
		JOIN series_memberships mb ON mb.series_id = s.id JOIN profiles b ON b.id = mb.profile_id AND b.user_id IS NOT NULL AND b.user_id != a.user_id
		WHERE NOT EXISTS (SELECT 1 FROM series_memberships m JOIN profiles p ON p.id = m.profile_id WHERE m.series_id = s.id AND p.user_id = $1)
		LIMIT 1`, s.member).Scan(&f.series, &f.channel, &f.author, &f.other)
	if err != nil {
		t.Fatalf("a forum the seed member does not read: %v", err)
	}
	return f
}

// waitPresence waits until the seed member has a live connection on n
// API nodes (the presence rows the nodes write).
func (s *faultStack) waitPresence(n int) {
	t := s.t
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		var nodes int
		err := s.pool.QueryRow(t.Context(), `SELECT count(DISTINCT node_id) FROM presence WHERE user_id = $1`, s.member).Scan(&nodes)
		if err == nil && nodes == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the member is connected on %d API nodes, want %d (%v)", nodes, n, err)
		}
	}
}
