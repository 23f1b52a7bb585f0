package testenv

import (
	"context"
	"sync"
	"testing"
	"time"

	"agora/projections"
	"agora/projections/projectiontest"
)

// Projector runs projections of a test on its pipeline, as agora projector
// does, and tells when one has caught up with the stream.
type Projector struct {
	Pipeline *projectiontest.Pipeline
	// Runner is the runner configuration the projections run with.
	Runner projections.Config

	mu   sync.Mutex
	stop func()
}

func newProjector(p *projectiontest.Pipeline) *Projector {
	return &Projector{Pipeline: p, Runner: projections.Config{Brokers: p.Brokers, Log: projectiontest.Logger(), SessionTimeout: 2 * time.Second}}
}

// Run runs h (the projection, or a copy under another consumer group) on
// the pipeline until Stop or the end of the test.
func (i *Projector) Run(t testing.TB, h projections.Handler) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = projections.Run(ctx, i.Runner, h)
	}()
	i.mu.Lock()
	prev := i.stop
	i.stop = func() {
		if prev != nil {
			prev()
		}
		cancel()
		<-done
	}
	i.mu.Unlock()
}

// Stop stops every projection Run started.
func (i *Projector) Stop() {
	i.mu.Lock()
	stop := i.stop
	i.stop = nil
	i.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// WaitCaughtUp waits until the consumer group of h has committed every
// change its topics hold now: everything written so far is applied.
func (i *Projector) WaitCaughtUp(t testing.TB, h projections.Handler, within time.Duration) {
	t.Helper()
	if err := projections.WaitApplied(context.Background(), i.Runner, h, within); err != nil {
		t.Fatal(err)
	}
}

// WaitRelayed waits until the relay has published every change committed
// so far: its slot has confirmed the current end of the write-ahead log
// (the relay's heartbeat moves it on when nothing else does).
func (i *Projector) WaitRelayed(t testing.TB, within time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	var lsn string
	if err := shared.db.Pool.QueryRow(ctx, "SELECT pg_current_wal_lsn()::text").Scan(&lsn); err != nil {
		t.Fatal(err)
	}
	for {
		var done bool
		err := shared.db.Pool.QueryRow(ctx, "SELECT COALESCE(confirmed_flush_lsn >= $2::pg_lsn, false) FROM pg_replication_slots WHERE slot_name = $1",
			i.Pipeline.Slot, lsn).Scan(&done)
		if err == nil && done {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the relay has not published up to %s within %v (%v)", lsn, within, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
