package realtime_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/projections/realtime"
)

// Registering and delivering touch no database: only Run writes presence.
func TestSlowClientIsDroppedNotWaitedFor(t *testing.T) {
	hub := realtime.NewHub(nil, realtime.HubOptions{NodeID: "n1", SendQueue: 2})
	slowUser, otherUser := uuid.New(), uuid.New()
	exp := time.Now().Add(time.Hour)
	slow, err := hub.Register(slowUser, uuid.New(), exp)
	if err != nil {
		t.Fatal(err)
	}
	slowTab2, _ := hub.Register(slowUser, uuid.New(), exp)
	other, _ := hub.Register(otherUser, uuid.New(), exp)

	// The second tab and the other member keep reading.
	drained := func(c *realtime.Client) int {
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
		if slow.Reason() != realtime.TooSlow {
			t.Errorf("reason %v, want TooSlow", slow.Reason())
		}
	default:
		t.Fatal("the slow connection was not dropped")
	}
	for _, c := range []*realtime.Client{slowTab2, other} {
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

func TestNodeIDIsSafeAndUnique(t *testing.T) {
	a, b := realtime.NewNodeID(), realtime.NewNodeID()
	if a == b {
		t.Errorf("two node ids are both %q", a)
	}
	for _, r := range a {
		if !(r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			t.Errorf("node id %q has %q, not allowed in a Kafka group or topic name", a, r)
		}
	}
}
