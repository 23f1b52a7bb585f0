package projections_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"agora/app/testenv"
	"agora/projections"
	"agora/projections/projectiontest"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// sourceTable creates a captured table for one test.
func sourceTable(t *testing.T, env *testenv.Env) string {
	t.Helper()
	name := fmt.Sprintf("src_%d", time.Now().UnixNano())
	_, err := env.DB.Pool.Exec(t.Context(), fmt.Sprintf(`CREATE TABLE %s (id bigint PRIMARY KEY, val text); ALTER TABLE %s REPLICA IDENTITY FULL`, name, name))
	if err != nil {
		t.Fatal(err)
	}
	return name
}

func runProjection(t *testing.T, brokers []string, h projections.Handler, cfg projections.Config) (stop func()) {
	t.Helper()
	cfg.Brokers = brokers
	cfg.Log = projectiontest.Logger()
	if cfg.SessionTimeout == 0 {
		cfg.SessionTimeout = 2 * time.Second
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = projections.Run(ctx, cfg, h)
	}()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	return stop
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, d time.Duration, what string, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		ok, state := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v (%s)", what, d, state)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestCountingProjectionSeesEveryChange(t *testing.T) {
	env := testenv.New(t)
	p := projectiontest.StartPipeline(t, env.DBURL)
	src := sourceTable(t, env)
	h, err := projectiontest.NewCounting(t.Context(), env.DB.Pool, "count_"+src, "public."+src)
	if err != nil {
		t.Fatal(err)
	}
	runProjection(t, p.Brokers, h, projections.Config{})
	ctx := t.Context()
	for i := 1; i <= 50; i++ {
		if _, err := env.DB.Pool.Exec(ctx, fmt.Sprintf("INSERT INTO %s VALUES ($1, 'v1')", src), i); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := env.DB.Pool.Exec(ctx, fmt.Sprintf("UPDATE %s SET val = 'v2' WHERE id <= 10", src)); err != nil {
		t.Fatal(err)
	}
	if _, err := env.DB.Pool.Exec(ctx, fmt.Sprintf("DELETE FROM %s WHERE id > 45", src)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "projection caught up", func() (bool, string) {
		var n, applied, deleted int
		err := env.DB.Pool.QueryRow(ctx, "SELECT count(*), coalesce(sum(applied),0), count(*) FILTER (WHERE deleted) FROM "+h.Target()).Scan(&n, &applied, &deleted)
		if err != nil {
			return false, err.Error()
		}
		return n == 50 && applied == 65 && deleted == 5, fmt.Sprintf("rows %d applied %d deleted %d", n, applied, deleted)
	})
}

// fromTime is a counting projection whose new group starts at a time.
type fromTime struct {
	*projectiontest.Counting
	at time.Time
}

func (f fromTime) StartAt() time.Time { return f.at }

func TestNewFromTimeGroupSkipsWhatCameBefore(t *testing.T) {
	env := testenv.New(t)
	p := projectiontest.StartPipeline(t, env.DBURL)
	src := sourceTable(t, env)
	ctx := t.Context()
	insert := func(from, to int) {
		for i := from; i <= to; i++ {
			if _, err := env.DB.Pool.Exec(ctx, fmt.Sprintf("INSERT INTO %s VALUES ($1, 'v')", src), i); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A projection from the beginning sees the first 20 rows arrive in
	// the topic before the other one starts.
	all, err := projectiontest.NewCounting(ctx, env.DB.Pool, "all_"+src, "public."+src)
	if err != nil {
		t.Fatal(err)
	}
	runProjection(t, p.Brokers, all, projections.Config{})
	insert(1, 20)
	count := func(table string) (n int, state string) {
		if err := env.DB.Pool.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			return 0, err.Error()
		}
		return n, fmt.Sprintf("%d rows", n)
	}
	waitFor(t, 30*time.Second, "the first rows in the topic", func() (bool, string) { n, s := count(all.Target()); return n == 20, s })

	c, err := projectiontest.NewCounting(ctx, env.DB.Pool, "now_"+src, "public."+src)
	if err != nil {
		t.Fatal(err)
	}
	// Rows 21 to 25 are written after its start time and before it runs:
	// a node's changes between its start and its runner's.
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	insert(21, 25)
	runProjection(t, p.Brokers, fromTime{c, start}, projections.Config{})
	// And rows 26 to 30 while the reader may still be joining the group.
	insert(26, 30)
	waitFor(t, 30*time.Second, "the rows written after it started", func() (bool, string) {
		var n int
		err := env.DB.Pool.QueryRow(ctx, fmt.Sprintf("SELECT count(*) FROM %s WHERE id::bigint > 20", c.Target())).Scan(&n)
		if err != nil {
			return false, err.Error()
		}
		return n == 10, fmt.Sprintf("%d of 10", n)
	})
	// The old rows sit in the same partitions before the new ones, so they
	// would have come first; a moment more for any other partition.
	time.Sleep(time.Second)
	if n, _ := count(c.Target()); n != 10 {
		t.Fatalf("the new group applied %d changes, want the 10 written after its start time", n)
	}
}
