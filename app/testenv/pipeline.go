package testenv

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
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

// The test binary's change pipeline and the search store it fills, each
// started on first use and stopped by Main. One per test in httpapi made
// each relay snapshot, and each store index, everything the binary's
// earlier tests had written: the tests grew slower the later they ran.
var (
	pipeOnce  sync.Once
	pipe      *projectiontest.Pipeline
	stopPipe  func() error
	pipeE     error
	indexOnce sync.Once
	index     *indexed
	indexE    error
)

// indexed is a search store and the search projection that fills it.
type indexed struct {
	store search.Store
	stop  func()
}

// StartPipeline returns the test binary's change pipeline over the shared
// test database: an embedded broker and a relay on a replication slot of
// its own, started on first use and running until the binary ends. Its
// topics hold everything the binary's tests wrote since; a projection a
// test runs in a consumer group of its own reads them from the first
// offset. No test may stop its broker or relay: every later test would
// find the pipeline gone.
func StartPipeline(t testing.TB) *projectiontest.Pipeline {
	t.Helper()
	sharedCluster(t)
	pipeOnce.Do(func() {
		pipe, stopPipe, pipeE = projectiontest.Start(filepath.Join(shared.dir, "pipeline"), shared.url)
	})
	if pipeE != nil {
		t.Fatalf("testenv: the change pipeline: %v", pipeE)
	}
	return pipe
}

// StartOwnPipeline starts a change pipeline of t's own over the shared
// test database, stopped when t ends, for a test that does to its pipeline
// what would harm the later tests on the binary's: one that sends a
// change no projection can read, say, which every projection reading the
// topics from the first offset would retry before it dead-letters it.
func StartOwnPipeline(t testing.TB) *projectiontest.Pipeline {
	t.Helper()
	sharedCluster(t)
	return projectiontest.StartPipeline(t, shared.url)
}

// stopPipeline stops the search projection and the pipeline, if a test
// started them.
func stopPipeline() {
	if index != nil {
		index.stop()
	}
	if pipe != nil {
		_ = stopPipe()
	}
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
	// use 0, so that what earlier tests did stays out: the node's new
	// consumer group reads the shared pipeline's topics from the first
	// offset, and the realtime projection skips every change committed
	// before the node's hub started.
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
// store is the test binary's one (the embedded engine), filled by the
// search projection from the binary's pipeline, as in agora dev. The
// store holds what every test of the binary wrote: a test looks for what
// it wrote itself (its own community, forum, words), and polls, as the
// projection takes its changes in shortly after they commit. The server
// runs live events on the same pipeline.
func NewSearch(t testing.TB, options ...func(*config.Config)) (*Env, search.Store) {
	t.Helper()
	p := StartPipeline(t)
	indexOnce.Do(func() { index, indexE = startIndexed(p, nil, searchindex.Name) })
	if indexE != nil {
		t.Fatalf("testenv: %v", indexE)
	}
	return serveSearch(t, p, index.store, options), index.store
}

// NewSearchEmbedding is NewSearch with the search projection giving posts
// their vectors from embedder; nil is NewSearch. Vectors make the store
// one of the test's own, filled by a projection in a consumer group of its
// own: it reads the binary's pipeline from the first offset, everything
// earlier tests wrote included, before the test starts.
func NewSearchEmbedding(t testing.TB, embedder search.Embedder, options ...func(*config.Config)) (*Env, search.Store) {
	t.Helper()
	if embedder == nil {
		return NewSearch(t, options...)
	}
	p := StartPipeline(t)
	x, err := startIndexed(p, embedder, Unique(searchindex.Name))
	if err != nil {
		t.Fatalf("testenv: %v", err)
	}
	t.Cleanup(x.stop)
	return serveSearch(t, p, x.store, options), x.store
}

// startIndexed opens a search store in a folder of the binary's and runs
// the search projection, under the consumer group name, from p into it;
// it returns once the store has taken in everything p holds now, so that
// a test's own waits are for its own changes (a loaded machine took over
// 30 s for the snapshot of httpapi's tests).
func startIndexed(p *projectiontest.Pipeline, embedder search.Embedder, name string) (*indexed, error) {
	store, err := search.OpenEmbedded(filepath.Join(shared.dir, "indexed", name))
	if err != nil {
		return nil, err
	}
	h, err := searchindex.New(store, shared.db.Pool, projectiontest.Logger(), searchindex.WithEmbedder(embedder))
	if err != nil {
		_ = store.Close()
		return nil, err
	}
	h = h.Named(name)
	cfg := projections.Config{Brokers: p.Brokers, Log: projectiontest.Logger()}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = projections.Run(ctx, cfg, h)
	}()
	x := &indexed{store: store, stop: func() {
		cancel()
		<-done
		_ = store.Close()
	}}
	if err := projections.WaitApplied(ctx, cfg, h, 5*time.Minute); err != nil {
		x.stop()
		return nil, fmt.Errorf("the search store did not take in the pipeline: %w", err)
	}
	return x, nil
}

// serveSearch starts an API server of t's own searching store, with live
// events on p.
func serveSearch(t testing.TB, p *projectiontest.Pipeline, store search.Store, options []func(*config.Config)) *Env {
	t.Helper()
	return serve(t, []app.APIOption{app.WithSearch(store), app.WithBrokers(p.Brokers),
		app.WithRealtime(live.HubOptions{}, 0)}, options)
}
