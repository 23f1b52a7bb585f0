// Package faulttest kills the pipeline's processes with SIGKILL under
// continuous writes — the projector, the relay, and a whole dev process —
// and checks afterwards that a counting projection applied every change
// exactly once in effect: 0 missing, 0 duplicated.
package faulttest

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"agora/app/testenv"
	"agora/internal/adapters/kafka"
	"agora/projections/projectiontest"
)

func TestMain(m *testing.M) { testenv.Main(m) }

var (
	buildMu  sync.Mutex
	binDir   string
	binPath  string
	binUsers int
)

// faultproc builds the process under test (once for the tests that run
// together) and removes it when the last of them ends.
func faultproc(t *testing.T) string {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	if binDir == "" {
		dir, err := os.MkdirTemp("", "agora-faultproc-")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "faultproc")
		out, err := exec.Command("go", "build", "-o", path, "./testdata/faultproc").CombinedOutput()
		if err != nil {
			_ = os.RemoveAll(dir)
			t.Fatalf("go build: %v\n%s", err, out)
		}
		binDir, binPath = dir, path
	}
	binUsers++
	t.Cleanup(func() {
		buildMu.Lock()
		defer buildMu.Unlock()
		if binUsers--; binUsers == 0 {
			_ = os.RemoveAll(binDir)
			binDir = ""
		}
	})
	return binPath
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// proc is a running faultproc.
type proc struct {
	cmd    *exec.Cmd
	stderr *syncBuffer
	stdout *syncBuffer
	done   chan struct{}
}

func start(t *testing.T, role string, env []string) *proc {
	t.Helper()
	cmd := exec.Command(binPath, role)
	cmd.Env = append(os.Environ(), env...)
	p := &proc{cmd: cmd, stderr: &syncBuffer{}, stdout: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stderr, cmd.Stdout = p.stderr, p.stdout
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		if t.Failed() && os.Getenv("AGORA_TEST_STACKS") != "" {
			_ = p.cmd.Process.Signal(syscall.SIGQUIT)
			time.Sleep(time.Second)
		}
		p.kill()
		if t.Failed() || os.Getenv("AGORA_TEST_LOG") != "" {
			t.Logf("%s stderr:\n%s", role, p.stderr.String())
		}
	})
	return p
}

// kill sends SIGKILL to the process (kill -9) and waits for it.
func (p *proc) kill() {
	select {
	case <-p.done:
		return
	default:
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.done
}

// writer changes rows of table continuously and remembers, per row, how
// many changes committed and the last value.
type writer struct {
	table   string
	mu      sync.Mutex
	changes map[int64]int
	last    map[int64]string
	deleted map[int64]bool
	n       int
}

func (w *writer) run(ctx context.Context, env *testenv.Env) error {
	pool := env.DB.Pool
	next := int64(1)
	for i := 0; ctx.Err() == nil; i++ {
		var (
			id  int64
			val string
			sql string
			del bool
		)
		switch {
		case i%5 == 3 && next > 2: // update a recent row
			id = next - 1 - int64(rand.IntN(int(min(next-1, 20))))
			val = fmt.Sprintf("u%d", i)
			sql = "UPDATE " + w.table + " SET val = $2 WHERE id = $1"
		case i%17 == 5 && next > 3: // delete an older row
			id = next - 3
			sql = "DELETE FROM " + w.table + " WHERE id = $1 AND $2::text IS NOT NULL"
			val, del = "", true
		default:
			id, val = next, fmt.Sprintf("c%d", i)
			next++
			sql = "INSERT INTO " + w.table + " (id, val) VALUES ($1, $2)"
		}
		w.mu.Lock()
		gone := w.deleted[id]
		w.mu.Unlock()
		if gone {
			continue
		}
		// Not ctx: a statement cancelled between its CommandComplete and
		// its commit would look written and not be.
		tag, err := pool.Exec(context.Background(), sql, id, val)
		if err != nil {
			return err
		}
		if tag.RowsAffected() != 1 {
			return fmt.Errorf("%s on %d affected %d rows", sql, id, tag.RowsAffected())
		}
		w.mu.Lock()
		w.changes[id]++
		w.n++
		if del {
			w.deleted[id] = true
		} else {
			w.last[id] = `"` + val + `"`
		}
		w.mu.Unlock()
		time.Sleep(time.Millisecond) // some hundreds of changes a second
	}
	return nil
}

// scenario runs one fault test: it creates the source table, starts what
// the test needs, writes continuously while chaos runs, then checks the
// counting projection.
func scenario(t *testing.T, chaos func(t *testing.T, table string) int) {
	env := testenv.New(t)
	ctx := t.Context()
	table := fmt.Sprintf("fault_src_%d", time.Now().UnixNano()%1e9)
	if _, err := env.DB.Pool.Exec(ctx, fmt.Sprintf("CREATE TABLE %s (id bigint PRIMARY KEY, val text NOT NULL); ALTER TABLE %[1]s REPLICA IDENTITY FULL", table)); err != nil {
		t.Fatal(err)
	}
	w := &writer{table: table, changes: map[int64]int{}, last: map[int64]string{}, deleted: map[int64]bool{}}
	wctx, stopWriter := context.WithCancel(ctx)
	werr := make(chan error, 1)
	go func() {
		// Changes before the relay's slot exists reach the projection as
		// one snapshot read, not one by one: write after the snapshot.
		projectiontest.WaitForSnapshot(t, env.DBURL, slotOf(table))
		werr <- w.run(wctx, env)
	}()

	kills := chaos(t, table)
	stopWriter()
	if err := <-werr; err != nil {
		t.Fatalf("writer: %v", err)
	}
	t.Logf("%d kills under %d committed changes to %d rows", kills, w.n, len(w.changes))

	target := "projtest.fault_" + table
	deadline := time.Now().Add(90 * time.Second)
	for {
		missing, duplicated, wrong, report := compare(t, env, target, w)
		if missing == 0 && duplicated == 0 && wrong == 0 {
			t.Logf("every change applied exactly once in effect: 0 missing, 0 duplicated (%d changes)", w.n)
			return
		}
		if duplicated > 0 || time.Now().After(deadline) {
			diagnose(t, brokersOf(t), table)
			t.Fatalf("%d changes missing, %d duplicated, %d rows with a wrong value: %s", missing, duplicated, wrong, report)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// compare checks the projection against the writer's record.
func compare(t *testing.T, env *testenv.Env, target string, w *writer) (missing, duplicated, wrong int, report string) {
	rows, err := env.DB.Pool.Query(t.Context(), "SELECT id::bigint, applied, deleted, coalesce(val, '') FROM "+target)
	if err != nil {
		if strings.Contains(err.Error(), "does not exist") {
			return w.n, 0, 0, "no target table yet"
		}
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	var examples []string
	for rows.Next() {
		var id int64
		var applied int
		var deleted bool
		var val string
		if err := rows.Scan(&id, &applied, &deleted, &val); err != nil {
			t.Fatal(err)
		}
		seen[id] = true
		want := w.changes[id]
		switch {
		case applied < want:
			missing += want - applied
			examples = append(examples, fmt.Sprintf("row %d applied %d times, written %d", id, applied, want))
		case applied > want:
			duplicated += applied - want
			examples = append(examples, fmt.Sprintf("row %d applied %d times, written %d", id, applied, want))
		case deleted != w.deleted[id] || (!deleted && val != w.last[id]):
			wrong++
			examples = append(examples, fmt.Sprintf("row %d value %s deleted %v, want %s deleted %v", id, val, deleted, w.last[id], w.deleted[id]))
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for id, n := range w.changes {
		if !seen[id] {
			missing += n
			examples = append(examples, fmt.Sprintf("row %d never applied, written %d", id, n))
		}
	}
	if len(examples) > 5 {
		examples = examples[:5]
	}
	return missing, duplicated, wrong, strings.Join(examples, "; ")
}

// envFor is the environment of a faultproc over the test database.
func envFor(env *testenv.Env, table string, brokers []string, extra ...string) []string {
	out := []string{
		"DATABASE_URL=" + env.DBURL,
		"FAULT_TABLE=" + table,
		"AGORA_METRICS_ADDR=127.0.0.1:0",
		"AGORA_LOG_LEVEL=" + logLevel(),
		"AGORA_RELAY_SLOT=" + slotOf(table),
	}
	if brokers != nil {
		out = append(out, "KAFKA_BROKERS="+strings.Join(brokers, ","))
	}
	return append(out, extra...)
}

func logLevel() string {
	if l := os.Getenv("AGORA_TEST_LOG"); l != "" {
		return l
	}
	return "warn"
}

func slotOf(table string) string { return strings.ReplaceAll(table, "fault_src", "fault_slot") }

const cycles = 3

// sleepRandom sleeps between lo and hi.
func sleepRandom(lo, hi time.Duration) {
	time.Sleep(lo + time.Duration(rand.Int64N(int64(hi-lo))))
}

// startBroker starts an embedded broker for one test; its warnings (a
// consumer-group member removed because its session expired, say) are
// logged when the test fails or AGORA_TEST_LOG is set.
func startBroker(t *testing.T) *kafka.Embedded {
	t.Helper()
	log := &syncBuffer{}
	b, err := kafka.StartEmbedded(t.TempDir(), kafka.EmbeddedOptions{Log: slog.New(slog.NewTextHandler(log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() || os.Getenv("AGORA_TEST_LOG") != "" {
			t.Logf("broker log:\n%s", log.String())
		}
	})
	return b
}

func TestKillProjector(t *testing.T) {
	t.Parallel()
	faultproc(t)
	env := testenv.New(t)
	b := startBroker(t)
	defer b.Close()
	brokersByTest[t.Name()] = b.Brokers()
	scenario(t, func(t *testing.T, table string) int {
		start(t, "relay", envFor(env, table, b.Brokers()))
		proj := start(t, "projector", envFor(env, table, b.Brokers()))
		for i := 0; i < cycles; i++ {
			sleepRandom(1500*time.Millisecond, 3*time.Second)
			proj.kill()
			proj = start(t, "projector", envFor(env, table, b.Brokers()))
		}
		sleepRandom(time.Second, 2*time.Second)
		return cycles
	})
}

func TestKillRelay(t *testing.T) {
	t.Parallel()
	faultproc(t)
	env := testenv.New(t)
	b := startBroker(t)
	defer b.Close()
	scenario(t, func(t *testing.T, table string) int {
		start(t, "projector", envFor(env, table, b.Brokers()))
		relay := start(t, "relay", envFor(env, table, b.Brokers()))
		for i := 0; i < cycles; i++ {
			sleepRandom(time.Second, 2500*time.Millisecond)
			relay.kill()
			sleepRandom(100*time.Millisecond, 500*time.Millisecond) // changes pile up while no relay runs
			relay = start(t, "relay", envFor(env, table, b.Brokers()))
		}
		sleepRandom(time.Second, 2*time.Second)
		return cycles
	})
}

// TestKillDev kills a whole dev process — embedded broker, relay,
// projector and API in one — and starts it again on the same data folder:
// the broker's log and the group's offsets come back from disk.
func TestKillDev(t *testing.T) {
	t.Parallel()
	faultproc(t)
	env := testenv.New(t)
	data := t.TempDir()
	scenario(t, func(t *testing.T, table string) int {
		devEnv := func() []string {
			return envFor(env, table, nil, "AGORA_DATA_DIR="+data, "AGORA_ADDR=127.0.0.1:0")
		}
		dev := start(t, "dev", devEnv())
		for i := 0; i < cycles; i++ {
			sleepRandom(1500*time.Millisecond, 3*time.Second)
			dev.kill()
			dev = start(t, "dev", devEnv())
		}
		sleepRandom(time.Second, 2*time.Second)
		return cycles
	})
}
