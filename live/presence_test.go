package live_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/live"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// waitFor waits until get returns want, failing after 5 s: the hubs write
// presence in the background.
func waitFor[T comparable](t *testing.T, what string, get func() T, want T) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for got := get(); got != want; got = get() {
		if time.Now().After(deadline) {
			t.Fatalf("%s = %v, want %v", what, got, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPresenceAcrossNodes checks presence in Postgres, where the online and
// offline transitions are decided: tabs and nodes add up to one
// online_users row, a killed node's share is swept, and a node swept while
// alive writes its presence again.
func TestPresenceAcrossNodes(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	var member uuid.UUID
	if err := env.DB.Pool.QueryRow(ctx, "SELECT id FROM users WHERE email = 'member@demo.agora'").Scan(&member); err != nil {
		t.Fatal(err)
	}
	nodes := func() int {
		var n int
		err := env.DB.Pool.QueryRow(ctx, "SELECT coalesce((SELECT nodes FROM online_users WHERE user_id = $1), 0)", member).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	eventually := func(what string, want int) {
		t.Helper()
		waitFor(t, what+": online_users.nodes", nodes, want)
	}
	online := func() bool {
		on, err := live.Online(ctx, env.DB.Pool, []uuid.UUID{member})
		if err != nil {
			t.Fatal(err)
		}
		return on[member]
	}
	start := func(node string) (*live.Hub, context.CancelFunc) {
		hub := live.NewHub(env.DB.Pool, live.HubOptions{
			NodeID: node, Heartbeat: 100 * time.Millisecond, StaleAfter: 500 * time.Millisecond,
		})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); _ = hub.Run(ctx) }()
		stop := func() { cancel(); <-done }
		t.Cleanup(stop)
		return hub, stop
	}
	n1, n2 := testenv.Unique("node"), testenv.Unique("node")
	hub1, _ := start(n1)
	hub2, stop2 := start(n2)
	exp := time.Now().Add(time.Hour)

	a, _ := hub1.Register(member, uuid.New(), exp)
	b, _ := hub1.Register(member, uuid.New(), exp)
	c, _ := hub2.Register(member, uuid.New(), exp)
	eventually("two tabs on one node and one on another", 2)
	if !online() {
		t.Error("Online() says the member is offline")
	}
	hub1.Unregister(a)
	time.Sleep(200 * time.Millisecond)
	eventually("one of two tabs on a node closed", 2)

	// A clean stop deletes the node's presence.
	stop2()
	eventually("the second node stopped", 1)
	_ = c

	// A killed node: its rows stay until a live node sweeps them.
	if _, err := env.DB.Pool.Exec(ctx, "INSERT INTO presence_nodes (node_id, beat_on) VALUES ($1, now())", "killed-"+n1); err != nil {
		t.Fatal(err)
	}
	if _, err := env.DB.Pool.Exec(ctx, "INSERT INTO presence (node_id, user_id) VALUES ($1, $2)", "killed-"+n1, member); err != nil {
		t.Fatal(err)
	}
	eventually("a node that then dies", 2)
	eventually("the dead node swept", 1)

	// Swept while alive (a long pause): the node writes its presence again.
	if _, err := env.DB.Pool.Exec(ctx, "DELETE FROM presence_nodes WHERE node_id = $1", n1); err != nil {
		t.Fatal(err)
	}
	eventually("restored after being swept", 1)

	hub1.Unregister(b)
	eventually("the last tab closed", 0)
	if online() {
		t.Error("Online() says the member is online")
	}
}

// TestPresenceStatus checks the status Postgres decides from what the tabs
// report and what the member chose: away only when every tab on every node
// is idle, online again when one is active, do-not-disturb over both, and
// the choice kept after the member goes offline.
func TestPresenceStatus(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	member := uuid.New()
	if _, err := env.DB.Pool.Exec(ctx, `INSERT INTO users (id, email, email_key, first_name, last_name, password_hash)
		VALUES ($1, $2, lower($2), 'Pre', 'Sence', 'x')`, member, testenv.Unique("status")+"@example.com"); err != nil {
		t.Fatal(err)
	}
	status := func() string {
		var s string
		err := env.DB.Pool.QueryRow(ctx, "SELECT coalesce((SELECT status FROM online_users WHERE user_id = $1), 'offline')", member).Scan(&s)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	eventually := func(what, want string) {
		t.Helper()
		waitFor(t, what+": status", status, want)
	}
	// stays checks, after the hubs have had time to write, that the status
	// has not moved.
	stays := func(what, want string) {
		t.Helper()
		time.Sleep(300 * time.Millisecond)
		if got := status(); got != want {
			t.Fatalf("%s: status %s, want %s", what, got, want)
		}
	}
	choose := func(dnd bool) {
		t.Helper()
		q := "DELETE FROM presence_choices WHERE user_id = $1"
		if dnd {
			q = "INSERT INTO presence_choices (user_id, status) VALUES ($1, 'do-not-disturb')"
		}
		if _, err := env.DB.Pool.Exec(ctx, q, member); err != nil {
			t.Fatal(err)
		}
	}
	start := func() *live.Hub {
		hub := live.NewHub(env.DB.Pool, live.HubOptions{NodeID: testenv.Unique("node"), Heartbeat: 100 * time.Millisecond})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); _ = hub.Run(ctx) }()
		t.Cleanup(func() { cancel(); <-done })
		return hub
	}
	hub1, hub2 := start(), start()
	exp := time.Now().Add(time.Hour)

	a, _ := hub1.Register(member, uuid.New(), exp)
	b, _ := hub1.Register(member, uuid.New(), exp)
	eventually("two tabs open", "online")
	hub1.SetIdle(a, true)
	stays("one of two tabs idle", "online")
	hub1.SetIdle(b, true)
	eventually("both tabs idle", "away")
	hub1.SetIdle(a, false)
	eventually("a tab active again", "online")
	hub1.SetIdle(a, true)
	eventually("idle again", "away")

	// A tab on another node: active, the member is online; idle, away.
	c, _ := hub2.Register(member, uuid.New(), exp)
	eventually("an active tab on another node", "online")
	hub2.SetIdle(c, true)
	eventually("every tab of both nodes idle", "away")
	hub2.SetIdle(c, false)
	eventually("the other node's tab active", "online")
	hub2.Unregister(c)
	eventually("the active tab closed, the idle ones left", "away")

	// Do-not-disturb overrides away and online, and "auto" gives them back.
	choose(true)
	eventually("do-not-disturb chosen while away", "do-not-disturb")
	hub1.SetIdle(b, false)
	stays("a tab active during do-not-disturb", "do-not-disturb")
	choose(false)
	eventually("auto again", "online")

	// The choice outlives the connection: the member comes back in it.
	choose(true)
	hub1.Unregister(a)
	hub1.Unregister(b)
	eventually("every tab closed", "offline")
	d, _ := hub2.Register(member, uuid.New(), exp)
	eventually("back with do-not-disturb chosen", "do-not-disturb")
	choose(false)
	eventually("auto while connected", "online")
	hub2.Unregister(d)
	eventually("gone", "offline")
}
