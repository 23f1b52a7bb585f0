package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/projections/change"
	pinsights "agora/projections/insights"
)

// keysPerFactGuess is the share of the fact rows written that are
// distinct facts (keys) once merged: edits and deletions write new
// versions of keys already written (94% at 300,000 rows). The load aims
// at -insights-rows / keysPerFactGuess rows, then tops up with today's
// activity until the warehouse holds -insights-rows keys.
const keysPerFactGuess = 0.94

// ingestStat is what the load measured.
type ingestStat struct {
	facts, changes   int64
	batches, replays int
	topUps           int // rounds of today's activity added to reach -insights-rows keys
	retried          int // failed attempts at a batch, applied again
	firstErr         error
	restarts         int           // of the warehouse's server after a crash
	apply            time.Duration // in ApplyBatch
	wall             time.Duration // generation included
	cpuSelf          time.Duration // this process, in ApplyBatch
	cpuCH, cpuPG     time.Duration
	objects          [evKinds]int64
	deleted, edited  int64
	reactedAt        int64
	anonymous        int64
}

// ingest generates the stream and applies it through the projection in
// batches, timing ApplyBatch alone; one batch in insightsReplayEvery is
// applied a second time, as after a crash before its offsets were
// committed.
func (w *insightsWorld) ingest(ctx context.Context, proj *pinsights.Projection, conn driver.Conn, chDir string, pool *pgxpool.Pool, size int) (ingestStat, error) {
	var st ingestStat
	chPid := serverPid(chDir)
	pg := newCPUClock(ctx, pool)
	chStart, pgStart := procCPU(chPid), pg.read().postgres
	batch := make([]change.Change, 0, size)
	// apply applies cs and says how many fact rows that inserted.
	apply := func(cs []change.Change) (int64, error) {
		rows := proj.FactRows()
		// A failed batch is applied again, as the projection runner does
		// (the warehouse's server may be starting again after a crash);
		// only the attempt that succeeded is timed.
		for attempt := 1; ; attempt++ {
			c0 := selfCPU()
			t0 := time.Now()
			err := proj.ApplyBatch(ctx, cs)
			if err == nil {
				st.apply += time.Since(t0)
				st.cpuSelf += selfCPU() - c0
				break
			}
			if attempt == 900 || ctx.Err() != nil { // 15 minutes: a restart after a crash loads every part
				return 0, err
			}
			if st.retried == 0 {
				st.firstErr = err
			}
			st.retried++
			time.Sleep(time.Second)
		}
		st.changes += int64(len(cs))
		n := proj.FactRows() - rows
		st.facts += n
		return n, nil
	}
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		n, err := apply(batch)
		if err != nil {
			return err
		}
		w.facts += n
		st.batches++
		if st.batches%insightsReplayEvery == 0 {
			if _, err := apply(batch); err != nil {
				return fmt.Errorf("replay: %w", err)
			}
			st.replays++
		}
		batch = batch[:0]
		return ctx.Err()
	}
	w.out = func(c change.Change) error {
		batch = append(batch, c)
		if c.Table == "threads" && c.After != nil && string(c.After["creator_as"]) == `"anonymous"` && c.Op == change.Create {
			st.anonymous++
		}
		if len(batch) == size {
			return flush()
		}
		return nil
	}
	if err := pool.QueryRow(ctx, "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint").Scan(&w.xmin); err != nil {
		return st, fmt.Errorf("insights: xmin: %w", err)
	}
	start := time.Now()
	w.goal = int64(float64(w.rows) / keysPerFactGuess)
	if err := w.generate(); err != nil {
		return st, err
	}
	for {
		if err := flush(); err != nil {
			return st, err
		}
		var keys uint64
		if err := conn.QueryRow(ctx, "SELECT toUInt64(uniqExact(series_id, kind, day, object_id)) FROM facts").Scan(&keys); err != nil {
			return st, fmt.Errorf("insights: keys: %w", err)
		}
		if int64(keys) >= int64(w.rows) {
			break
		}
		w.goal = w.facts + int64(w.rows) - int64(keys)
		st.topUps++
		if err := w.today(); err != nil {
			return st, err
		}
	}
	st.wall = time.Since(start)
	st.cpuCH, st.cpuPG = procCPU(chPid)-chStart, pg.read().postgres-pgStart
	st.objects, st.deleted, st.edited, st.reactedAt = w.objects, w.deleted, w.edited, w.reactedAt
	return st, nil
}

func (st ingestStat) print(measured bool, size int) {
	var kinds []string
	for k := range evFollowUp {
		kinds = append(kinds, fmt.Sprintf("%s %s", thousands(st.objects[k]), evNames[k]))
	}
	fmt.Printf("insights data: %s; %s of the questions anonymous; later %s edits, %s deletions, %s reactions set again on another day; %d of %d batches replayed; %d top-ups of today's activity\n",
		strings.Join(kinds, ", "), thousands(st.anonymous), thousands(st.edited), thousands(st.deleted), thousands(st.reactedAt), st.replays, st.batches, st.topUps)
	rows := float64(st.facts) / st.apply.Seconds()
	changes := float64(st.changes) / st.apply.Seconds()
	label := "insights-ingest (projection ApplyBatch):"
	if !measured {
		label = "insights data load (ApplyBatch, not selected):"
	}
	fmt.Printf("%-48s %8.0f rows/s  %7.0f changes/s  (%s fact rows inserted, replays included, from %s changes in batches of %d: %.1f s in ApplyBatch, %.1f s with generation)\n",
		label, rows, changes, thousands(st.facts), thousands(st.changes), size, st.apply.Seconds(), st.wall.Seconds())
	if st.retried > 0 {
		fmt.Printf("    %d failed attempts at a batch applied again (ClickHouse started again %d times after a crash); the first: %v\n", st.retried, st.restarts, st.firstErr)
	}
	us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) / float64(st.facts) }
	if st.restarts > 0 { // the first server's CPU went with it
		fmt.Printf("    CPU per fact row: projection (this process, in ApplyBatch) %.2f µs, Postgres look-ups %.2f µs; ClickHouse's not known (it was started again)\n",
			us(st.cpuSelf), us(st.cpuPG))
		return
	}
	fmt.Printf("    CPU per fact row: projection (this process, in ApplyBatch) %.2f µs, ClickHouse %.2f µs, Postgres look-ups %.2f µs; %.2f µs in all\n",
		us(st.cpuSelf), us(st.cpuCH), us(st.cpuPG), us(st.cpuSelf+st.cpuCH+st.cpuPG))
}

// settleWarehouse waits for ClickHouse's background merges to finish (at
// most 5 minutes), so that the reports read a steady table, and prints
// what the facts table holds.
func settleWarehouse(ctx context.Context, conn driver.Conn) error {
	start := time.Now()
	quiet := 0
	for quiet < 5 && time.Since(start) < 5*time.Minute {
		var merges uint64
		if err := conn.QueryRow(ctx, "SELECT toUInt64(count()) FROM system.merges WHERE database = currentDatabase()").Scan(&merges); err != nil {
			return fmt.Errorf("insights: merges: %w", err)
		}
		if merges == 0 {
			quiet++
		} else {
			quiet = 0
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	var parts, partitions, rows, bytes uint64
	if err := conn.QueryRow(ctx, `SELECT toUInt64(count()), toUInt64(uniqExact(partition)), toUInt64(sum(rows)), toUInt64(sum(bytes))
		FROM system.parts WHERE database = currentDatabase() AND table = 'facts' AND active`).Scan(&parts, &partitions, &rows, &bytes); err != nil {
		return fmt.Errorf("insights: parts: %w", err)
	}
	// Keys, and those whose newest version is inactive: deleted objects,
	// kinds an edit removed, undone days of reactions set again.
	var keys, inactive uint64
	if err := conn.QueryRow(ctx, `SELECT toUInt64(count()), toUInt64(countIf(a = 0)) FROM (
			SELECT argMax(active, version) AS a FROM facts GROUP BY series_id, kind, day, object_id)`).Scan(&keys, &inactive); err != nil {
		return fmt.Errorf("insights: keys: %w", err)
	}
	var wmParts uint64
	_ = conn.QueryRow(ctx, "SELECT toUInt64(count()) FROM system.parts WHERE database = currentDatabase() AND table = 'watermark' AND active").Scan(&wmParts)
	fmt.Printf("insights warehouse after background merges (%.0f s): facts %s rows in %d active parts over %d monthly partitions (%.0f MiB on disk); watermark %d parts\n",
		time.Since(start).Seconds(), thousands(int64(rows)), parts, partitions, float64(bytes)/(1<<20), wmParts)
	fmt.Printf("    %s keys: %s rows (%.1f%%) are older versions or replays that the reads deduplicate; %s keys (%.1f%%) are inactive now and read only to be dropped\n",
		thousands(int64(keys)), thousands(int64(rows)-int64(keys)), 100*float64(int64(rows)-int64(keys))/float64(max(rows, 1)),
		thousands(int64(inactive)), 100*float64(inactive)/float64(max(keys, 1)))
	return nil
}

// serverPid is the ClickHouse server's process id, from the pid file
// chserver keeps in its folder (dir); 0 when unknown.
func serverPid(dir string) int {
	b, err := os.ReadFile(filepath.Join(dir, "clickhouse-server.pid"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}
