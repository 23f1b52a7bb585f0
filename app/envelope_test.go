package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	kafkago "github.com/segmentio/kafka-go"

	"agora/internal/adapters/kafka"
	"agora/projections/projectiontest"
	"agora/relay"
)

// recordFixtures, when set (AGORA_RECORD_FIXTURES=1 go test -run
// TestRelayEnvelopeEqualsDebezium ./app), makes the envelope test write
// the Debezium messages of typed_rows into projections/change/testdata:
// the decoder's fixtures are real Debezium output, recorded here.
var recordFixtures = os.Getenv("AGORA_RECORD_FIXTURES") != ""

const fixtureDir = "../projections/change/testdata"

// envelopeSchema is the tables the envelope test writes to, beside the
// fixtures' typed_rows: kinds holds every column type the product's
// migrations use; plain keeps REPLICA IDENTITY DEFAULT, whose update and
// delete events carry only the key in before.
const envelopeSchema = `
CREATE TABLE cdc_heartbeat (id integer PRIMARY KEY, beat_on timestamptz NOT NULL);
CREATE TABLE cdc_relay_state (slot_name text PRIMARY KEY, snapshot_lsn pg_lsn NOT NULL, snapshot_done_on timestamptz);
CREATE TABLE kinds (
    id        uuid PRIMARY KEY,
    n2        smallint,
    n8        bigint,
    f4        real,
    f8        double precision,
    num       numeric,
    num2      numeric(10, 3),
    d         date,
    ts        timestamp,
    tstz      timestamptz,
    tm        time,
    span      interval,
    span2     interval,
    doc       json,
    docb      jsonb,
    bin       bytea,
    ids       uuid[],
    stamps    timestamptz[],
    words     varchar(20)[],
    nums      integer[],
    label     varchar(40),
    ch        char(3)
);
ALTER TABLE kinds REPLICA IDENTITY FULL;
CREATE TABLE plain (id integer PRIMARY KEY, body text, big text);
CREATE TABLE pair (a integer, b text, v text, PRIMARY KEY (a, b));
ALTER TABLE pair REPLICA IDENTITY FULL;
CREATE TABLE marker (id integer PRIMARY KEY);
CREATE PUBLICATION agora_cdc FOR ALL TABLES;
`

// TestRelayEnvelopeEqualsDebezium makes the same writes under Debezium's
// Postgres connector (on Kafka Connect, configured from deploy/'s
// connector file, topic prefix agora) and the relay (topic prefix relay),
// both on one Kafka broker, and compares the two streams record by record
// for every key: key, op, before, after and the source fields the
// projections read. The differences that remain are exactly
// envelopeDifferences, which relay/doc.go lists.
func TestRelayEnvelopeEqualsDebezium(t *testing.T) {
	// The shared connector snapshots the envelope tables once per test
	// binary (seedEnvelope): a second run would find the first's records.
	if envelopeRan.Swap(true) {
		t.Skip("the shared connector's snapshot of the envelope tables was read by this binary's first run")
	}
	// The topology first: its start has a timeout of its own, not this
	// test's.
	top := sharedDebezium(t)
	ctx, cancel := context.WithTimeout(t.Context(), 8*time.Minute)
	defer cancel()
	url, db, engines := top.url, top.db, top.engines

	// The relay, on a slot of its own: its snapshot reads what Debezium's
	// read (seedEnvelope's rows; nothing else writes these tables).
	brokers := engines.Kafka.Brokers()
	rctx, stopRelay := context.WithCancel(context.Background())
	relayDone := make(chan struct{})
	go func() {
		defer close(relayDone)
		_ = relay.Run(rctx, relay.Config{DatabaseURL: url, Brokers: brokers, Slot: "relay_envelope", TopicPrefix: "relay", Log: projectiontest.Logger()})
	}()
	defer func() { stopRelay(); <-relayDone }()
	projectiontest.WaitForSnapshot(t, url, "relay_envelope")
	// What is written after Debezium's snapshot is streamed, not read:
	// wait for its snapshot's last row, so both streams start from the
	// same place.
	waitForMessages(t, ctx, brokers, "agora", envelopeTables, envelopeSnapshotRows, engines.Connect.LogFile())

	writeEverything(t, ctx, db, url)
	if _, err := db.Exec(ctx, `INSERT INTO marker VALUES (1)`); err != nil {
		t.Fatal(err)
	}

	deb := readStream(t, ctx, brokers, "agora", envelopeTables, engines.Connect.LogFile())
	rel := readStream(t, ctx, brokers, "relay", envelopeTables, "")
	if recordFixtures {
		record(t, deb)
	}
	compareStreams(t, deb, rel)
}

var envelopeRan atomic.Bool

// envelopeSnapshotRows is how many rows seedEnvelope writes: both
// snapshots read them (op r).
const envelopeSnapshotRows = 6

// seedEnvelope makes the envelope test's tables, the fixtures'
// typed_rows among them, and the rows both producers' snapshots read,
// before the shared connector starts.
func seedEnvelope(ctx context.Context, db *pgxpool.Pool) error {
	ddl, err := os.ReadFile(fixtureDir + "/typed_rows.sql")
	if err != nil {
		return err
	}
	for _, s := range []struct {
		sql  string
		args []any
	}{
		{sql: string(ddl)},
		{sql: envelopeSchema},
		{sql: `INSERT INTO typed_rows VALUES ('0193a2c4-5b7e-7c3a-9f10-2d4e6a8b0c11', '2026-11-20 10:15:30.123456+01',
		'{"a": 1, "tags": ["go", "sql"]}', 1234.5, ARRAY['first', 'with space', 'quote"d'], 7, true, NULL)`},
		{sql: insertKind, args: []any{"0193a2c4-0000-7000-8000-000000000001"}},
		{sql: `INSERT INTO plain VALUES (1, 'snapshot', NULL), (2, 'two', NULL), (3, 'three', NULL)`},
		{sql: `INSERT INTO pair VALUES (1, 'x', 'snapshot')`},
	} {
		if _, err := db.Exec(ctx, s.sql, s.args...); err != nil {
			return fmt.Errorf("%s: %w", s.sql, err)
		}
	}
	return nil
}

const insertKind = `INSERT INTO kinds VALUES ($1, 12, 9007199254740993, 1.5, 2.25, 12345.678901234567890, 3.140,
	'2026-11-20', '2026-11-20 09:15:30.123456', '2026-11-20 09:15:30.1+02', '13:14:15.5',
	'1 year 2 mons 3 days 04:05:06.5', '00:00:00.1', '{"b": [1, 2], "a": null}', '{"b": [1, 2], "a": null}', '\x00ff10',
	ARRAY['0193a2c4-0000-7000-8000-0000000000aa'::uuid], ARRAY['2026-01-02 03:04:05+00'::timestamptz, NULL],
	ARRAY['one', 'two "quoted"', 'with,comma'], '{1,2,3}', 'label', 'ab')`

// writeEverything makes the writes both producers capture, in order.
func writeEverything(t *testing.T, ctx context.Context, db *pgxpool.Pool, url string) {
	t.Helper()
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := db.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	// The fixtures, in projectiontest.FixtureNames' order.
	exec(`INSERT INTO typed_rows VALUES ('0193a2c4-5b7e-7c3a-9f10-2d4e6a8b0c22', '2026-11-20 09:16:00+00',
		'{"nested": {"k": "v"}}', 0.05, '{}', NULL, false, 'hello')`)
	exec(`UPDATE typed_rows SET data = '{"nested": {"k": "w"}}', amount = -17.25, tags = '{a,b}', n = 42, flag = true
		WHERE id = '0193a2c4-5b7e-7c3a-9f10-2d4e6a8b0c22'`)
	exec(`DELETE FROM typed_rows WHERE id = '0193a2c4-5b7e-7c3a-9f10-2d4e6a8b0c22'`)
	exec(`TRUNCATE typed_rows`)

	// Every column type, updated, then a primary-key update and a delete
	// under REPLICA IDENTITY FULL.
	exec(insertKind, "0193a2c4-0000-7000-8000-000000000002")
	exec(`UPDATE kinds SET span = '-1 days +02:03:00', span2 = '-1.000123 seconds', num = -0.5, num2 = 0, docb = '{"c": true}', bin = '', ids = '{}',
		words = NULL, f8 = 1e-7, tm = '00:00:00', ts = '1969-12-31 23:59:59.5', d = '1960-01-01' WHERE id = '0193a2c4-0000-7000-8000-000000000002'`)
	exec(`UPDATE kinds SET id = '0193a2c4-0000-7000-8000-000000000003' WHERE id = '0193a2c4-0000-7000-8000-000000000002'`)
	exec(`DELETE FROM kinds WHERE id = '0193a2c4-0000-7000-8000-000000000003'`)

	// Several rows in one transaction, and two transactions in a row.
	exec(`BEGIN; INSERT INTO plain VALUES (4, 'four', NULL), (5, 'five', NULL); UPDATE plain SET body = 'one tx' WHERE id = 1;
		UPDATE kinds SET label = 'in a tx' WHERE id = '0193a2c4-0000-7000-8000-000000000001'; COMMIT`)
	exec(`BEGIN; UPDATE plain SET body = 'next tx' WHERE id = 4; INSERT INTO pair VALUES (2, 'y', 'two'); COMMIT`)

	// REPLICA IDENTITY DEFAULT: an unchanged TOASTed column, a delete, a
	// primary-key update.
	exec(`INSERT INTO plain SELECT 6, 'toasted', string_agg(md5(i::text), '') FROM generate_series(1, 4000) i`)
	exec(`UPDATE plain SET body = 'toast kept' WHERE id = 6`)
	exec(`DELETE FROM plain WHERE id = 2`)
	exec(`UPDATE plain SET id = 30 WHERE id = 3`)
	// A composite key changed.
	exec(`UPDATE pair SET b = 'z' WHERE a = 2`)

	// Interleaved transactions: a begins first and commits last.
	a, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())
	b, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	for _, step := range []struct {
		conn *pgx.Conn
		sql  string
	}{
		{a, "BEGIN"}, {a, "UPDATE pair SET v = 'from a' WHERE a = 1"},
		{b, "BEGIN"}, {b, "INSERT INTO plain VALUES (7, 'from b', NULL)"}, {b, "UPDATE pair SET v = 'from b' WHERE a = 2"}, {b, "COMMIT"},
		{a, "INSERT INTO plain VALUES (8, 'from a', NULL)"}, {a, "COMMIT"},
	} {
		if _, err := step.conn.Exec(ctx, step.sql); err != nil {
			t.Fatalf("%s: %v", step.sql, err)
		}
	}
}

// envelopeTables are the tables the test writes, marker last.
var envelopeTables = []string{"typed_rows", "kinds", "plain", "pair", "marker"}

// message is one Kafka message of a stream, where it was read.
type message struct {
	topic      string
	partition  int
	offset     int64
	key, value []byte
}

// waitForMessages waits until the prefix's topics of tables hold n
// messages in all.
func waitForMessages(t *testing.T, ctx context.Context, brokers []string, prefix string, tables []string, n int64, logFile string) {
	t.Helper()
	for {
		if total(ctx, brokers, prefix, tables) >= n {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: fewer than %d messages (see %s)", prefix, n, logFile)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func total(ctx context.Context, brokers []string, prefix string, tables []string) int64 {
	var n int64
	for _, table := range tables {
		ends, err := kafka.EndOffsets(ctx, brokers, relay.Topic(prefix, "public", table))
		if err != nil {
			continue // not made yet
		}
		for _, e := range ends {
			n += e
		}
	}
	return n
}

// readStream waits for a message on the prefix's topic of the last of
// tables, the marker, and for the end offsets of the tables' topics to
// stand still, then reads every message of them.
func readStream(t *testing.T, ctx context.Context, brokers []string, prefix string, tables []string, logFile string) []message {
	t.Helper()
	marker := tables[len(tables)-1]
	waitForMessages(t, ctx, brokers, prefix, tables, 1, logFile)
	for {
		ends, err := kafka.EndOffsets(ctx, brokers, relay.Topic(prefix, "public", marker))
		var n int64
		for _, e := range ends {
			n += e
		}
		if err == nil && n > 0 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: no marker (see %s)", prefix, logFile)
		case <-time.After(200 * time.Millisecond):
		}
	}
	// The marker commits last, but other partitions may still be in
	// flight: wait until two readings a second apart agree.
	for last := int64(-1); ; {
		n := total(ctx, brokers, prefix, tables)
		if n == last {
			break
		}
		last = n
		time.Sleep(time.Second)
	}
	var out []message
	for _, table := range tables {
		topic := relay.Topic(prefix, "public", table)
		ends, err := kafka.EndOffsets(ctx, brokers, topic)
		if err != nil {
			t.Fatal(err)
		}
		for p, hw := range ends {
			if hw == 0 {
				continue
			}
			r := kafkago.NewReader(kafkago.ReaderConfig{Brokers: brokers, Topic: topic, Partition: p, MinBytes: 1, MaxBytes: 16 << 20, MaxWait: 200 * time.Millisecond})
			if err := r.SetOffset(0); err != nil {
				t.Fatal(err)
			}
			for {
				m, err := r.ReadMessage(ctx)
				if err != nil {
					t.Fatalf("read %s/%d: %v", topic, p, err)
				}
				out = append(out, message{topic: topic, partition: p, offset: m.Offset, key: m.Key, value: m.Value})
				if m.Offset+1 >= hw {
					break
				}
			}
			r.Close()
		}
	}
	return out
}

// sourceFields are the source fields the test compares: the projections
// read them.
var sourceFields = []string{"db", "schema", "table", "txId", "lsn", "sequence", "snapshot", "ts_ms"}

// fields flattens a message into the compared fields: key, its
// partition, op, each column of before and after, and the source fields;
// canonical JSON.
func fields(t *testing.T, m message) map[string]string {
	t.Helper()
	var v struct {
		Before map[string]json.RawMessage `json:"before"`
		After  map[string]json.RawMessage `json:"after"`
		Source map[string]json.RawMessage `json:"source"`
		Op     string                     `json:"op"`
	}
	if err := json.Unmarshal(m.value, &v); err != nil {
		t.Fatalf("%s: %v", m.value, err)
	}
	out := map[string]string{"key": canonical(t, m.key), "op": v.Op}
	if len(m.key) > 0 {
		// A key's partition: both hash the key with murmur2, so a row's
		// changes are ordered on the same partition whichever wrote them.
		out["partition"] = strconv.Itoa(m.partition)
	}
	for side, row := range map[string]map[string]json.RawMessage{"before": v.Before, "after": v.After} {
		if row == nil {
			out[side] = "null"
			continue
		}
		for col, val := range row {
			out[side+"."+col] = canonical(t, val)
		}
	}
	for _, f := range sourceFields {
		out["source."+f] = canonical(t, v.Source[f])
	}
	return out
}

// canonical is JSON with sorted keys and exact numbers ("" for nothing).
func canonical(t *testing.T, b []byte) string {
	if len(bytes.TrimSpace(b)) == 0 {
		return ""
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	out, _ := json.Marshal(sameFloats(v))
	return string(out)
}

// sameFloats writes every fractional number in one form: Debezium's
// converter writes a double as Java does (1.0E-7), the relay as Postgres
// does (1e-07); consumers read the same value from either. Integers stay
// exact.
func sameFloats(v any) any {
	switch x := v.(type) {
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			if f, err := x.Float64(); err == nil {
				return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
			}
		}
	case []any:
		for i := range x {
			x[i] = sameFloats(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = sameFloats(x[k])
		}
	}
	return v
}

// byKey groups a stream's messages by table and key, each key's in
// offset order (a key's messages share a partition).
func byKey(t *testing.T, ms []message) map[string][]message {
	out := map[string][]message{}
	for _, m := range ms {
		table := m.topic[strings.IndexByte(m.topic, '.')+1:]
		k := table + " " + canonical(t, m.key)
		out[k] = append(out[k], m)
	}
	for _, l := range out {
		sort.SliceStable(l, func(i, j int) bool { return l[i].offset < l[j].offset })
	}
	return out
}

// envelopeDifference is one way the relay's records may differ from
// Debezium's, as relay/doc.go lists it.
type envelopeDifference struct {
	field string // a compared field, or a prefix ending in "." (after.)
	op    string // the op it applies to ("" every op)
	why   string
}

// envelopeDifferences are the differences relay/doc.go lists, exactly: a
// field that differs otherwise fails the test, and so does a listed
// difference that no record shows any more.
var envelopeDifferences = []envelopeDifference{
	{"source.lsn", "r", "a snapshot read carries its own snapshot's LSN, and each producer reads its own snapshot of its own slot"},
	{"source.sequence", "r", "[null, the snapshot's LSN]: the LSN differs as source.lsn does"},
	{"source.txId", "r", "the transaction id of the producer's own snapshot transaction"},
	{"source.ts_ms", "r", "when the producer's own snapshot started"},
}

func allowed(op, field string) *envelopeDifference {
	for i, d := range envelopeDifferences {
		if (d.op == "" || d.op == op) && (d.field == field || (strings.HasSuffix(d.field, ".") && strings.HasPrefix(field, d.field))) {
			return &envelopeDifferences[i]
		}
	}
	return nil
}

func compareStreams(t *testing.T, deb, rel []message) {
	t.Helper()
	if len(deb) == 0 {
		t.Fatal("no Debezium messages")
	}
	d, r := byKey(t, deb), byKey(t, rel)
	var keys []string
	for k := range d {
		keys = append(keys, k)
	}
	for k := range r {
		if _, ok := d[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	seen := map[*envelopeDifference]bool{}
	compared := 0
	for _, k := range keys {
		dm, rm := d[k], r[k]
		if len(dm) != len(rm) {
			var dops, rops []string
			for _, m := range dm {
				dops = append(dops, fields(t, m)["op"])
			}
			for _, m := range rm {
				rops = append(rops, fields(t, m)["op"])
			}
			t.Errorf("%s: Debezium wrote %d records (ops %v), the relay %d (ops %v)", k, len(dm), dops, len(rm), rops)
			continue
		}
		for i := range dm {
			df, rf := fields(t, dm[i]), fields(t, rm[i])
			compared++
			names := map[string]bool{}
			for f := range df {
				names[f] = true
			}
			for f := range rf {
				names[f] = true
			}
			var sorted []string
			for f := range names {
				sorted = append(sorted, f)
			}
			sort.Strings(sorted)
			for _, f := range sorted {
				dv, dok := df[f]
				rv, rok := rf[f]
				if dv == rv && dok == rok {
					continue
				}
				if a := allowed(df["op"], f); a != nil {
					seen[a] = true
					continue
				}
				show := func(v string, ok bool) string {
					if !ok {
						return "(absent)"
					}
					return v
				}
				t.Errorf("%s #%d (op %s): %s: Debezium %s, relay %s", k, i, df["op"], f, show(dv, dok), show(rv, rok))
			}
		}
	}
	for i := range envelopeDifferences {
		if !seen[&envelopeDifferences[i]] {
			t.Errorf("listed difference no longer seen: %s (op %q): %s", envelopeDifferences[i].field, envelopeDifferences[i].op, envelopeDifferences[i].why)
		}
	}
	t.Logf("%d records compared over %d keys", compared, len(keys))
	if testing.Verbose() {
		for _, m := range deb {
			t.Logf("debezium %s/%d@%d %s %s", m.topic, m.partition, m.offset, m.key, m.value)
		}
		for _, m := range rel {
			t.Logf("relay %s/%d@%d %s %s", m.topic, m.partition, m.offset, m.key, m.value)
		}
	}
}

// record writes the Debezium messages of typed_rows, in the order they
// were written, as the fixtures projectiontest.FixtureNames names.
func record(t *testing.T, deb []message) {
	t.Helper()
	var rows []message
	for _, m := range deb {
		if m.topic == "agora.public.typed_rows" {
			rows = append(rows, m)
		}
	}
	// One key per partition: order by the source LSN, as written.
	sort.SliceStable(rows, func(i, j int) bool { return lsnOf(t, rows[i]) < lsnOf(t, rows[j]) })
	if len(rows) != len(projectiontest.FixtureNames) {
		t.Fatalf("%d typed_rows messages, want %d", len(rows), len(projectiontest.FixtureNames))
	}
	for i, name := range projectiontest.FixtureNames {
		m := rows[i]
		key := json.RawMessage("null")
		if len(m.key) > 0 {
			key = m.key
		}
		b, err := json.MarshalIndent(projectiontest.Fixture{Topic: m.topic, Key: key, Value: m.value}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(fixtureDir, name+".json"), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("recorded %d fixtures into %s", len(rows), fixtureDir)
}

func lsnOf(t *testing.T, m message) int64 {
	var v struct {
		Source struct {
			LSN int64 `json:"lsn"`
		} `json:"source"`
	}
	if err := json.Unmarshal(m.value, &v); err != nil {
		t.Fatal(err)
	}
	return v.Source.LSN
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
