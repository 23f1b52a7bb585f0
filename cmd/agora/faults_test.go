package main

// Faults of the real components under continuous writes: Postgres, the
// warehouse's ClickHouse, the projector (the search index's writer) and the
// broker killed with SIGKILL, and the data folder's disk filled
// (faults_disk_test.go), twice each, while a writer commits posts,
// comments, reactions and edits. Afterwards `agora projector check` must
// find every projection's target equal to what a rebuild from Postgres
// gives. engines_test.go runs the same stack and checks on Debezium and
// three Kafka brokers.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/analytics"
	"agora/app"
	"agora/app/seed"
	"agora/internal/adapters/kafka"
	"agora/internal/standins/chserver"
	"agora/internal/standins/pgserver"
	"agora/projections"
	"agora/projections/insights"
	"agora/projections/notifications"
	"agora/projections/searchindex"
	"agora/search"
)

// faultStack is agora relay and agora projector over a Postgres, a
// ClickHouse and a broker of the test's own, which the test may kill; or,
// with faultOptions.engines, agora projector over Debezium's connector on
// Kafka Connect and three Kafka brokers (engines_test.go).
type faultStack struct {
	t         *testing.T
	dir       string // the data folder
	pg        *pgserver.Server
	ch        *chserver.Server
	broker    *brokerProcess   // the embedded broker, or nil
	engines   *app.RealEngines // the real engines, or nil
	brokers   []string
	slot      string // the replication slot that feeds the topics
	env       []string
	pool      *pgxpool.Pool
	relay     *proc // nil on the real engines
	projector *proc
	api       *apiProcess // with faultOptions.api
	// series is the forum the writer writes in: member posts, other
	// comments (a notification for member) and reacts.
	series, channel, member, other uuid.UUID
	// writers write under the faults: by default one in series.
	writers []forumWriter
}

// forumWriter is a writer in one forum: author posts and edits, other
// comments and reacts, a statement every pace.
type forumWriter struct {
	series, channel, author, other uuid.UUID
	pace                           time.Duration
}

// faultOptions add to the stack what one test needs.
type faultOptions struct {
	// disk, when not 0, is the size in bytes of a tmpfs that the stack's
	// data folder is mounted on (see mountDisk).
	disk int64
	// api starts agora api too (faultStack.api).
	api bool
	// engines runs Debezium's connector on Kafka Connect and this many
	// Kafka brokers (app.StartRealEngines) instead of the relay and the
	// embedded broker.
	engines int
}

func newFaultStack(t *testing.T, o faultOptions) *faultStack {
	t.Helper()
	agoraBinary(t)
	// Three brokers and Connect take minutes to start on a loaded machine.
	ctx, cancel := context.WithTimeout(t.Context(), 6*time.Minute)
	defer cancel()
	dir := dataDir(t)
	if o.disk > 0 {
		mountDisk(t, dir, o.disk)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	pg, err := pgserver.Start(ctx, filepath.Join(dir, "postgres"), log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pg.Stop() })
	if err := pg.CreateDatabase(ctx, "agora"); err != nil {
		t.Fatal(err)
	}
	ch, err := chserver.Start(ctx, filepath.Join(dir, "clickhouse"), log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ch.Stop() })
	if err := ch.CreateDatabase(ctx, "agora"); err != nil {
		t.Fatal(err)
	}
	s := &faultStack{t: t, dir: dir, pg: pg, ch: ch, slot: "agora_relay"}
	env := []string{"DATABASE_URL=" + pg.URL("agora"), "CLICKHOUSE_URL=" + ch.URL("agora"),
		"AGORA_DATA_DIR=" + filepath.Join(dir, "data"), "AGORA_METRICS_ADDR=127.0.0.1:0", "AGORA_LOG_LEVEL=warn",
		// Back within a second of a component that returns.
		"AGORA_PROJECTION_RETRY_MAX_BACKOFF=1s"}
	// agora migrate and seed need no broker.
	for _, cmd := range []string{"migrate", "seed"} {
		if p := startAgora(t, testEnv(env...), cmd); p.waitExit(t, time.Minute) != 0 {
			t.Fatalf("agora %s failed:\n%s", cmd, p.stderr.String())
		}
	}
	if o.engines == 0 {
		s.broker = startBroker(t, filepath.Join(dir, "kafka"), 0)
		s.brokers = []string{s.broker.addr}
	} else {
		// After the seed, so that Debezium's snapshot holds it, as the
		// relay's does.
		s.engines, err = app.StartRealEngines(ctx, app.EnginesOptions{Dir: filepath.Join(dir, "engines"), DatabaseURL: pg.URL("agora"), Brokers: o.engines, Log: log})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.engines.Close)
		s.brokers, s.slot = s.engines.Kafka.Brokers(), s.engines.Slot()
		env = append(env, "AGORA_RELAY_SLOT="+s.slot)
	}
	s.env = testEnv(append(env, "KAFKA_BROKERS="+strings.Join(s.brokers, ","))...)
	if s.pool, err = pgxpool.New(ctx, pg.URL("agora")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.pool.Close)
	if err := s.pool.QueryRow(ctx, `SELECT s.id, c.id, u.id FROM series s JOIN channels c ON c.series_id = s.id AND c.kind = 'main'
		JOIN profiles p ON true JOIN users u ON u.id = p.user_id AND u.email_key = $1
		JOIN series_memberships m ON m.series_id = s.id AND m.profile_id = p.id LIMIT 1`, seed.MemberEmail).Scan(&s.series, &s.channel, &s.member); err != nil {
		t.Fatalf("the seed member's forum: %v", err)
	}
	if err := s.pool.QueryRow(ctx, `SELECT p.user_id FROM series_memberships m JOIN profiles p ON p.id = m.profile_id
		WHERE m.series_id = $1 AND p.user_id IS NOT NULL AND p.user_id != $2 LIMIT 1`, s.series, s.member).Scan(&s.other); err != nil {
		t.Fatalf("another member of the forum: %v", err)
	}
	s.writers = []forumWriter{{series: s.series, channel: s.channel, author: s.member, other: s.other, pace: 10 * time.Millisecond}}
	if s.engines == nil {
		s.relay = startAgora(t, s.env, "relay")
	}
	s.projector = startAgora(t, s.env, "projector")
	if o.api {
		s.api = s.startAPI("api")
	}
	return s
}

// write is one statement of the writer: a post, a comment, a reaction
// (id is its post's) or an edit (id is the post, raw its new text).
type write struct {
	kind string // post, comment, reaction, edit
	id   uuid.UUID
	raw  string
}

// writes are what the writer did: the statements that committed, and
// those that failed, which may or may not have committed (Postgres went
// down before it answered).
type writes struct {
	mu        sync.Mutex
	committed []write
	unsure    []write
}

func (w *writes) add(x write, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		w.unsure = append(w.unsure, x)
	} else {
		w.committed = append(w.committed, x)
	}
}

// counts are how many statements committed and failed.
func (w *writes) counts() (committed, failed int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.committed), len(w.unsure)
}

// writer commits posts, comments on them, reactions and edits in the
// forum until stop, through every fault: a statement that fails (Postgres
// down) is dropped, whether or not it committed, as the check compares
// with what Postgres holds, not with what was sent.
func (s *faultStack) writer(stop <-chan struct{}, f forumWriter) (done <-chan struct{}, w *writes) {
	w = new(writes)
	d := make(chan struct{})
	go func() {
		defer close(d)
		var post uuid.UUID
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(f.pace):
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			now := time.Now().UTC()
			id := uuid.Must(uuid.NewV7())
			var x write
			var err error
			switch {
			case i%4 == 0 || post == uuid.Nil:
				x = write{kind: "post", id: id, raw: fmt.Sprintf("Fault post %d: who has tried #chaos?", i)}
				_, err = s.pool.Exec(ctx, `INSERT INTO threads (id, channel_id, series_id, creator_id, raw, created_on, updated_on) VALUES ($1, $2, $3, $4, $5, $6, $6)`,
					id, f.channel, f.series, f.author, x.raw, now)
				if err == nil {
					post = id
				}
			case i%4 == 1:
				x = write{kind: "comment", id: id, raw: fmt.Sprintf("Comment %d. Where?", i)}
				_, err = s.pool.Exec(ctx, `INSERT INTO replies (id, thread_id, creator_id, raw, created_on, updated_on) VALUES ($1, $2, $3, $4, $5, $5)`,
					id, post, f.other, x.raw, now)
			case i%4 == 2:
				x = write{kind: "reaction", id: post}
				_, err = s.pool.Exec(ctx, `INSERT INTO reactions (id, thread_id, user_id, kind, created_on) VALUES ($1, $2, $3, 'liked', $4)`, id, post, f.other, now)
			default:
				x = write{kind: "edit", id: post, raw: fmt.Sprintf("Fault post edited at %d #chaos #edited", i)}
				_, err = s.pool.Exec(ctx, `UPDATE threads SET raw = $2, updated_on = $3 WHERE id = $1`, post, x.raw, now)
			}
			cancel()
			w.add(x, err)
			if err != nil {
				time.Sleep(100 * time.Millisecond)
			}
		}
	}()
	return d, w
}

// underWrites runs fault cycles times while the writers write, then
// checks every projection, and answers what each writer wrote.
func (s *faultStack) underWrites(cycles int, fault func(cycle int)) []*writes {
	t := s.t
	stop := make(chan struct{})
	var dones []<-chan struct{}
	var ws []*writes
	for _, f := range s.writers {
		done, w := s.writer(stop, f)
		dones, ws = append(dones, done), append(ws, w)
	}
	time.Sleep(2 * time.Second)
	for c := 1; c <= cycles; c++ {
		fault(c)
		time.Sleep(time.Duration(1500+rand.IntN(1500)) * time.Millisecond)
	}
	close(stop)
	var committed, failed int
	for i, done := range dones {
		<-done
		c, f := ws[i].counts()
		committed, failed = committed+c, failed+f
	}
	t.Logf("%d changes committed under %d faults (%d statements failed while a component was down)", committed, cycles, failed)
	s.check()
	return ws
}

// check waits until the projections have applied every change, stops the
// projector (it holds the embedded search index) and runs agora projector
// check, which must find 0 missing, 0 doubled, 0 different, 0 extra.
func (s *faultStack) check() {
	t := s.t
	start := time.Now()
	ctx := t.Context()
	store, err := search.OpenEmbedded(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close() //nolint:errcheck
	conn, err := analytics.Open(ctx, s.ch.URL("agora"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close() //nolint:errcheck
	// The projections as agora projector has them, for their groups and
	// topics only.
	sp, err := searchindex.New(store, s.pool, nil)
	if err != nil {
		t.Fatal(err)
	}
	ip, err := insights.New(conn, s.pool, nil)
	if err != nil {
		t.Fatal(err)
	}
	np, err := notifications.New(s.pool, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitRelayed(t, s.pool, s.slot)
	for _, h := range []projections.Handler{sp, ip, np} {
		if err := projections.WaitApplied(ctx, projections.Config{Brokers: s.brokers}, h, 2*time.Minute); err != nil {
			t.Fatalf("%v\nprojector stderr:\n%s", err, s.projector.stderr.String())
		}
	}
	caught := time.Since(start)
	// Each process rode out the fault rather than being started again.
	if s.relay != nil && s.relay.exited() {
		t.Fatalf("the relay exited:\n%s", s.relay.stderr.String())
	}
	if s.projector.exited() {
		t.Fatalf("the projector exited:\n%s", s.projector.stderr.String())
	}
	_ = s.projector.cmd.Process.Signal(syscall.SIGTERM)
	s.projector.waitExit(t, 30*time.Second)
	p := startAgora(t, s.env, "projector", "check")
	code := p.waitExit(t, 2*time.Minute)
	out := p.stdout.String()
	t.Logf("caught up %v after the writes; agora projector check (exit %d):\n%s", caught.Round(time.Millisecond), code, out)
	if code != 0 {
		t.Fatalf("agora projector check found differences or failed:\n%s", p.stderr.String())
	}
	equal := regexp.MustCompile(`(?m)^(search|insights|notifications): [1-9][0-9]* records, 0 missing, 0 doubled, 0 different, 0 extra$`)
	if n := len(equal.FindAllString(out, -1)); n != 3 {
		t.Fatalf("agora projector check reported %d projections equal and not empty, want 3", n)
	}
}

// waitRelayed waits until slot, the relay's or Debezium's, has confirmed
// the current end of the write-ahead log: every change committed so far
// is in Kafka.
func waitRelayed(t *testing.T, pool *pgxpool.Pool, slot string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	var lsn string
	if err := pool.QueryRow(ctx, "SELECT pg_current_wal_lsn()::text").Scan(&lsn); err != nil {
		t.Fatal(err)
	}
	for {
		var done bool
		err := pool.QueryRow(ctx, "SELECT COALESCE(bool_and(confirmed_flush_lsn >= $1::pg_lsn), false) FROM pg_replication_slots WHERE slot_name = $2", lsn, slot).Scan(&done)
		if err == nil && done {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("slot %s has not confirmed %s (%v)", slot, lsn, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

const faultCycles = 2

func TestFaultKillPostgres(t *testing.T) {
	s := newFaultStack(t, faultOptions{})
	s.underWrites(faultCycles, func(cycle int) {
		before := s.pg.Restarts()
		if err := s.pg.Kill(); err != nil {
			t.Fatal(err)
		}
		// pgserver starts it again, as agora dev's Postgres.
		took := waitStartedAgain(t, "postgres", s.pg.Restarts, before)
		t.Logf("cycle %d: postgres killed, started again and recovered in %v", cycle, took)
	})
}

// waitStartedAgain waits until a server that starts itself again after a
// crash has done so (restarts, its count of restarts, is past before) and
// answers how long that took.
func waitStartedAgain(t *testing.T, name string, restarts func() int, before int) time.Duration {
	t.Helper()
	since := time.Now()
	for restarts() == before {
		// A JVM (a Kafka broker, Connect) takes most of a minute to start
		// again on a loaded machine.
		if time.Since(since) > 3*time.Minute {
			t.Fatalf("%s not started again within 3 minutes", name)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return time.Since(since).Round(time.Millisecond)
}

func TestFaultKillClickHouse(t *testing.T) {
	s := newFaultStack(t, faultOptions{})
	s.underWrites(faultCycles, func(cycle int) {
		before := s.ch.Restarts()
		if err := s.ch.Kill(); err != nil {
			t.Fatal(err)
		}
		took := waitStartedAgain(t, "clickhouse", s.ch.Restarts, before)
		t.Logf("cycle %d: clickhouse killed, started again in %v", cycle, took)
	})
}

func TestFaultKillProjector(t *testing.T) {
	s := newFaultStack(t, faultOptions{})
	s.underWrites(faultCycles, func(cycle int) {
		// The projector applies batches all the time under these writes:
		// a kill lands in the middle of one, the search index's included.
		if err := syscall.Kill(-s.projector.cmd.Process.Pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		<-s.projector.done
		s.projector = startAgora(t, s.env, "projector")
		t.Logf("cycle %d: projector killed and started again", cycle)
	})
}

// The fault stack's broker runs in a process of its own, this test binary
// started again with brokerDirEnv set, so that it can be killed with
// SIGKILL as a broker's machine dies: agora dev runs the same embedded
// broker inside its one process, where a kill -9 takes the relay and the
// projector with it (projections/faulttest's TestKillDev does that).
const (
	brokerDirEnv  = "AGORA_TEST_BROKER_DIR"
	brokerPortEnv = "AGORA_TEST_BROKER_PORT"
)

// runBroker is the broker process: the embedded broker on dir and on the
// port of brokerPortEnv (0: a free one), which prints its address on
// stdout and runs until SIGTERM.
func runBroker(dir string) int {
	port, _ := strconv.Atoi(os.Getenv(brokerPortEnv))
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	b, err := kafka.StartEmbedded(dir, kafka.EmbeddedOptions{Port: port, Log: log})
	if err != nil {
		log.Error("broker", "err", err)
		return 1
	}
	fmt.Println(b.Brokers()[0])
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	<-ctx.Done()
	b.Close()
	return 0
}

// brokerProcess is a running broker process.
type brokerProcess struct {
	*proc
	dir, addr string
}

// startBroker starts the broker process on dir and port (0: a free one)
// and waits until it listens.
func startBroker(t *testing.T, dir string, port int) *brokerProcess {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := startProc(t, self, testEnv(brokerDirEnv+"="+dir, brokerPortEnv+"="+strconv.Itoa(port)))
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if addr, ok := strings.CutSuffix(p.stdout.String(), "\n"); ok {
			return &brokerProcess{proc: p, dir: dir, addr: addr}
		}
		if p.exited() || time.Now().After(deadline) {
			t.Fatalf("the broker process did not start (exited %v):\n%s", p.exited(), p.stderr.String())
		}
	}
}

// kill ends the broker with SIGKILL: what it had not written to its files
// is lost, as in a crash.
func (b *brokerProcess) kill(t *testing.T) {
	t.Helper()
	if err := syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-b.done
}

// restart starts the broker again on its folder and address.
func (b *brokerProcess) restart(t *testing.T) *brokerProcess {
	t.Helper()
	_, port, err := net.SplitHostPort(b.addr)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(port)
	again := startBroker(t, b.dir, n)
	if again.addr != b.addr {
		t.Fatalf("the broker came back on %s, not %s", again.addr, b.addr)
	}
	return again
}

// TestFaultRestartBroker kills the broker process with SIGKILL under writes
// and starts it again on its data folder and address: what it acknowledged
// (the relay's messages, the projections' offsets) must be there again, and
// the relay and the projector must reconnect by themselves.
func TestFaultRestartBroker(t *testing.T) {
	s := newFaultStack(t, faultOptions{})
	s.underWrites(faultCycles, func(cycle int) {
		s.broker.kill(t)
		// The relay and the projector find no broker for a while.
		time.Sleep(time.Second)
		started := time.Now()
		s.broker = s.broker.restart(t)
		t.Logf("cycle %d: broker killed, started again on its data folder in %v", cycle, time.Since(started).Round(time.Millisecond))
	})
}
