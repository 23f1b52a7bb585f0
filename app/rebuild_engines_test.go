package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"agora/projections"
	"agora/projections/projectiontest"
)

// TestRebuildOnDebezium rebuilds a projection fed by Debezium while writes
// go on: the rebuild splits each partition by whether its snapshot sees a
// change's transaction, which holds on Debezium's stream as on the
// relay's (Debezium's source.sequence, the previous transaction's commit,
// could not say where the snapshot ends). Afterwards the target matches
// the source table row for row.
func TestRebuildOnDebezium(t *testing.T) {
	// The topology first: its start has a timeout of its own, not this
	// test's.
	top := sharedDebezium(t)
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	url, db, engines := top.url, top.db, top.engines
	// A table of its own, new to the running connector, streamed from its
	// first row on.
	src := ownTable("src")
	if _, err := db.Exec(ctx, `CREATE TABLE `+src+` (id bigint PRIMARY KEY, val text); ALTER TABLE `+src+` REPLICA IDENTITY FULL;
		INSERT INTO `+src+` VALUES (0, 'before')`); err != nil {
		t.Fatal(err)
	}
	brokers := engines.Kafka.Brokers()
	// Its topic is made by its first record: the projection starts on it.
	waitForMessages(t, ctx, brokers, "agora", []string{src}, 1, engines.Connect.LogFile())
	h, err := projectiontest.NewCounting(ctx, db, "rebuild_"+src, "public."+src)
	if err != nil {
		t.Fatal(err)
	}
	// The default session (6 s): Kafka refuses one below its
	// group.min.session.timeout.ms, 6 s.
	cfg := projections.Config{Brokers: brokers, Log: projectiontest.Logger()}
	run := func() (stop func()) {
		rctx, rcancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = projections.Run(rctx, cfg, h)
		}()
		return func() { rcancel(); <-done }
	}
	stop := run()
	// The projection applied the first row: what follows is written while
	// it runs.
	waitRows(t, ctx, db, "SELECT count(*) FROM "+h.Target(), 1, engines.Connect.LogFile())

	wctx, stopWriting := context.WithCancel(ctx)
	written := make(chan int, 1)
	go func() {
		n := 0
		for wctx.Err() == nil {
			n++
			for _, q := range []string{"INSERT INTO " + src + " VALUES ($1, 'v1')", "UPDATE " + src + " SET val = 'v2-' || id WHERE id = $1 / 2", "DELETE FROM " + src + " WHERE id = $1 - 7 AND id % 5 = 0"} {
				if _, err := db.Exec(context.Background(), q, n); err != nil {
					t.Error(err)
					written <- n
					return
				}
			}
			time.Sleep(2 * time.Millisecond)
		}
		written <- n
	}()
	time.Sleep(2 * time.Second)
	stop()
	if _, err := db.Exec(ctx, "DELETE FROM "+h.Target()+" WHERE id::bigint % 3 = 0; UPDATE "+h.Target()+" SET val = 'damaged'"); err != nil {
		t.Fatal(err)
	}
	rows, err := projections.Rebuild(ctx, cfg, projections.RebuildOptions{DatabaseURL: url, Slot: engines.Slot()}, h)
	if err != nil {
		t.Fatalf("rebuild: %v (see %s)", err, engines.Connect.LogFile())
	}
	t.Logf("rebuilt from a snapshot of %d rows", rows)
	defer run()()
	time.Sleep(time.Second)
	stopWriting()
	n := <-written
	diffSQL := `SELECT count(*) FROM ` + src + ` s FULL JOIN (SELECT * FROM ` + h.Target() + ` WHERE NOT deleted) p ON p.id = s.id::text
		WHERE p.id IS NULL OR s.id IS NULL OR p.val IS DISTINCT FROM to_json(s.val)::text`
	deadline := time.Now().Add(90 * time.Second)
	for {
		var diff int
		if err := db.QueryRow(ctx, diffSQL).Scan(&diff); err != nil {
			t.Fatal(err)
		}
		if diff == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d rows differ after %d writes (see %s)", diff, n, engines.Connect.LogFile())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// waitRows waits until query counts at least n.
func waitRows(t *testing.T, ctx context.Context, db *pgxpool.Pool, query string, n int, logFile string) {
	t.Helper()
	for {
		var got int
		if err := db.QueryRow(ctx, query).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got >= n {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: %d, not %d (see %s)", query, got, n, logFile)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
