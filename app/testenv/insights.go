package testenv

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	kafkago "github.com/segmentio/kafka-go"

	"agora/app"
	"agora/internal/config"
	"agora/internal/kafka"
	"agora/projections"
	"agora/projections/insights"
	"agora/projections/projectiontest"
)

// Insights is an API server whose insights reports read a warehouse
// database of the test's own, filled by the analytics projection from a
// pipeline of its own, as in agora dev. The relay's snapshot brings in
// what the shared database already holds.
type Insights struct {
	*Env
	Warehouse  driver.Conn
	Pipeline   *projectiontest.Pipeline
	Projection *insights.Projection
	// Runner is the runner configuration the projection runs with.
	Runner projections.Config

	mu   sync.Mutex
	stop func()
}

// NewInsights starts the pipeline, the warehouse database, the analytics
// projection and the server.
func NewInsights(t testing.TB, options ...func(*config.Config)) *Insights {
	t.Helper()
	p := StartPipeline(t)
	conn, _ := Warehouse(t)
	proj, err := insights.New(conn, shared.db.Pool, projectiontest.Logger())
	if err != nil {
		t.Fatal(err)
	}
	i := &Insights{
		Warehouse: conn, Pipeline: p, Projection: proj,
		Runner: projections.Config{Brokers: p.Brokers, Log: projectiontest.Logger(), SessionTimeout: 2 * time.Second},
	}
	i.Run(t, proj)
	t.Cleanup(i.Stop)
	i.Env = serve(t, []app.APIOption{app.WithWarehouse(conn)}, options)
	return i
}

// Run runs h (the projection, or a copy under another consumer group) on
// the pipeline until Stop or the end of the test.
func (i *Insights) Run(t testing.TB, h projections.Handler) {
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
func (i *Insights) Stop() {
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
func (i *Insights) WaitCaughtUp(t testing.TB, h projections.Handler, within time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	topics := projections.Topics(prefix(i.Runner), h)
	end := map[string]map[int]int64{}
	req := &kafkago.OffsetFetchRequest{GroupID: projections.GroupID(prefix(i.Runner), h.Name()), Topics: map[string][]int{}}
	for _, tp := range topics {
		offs, err := kafka.EndOffsets(ctx, i.Pipeline.Brokers, tp)
		if err != nil {
			t.Fatalf("end offsets of %s: %v", tp, err)
		}
		end[tp] = offs
		for p := range offs {
			req.Topics[tp] = append(req.Topics[tp], p)
		}
	}
	client := kafka.Client(i.Pipeline.Brokers)
	for {
		res, err := client.OffsetFetch(ctx, req)
		behind := 0
		if err == nil {
			for tp, offs := range end {
				committed := map[int]int64{}
				for _, p := range res.Topics[tp] {
					committed[p.Partition] = p.CommittedOffset
				}
				for p, hw := range offs {
					if hw > 0 && committed[p] < hw {
						behind++
					}
				}
			}
		}
		if err == nil && behind == 0 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("projection %s has not caught up within %v (%d partitions behind, %v)", h.Name(), within, behind, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func prefix(c projections.Config) string {
	if c.TopicPrefix == "" {
		return "agora"
	}
	return c.TopicPrefix
}

// ServeWarehouse starts another API server over the shared database whose
// reports read conn (a warehouse another projection fills).
func (i *Insights) ServeWarehouse(t testing.TB, conn driver.Conn) *Env {
	t.Helper()
	return serve(t, []app.APIOption{app.WithWarehouse(conn)}, nil)
}
