package sso

import (
	"context"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
)

// discoveryTTL is how long an issuer's discovery document (its endpoints
// and keys URL) is reused. Every sign-in needs it twice, at the start and
// at the callback, and every redeemed access token once: fetching it each
// time adds a round trip to the provider to each, and a burst of sign-ins
// becomes a burst at the provider. Providers change these rarely; five
// minutes lets a change reach sign-ins soon. The signing keys are not
// bound by it: go-oidc fetches them again when a token names one it has
// not seen.
const discoveryTTL = 5 * time.Minute

// discoveries are the issuers' providers as discovered, each kept for ttl;
// safe for concurrent use.
type discoveries struct {
	ttl   time.Duration
	now   func() time.Time
	fetch func(ctx context.Context, issuer string) (*oidc.Provider, error)

	mu      sync.Mutex
	entries map[string]discovered
}

type discovered struct {
	provider *oidc.Provider
	expires  time.Time
}

func newDiscoveries(ttl time.Duration, now func() time.Time, fetch func(context.Context, string) (*oidc.Provider, error)) *discoveries {
	return &discoveries{ttl: ttl, now: now, fetch: fetch, entries: map[string]discovered{}}
}

// get returns issuer's provider, discovered at most ttl ago.
func (d *discoveries) get(ctx context.Context, issuer string) (*oidc.Provider, error) {
	d.mu.Lock()
	e, ok := d.entries[issuer]
	d.mu.Unlock()
	if ok && d.now().Before(e.expires) {
		return e.provider, nil
	}
	return d.refresh(ctx, issuer)
}

// refresh discovers issuer now and keeps the answer. A failure is not
// kept: the next call asks the provider again. Two calls at once may both
// ask; the later answer is kept, and either serves.
func (d *discoveries) refresh(ctx context.Context, issuer string) (*oidc.Provider, error) {
	p, err := d.fetch(ctx, issuer)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.now()
	// Issuers no organization uses any more do not pile up.
	for k, e := range d.entries {
		if !now.Before(e.expires) {
			delete(d.entries, k)
		}
	}
	d.entries[issuer] = discovered{provider: p, expires: now.Add(d.ttl)}
	return p, nil
}
