package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"agora/app"
	"agora/internal/plumbing/config"
	"agora/projections"
	"agora/projections/change"
	"agora/projections/projectiontest"
)

// pipelineBench measures the change pipeline as agora dev runs it — the
// relay, the embedded broker and one projection (a counting projection
// that upserts into Postgres, in one transaction per batch):
//
//	pipeline-latency     commit-to-projection latency at a steady
//	                     1,000 changes a second (single-row inserts from 8
//	                     writers, paced), from the moment the writer's
//	                     commit returns to the moment the projection's
//	                     transaction holding the change committed
//	pipeline-throughput  the highest sustained rate: a backlog of changes
//	                     written as fast as Postgres takes them (500-row
//	                     inserts from 4 writers) and the rate at which the
//	                     projection has applied them, first commit to last
//	                     applied
func pipelineBench(ctx context.Context, selected map[string]bool, cfg config.Config, d *app.Database, duration time.Duration, log *slog.Logger) error {
	if !selected["pipeline-latency"] && !selected["pipeline-throughput"] {
		return nil
	}
	pipe, err := app.StartPipeline(ctx, cfg, d.URL, log, app.PipelineOptions{Relay: true})
	if err != nil {
		return err
	}
	defer pipe.Close()
	pool := d.Pool
	setup := time.Now()
	if err := waitForSnapshot(ctx, pool, cfg.Kafka.RelaySlot); err != nil {
		return err
	}
	fmt.Printf("pipeline: embedded broker, relay (snapshot in %.2f s), 1 counting projection; %d partitions\n", time.Since(setup).Seconds(), cfg.Kafka.Partitions)

	run := func(name string, fn func(ctx context.Context, table string, h *projectiontest.Counting, applied *appliedLog) error) error {
		table := fmt.Sprintf("bench_%s_%d", name, time.Now().UnixNano()%1e9)
		if _, err := pool.Exec(ctx, "CREATE TABLE "+table+" (id bigint PRIMARY KEY, val text NOT NULL)"); err != nil {
			return err
		}
		if _, err := pool.Exec(ctx, "ALTER TABLE "+table+" REPLICA IDENTITY FULL"); err != nil {
			return err
		}
		h, err := projectiontest.NewCounting(ctx, pool, table, "public."+table)
		if err != nil {
			return err
		}
		applied := newAppliedLog()
		h.OnApplied = applied.record
		defer runProjection(ctx, cfg, pipe, log, h)()
		// The consumer group joins before the clock starts.
		if err := warmUp(ctx, pool, table, applied); err != nil {
			return err
		}
		return fn(ctx, table, h, applied)
	}
	if selected["pipeline-latency"] {
		err := run("latency", func(ctx context.Context, table string, h *projectiontest.Counting, applied *appliedLog) error {
			const rate = 1000
			n := int(duration.Seconds() * rate)
			committed := make([]time.Time, n)
			var next atomic.Int64
			start := time.Now().Add(20 * time.Millisecond)
			// A commit waits for its WAL flush (a few ms here): 8 writers
			// keep the offered rate at 1,000 a second.
			var wg sync.WaitGroup
			errc := make(chan error, 8)
			for w := 0; w < 8; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						i := int(next.Add(1)) - 1
						if i >= n {
							return
						}
						time.Sleep(time.Until(start.Add(time.Duration(i) * time.Second / rate)))
						if _, err := pool.Exec(ctx, "INSERT INTO "+table+" VALUES ($1, 'x')", int64(i+1)); err != nil {
							errc <- err
							next.Store(int64(n))
							return
						}
						committed[i] = time.Now()
					}
				}()
			}
			wg.Wait()
			wall := time.Since(start)
			close(errc)
			if err := <-errc; err != nil {
				return err
			}
			if err := applied.waitFor(ctx, n, time.Minute); err != nil {
				return err
			}
			lat := make([]time.Duration, 0, n)
			for i := 0; i < n; i++ {
				at, _ := applied.at(int64(i + 1))
				lat = append(lat, max(0, at.Sub(committed[i])))
			}
			r := newResult(lat, wall)
			fmt.Printf("%-48s p50 %7.1f ms  p99 %7.1f ms  max %7.1f ms  (n=%d, offered %.0f changes/s)\n",
				"pipeline commit-to-projection, 1,000 changes/s:", ms(r.p(50)), ms(r.p(99)), ms(r.lat[len(r.lat)-1]), r.n(), float64(n)/wall.Seconds())
			return nil
		})
		if err != nil {
			return fmt.Errorf("pipeline-latency: %w", err)
		}
	}
	if selected["pipeline-throughput"] {
		err := run("throughput", func(ctx context.Context, table string, h *projectiontest.Counting, applied *appliedLog) error {
			const perTx, writers = 500, 4
			n := int(max(20000, duration.Seconds()*10000))
			n -= n % (perTx * writers)
			var next atomic.Int64
			start := time.Now()
			var wg sync.WaitGroup
			errc := make(chan error, writers)
			for w := 0; w < writers; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						first := next.Add(perTx) - perTx
						if first >= int64(n) {
							return
						}
						if _, err := pool.Exec(ctx, "INSERT INTO "+table+" SELECT g, 'x' FROM generate_series($1::bigint, $2::bigint) g", first+1, first+perTx); err != nil {
							errc <- err
							return
						}
					}
				}()
			}
			wg.Wait()
			written := time.Since(start)
			close(errc)
			if err := <-errc; err != nil {
				return err
			}
			if err := applied.waitFor(ctx, n, 5*time.Minute); err != nil {
				return err
			}
			last := applied.last()
			total := last.Sub(start)
			fmt.Printf("%-48s %8.0f changes/s  (%d changes: written in %.2f s = %.0f/s, all applied after %.2f s)\n",
				"pipeline sustained throughput, 1 projection:", float64(n)/total.Seconds(), n, written.Seconds(), float64(n)/written.Seconds(), total.Seconds())
			return nil
		})
		if err != nil {
			return fmt.Errorf("pipeline-throughput: %w", err)
		}
	}
	return nil
}

// appliedLog records when the projection applied each row's first change.
type appliedLog struct {
	mu     sync.Mutex
	times  map[int64]time.Time
	latest time.Time
	grew   chan struct{}
}

func newAppliedLog() *appliedLog {
	return &appliedLog{times: map[int64]time.Time{}, grew: make(chan struct{}, 1)}
}

func (a *appliedLog) record(cs []change.Change) {
	now := time.Now()
	a.mu.Lock()
	for _, c := range cs {
		id, err := c.Key.Int64("id")
		if err != nil {
			continue
		}
		if _, ok := a.times[id]; !ok {
			a.times[id] = now
		}
	}
	a.latest = now
	a.mu.Unlock()
	select {
	case a.grew <- struct{}{}:
	default:
	}
}

func (a *appliedLog) at(id int64) (time.Time, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	t, ok := a.times[id]
	return t, ok
}

func (a *appliedLog) last() time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.latest
}

// waitFor waits until rows 1..n were applied.
func (a *appliedLog) waitFor(ctx context.Context, n int, limit time.Duration) error {
	deadline := time.After(limit)
	for {
		a.mu.Lock()
		have := 0
		for i := 1; i <= n; i++ {
			if _, ok := a.times[int64(i)]; ok {
				have++
			}
		}
		a.mu.Unlock()
		if have == n {
			return nil
		}
		select {
		case <-a.grew:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			return fmt.Errorf("only %d of %d changes applied within %v", have, n, limit)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// warmUp writes one row with a negative id and waits for it.
func warmUp(ctx context.Context, pool *pgxpool.Pool, table string, a *appliedLog) error {
	if _, err := pool.Exec(ctx, "INSERT INTO "+table+" VALUES (-1, 'warm')"); err != nil {
		return err
	}
	deadline := time.Now().Add(time.Minute)
	for {
		if _, ok := a.at(-1); ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the projection did not start within a minute")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitForSnapshot waits until the relay's slot delivered its snapshot.
func waitForSnapshot(ctx context.Context, pool *pgxpool.Pool, slot string) error {
	deadline := time.Now().Add(time.Minute)
	for {
		var done bool
		if err := pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM cdc_relay_state WHERE slot_name = $1 AND snapshot_done_on IS NOT NULL)", slot).Scan(&done); err != nil {
			return err
		}
		if done {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the relay delivered no snapshot within a minute")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// runProjection runs h on the pipeline's broker until the returned stop
// is called, which waits for it to end.
func runProjection(ctx context.Context, cfg config.Config, pipe *app.Pipeline, log *slog.Logger, h projections.Handler) (stop func()) {
	pctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = projections.Run(pctx, app.ProjectorConfig(cfg, pipe.Brokers(), nil, log), h)
	}()
	return func() { cancel(); <-done }
}
