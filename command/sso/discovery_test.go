package sso

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
)

// TestDiscoveries: an issuer is discovered once per discoveryTTL, each
// issuer apart, a failure is asked again, and refresh asks now; calls at
// once are safe (go test -race).
func TestDiscoveries(t *testing.T) {
	var mu sync.Mutex
	clock := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	advance := func(d time.Duration) { mu.Lock(); clock = clock.Add(d); mu.Unlock() }
	var fetches atomic.Int32
	var failing atomic.Bool
	d := newDiscoveries(discoveryTTL, now, func(_ context.Context, issuer string) (*oidc.Provider, error) {
		fetches.Add(1)
		if failing.Load() {
			return nil, errors.New("down")
		}
		return &oidc.Provider{}, nil
	})
	get := func(issuer string) *oidc.Provider {
		t.Helper()
		p, err := d.get(t.Context(), issuer)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	want := func(n int32) {
		t.Helper()
		if got := fetches.Load(); got != n {
			t.Fatalf("%d discoveries, want %d", got, n)
		}
	}

	first := get("https://a.example")
	want(1)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if p, err := d.get(t.Context(), "https://a.example"); err != nil || p != first {
				t.Errorf("a concurrent get: %p, %v; want the kept %p", p, err, first)
			}
		})
	}
	wg.Wait()
	want(1)
	advance(discoveryTTL - time.Second)
	get("https://a.example")
	want(1)
	get("https://b.example")
	want(2)
	advance(time.Second)
	if get("https://a.example") == first {
		t.Error("an expired discovery was served")
	}
	want(3)

	// A failure is not kept; refresh asks now even when one is kept.
	failing.Store(true)
	if _, err := d.get(t.Context(), "https://c.example"); err == nil {
		t.Fatal("a failed discovery answered")
	}
	if _, err := d.refresh(t.Context(), "https://a.example"); err == nil {
		t.Fatal("refresh answered from the cache")
	}
	want(5)
	failing.Store(false)
	get("https://c.example")
	want(6)
	// Expired issuers are dropped when another is kept.
	advance(discoveryTTL)
	get("https://a.example")
	if len(d.entries) != 1 {
		t.Errorf("%d issuers kept, want 1", len(d.entries))
	}
}
