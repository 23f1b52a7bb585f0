// Package ratelimit counts attempts per key in a sliding window, the way
// Discourse limits sign-ins per IP and per account.
//
// Counts live in this process: behind a load balancer each API node limits
// on its own, which bounds an attacker at N times the limit; a shared store
// is the next step when that matters.
package ratelimit

import (
	"math"
	"sync"
	"time"
)

// Limiter allows Limit events per Window for each key.
type Limiter struct {
	Limit  int
	Window time.Duration

	mu     sync.Mutex
	events map[string][]time.Time
	now    func() time.Time
	sweep  time.Time
}

// New returns a limiter of limit events per window.
func New(limit int, window time.Duration) *Limiter {
	return &Limiter{Limit: limit, Window: window, events: map[string][]time.Time{}, now: time.Now}
}

// Allow records an event for key and reports whether it is within the
// limit; when it is not, retryAfter says how long until one more is allowed.
// A refused event is not recorded, so a client that waits is let through.
func (l *Limiter) Allow(key string) (ok bool, retryAfter time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.maybeSweep(now)
	cut := now.Add(-l.Window)
	ev := l.events[key]
	i := 0
	for i < len(ev) && !ev[i].After(cut) {
		i++
	}
	ev = ev[i:]
	if len(ev) >= l.Limit {
		l.events[key] = ev
		return false, ev[0].Add(l.Window).Sub(now)
	}
	l.events[key] = append(ev, now)
	return true, 0
}

// maybeSweep drops idle keys once a window so memory stays bounded by the
// keys active in the last window.
func (l *Limiter) maybeSweep(now time.Time) {
	if now.Sub(l.sweep) < l.Window {
		return
	}
	l.sweep = now
	cut := now.Add(-l.Window)
	for k, ev := range l.events {
		if len(ev) == 0 || !ev[len(ev)-1].After(cut) {
			delete(l.events, k)
		}
	}
}

// Seconds rounds a retry delay up to whole seconds for Retry-After.
func Seconds(d time.Duration) int {
	s := int(math.Ceil(d.Seconds()))
	if s < 1 {
		s = 1
	}
	return s
}
