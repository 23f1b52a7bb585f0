package testenv

import (
	"context"
	"testing"
	"time"

	"agora/app"
	"agora/internal/plumbing/config"
	"agora/live"
	"agora/projections"
	"agora/projections/projectiontest"
	"agora/projections/searchindex"
	"agora/search"
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
	Hub live.HubOptions
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
	return serve(t, []app.APIOption{
		app.WithBrokers(live.Pipeline.Brokers), app.WithRealtime(live.Hub, live.ReplayMargin),
	}, options)
}

// NewSearch starts an API server over the shared database whose search
// store (the embedded engine, in a folder of the test's) is filled by the
// search projection from a pipeline of its own, as in agora dev. The
// relay's snapshot brings in what the database already holds. The
// server runs live events on the same pipeline.
func NewSearch(t testing.TB, options ...func(*config.Config)) (*Env, search.Store) {
	t.Helper()
	return NewSearchEmbedding(t, nil, options...)
}

// NewSearchEmbedding is NewSearch with the search projection giving posts
// their vectors from embedder (nil: none).
func NewSearchEmbedding(t testing.TB, embedder search.Embedder, options ...func(*config.Config)) (*Env, search.Store) {
	t.Helper()
	p := StartPipeline(t)
	store, err := search.OpenEmbedded(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h, err := searchindex.New(store, shared.db.Pool, projectiontest.Logger(), searchindex.WithEmbedder(embedder))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		cfg := projections.Config{Brokers: p.Brokers, Log: projectiontest.Logger()}
		_ = projections.Run(ctx, cfg, h)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		_ = store.Close()
	})
	// The relay's snapshot holds every row the binary's earlier tests
	// wrote: the store takes it in before the test starts, so that the
	// test's own waits are for its own changes (a loaded machine took over
	// 30 s for the snapshot of httpapi's tests).
	if err := projections.WaitApplied(ctx, projections.Config{Brokers: p.Brokers}, h, 5*time.Minute); err != nil {
		t.Fatalf("testenv: the search store did not take in the snapshot: %v", err)
	}
	env := serve(t, []app.APIOption{app.WithSearch(store), app.WithBrokers(p.Brokers),
		app.WithRealtime(live.HubOptions{}, 0)}, options)
	return env, store
}
