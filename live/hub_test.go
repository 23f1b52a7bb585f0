package live_test

import (
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/app/testenv"
	"agora/live"
)

// Registering and delivering touch no database: only Run writes presence.
func TestSlowClientIsDroppedNotWaitedFor(t *testing.T) {
	hub := live.NewHub(nil, live.HubOptions{NodeID: "n1", SendQueue: 2})
	slowUser, otherUser := uuid.New(), uuid.New()
	exp := time.Now().Add(time.Hour)
	slow, err := hub.Register(slowUser, uuid.New(), exp)
	if err != nil {
		t.Fatal(err)
	}
	slowTab2, _ := hub.Register(slowUser, uuid.New(), exp)
	other, _ := hub.Register(otherUser, uuid.New(), exp)

	// The second tab and the other member keep reading.
	drained := func(c *live.Client) int {
		n := 0
		for {
			select {
			case <-c.Messages():
				n++
			default:
				return n
			}
		}
	}
	start := time.Now()
	got := 0
	for i := 0; i < 3; i++ {
		got += hub.Deliver([]byte(`{}`), []uuid.UUID{slowUser, otherUser})
		drained(slowTab2)
		drained(other)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("delivery blocked for %v", d)
	}
	if got != 3*3-1 { // the third message finds the slow tab's queue full
		t.Errorf("queued on %d connections, want 8", got)
	}
	select {
	case <-slow.Done():
		if slow.Reason() != live.TooSlow {
			t.Errorf("reason %v, want TooSlow", slow.Reason())
		}
	default:
		t.Fatal("the slow connection was not dropped")
	}
	for _, c := range []*live.Client{slowTab2, other} {
		select {
		case <-c.Done():
			t.Errorf("a reading connection of %v was dropped", c.UserID)
		default:
		}
	}
	if n := hub.Connections(slowUser); n != 1 {
		t.Errorf("the slow member has %d connections left, want 1 (the other tab)", n)
	}
	// Unregistering an already dropped client is harmless.
	hub.Unregister(slow)
	hub.Unregister(slowTab2)
	if n := hub.Connections(slowUser); n != 0 {
		t.Errorf("%d connections left after both tabs closed", n)
	}
	if users := hub.Users(); len(users) != 1 || users[0] != otherUser {
		t.Errorf("Users() = %v, want only %v", users, otherUser)
	}
}

// TestHalfFull: a client is told when its queue is half taken, once for
// however many messages come after, so that a writer gathering them stops
// waiting before the queue fills.
func TestHalfFull(t *testing.T) {
	hub := live.NewHub(nil, live.HubOptions{NodeID: "n1", SendQueue: 4})
	user := uuid.New()
	c, err := hub.Register(user, uuid.New(), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	hub.Deliver([]byte(`{}`), []uuid.UUID{user})
	select {
	case <-c.HalfFull():
		t.Fatal("told half full with one message of four")
	default:
	}
	hub.Deliver([]byte(`{}`), []uuid.UUID{user})
	hub.Deliver([]byte(`{}`), []uuid.UUID{user})
	select {
	case <-c.HalfFull():
	default:
		t.Fatal("not told half full with three messages of four")
	}
	select {
	case <-c.HalfFull():
		t.Error("told twice")
	default:
	}
}

func TestNodeIDIsSafeAndUnique(t *testing.T) {
	a, b := live.NewNodeID(), live.NewNodeID()
	if a == b {
		t.Errorf("two node ids are both %q", a)
	}
	for _, r := range a {
		if !(r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			t.Errorf("node id %q has %q, not allowed in a Kafka group or topic name", a, r)
		}
	}
}

// duringCheck is a database that runs during once, just before the first
// session check's query, and counts the checks started.
type duringCheck struct {
	live.DB
	once   sync.Once
	during func()
	checks atomic.Int32
}

func (d *duringCheck) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if strings.Contains(sql, "FROM sessions") {
		d.once.Do(d.during)
		d.checks.Add(1)
	}
	return d.DB.Query(ctx, sql, args...)
}

// A tab opened while the node checks its sessions is not closed as signed
// out because the check did not ask about its session: under load, that
// closed the tab of a member who had just connected, who then showed as
// offline while the tab was open. A signed-out session's tab still closes.
func TestSessionCheckSparesTabsOpenedDuringIt(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	userOf := func(email string) uuid.UUID {
		var id uuid.UUID
		if err := env.DB.Pool.QueryRow(ctx, "SELECT id FROM users WHERE email = $1", email).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	session := func(user uuid.UUID) uuid.UUID {
		id, hash := uuid.New(), make([]byte, 32)
		_, _ = rand.Read(hash)
		if _, err := env.DB.Pool.Exec(ctx, `INSERT INTO sessions (id, user_id, token_hash, expires_on)
			VALUES ($1, $2, $3, now() + interval '1 hour')`, id, user, hash); err != nil {
			t.Fatal(err)
		}
		return id
	}
	expert, admin := userOf("expert@demo.agora"), userOf("admin@demo.agora")
	exp := time.Now().Add(time.Hour)
	lateSession := session(admin)

	var hub *live.Hub
	registered := make(chan *live.Client, 1)
	db := &duringCheck{DB: env.DB.Pool}
	db.during = func() {
		c, err := hub.Register(admin, lateSession, exp)
		if err != nil {
			t.Error(err)
		}
		registered <- c
	}
	hub = live.NewHub(db, live.HubOptions{NodeID: testenv.Unique("node"), SessionCheck: 10 * time.Millisecond})
	early, _ := hub.Register(expert, session(expert), exp)
	runCtx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = hub.Run(runCtx) }()
	t.Cleanup(func() { cancel(); <-done })

	var late *live.Client
	select {
	case late = <-registered:
	case <-time.After(10 * time.Second):
		t.Fatal("no session check within 10 s")
	}
	// The check that ran while the late tab registered has ended once a
	// second one starts; wait for a third, which asked about both.
	deadline := time.Now().Add(10 * time.Second)
	for db.checks.Load() < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("%d session checks within 10 s, want 3", db.checks.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	for name, c := range map[string]*live.Client{"the tab open before the check": early, "the tab opened during the check": late} {
		select {
		case <-c.Done():
			t.Errorf("%s was closed (reason %v) though its session is live", name, c.Reason())
		default:
		}
	}

	if _, err := env.DB.Pool.Exec(ctx, "UPDATE sessions SET revoked_on = now() WHERE id = $1", lateSession); err != nil {
		t.Fatal(err)
	}
	select {
	case <-late.Done():
		if late.Reason() != live.SessionEnded {
			t.Errorf("the signed-out tab closed with reason %v, want SessionEnded", late.Reason())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the tab of a signed-out session is still open")
	}
	select {
	case <-early.Done():
		t.Errorf("the other member's tab was closed too (reason %v)", early.Reason())
	default:
	}
}

// TestSessionEndedBeforeItsConnectionRegisters: a sign-out that comes
// between a WebSocket's handshake and its connection's registration (or a
// connection another node accepted from its sessions' cache) must not
// leave that connection open: Register refuses a session ended a moment
// ago, and the session's other users are unaffected.
func TestSessionEndedBeforeItsConnectionRegisters(t *testing.T) {
	hub := live.NewHub(nil, live.HubOptions{})
	user, ended, other := uuid.New(), uuid.New(), uuid.New()
	exp := time.Now().Add(time.Hour)
	if n := hub.EndSession(ended); n != 0 {
		t.Fatalf("ended %d connections of a session with none", n)
	}
	if c, err := hub.Register(user, ended, exp); !errors.Is(err, live.ErrSessionEnded) {
		t.Fatalf("a connection of an ended session registered (%v, %v)", c, err)
	}
	if _, err := hub.Register(user, other, exp); err != nil {
		t.Fatalf("another session of the member: %v", err)
	}
}
