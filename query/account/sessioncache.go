package account

import (
	"sync"
	"time"
)

// sessionTTL is how long a node trusts a session it has read. Every
// signed-in call checks its session, and a page load makes several calls
// at once; without this, each one costs a round trip to Postgres before its
// own work (cmd/bench -only feed: a fifth of a feed page's cost). A
// revocation made through this node forgets every remembered session at
// once (ForgetSessions); another node stops accepting a revoked session
// within sessionTTL.
const sessionTTL = time.Second

// sessionCacheMax bounds the memory: past it the cache starts over.
const sessionCacheMax = 50_000

// sessionCache remembers valid sessions by token hash. Refusals are never
// remembered, so a guessed token always costs a lookup and cannot fill it.
type sessionCache struct {
	mu      sync.RWMutex
	entries map[string]cachedSession
}

type cachedSession struct {
	p      Principal
	readOn time.Time
}

func (c *sessionCache) get(hash string, now time.Time) (Principal, bool) {
	c.mu.RLock()
	e, ok := c.entries[hash]
	c.mu.RUnlock()
	if !ok || now.Sub(e.readOn) >= sessionTTL || !now.Before(e.p.ExpiresOn) {
		return Principal{}, false
	}
	return e.p, true
}

func (c *sessionCache) put(hash string, p Principal, now time.Time) {
	c.mu.Lock()
	if c.entries == nil || len(c.entries) >= sessionCacheMax {
		c.entries = make(map[string]cachedSession)
	}
	c.entries[hash] = cachedSession{p: p, readOn: now}
	c.mu.Unlock()
}

func (c *sessionCache) clear() {
	c.mu.Lock()
	c.entries = nil
	c.mu.Unlock()
}
