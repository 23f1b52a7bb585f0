package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"agora/analytics"
	"agora/app"
	"agora/internal/plumbing/config"
	"agora/internal/standins/chserver"
	pinsights "agora/projections/insights"
)

// insightsBench measures the insights warehouse on a private ClickHouse
// (internal/standins/chserver) and a private Postgres of its own, in a temporary
// folder (or -insights-dir), on generated activity:
//
//	insights-ingest   activity until the warehouse holds -insights-rows
//	                  distinct fact rows (10,000,000), pushed through the
//	                  analytics projection's
//	                  ApplyBatch, in batches of
//	                  -insights-batch changes, as Debezium-shaped changes of
//	                  the real tables (series, channels, series_memberships,
//	                  threads, replies, reactions, series_visit_log,
//	                  ai_searches, ai_search_turns): the whole projection,
//	                  its look-ups in the warehouse and in Postgres, its
//	                  INSERTs and the visits view. Rows/s, changes/s and
//	                  the CPU a row costs.
//	insights-reports  every report and list of query/insights, called as
//	                  the API calls them (rights and channels from
//	                  Postgres, figures from the warehouse), periods 90
//	                  and 30: -insights-calls sequential calls each after
//	                  -insights-warmup, every third on the biggest forum
//	                  and the others on forums drawn by their activity;
//	                  p50/p95, target p95 <= 100 ms, and the rows one call
//	                  on the biggest forum reads.
//
// The activity is made from a fixed seed: -insights-forums forums (500)
// in 20 communities whose sizes follow Zipf's law (s = 1.3: the biggest
// forum holds about 29% of the activity), 400 days growing towards today,
// reactions > comments > posts > replies > visits > questions > AI
// searches > shared AI chats; a fifth of the questions anonymous; posts,
// comments and reactions edited, deleted or set again a day or more
// later; and one batch in 50 applied twice (a replay after a crash), so
// the reads have versions and duplicates to deduplicate.
var (
	insightsRowsN   = flag.Int("insights-rows", 10_000_000, "distinct fact rows (keys) the insights benchmarks write to the warehouse")
	insightsForumsN = flag.Int("insights-forums", 500, "forums of the insights benchmarks (Zipf-sized)")
	insightsDir     = flag.String("insights-dir", "", "keep the insights benchmarks' Postgres and ClickHouse in this folder; a later run with the same -insights-rows and -insights-forums reuses them and skips the load (not with insights-ingest)")
	insightsCallsN  = flag.Int("insights-calls", 40, "timed calls of each insights report, per period")
	insightsWarmupN = flag.Int("insights-warmup", 5, "untimed warm-up calls of each insights report, per period")
	insightsBatchN  = flag.Int("insights-batch", 500, "changes per ApplyBatch when loading the insights data (the projector's default)")
)

const (
	insightsSeed        = 20260701
	insightsGenerator   = 4 // bumped when the generated data (or what the projection makes of it) changes: a kept folder is then reloaded
	insightsDays        = 400
	insightsZipf        = 1.3
	insightsCommunities = 20
	insightsTarget      = 100 * time.Millisecond
	insightsReplayEvery = 50 // one batch in this many is applied twice
	insightsMarker      = "insights-bench.json"
)

func insightsBench(ctx context.Context, selected map[string]bool, log *slog.Logger) (err error) {
	if !selected["insights-ingest"] && !selected["insights-reports"] {
		return nil
	}
	nRows, nForums, batch := *insightsRowsN, *insightsForumsN, *insightsBatchN
	if nRows < 10_000 || nForums < 1 || batch < 1 || *insightsCallsN < 1 || *insightsWarmupN < 0 {
		return fmt.Errorf("insights: -insights-rows must be at least 10000, -insights-forums, -insights-batch and -insights-calls positive, -insights-warmup not negative")
	}
	dir := *insightsDir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "agora-insights-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// The private Postgres runs as the unprivileged postgres user when
	// this runs as root: it must reach the folder.
	if err := os.Chmod(dir, 0o755); err != nil {
		return err
	}
	want := insightsMark{Generator: insightsGenerator, Seed: insightsSeed, Rows: nRows, Forums: nForums}
	mark, marked := readInsightsMark(dir)
	reuse := *insightsDir != "" && !selected["insights-ingest"] && marked && mark.same(want)
	if !reuse {
		// Only what this benchmark made in the folder is removed.
		for _, p := range []string{insightsMarker, "postgres", "clickhouse"} {
			if err := os.RemoveAll(filepath.Join(dir, p)); err != nil {
				return err
			}
		}
	}

	setup := time.Now()
	cfg := config.Default()
	cfg.DataDir = dir
	cfg.DatabaseURL = ""
	d, err := app.OpenDatabase(ctx, cfg, log)
	if err != nil {
		return fmt.Errorf("insights: postgres: %w", err)
	}
	defer func() {
		if cerr := d.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	if err := app.Migrate(ctx, d.DB, log); err != nil {
		return err
	}
	srv, err := chserver.Start(ctx, filepath.Join(dir, "clickhouse"), log)
	if err != nil {
		return fmt.Errorf("insights: %w", err)
	}
	defer func() {
		if serr := srv.Stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	if err := srv.CreateDatabase(ctx, app.WarehouseDatabase); err != nil {
		return fmt.Errorf("insights: %w", err)
	}
	conn, err := analytics.Open(ctx, srv.URL(app.WarehouseDatabase))
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := analytics.Migrate(ctx, conn); err != nil {
		return err
	}
	var chVersion string
	_ = conn.QueryRow(ctx, "SELECT version()").Scan(&chVersion)
	fmt.Printf("insights: private Postgres and ClickHouse %s (max_threads 2) in %s, started and migrated in %.1f s\n",
		chVersion, dir, time.Since(setup).Seconds())

	w := newInsightsWorld(nRows, nForums)
	if !reuse {
		if err := w.fillPostgres(ctx, d.Pool); err != nil {
			return fmt.Errorf("insights: postgres data: %w", err)
		}
	}
	if err := w.readChannels(ctx, d.Pool); err != nil {
		return fmt.Errorf("insights: %w", err)
	}
	fmt.Printf("insights data: %d forums in %d communities, sizes Zipf s=%.1f: the biggest forum %.1f%% of the activity, the 10 biggest %.1f%%; %s members, %s memberships; %d days; seed %d\n",
		nForums, insightsCommunities, insightsZipf, 100*w.share(0, 1), 100*w.share(0, min(10, nForums)),
		thousands(int64(len(w.users))), thousands(int64(w.memberships)), insightsDays, insightsSeed)

	if reuse {
		fmt.Printf("insights data: reused from %s (loaded %s, %s fact rows from %s changes): load not measured\n",
			dir, mark.LoadedOn, thousands(mark.Facts), thousands(mark.Changes))
	} else {
		proj, err := pinsights.New(conn, d.Pool, log)
		if err != nil {
			return err
		}
		st, err := w.ingest(ctx, proj, conn, filepath.Join(dir, "clickhouse"), d.Pool, batch)
		if err != nil {
			return fmt.Errorf("insights-ingest: %w", err)
		}
		st.restarts = srv.Restarts()
		st.print(selected["insights-ingest"], batch)
		mark = want
		mark.LoadedOn, mark.Facts, mark.Changes = time.Now().UTC().Format(time.DateOnly), st.facts, st.changes
		if err := writeInsightsMark(dir, mark); err != nil {
			return err
		}
	}
	if err := settleWarehouse(ctx, conn); err != nil {
		return err
	}
	if !selected["insights-reports"] {
		return nil
	}
	return w.reports(ctx, conn, d)
}

// insightsMark is what a kept folder holds, so that a later run knows
// whether it can reuse it.
type insightsMark struct {
	Generator int    `json:"generator"`
	Seed      int    `json:"seed"`
	Rows      int    `json:"rows"`
	Forums    int    `json:"forums"`
	LoadedOn  string `json:"loadedOn"`
	Facts     int64  `json:"facts"`
	Changes   int64  `json:"changes"`
}

func (m insightsMark) same(o insightsMark) bool {
	return m.Generator == o.Generator && m.Seed == o.Seed && m.Rows == o.Rows && m.Forums == o.Forums && m.Facts > 0
}

func readInsightsMark(dir string) (insightsMark, bool) {
	var m insightsMark
	b, err := os.ReadFile(filepath.Join(dir, insightsMarker))
	if err != nil {
		return m, false
	}
	return m, json.Unmarshal(b, &m) == nil
}

func writeInsightsMark(dir string, m insightsMark) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, insightsMarker), b, 0o644)
}
