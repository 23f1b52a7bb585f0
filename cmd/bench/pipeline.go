package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"agora/app"
	"agora/internal/plumbing/config"
	"agora/internal/standins/kafkaserver"
	"agora/projections"
	"agora/projections/change"
	"agora/projections/projectiontest"
)

var (
	pipelineRuns    = flag.Int("pipeline-runs", 3, "pipeline benchmarks: runs of each measure on each path, whose spread is printed")
	pipelineBrokers = flag.Int("pipeline-brokers", 1, "pipeline benchmarks: Kafka brokers of the Debezium path (1, or 3: replication factor 3, min.insync.replicas 2)")
)

// pipelineBench measures the change pipeline on both of its paths, one
// after the other on the same Postgres, into one projection (a counting
// projection that upserts into Postgres, in one transaction per batch):
// the relay and the embedded broker, as agora dev runs them, and
// Debezium's Postgres connector on Kafka Connect with Kafka, as deploy/
// and agora dev --engines real run them.
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
//
// Each is run -pipeline-runs times on each path, each run on a table and
// a consumer group of its own; the table at the end gives each figure's
// median and its spread over the runs (lowest to highest), not the best
// run, beside the vendors' published figures.
func pipelineBench(ctx context.Context, selected map[string]bool, cfg config.Config, d *app.Database, duration time.Duration, log *slog.Logger) error {
	if !selected["pipeline-latency"] && !selected["pipeline-throughput"] {
		return nil
	}
	if *pipelineRuns < 1 || (*pipelineBrokers != 1 && *pipelineBrokers != 3) {
		return fmt.Errorf("pipeline: -pipeline-runs must be at least 1 and -pipeline-brokers 1 or 3")
	}
	brokers := "1 broker"
	if *pipelineBrokers == 3 {
		brokers = "3 brokers, RF 3"
	}
	// One path at a time: a slot that is read decodes every change of the
	// database, so two running pipelines would each carry the other's cost.
	paths := []pipelinePath{
		{name: "relay + embedded broker", start: func(ctx context.Context) (*app.Pipeline, func(), error) {
			pipe, err := app.StartPipeline(ctx, cfg, d.URL, log, app.PipelineOptions{Relay: true})
			if err != nil {
				return nil, nil, err
			}
			setup := time.Now()
			if err := waitForSnapshot(ctx, d.Pool, cfg.Kafka.RelaySlot); err != nil {
				pipe.Close()
				return nil, nil, err
			}
			fmt.Printf("pipeline: relay (snapshot in %.2f s), embedded broker, 1 counting projection; %d partitions\n", time.Since(setup).Seconds(), cfg.Kafka.Partitions)
			return pipe, pipe.Close, nil
		}},
		{name: fmt.Sprintf("Debezium %s + Kafka %s (%s)", kafkaserver.DebeziumVersion, kafkaserver.KafkaVersion, brokers),
			start: func(ctx context.Context) (*app.Pipeline, func(), error) {
				setup := time.Now()
				engines, err := app.StartRealEngines(ctx, app.EnginesOptions{Dir: filepath.Join(cfg.DataDir, "engines"), DatabaseURL: d.URL, Brokers: *pipelineBrokers, Log: log})
				if err != nil {
					return nil, nil, err
				}
				pipe, err := app.StartPipeline(ctx, cfg, d.URL, log, app.PipelineOptions{Engines: engines})
				if err != nil {
					engines.Close()
					return nil, nil, err
				}
				fmt.Printf("pipeline: Debezium %s on Kafka Connect %s (connector of deploy/debezium/agora-postgres.json), Kafka %s, %s, started in %.1f s; 1 counting projection\n",
					kafkaserver.DebeziumVersion, kafkaserver.ConnectVersion, kafkaserver.KafkaVersion, brokers, time.Since(setup).Seconds())
				return pipe, func() { pipe.Close(); engines.Close() }, nil
			}},
	}
	var rows []pipelineFigures
	for _, path := range paths {
		f, err := path.measure(ctx, selected, cfg, d.Pool, duration, log)
		if err != nil {
			return fmt.Errorf("pipeline, %s: %w", path.name, err)
		}
		rows = append(rows, f)
	}
	printPipelineFigures(rows, selected)
	return nil
}

// pipelinePath is one way changes travel from Postgres to the projections.
type pipelinePath struct {
	name string
	// start starts the path's capture and broker and returns the pipeline
	// (its brokers) and how to stop it.
	start func(ctx context.Context) (*app.Pipeline, func(), error)
}

// pipelineFigures are one path's runs.
type pipelineFigures struct {
	path          string
	p50, p99, max []time.Duration // one per latency run
	rate          []float64       // changes/s, one per throughput run
}

func (path pipelinePath) measure(ctx context.Context, selected map[string]bool, cfg config.Config, pool *pgxpool.Pool, duration time.Duration, log *slog.Logger) (pipelineFigures, error) {
	f := pipelineFigures{path: path.name}
	pipe, stop, err := path.start(ctx)
	if err != nil {
		return f, err
	}
	defer stop()
	run := func(name string, fn func(ctx context.Context, table string, applied *appliedLog) error) error {
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
		// The consumer group joins, and a path that has just started
		// delivers its snapshot, before the clock starts.
		if err := warmUp(ctx, pool, table, applied); err != nil {
			return err
		}
		return fn(ctx, table, applied)
	}
	for i := 1; selected["pipeline-latency"] && i <= *pipelineRuns; i++ {
		err := run("latency", func(ctx context.Context, table string, applied *appliedLog) error {
			r, parts, err := latencyRun(ctx, pool, table, applied, duration)
			if err != nil {
				return err
			}
			f.p50, f.p99, f.max = append(f.p50, r.p(50)), append(f.p99, r.p(99)), append(f.max, r.lat[len(r.lat)-1])
			fmt.Printf("  %s, latency run %d: p50 %.1f ms, p99 %.1f ms, max %.1f ms (n=%d, offered %.0f changes/s); load average %s\n",
				path.name, i, ms(r.p(50)), ms(r.p(99)), ms(r.lat[len(r.lat)-1]), r.n(), float64(r.n())/r.wall.Seconds(), loadAverage())
			fmt.Printf("    stages p50/p99: commit to captured (ts_ms) %.0f/%.0f ms, captured to sent (record time) %.0f/%.0f ms, sent to applied %.1f/%.1f ms\n",
				ms(parts[0].p(50)), ms(parts[0].p(99)), ms(parts[1].p(50)), ms(parts[1].p(99)), ms(parts[2].p(50)), ms(parts[2].p(99)))
			return nil
		})
		if err != nil {
			return f, fmt.Errorf("pipeline-latency: %w", err)
		}
	}
	for i := 1; selected["pipeline-throughput"] && i <= *pipelineRuns; i++ {
		err := run("throughput", func(ctx context.Context, table string, applied *appliedLog) error {
			n, written, total, err := throughputRun(ctx, pool, table, applied, duration)
			if err != nil {
				return err
			}
			f.rate = append(f.rate, float64(n)/total.Seconds())
			fmt.Printf("  %s, throughput run %d: %.0f changes/s (%d changes: written in %.2f s = %.0f/s, all applied after %.2f s); load average %s\n",
				path.name, i, float64(n)/total.Seconds(), n, written.Seconds(), float64(n)/written.Seconds(), total.Seconds(), loadAverage())
			return nil
		})
		if err != nil {
			return f, fmt.Errorf("pipeline-throughput: %w", err)
		}
	}
	return f, nil
}

// latencyRun offers 1,000 single-row inserts a second for duration and
// answers each one's time from its commit to the projection's, and its
// stages: commit to captured (ts_ms, whole ms), captured to sent (the
// record's timestamp, ms) and sent to applied.
func latencyRun(ctx context.Context, pool *pgxpool.Pool, table string, applied *appliedLog, duration time.Duration) (total result, parts [3]result, err error) {
	const rate = 1000
	n := int(duration.Seconds() * rate)
	committed, wall, err := offer(ctx, pool, table, 1, n, rate)
	if err != nil {
		return result{}, parts, err
	}
	if err := applied.waitFor(ctx, n, time.Minute); err != nil {
		return result{}, parts, err
	}
	lat := make([]time.Duration, 0, n)
	var part [3][]time.Duration
	for i := 0; i < n; i++ {
		st, _ := applied.at(int64(i + 1))
		lat = append(lat, max(0, st.applied.Sub(committed[i])))
		// ts_ms and the record's timestamp have whole milliseconds: each
		// is up to 1 ms early.
		part[0] = append(part[0], max(0, st.captured.Sub(committed[i].Truncate(time.Millisecond))))
		part[1] = append(part[1], max(0, st.sent.Sub(st.captured)))
		part[2] = append(part[2], max(0, st.applied.Sub(st.sent)))
	}
	for k := range part {
		parts[k] = newResult(part[k], wall)
	}
	return newResult(lat, wall), parts, nil
}

// offer inserts rows first..first+n-1 of table at rate a second and
// answers when each one committed and how long offering took. A commit
// waits for its WAL flush (a few ms here): 8 writers keep the offered
// rate.
func offer(ctx context.Context, pool *pgxpool.Pool, table string, first int64, n, rate int) (committed []time.Time, wall time.Duration, err error) {
	committed = make([]time.Time, n)
	var next atomic.Int64
	start := time.Now().Add(20 * time.Millisecond)
	var wg sync.WaitGroup
	errc := make(chan error, 8)
	for w := 0; w < 8; w++ {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				time.Sleep(time.Until(start.Add(time.Duration(i) * time.Second / time.Duration(rate))))
				if _, err := pool.Exec(ctx, "INSERT INTO "+table+" VALUES ($1, 'x')", first+int64(i)); err != nil {
					errc <- err
					next.Store(int64(n))
					return
				}
				committed[i] = time.Now()
			}
		})
	}
	wg.Wait()
	wall = time.Since(start)
	close(errc)
	return committed, wall, <-errc
}

// throughputRun writes a backlog as fast as Postgres takes it and answers
// how many changes, how long writing took, and how long until the
// projection had applied them all.
func throughputRun(ctx context.Context, pool *pgxpool.Pool, table string, applied *appliedLog, duration time.Duration) (n int, written, total time.Duration, err error) {
	const perTx, writers = 500, 4
	n = int(max(20000, duration.Seconds()*10000))
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
	written = time.Since(start)
	close(errc)
	if err := <-errc; err != nil {
		return 0, 0, 0, err
	}
	if err := applied.waitFor(ctx, n, 5*time.Minute); err != nil {
		return 0, 0, 0, err
	}
	return n, written, applied.last().Sub(start), nil
}

// The vendors' published figures, printed beside ours (their machines and
// loads are not these).
const pipelineAnchors = "anchors (vendor benchmark, other machines): Debezium Server 23k ops/s with p99 440 ms; Sequin p99 253 ms"

// pipelineTargetP99 is the target of the Debezium path at 1,000 changes/s.
const pipelineTargetP99 = 250 * time.Millisecond

// printPipelineFigures prints the paths side by side: each figure's median
// over the runs, and its lowest and highest.
func printPipelineFigures(rows []pipelineFigures, selected map[string]bool) {
	fmt.Printf("\npipeline, %d runs per figure on each path: median (lowest–highest)\n", *pipelineRuns)
	if selected["pipeline-latency"] {
		fmt.Printf("  %-44s %-28s %-28s %s\n", "commit to projection at 1,000 changes/s", "p50", "p99", "max")
		for _, r := range rows {
			fmt.Printf("  %-44s %-28s %-28s %s\n", r.path, spreadMS(r.p50), spreadMS(r.p99), spreadMS(r.max))
		}
	}
	if selected["pipeline-throughput"] {
		fmt.Printf("  %-44s %s\n", "sustained, 1 projection", "changes/s")
		for _, r := range rows {
			fmt.Printf("  %-44s %s\n", r.path, spreadRate(r.rate))
		}
	}
	fmt.Println("  " + pipelineAnchors)
	if selected["pipeline-latency"] && len(rows) == 2 {
		p99 := rows[1].p99
		worst := slices.Max(p99)
		verdict := "met"
		if median(p99) > pipelineTargetP99 {
			verdict = "missed"
		}
		fmt.Printf("  target: %s p99 <= %.0f ms at 1,000 changes/s: %s (median %.1f ms; the worst run %.1f ms)\n\n",
			rows[1].path, ms(pipelineTargetP99), verdict, ms(median(p99)), ms(worst))
	}
}

// median is the middle value of vs (the lower middle of an even count).
func median[T cmp.Ordered](vs []T) T {
	s := slices.Clone(vs)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

func spreadMS(ds []time.Duration) string {
	if len(ds) == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f ms (%.1f–%.1f)", ms(median(ds)), ms(slices.Min(ds)), ms(slices.Max(ds)))
}

func spreadRate(rs []float64) string {
	if len(rs) == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f (%.0f–%.0f)", median(rs), slices.Min(rs), slices.Max(rs))
}

// appliedLog records, for each row's first change, when the capture (the
// relay, or Debezium) processed it (the envelope's ts_ms), when its record
// was sent to the broker (the record's timestamp) and when the projection
// applied it: the stages that split the latency between the capture, the
// capture's producer, and the broker with the consumer and the apply.
type appliedLog struct {
	mu     sync.Mutex
	stages map[int64]stages
	latest time.Time
	grew   chan struct{}
}

// stages are the times of one change on its way.
type stages struct{ captured, sent, applied time.Time }

func newAppliedLog() *appliedLog {
	return &appliedLog{stages: map[int64]stages{}, grew: make(chan struct{}, 1)}
}

func (a *appliedLog) record(cs []change.Change) {
	now := time.Now()
	a.mu.Lock()
	for _, c := range cs {
		id, err := c.Key.Int64("id")
		if err != nil {
			continue
		}
		if _, ok := a.stages[id]; !ok {
			a.stages[id] = stages{captured: time.UnixMilli(c.TsMs), sent: c.Time, applied: now}
		}
	}
	a.latest = now
	a.mu.Unlock()
	select {
	case a.grew <- struct{}{}:
	default:
	}
}

// at are row id's stages, if its change was applied.
func (a *appliedLog) at(id int64) (stages, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	st, ok := a.stages[id]
	return st, ok
}

func (a *appliedLog) last() time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.latest
}

// waitFor waits until rows 1..n were applied.
func (a *appliedLog) waitFor(ctx context.Context, n int, limit time.Duration) error {
	return a.waitForRows(ctx, 1, n, limit)
}

// waitForRows waits until rows first..first+n-1 were applied.
func (a *appliedLog) waitForRows(ctx context.Context, first int64, n int, limit time.Duration) error {
	deadline := time.After(limit)
	for {
		a.mu.Lock()
		have := 0
		for i := first; i < first+int64(n); i++ {
			if _, ok := a.stages[i]; ok {
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

// warmUp writes one row with a negative id and waits for it (the
// consumer group has joined and a path that has just started has
// delivered its snapshot), then offers warmRows more at 1,000 a second
// and waits for them: the JVMs of the Debezium path compile their hot
// paths in the first seconds of traffic, and the figures are of the
// steady state, not of that.
func warmUp(ctx context.Context, pool *pgxpool.Pool, table string, a *appliedLog) error {
	if _, err := pool.Exec(ctx, "INSERT INTO "+table+" VALUES (-1, 'warm')"); err != nil {
		return err
	}
	if err := a.waitForRows(ctx, -1, 1, 3*time.Minute); err != nil {
		return fmt.Errorf("the projection did not start: %w", err)
	}
	const warmRows = 3000
	first := int64(-1 - warmRows)
	if _, _, err := offer(ctx, pool, table, first, warmRows, 1000); err != nil {
		return err
	}
	return a.waitForRows(ctx, first, warmRows, time.Minute)
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
