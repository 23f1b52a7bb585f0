package relay_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pglogrepl"
	kafkago "github.com/segmentio/kafka-go"

	"agora/app/testenv"
	"agora/internal/adapters/kafka"
	"agora/projections/change"
	"agora/projections/projectiontest"
	"agora/relay"
)

func TestMain(m *testing.M) { testenv.Main(m) }

const fixtures = "../projections/change/testdata"

// readAll reads topic from the start with a fresh consumer group until n
// messages arrived.
func readAll(t *testing.T, brokers []string, topic string, n int) []kafkago.Message {
	t.Helper()
	if err := kafka.EnsureTopics(t.Context(), brokers, 0, topic); err != nil {
		t.Fatal(err)
	}
	r := kafkago.NewReader(kafkago.ReaderConfig{
		Brokers: brokers, GroupID: fmt.Sprintf("test-%d", time.Now().UnixNano()), GroupTopics: []string{topic},
		StartOffset: kafkago.FirstOffset, MinBytes: 1, MaxBytes: 10 << 20, MaxWait: 100 * time.Millisecond, SessionTimeout: 2 * time.Second,
	})
	defer r.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	var out []kafkago.Message
	for len(out) < n {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			ends, eerr := kafka.EndOffsets(context.Background(), brokers, topic)
			t.Fatalf("read %s: %v (got %d of %d; end offsets %v %v)", topic, err, len(out), n, ends, eerr)
		}
		out = append(out, m)
	}
	return out
}

// TestRelayOutputMatchesDebeziumFixtures replays the statements that made
// the Debezium fixtures and checks that the relay's messages decode to the
// same typed changes, with the same topic and key.
func TestRelayOutputMatchesDebeziumFixtures(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	ddl, err := os.ReadFile(fixtures + "/typed_rows.sql")
	if err != nil {
		t.Fatal(err)
	}
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := env.DB.Pool.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	exec("DROP TABLE IF EXISTS typed_rows") // -count=2 runs on one cluster
	exec(string(ddl))
	// Before the relay starts: the snapshot reads this row (op r).
	exec(`INSERT INTO typed_rows VALUES ('0193a2c4-5b7e-7c3a-9f10-2d4e6a8b0c11', '2026-11-20 10:15:30.123456+01',
		'{"a": 1, "tags": ["go", "sql"]}', 1234.5, ARRAY['first', 'with space', 'quote"d'], 7, true, NULL)`)
	p := projectiontest.StartPipeline(t, env.DBURL)
	exec(`INSERT INTO typed_rows VALUES ('0193a2c4-5b7e-7c3a-9f10-2d4e6a8b0c22', '2026-11-20 09:16:00+00',
		'{"nested": {"k": "v"}}', 0.05, '{}', NULL, false, 'hello')`)
	exec(`UPDATE typed_rows SET data = '{"nested": {"k": "w"}}', amount = -17.25, tags = '{a,b}', n = 42, flag = true
		WHERE id = '0193a2c4-5b7e-7c3a-9f10-2d4e6a8b0c22'`)
	exec(`DELETE FROM typed_rows WHERE id = '0193a2c4-5b7e-7c3a-9f10-2d4e6a8b0c22'`)
	exec(`TRUNCATE typed_rows`)

	msgs := readAll(t, p.Brokers, "agora.public.typed_rows", 5)
	got := map[change.Op][]kafkago.Message{}
	for _, m := range msgs {
		c, err := change.Decode(m.Topic, m.Key, m.Value)
		if err != nil {
			t.Fatalf("decode %s: %v", m.Value, err)
		}
		got[c.Op] = append(got[c.Op], m)
	}
	var prev change.Position
	for _, name := range projectiontest.FixtureNames {
		f, err := projectiontest.LoadFixture(fixtures, name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := change.Decode(f.Topic, f.Key, f.Value)
		if err != nil {
			t.Fatal(err)
		}
		ms := got[want.Op]
		if len(ms) != 1 {
			t.Fatalf("%s: %d relay messages with op %s, want 1", name, len(ms), want.Op)
		}
		m := ms[0]
		c, err := change.Decode(m.Topic, m.Key, m.Value)
		if err != nil {
			t.Fatal(err)
		}
		wantT, err := projectiontest.Typed(want)
		if err != nil {
			t.Fatal(err)
		}
		gotT, err := projectiontest.Typed(c)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gotT, wantT) {
			t.Errorf("%s: relay message decodes differently\n got %+v\nwant %+v\nmessage %s", name, gotT, wantT, m.Value)
		}
		if m.Topic != f.Topic {
			t.Errorf("%s: topic %s, want %s", name, m.Topic, f.Topic)
		}
		if (f.Key == nil || string(f.Key) == "null") != (m.Key == nil) || (m.Key != nil && !bytes.Equal(compact(t, m.Key), compact(t, f.Key))) {
			t.Errorf("%s: key %s, want %s", name, m.Key, f.Key)
		}
		// The source block names the same things.
		s := c.Source
		if s.Connector != "postgresql" || s.Name != "agora" || s.DB != "agora" || s.Schema != "public" || s.Table != "typed_rows" || s.LSN == 0 || s.TsMs == 0 {
			t.Errorf("%s: source %+v", name, s)
		}
		if (c.Op == change.Read) != (s.Snapshot != "false") {
			t.Errorf("%s: snapshot %q", name, s.Snapshot)
		}
		if name != "read" && !prev.Less(c.Position()) {
			t.Errorf("%s: position %+v not after %+v", name, c.Position(), prev)
		}
		prev = c.Position()
	}
}

func compact(t *testing.T, b []byte) []byte {
	var out bytes.Buffer
	if err := jsonCompact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// syncLog is a log that tests read while the relay writes it.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, d)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSecondRelayWaitsThenTakesOver runs two relays on one slot: the
// second waits on the lock while the first is active, and streams (from
// where the first confirmed) once the first stops.
func TestSecondRelayWaitsThenTakesOver(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	b, err := kafka.StartEmbedded(t.TempDir(), kafka.EmbeddedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	table := fmt.Sprintf("takeover_%d", time.Now().UnixNano())
	if _, err := env.DB.Pool.Exec(ctx, "CREATE TABLE "+table+" (id int PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	start := func(log *syncLog) (stop func()) {
		rctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = relay.Run(rctx, relay.Config{DatabaseURL: env.DBURL, Brokers: b.Brokers(), Slot: "takeover", Log: slog.New(slog.NewTextHandler(log, nil))})
		}()
		return func() { cancel(); <-done }
	}
	var logA, logB syncLog
	stopA := start(&logA)
	waitFor(t, 20*time.Second, "first relay active", func() bool { return strings.Contains(logA.String(), "relay active") })
	stopB := start(&logB)
	defer stopB()
	waitFor(t, 20*time.Second, "second relay waiting", func() bool { return strings.Contains(logB.String(), "another relay is active") })
	if _, err := env.DB.Pool.Exec(ctx, "INSERT INTO "+table+" VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	readAll(t, b.Brokers(), "agora.public."+table, 1)
	if strings.Contains(logB.String(), "relay active") {
		t.Fatal("the second relay became active while the first ran")
	}
	stopA()
	waitFor(t, 20*time.Second, "second relay active", func() bool { return strings.Contains(logB.String(), "relay active") })
	if _, err := env.DB.Pool.Exec(ctx, "INSERT INTO "+table+" VALUES (2)"); err != nil {
		t.Fatal(err)
	}
	// At least once: the first relay's last change may come again.
	for n := 2; ; n++ {
		keys := map[string]bool{}
		for _, m := range readAll(t, b.Brokers(), "agora.public."+table, n) {
			keys[string(m.Key)] = true
		}
		if keys[`{"id":2}`] {
			break
		}
		if n > 3 {
			t.Fatalf("no change from the second relay: keys %v", keys)
		}
	}
}

// TestHeartbeatKeepsTheSlotMoving writes only to another database: the
// relay's slot must still confirm past that WAL, or Postgres would keep it.
func TestHeartbeatKeepsTheSlotMoving(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	b, err := kafka.StartEmbedded(t.TempDir(), kafka.EmbeddedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var mu sync.Mutex
	var acked pglogrepl.LSN
	rctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = relay.Run(rctx, relay.Config{DatabaseURL: env.DBURL, Brokers: b.Brokers(), Slot: "heartbeat", HeartbeatInterval: 500 * time.Millisecond,
			StatusInterval: 200 * time.Millisecond, OnAck: func(l pglogrepl.LSN) { mu.Lock(); acked = l; mu.Unlock() }})
	}()
	defer func() { cancel(); <-done }()
	other := strings.Replace(env.DBURL, "/agora?", "/postgres?", 1)
	conn, err := relay.NewPool(ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Exec(ctx, "CREATE TABLE IF NOT EXISTS elsewhere (n int); INSERT INTO elsewhere SELECT generate_series(1, 1000)"); err != nil {
		t.Fatal(err)
	}
	var target pglogrepl.LSN
	if err := conn.QueryRow(ctx, "SELECT pg_current_wal_lsn()").Scan(&target); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "slot confirmed past the other database's WAL", func() bool {
		var confirmed pglogrepl.LSN
		if err := env.DB.Pool.QueryRow(ctx, "SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'heartbeat'").Scan(&confirmed); err != nil {
			return false
		}
		mu.Lock()
		defer mu.Unlock()
		return confirmed >= target && acked >= target
	})
}

// TestUnchangedToastedColumnsAreFilled updates a row beside a large,
// out-of-line (TOASTed) column: pgoutput sends that column as "unchanged"
// without data, and the relay fills it from the before-image (REPLICA
// IDENTITY FULL), so the event carries the whole row as Debezium's does.
func TestUnchangedToastedColumnsAreFilled(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	table := fmt.Sprintf("toasted_%d", time.Now().UnixNano())
	if _, err := env.DB.Pool.Exec(ctx, "CREATE TABLE "+table+" (id int PRIMARY KEY, n int, big text); ALTER TABLE "+table+" REPLICA IDENTITY FULL"); err != nil {
		t.Fatal(err)
	}
	p := projectiontest.StartPipeline(t, env.DBURL)
	if _, err := env.DB.Pool.Exec(ctx, "INSERT INTO "+table+" SELECT 1, 1, string_agg(md5(i::text), '') FROM generate_series(1, 4000) i"); err != nil {
		t.Fatal(err)
	}
	if _, err := env.DB.Pool.Exec(ctx, "UPDATE "+table+" SET n = 2 WHERE id = 1"); err != nil {
		t.Fatal(err)
	}
	var want string
	if err := env.DB.Pool.QueryRow(ctx, "SELECT big FROM "+table+" WHERE id = 1").Scan(&want); err != nil {
		t.Fatal(err)
	}
	for _, m := range readAll(t, p.Brokers, "agora.public."+table, 2) {
		c, err := change.Decode(m.Topic, m.Key, m.Value)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := c.After.String("big"); err != nil || got != want {
			t.Fatalf("%s: big column of %d characters, want %d (%v)", c.Op, len(got), len(want), err)
		}
		if n, _ := c.After.Int64("n"); c.Op == change.Update && n != 2 {
			t.Fatalf("update n = %d", n)
		}
	}
}

// TestBrokerOutageLosesNothing stops the broker under writes and starts it
// again on the same port and folder: the relay, which confirms an LSN only
// after Kafka acknowledged everything before it, starts over from what it
// confirmed, and every change reaches Kafka.
func TestBrokerOutageLosesNothing(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	dir := t.TempDir()
	b, err := kafka.StartEmbedded(dir, kafka.EmbeddedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	port := b.Brokers()[0][strings.LastIndexByte(b.Brokers()[0], ':')+1:]
	table := fmt.Sprintf("outage_%d", time.Now().UnixNano())
	if _, err := env.DB.Pool.Exec(ctx, "CREATE TABLE "+table+" (id int PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	slot := fmt.Sprintf("outage_%d", time.Now().UnixNano()%1e6)
	go func() {
		defer close(done)
		_ = relay.Run(rctx, relay.Config{DatabaseURL: env.DBURL, Brokers: b.Brokers(), Slot: slot, Log: projectiontest.Logger()})
	}()
	defer func() { cancel(); <-done }()
	projectiontest.WaitForSnapshot(t, env.DBURL, slot)
	n := 0
	write := func(d time.Duration) {
		for end := time.Now().Add(d); time.Now().Before(end); {
			n++
			if _, err := env.DB.Pool.Exec(ctx, "INSERT INTO "+table+" VALUES ($1)", n); err != nil {
				t.Fatal(err)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	write(time.Second)
	b.Close()
	write(2 * time.Second) // the broker is down
	var p int
	fmt.Sscan(port, &p)
	if b, err = kafka.StartEmbedded(dir, kafka.EmbeddedOptions{Port: p}); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	write(time.Second)
	seen := map[string]bool{}
	deadline := time.Now().Add(60 * time.Second)
	for len(seen) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d changes in Kafka after the outage", len(seen), n)
		}
		seen = map[string]bool{}
		ends, err := kafka.EndOffsets(ctx, b.Brokers(), "agora.public."+table)
		if err != nil {
			time.Sleep(200 * time.Millisecond)
			continue
		}
		var total int64
		for _, e := range ends {
			total += e
		}
		if total < int64(n) {
			time.Sleep(200 * time.Millisecond)
			continue
		}
		for _, m := range readAll(t, b.Brokers(), "agora.public."+table, int(total)) {
			seen[string(m.Key)] = true
		}
	}
	t.Logf("%d changes, every one in Kafka after a broker outage", n)
}
