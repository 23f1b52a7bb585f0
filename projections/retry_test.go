package projections_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/prometheus/client_golang/prometheus"

	"agora/app/testenv"
	"agora/internal/adapters/kafka"
	"agora/projections"
	"agora/projections/change"
	"agora/projections/projectiontest"
)

// refusedAddr is a loopback address nothing listens on.
func refusedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestErrorKinds: the errors of a target that is down are told from those
// of a change that is wrong, from the real errors of a refused connection.
func TestErrorKinds(t *testing.T) {
	addr := refusedAddr(t)
	_, dialErr := net.Dial("tcp", addr)
	_, pgErr := pgx.Connect(t.Context(), "postgres://agora@"+addr+"/agora?connect_timeout=2")
	ctx, cancel := context.WithTimeout(t.Context(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	for _, c := range []struct {
		name                   string
		err                    error
		unavailable, permanent bool
	}{
		{"connection refused", fmt.Errorf("counting: %w", dialErr), true, false},
		{"Postgres refused", pgErr, true, false},
		{"deadline of the call", ctx.Err(), true, false},
		{"Postgres shutting down", &pgconn.PgError{Code: "57P01"}, true, false},
		{"too many connections", &pgconn.PgError{Code: "53300"}, true, false},
		{"marked unavailable", projections.Unavailable(errors.New("503")), true, false},
		{"constraint refused", &pgconn.PgError{Code: "23505"}, false, false},
		{"a bug", errors.New("nil map"), false, false},
		{"poison", projections.Permanent(errors.New("bad row")), false, true},
		{"poison wins over the network", projections.Permanent(dialErr), false, true},
	} {
		if got := projections.IsUnavailable(c.err); got != c.unavailable {
			t.Errorf("%s (%v): unavailable %v, want %v", c.name, c.err, got, c.unavailable)
		}
		if got := projections.IsPermanent(c.err); got != c.permanent {
			t.Errorf("%s: permanent %v, want %v", c.name, got, c.permanent)
		}
	}
}

// outage makes a counting projection's target unavailable for d from its
// first change on, with the error of a refused connection, and keeps row
// poison failing for good until fixed.
type outage struct {
	addr   string
	d      time.Duration
	once   sync.Once
	until  atomic.Int64 // unix nanoseconds
	poison int64
	fixed  atomic.Bool
	failed atomic.Int64
}

func (o *outage) fail(c change.Change) error {
	o.once.Do(func() { o.until.Store(time.Now().Add(o.d).UnixNano()) })
	if time.Now().UnixNano() < o.until.Load() {
		o.failed.Add(1)
		_, err := net.Dial("tcp", o.addr)
		return fmt.Errorf("counting: %w", err)
	}
	if id, _ := c.Key.Int64("id"); id == o.poison && !o.fixed.Load() {
		return projections.Permanent(fmt.Errorf("row %d is poison", id))
	}
	return nil
}

// writes changes rows of src for d and returns how many changes each row
// had.
func writes(t *testing.T, env *testenv.Env, src string, d time.Duration) map[int64]int {
	t.Helper()
	ctx := t.Context()
	want := map[int64]int{}
	end := time.Now().Add(d)
	for i := int64(1); time.Now().Before(end); i++ {
		if _, err := env.DB.Pool.Exec(ctx, fmt.Sprintf("INSERT INTO %s VALUES ($1, 'v1')", src), i); err != nil {
			t.Fatal(err)
		}
		want[i]++
		if i%3 == 0 {
			if _, err := env.DB.Pool.Exec(ctx, fmt.Sprintf("UPDATE %s SET val = 'v2' WHERE id = $1", src), i-1); err != nil {
				t.Fatal(err)
			}
			want[i-1]++
		}
		time.Sleep(5 * time.Millisecond)
	}
	return want
}

// appliedOnce waits until every row of the counting target was applied
// exactly as often as it was written.
func appliedOnce(t *testing.T, env *testenv.Env, h *projectiontest.Counting, want map[int64]int) {
	t.Helper()
	total := 0
	for _, n := range want {
		total += n
	}
	waitFor(t, 60*time.Second, "every change applied", func() (bool, string) {
		rows, err := env.DB.Pool.Query(t.Context(), "SELECT id::bigint, applied FROM "+h.Target())
		if err != nil {
			return false, err.Error()
		}
		got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[struct {
			ID      int64
			Applied int
		}])
		if err != nil {
			return false, err.Error()
		}
		have := map[int64]int{}
		applied := 0
		for _, r := range got {
			have[r.ID] = r.Applied
			applied += r.Applied
		}
		missing, doubled := 0, 0
		for id, n := range want {
			missing += max(0, n-have[id])
		}
		for id, n := range have {
			doubled += max(0, n-want[id])
		}
		if doubled > 0 {
			t.Fatalf("%d changes applied twice", doubled)
		}
		return missing == 0, fmt.Sprintf("%d of %d changes applied", applied, total)
	})
}

// deadLetters counts the messages of a projection's dead-letter topic.
func deadLetters(t *testing.T, brokers []string, name string) int64 {
	t.Helper()
	ends, err := kafka.EndOffsets(t.Context(), brokers, projections.DeadLetterTopic("agora", name))
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, e := range ends {
		n += e
	}
	return n
}

// stateOf is a projection's state in the metrics of reg: the state whose
// agora_projection_state is 1, and agora_projection_retrying_seconds.
func stateOf(t *testing.T, reg *prometheus.Registry, name string) (state string, retrying float64) {
	t.Helper()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["projection"] != name {
				continue
			}
			switch f.GetName() {
			case "agora_projection_state":
				if m.GetGauge().GetValue() == 1 {
					state = labels["state"]
				}
			case "agora_projection_retrying_seconds":
				retrying = m.GetGauge().GetValue()
			}
		}
	}
	return state, retrying
}

// TestUnavailableTargetIsWaitedFor: a target down for 3 s — ten times the
// old retry window of these settings (6 attempts from 10 ms) — under
// continuous writes: nothing is dead-lettered but the poison row, the
// projection is retrying then stalled, then healthy again, and every
// change is applied exactly once in effect. Replaying the dead letter
// before its fix puts it back; after, applies it once.
func TestUnavailableTargetIsWaitedFor(t *testing.T) {
	env := testenv.New(t)
	p := projectiontest.StartPipeline(t, env.DBURL)
	src := sourceTable(t, env)
	h, err := projectiontest.NewCounting(t.Context(), env.DB.Pool, "outage_"+src, "public."+src)
	if err != nil {
		t.Fatal(err)
	}
	o := &outage{addr: refusedAddr(t), d: 3 * time.Second, poison: 7}
	h.Fail = o.fail
	reg := prometheus.NewRegistry()
	metrics := projections.NewMetrics(reg)
	runProjection(t, p.Brokers, h, projections.Config{
		Backoff: 10 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, MaxAttempts: 6,
		StallAfter: time.Second, LagInterval: 100 * time.Millisecond, Metrics: metrics,
	})

	seen := map[string]bool{}
	var maxLag int64
	watching := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for {
			for _, s := range metrics.Health.States() {
				if s.Projection == h.Name() {
					seen[s.State] = true
					maxLag = max(maxLag, s.Lag)
				}
			}
			select {
			case <-watching:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	start := time.Now()
	want := writes(t, env, src, 4*time.Second)
	want[o.poison] = 0 // it never applies
	appliedOnce(t, env, h, want)
	t.Logf("caught up %v after the writes began; %d attempts failed while the target was down", time.Since(start).Round(time.Millisecond), o.failed.Load())
	close(watching)
	<-watched
	if !seen[projections.StateRetrying] || !seen[projections.StateStalled] {
		t.Errorf("states seen %v, want retrying and stalled", seen)
	}
	if maxLag == 0 {
		t.Error("no lag measured while the target was down")
	}
	waitFor(t, 5*time.Second, "healthy again, lag 0", func() (bool, string) {
		state, retrying := stateOf(t, reg, h.Name())
		s := metrics.Health.States()[0]
		return state == projections.StateHealthy && retrying == 0 && s.Lag == 0, fmt.Sprintf("state %s retrying %vs lag %d", state, retrying, s.Lag)
	})
	if n := deadLetters(t, p.Brokers, h.Name()); n != 1 {
		t.Fatalf("%d dead letters, want 1 (the poison row)", n)
	}

	// A replay before the fix: the letter fails again and is written back.
	cfg := projections.Config{Brokers: p.Brokers, Log: projectiontest.Logger(), Backoff: 10 * time.Millisecond}
	if applied, failed, err := projections.Replay(t.Context(), cfg, h); err != nil || applied != 0 || failed != 1 {
		t.Fatalf("replay before the fix: %d applied, %d failed, %v; want 0, 1", applied, failed, err)
	}
	o.fixed.Store(true)
	if applied, failed, err := projections.Replay(t.Context(), cfg, h); err != nil || applied != 1 || failed != 0 {
		t.Fatalf("replay after the fix: %d applied, %d failed, %v; want 1, 0", applied, failed, err)
	}
	if applied, failed, err := projections.Replay(t.Context(), cfg, h); err != nil || applied != 0 || failed != 0 {
		t.Fatalf("a second replay: %d applied, %d failed, %v; want nothing", applied, failed, err)
	}
	want[o.poison] = 1
	appliedOnce(t, env, h, want)
}
