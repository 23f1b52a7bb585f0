package projections_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"agora/app/testenv"
	"agora/projections"
	"agora/projections/projectiontest"
)

// TestRebuildFromASnapshot stops a projection, damages its target, and
// rebuilds it while writes go on: afterwards the target matches the source
// table row for row, so the snapshot and the stream were split exactly.
func TestRebuildFromASnapshot(t *testing.T) {
	env := testenv.New(t)
	p := projectiontest.StartPipeline(t, env.DBURL)
	src := sourceTable(t, env)
	h, err := projectiontest.NewCounting(t.Context(), env.DB.Pool, "rebuild_"+src, "public."+src)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	cfg := projections.Config{Brokers: p.Brokers, Log: projectiontest.Logger(), SessionTimeout: 2 * time.Second}
	stop := runProjection(t, p.Brokers, h, cfg)

	wctx, stopWriting := context.WithCancel(ctx)
	written := make(chan int, 1)
	go func() {
		n := 0
		for wctx.Err() == nil {
			n++
			var err error
			for _, q := range []string{"INSERT INTO %s VALUES ($1, 'v1')", "UPDATE %s SET val = 'v2-' || id WHERE id = $1 / 2", "DELETE FROM %s WHERE id = $1 - 7 AND id %% 5 = 0"} {
				if _, err = env.DB.Pool.Exec(context.Background(), fmt.Sprintf(q, src), n); err != nil {
					break
				}
			}
			if err != nil {
				t.Error(err)
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
		written <- n
	}()
	time.Sleep(time.Second)
	stop()
	if _, err := env.DB.Pool.Exec(ctx, "DELETE FROM "+h.Target()+" WHERE id::bigint % 3 = 0; UPDATE "+h.Target()+" SET val = 'damaged'"); err != nil {
		t.Fatal(err)
	}
	rows, err := projections.Rebuild(ctx, cfg, projections.RebuildOptions{DatabaseURL: env.DBURL, Slot: p.Slot}, h)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rebuilt from a snapshot of %d rows", rows)
	runProjection(t, p.Brokers, h, cfg)
	time.Sleep(500 * time.Millisecond)
	stopWriting()
	n := <-written
	waitFor(t, 30*time.Second, "target matches the source", func() (bool, string) {
		var diff int
		err := env.DB.Pool.QueryRow(ctx, fmt.Sprintf(`SELECT count(*) FROM %s s FULL JOIN (SELECT * FROM %s WHERE NOT deleted) p ON p.id = s.id::text
			WHERE p.id IS NULL OR s.id IS NULL OR p.val IS DISTINCT FROM to_json(s.val)::text`, src, h.Target())).Scan(&diff)
		if err != nil {
			return false, err.Error()
		}
		return diff == 0, fmt.Sprintf("%d rows differ after %d writes", diff, n)
	})
}
