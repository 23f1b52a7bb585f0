package testenv

import (
	"testing"
	"time"

	"agora/internal/config"
	"agora/internal/runtime"
	"agora/projections/projectiontest"
	"agora/projections/realtime"
)

// StartPipeline starts a change pipeline over the shared test database: an
// embedded broker and a relay on a replication slot of its own, stopped
// when t ends.
func StartPipeline(t testing.TB) *projectiontest.Pipeline {
	t.Helper()
	once.Do(func() { shared, sharedE = start() })
	if sharedE != nil {
		t.Fatalf("testenv: %v", sharedE)
	}
	return projectiontest.StartPipeline(t, shared.url)
}

// Live configures the live events of a server started by NewLive.
type Live struct {
	// Pipeline is the broker the realtime projection consumes from.
	Pipeline *projectiontest.Pipeline
	// Hub are the hub's options (a node id of its own is made when empty;
	// tests shorten SessionCheck).
	Hub realtime.HubOptions
	// ReplayMargin is how long before the server started a change may
	// have been committed and still be delivered; tests on one machine
	// use 0, so that what earlier tests did stays out.
	ReplayMargin time.Duration
}

// NewLive starts an API server over the shared database, like New, that
// also runs the realtime hub and its projection (its own consumer group)
// against live.Pipeline. Several such servers are several API nodes.
func NewLive(t testing.TB, live Live, options ...func(*config.Config)) *Env {
	t.Helper()
	return serve(t, []runtime.APIOption{
		runtime.WithBrokers(live.Pipeline.Brokers), runtime.WithRealtime(live.Hub, live.ReplayMargin),
	}, options)
}
