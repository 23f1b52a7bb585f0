package analytics_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"agora/analytics"
	"agora/app/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// events is a migration of the kind the warehouse will have: a
// LowCardinality column (which 18.16 allows only with the experimental
// setting the local server's profile sets), several statements, and
// semicolons in a comment and a string.
var events = fstest.MapFS{
	"0001_events.sql": {Data: []byte(`
-- Events; one row per change.
CREATE TABLE IF NOT EXISTS events (
	id         String,
	kind       LowCardinality(String),
	forum_id   String,
	at         DateTime,
	weight     UInt32 DEFAULT 1
) ENGINE = MergeTree
PARTITION BY toYYYYMM(at)
ORDER BY (forum_id, at, id);

CREATE TABLE IF NOT EXISTS event_notes (note String DEFAULT 'a; b') ENGINE = TinyLog;
`)},
	"0002_daily.sql": {Data: []byte(`
CREATE MATERIALIZED VIEW IF NOT EXISTS events_daily
ENGINE = SummingMergeTree ORDER BY (forum_id, day)
AS SELECT forum_id, toDate(at) AS day, sum(weight) AS weight FROM events GROUP BY forum_id, day
`)},
}

func TestApplyTwiceAppliesOnce(t *testing.T) {
	conn, url := testenv.Warehouse(t)
	if !strings.HasPrefix(url, "clickhouse://") {
		t.Fatalf("url %q", url)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	all, err := analytics.ReadMigrations(events)
	if err != nil {
		t.Fatal(err)
	}
	applied, err := analytics.Apply(ctx, conn, all)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(applied, ",") != "0001_events,0002_daily" {
		t.Fatalf("first run applied %v", applied)
	}
	again, err := analytics.Apply(ctx, conn, all)
	if err != nil || len(again) != 0 {
		t.Fatalf("second run applied %v, %v; want nothing", again, err)
	}
	var recorded uint64
	if err := conn.QueryRow(ctx, "SELECT count() FROM schema_migrations WHERE version IN ('0001_events', '0002_daily')").Scan(&recorded); err != nil || recorded != 2 {
		t.Fatalf("schema_migrations holds %d of the 2 versions (%v)", recorded, err)
	}
	for _, table := range []string{"events", "event_notes", "events_daily"} {
		var n uint64
		if err := conn.QueryRow(ctx, "SELECT count() FROM system.tables WHERE database = currentDatabase() AND name = ?", table).Scan(&n); err != nil || n != 1 {
			t.Fatalf("table %s: %d, %v", table, n, err)
		}
	}

	// A batch insert with an explicit column list (the form 18.16 needs),
	// the DEFAULT filling the column left out.
	batch, err := conn.PrepareBatch(ctx, "INSERT INTO events (id, kind, forum_id, at)")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	for i, kind := range []string{"post", "comment", "comment"} {
		if err := batch.Append(string(rune('a'+i)), kind, "forum-1", at.Add(time.Duration(i)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if err := batch.Send(); err != nil {
		t.Fatal(err)
	}
	var comments, weight uint64
	if err := conn.QueryRow(ctx, "SELECT countIf(kind = 'comment'), sum(weight) FROM events").Scan(&comments, &weight); err != nil || comments != 2 || weight != 3 {
		t.Fatalf("events: %d comments, weight %d, %v", comments, weight, err)
	}
	var day time.Time
	var daily uint64
	if err := conn.QueryRow(ctx, "SELECT day, sum(weight) FROM events_daily GROUP BY day").Scan(&day, &daily); err != nil || daily != 3 || !day.Equal(time.Date(2026, 3, 14, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("events_daily: %v %d, %v", day, daily, err)
	}
}

func TestChangedMigrationIsRefused(t *testing.T) {
	conn, _ := testenv.Warehouse(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	first := fstest.MapFS{"0001_t.sql": {Data: []byte("CREATE TABLE IF NOT EXISTS t (v UInt8) ENGINE = TinyLog")}}
	all, _ := analytics.ReadMigrations(first)
	if _, err := analytics.Apply(ctx, conn, all); err != nil {
		t.Fatal(err)
	}
	edited := fstest.MapFS{"0001_t.sql": {Data: []byte("CREATE TABLE IF NOT EXISTS t (v UInt16) ENGINE = TinyLog")}}
	all, _ = analytics.ReadMigrations(edited)
	if _, err := analytics.Apply(ctx, conn, all); err == nil || !strings.Contains(err.Error(), "changed after it was applied") {
		t.Fatalf("an edited migration: %v", err)
	}
}

// TestFailedMigrationIsRetried: a file that fails halfway is not recorded,
// and runs again from its first statement once fixed.
func TestFailedMigrationIsRetried(t *testing.T) {
	conn, _ := testenv.Warehouse(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	broken, _ := analytics.ReadMigrations(fstest.MapFS{"0001_two.sql": {Data: []byte(
		"CREATE TABLE IF NOT EXISTS a (v UInt8) ENGINE = TinyLog; CREATE TABLE b (v NoSuchType) ENGINE = TinyLog")}})
	if applied, err := analytics.Apply(ctx, conn, broken); err == nil || len(applied) != 0 || !strings.Contains(err.Error(), "0001_two, statement 2") {
		t.Fatalf("broken migration: applied %v, %v", applied, err)
	}
	fixed, _ := analytics.ReadMigrations(fstest.MapFS{"0001_two.sql": {Data: []byte(
		"CREATE TABLE IF NOT EXISTS a (v UInt8) ENGINE = TinyLog; CREATE TABLE IF NOT EXISTS b (v UInt8) ENGINE = TinyLog")}})
	if applied, err := analytics.Apply(ctx, conn, fixed); err != nil || len(applied) != 1 {
		t.Fatalf("fixed migration: applied %v, %v", applied, err)
	}
}

// TestWarehouseIsMigrated: testenv's database has the embedded migrations
// applied, and each test's database is its own.
func TestWarehouseIsMigrated(t *testing.T) {
	conn, url := testenv.Warehouse(t)
	_, other := testenv.Warehouse(t)
	if url == other {
		t.Fatalf("two warehouses share %s", url)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	all, err := analytics.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	var n uint64
	if err := conn.QueryRow(ctx, "SELECT count() FROM schema_migrations").Scan(&n); err != nil || n != uint64(len(all)) {
		t.Fatalf("schema_migrations holds %d rows (%v), want %d", n, err, len(all))
	}
	if applied, err := analytics.Migrate(ctx, conn); err != nil || len(applied) != 0 {
		t.Fatalf("Migrate on a migrated warehouse applied %v, %v", applied, err)
	}
}

func TestOpenRefusesHTTP(t *testing.T) {
	if _, err := analytics.Open(context.Background(), "http://127.0.0.1:8123/agora"); !errors.Is(err, analytics.ErrNotNative) {
		t.Fatalf("Open over HTTP: %v, want ErrNotNative", err)
	}
}
