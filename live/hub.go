package live

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"os"
	"regexp"
	"sync"
	"time"

	"github.com/google/uuid"
)

// HubOptions configure a hub; zero values take the defaults.
type HubOptions struct {
	// NodeID names this API node in presence rows and in the projection's
	// consumer group; default the host name and a random suffix.
	NodeID string
	// SendQueue bounds the messages waiting for one connection (64); a
	// client that lets it fill is disconnected rather than slowing the
	// node down.
	SendQueue int
	// SessionCheck is how often the sessions of the connections are
	// checked again (60 s): a connection whose session was signed out or
	// expired is closed.
	SessionCheck time.Duration
	// Heartbeat is how often the node beats its presence row and sweeps
	// nodes not heard from for StaleAfter (20 s).
	Heartbeat time.Duration
	// StaleAfter is when another node's presence no longer counts (60 s).
	StaleAfter time.Duration
	// AwayAfter is how long a tab may be hidden or without input before
	// it reports its member idle (AGORA_PRESENCE_AWAY_AFTER, 5 min): the
	// browser times it, and learns it from the hub on connecting.
	AwayAfter time.Duration
	Log       *slog.Logger
}

func (o *HubOptions) defaults() {
	if o.NodeID == "" {
		o.NodeID = NewNodeID()
	}
	if o.SendQueue < 1 {
		o.SendQueue = 64
	}
	if o.SessionCheck <= 0 {
		o.SessionCheck = time.Minute
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = 20 * time.Second
	}
	if o.StaleAfter <= 0 {
		o.StaleAfter = StaleAfter
	}
	if o.AwayAfter <= 0 {
		o.AwayAfter = DefaultAwayAfter
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
}

var unsafeNode = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// NewNodeID is a node id unique to this process: the host name (made safe
// for Kafka group and topic names) and a random suffix.
func NewNodeID() string {
	host, _ := os.Hostname()
	host = unsafeNode.ReplaceAllString(host, "-")
	if len(host) > 40 {
		host = host[:40]
	}
	if host == "" {
		host = "node"
	}
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return host + "-" + hex.EncodeToString(b)
}

// CloseReason says why the hub dropped a client.
type CloseReason int

// The reasons a client is dropped.
const (
	// ClientLeft: the transport unregistered it (the browser went away).
	ClientLeft CloseReason = iota + 1
	// TooSlow: its send queue was full.
	TooSlow
	// SessionEnded: its session was signed out or expired.
	SessionEnded
	// ShuttingDown: the node is stopping.
	ShuttingDown
)

// ErrClosed is returned by Register once the hub has shut down.
var ErrClosed = errors.New("live: hub closed")

// ErrSessionEnded is returned by Register for a session that EndSession
// ended a moment ago.
var ErrSessionEnded = errors.New("live: session ended")

// endedMemory is how long the hub remembers an ended session, to refuse
// its connections that register after EndSession: a WebSocket's handshake
// is answered before its connection registers, and another node may
// accept a session for up to a second after its sign-out (the sessions'
// cache), so a sign-out can come between the two.
const endedMemory = time.Minute

// Client is one connection of a member. The transport writes what
// Messages yields and closes the connection when Done is closed.
type Client struct {
	UserID    uuid.UUID
	SessionID uuid.UUID
	ExpiresOn time.Time

	send   chan []byte
	half   chan struct{} // signalled when send is half full
	done   chan struct{}
	once   sync.Once
	reason CloseReason // set before done is closed
	idle   bool        // what the tab last reported; under the hub's lock
}

// Messages are the encoded messages to write, in order.
func (c *Client) Messages() <-chan []byte { return c.send }

// HalfFull is signalled when the messages waiting reach half the queue: a
// writer holding them back to send them together writes now, before the
// queue fills and the hub drops the client as too slow.
func (c *Client) HalfFull() <-chan struct{} { return c.half }

// Done is closed when the hub dropped the client; Reason says why.
func (c *Client) Done() <-chan struct{} { return c.done }

// Reason is why the client was dropped; read it after Done.
func (c *Client) Reason() CloseReason { return c.reason }

func (c *Client) close(r CloseReason) {
	c.once.Do(func() {
		c.reason = r
		close(c.done)
	})
}

// Hub holds the connections of one node, by member, and their presence.
type Hub struct {
	opts     HubOptions
	presence presence
	started  time.Time

	mu     sync.Mutex
	users  map[uuid.UUID]map[*Client]struct{}
	dirty  map[uuid.UUID]bool      // members whose presence row may be wrong
	ended  map[uuid.UUID]time.Time // sessions EndSession ended, and when
	closed bool
	wake   chan struct{}

	// inDB is which members have a presence row of this node (and whether
	// it says idle), and beaten whether the node's own row is known to
	// exist; only Run's goroutine touches them.
	inDB   map[uuid.UUID]bool
	beaten bool
}

// NewHub makes a hub over db. Connections are accepted at once; presence is
// written once Run runs.
func NewHub(db DB, o HubOptions) *Hub {
	o.defaults()
	return &Hub{
		opts: o, presence: presence{db}, started: time.Now(),
		users: map[uuid.UUID]map[*Client]struct{}{}, dirty: map[uuid.UUID]bool{},
		ended: map[uuid.UUID]time.Time{}, wake: make(chan struct{}, 1), inDB: map[uuid.UUID]bool{},
	}
}

// AwayAfter is how long a tab waits, hidden or without input, before it
// reports its member idle.
func (h *Hub) AwayAfter() time.Duration { return h.opts.AwayAfter }

// NodeID is this node's id.
func (h *Hub) NodeID() string { return h.opts.NodeID }

// Started is when the hub was made.
func (h *Hub) Started() time.Time { return h.started }

// Register adds a connection of the member a session belongs to.
func (h *Hub) Register(userID, sessionID uuid.UUID, expiresOn time.Time) (*Client, error) {
	c := &Client{
		UserID: userID, SessionID: sessionID, ExpiresOn: expiresOn,
		send: make(chan []byte, h.opts.SendQueue), half: make(chan struct{}, 1), done: make(chan struct{}),
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrClosed
	}
	if _, ok := h.ended[sessionID]; ok {
		return nil, ErrSessionEnded
	}
	cs := h.users[userID]
	if cs == nil {
		cs = map[*Client]struct{}{}
		h.users[userID] = cs
		h.markLocked(userID)
	}
	cs[c] = struct{}{}
	return c, nil
}

// Unregister removes a connection; the transport calls it when the
// connection ends, whoever ended it.
func (h *Hub) Unregister(c *Client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.dropLocked(c, ClientLeft)
}

func (h *Hub) dropLocked(c *Client, r CloseReason) {
	c.close(r)
	cs, ok := h.users[c.UserID]
	if !ok {
		return
	}
	if _, ok := cs[c]; !ok {
		return
	}
	delete(cs, c)
	if len(cs) == 0 {
		delete(h.users, c.UserID)
		h.markLocked(c.UserID)
	}
}

func (h *Hub) markLocked(u uuid.UUID) {
	h.dirty[u] = true
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// SetIdle records what a tab reported: idle (hidden or without input for
// AwayAfter) or active. The member's presence row on this node says idle
// when every tab of theirs here does; Postgres adds up the nodes.
func (h *Hub) SetIdle(c *Client, idle bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.users[c.UserID][c]; !ok || c.idle == idle {
		return
	}
	c.idle = idle
	h.markLocked(c.UserID)
}

// idleLocked is whether every connection of u on this node is idle.
func (h *Hub) idleLocked(u uuid.UUID) bool {
	for c := range h.users[u] {
		if !c.idle {
			return false
		}
	}
	return true
}

// EndSession closes the connections of session sessionID (SessionEnded)
// at once, and returns how many: a sign-out on this node, or a revocation
// the change stream reports, so that nothing more reaches them (the
// periodic session check is the backstop, not the rule).
func (h *Hub) EndSession(sessionID uuid.UUID) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := time.Now()
	for id, at := range h.ended {
		if now.Sub(at) > endedMemory {
			delete(h.ended, id)
		}
	}
	h.ended[sessionID] = now
	n := 0
	for _, cs := range h.users {
		for c := range cs {
			if c.SessionID == sessionID {
				h.dropLocked(c, SessionEnded)
				n++
			}
		}
	}
	return n
}

// Users are the members with a connection on this node.
func (h *Hub) Users() []uuid.UUID {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]uuid.UUID, 0, len(h.users))
	for u := range h.users {
		out = append(out, u)
	}
	return out
}

// Connections counts the connections of a member on this node.
func (h *Hub) Connections(u uuid.UUID) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.users[u])
}

// Deliver queues msg on every connection of users. A connection whose
// queue is full is dropped (TooSlow) instead of waited for. It returns the
// number of connections the message was queued on.
func (h *Hub) Deliver(msg []byte, users []uuid.UUID) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, u := range users {
		for c := range h.users[u] {
			select {
			case c.send <- msg:
				n++
				if 2*len(c.send) >= cap(c.send) {
					select {
					case c.half <- struct{}{}:
					default:
					}
				}
			default:
				h.opts.Log.Warn("live: a connection is too slow; closing it", "user", u)
				h.dropLocked(c, TooSlow)
			}
		}
	}
	return n
}

// Run keeps the node's presence and checks sessions until ctx ends; then
// it closes every connection and deletes the node's presence.
func (h *Hub) Run(ctx context.Context) error {
	beat := time.NewTicker(h.opts.Heartbeat)
	defer beat.Stop()
	check := time.NewTicker(h.opts.SessionCheck)
	defer check.Stop()
	retry := time.NewTimer(time.Hour)
	retry.Stop()
	defer retry.Stop()

	h.heartbeat(ctx)
	for {
		if err := h.reconcile(ctx); err != nil && ctx.Err() == nil {
			h.opts.Log.Warn("live: presence write failed; retrying", "err", err)
			retry.Reset(time.Second)
		}
		select {
		case <-ctx.Done():
			h.shutdown()
			return nil
		case <-h.wake:
		case <-retry.C:
			if !h.beaten {
				h.heartbeat(ctx)
			}
		case <-beat.C:
			h.heartbeat(ctx)
		case <-check.C:
			h.checkSessions(ctx)
		}
	}
}

func (h *Hub) heartbeat(ctx context.Context) {
	made, err := h.presence.beat(ctx, h.opts.NodeID)
	if err != nil {
		if ctx.Err() == nil {
			h.opts.Log.Warn("live: presence heartbeat failed", "err", err)
		}
		return
	}
	h.beaten = true
	if made && len(h.inDB) > 0 {
		// Swept as stale while alive: the presence rows went with the node
		// row. Write them again.
		h.opts.Log.Warn("live: this node's presence had been swept; restoring it")
		h.inDB = map[uuid.UUID]bool{}
		h.mu.Lock()
		for u := range h.users {
			h.markLocked(u)
		}
		h.mu.Unlock()
	}
	if err := h.presence.sweep(ctx, h.opts.NodeID, h.opts.StaleAfter); err != nil && ctx.Err() == nil {
		h.opts.Log.Warn("live: presence sweep failed", "err", err)
	}
}

// reconcile brings the node's presence rows in line with its connections.
// Reading the wanted state when writing (rather than queueing every open
// and close) makes a tab reloaded in a blink cost nothing.
func (h *Hub) reconcile(ctx context.Context) error {
	if !h.beaten {
		// Presence rows reference the node's row: write them once it is there.
		return errors.New("live: the node's presence row is not written yet")
	}
	type wanted struct{ present, idle bool }
	h.mu.Lock()
	todo := make(map[uuid.UUID]wanted, len(h.dirty))
	for u := range h.dirty {
		todo[u] = wanted{len(h.users[u]) > 0, h.idleLocked(u)}
	}
	clear(h.dirty)
	h.mu.Unlock()
	var firstErr error
	for u, want := range todo {
		idle, in := h.inDB[u]
		if want.present == in && (!in || want.idle == idle) {
			continue
		}
		if err := h.presence.setPresent(ctx, h.opts.NodeID, u, want.present, want.idle); err != nil {
			h.mu.Lock()
			h.dirty[u] = true
			h.mu.Unlock()
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if want.present {
			h.inDB[u] = want.idle
		} else {
			delete(h.inDB, u)
		}
	}
	return firstErr
}

// checkSessions closes the connections whose session was signed out or
// has expired, in one query for the whole node.
func (h *Hub) checkSessions(ctx context.Context) {
	now := time.Now()
	h.mu.Lock()
	var sessions []uuid.UUID
	asked := map[uuid.UUID]bool{}
	for _, cs := range h.users {
		for c := range cs {
			if !asked[c.SessionID] {
				asked[c.SessionID] = true
				sessions = append(sessions, c.SessionID)
			}
		}
	}
	h.mu.Unlock()
	if len(sessions) == 0 {
		return
	}
	live, err := h.presence.liveSessions(ctx, sessions)
	if err != nil {
		if ctx.Err() == nil {
			h.opts.Log.Warn("live: session check failed", "err", err)
		}
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, cs := range h.users {
		for c := range cs {
			// A connection registered while the query ran may have a
			// session it did not ask about: absent from live does not make
			// that one dead (it was just authenticated); the next check asks.
			if (asked[c.SessionID] && !live[c.SessionID]) || !now.Before(c.ExpiresOn) {
				h.dropLocked(c, SessionEnded)
			}
		}
	}
}

// shutdown closes every connection and deletes the node's presence, so
// that its members go offline now rather than when the node is swept.
func (h *Hub) shutdown() {
	h.mu.Lock()
	h.closed = true
	for _, cs := range h.users {
		for c := range cs {
			h.dropLocked(c, ShuttingDown)
		}
	}
	h.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := h.presence.leave(ctx, h.opts.NodeID); err != nil {
		h.opts.Log.Warn("live: could not delete this node's presence; it will be swept", "err", err)
	}
	h.inDB = map[uuid.UUID]bool{}
}
