package app_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"agora/app"
	"agora/internal/standins/pgserver"
	"agora/relay"
)

// The Debezium tests share one topology per test binary: one private
// Postgres with one Debezium connector on one broker and one Connect
// worker. Each JVM takes tens of seconds to start on a 2-core machine, and
// a topology per test made the package's tests take minutes in CI. Tests
// keep apart by their tables: each reads only its own tables' topics, so
// other tables' changes in the stream do not reach its assertions.
var (
	debeziumOnce sync.Once
	debezium     *debeziumTopology
	debeziumErr  error
)

// debeziumTopology is the shared Postgres and the engines capturing it.
type debeziumTopology struct {
	dir     string // kept when a test failed, for the logs
	url     string // the database agora
	db      *pgxpool.Pool
	pg      *pgserver.Server
	engines *app.RealEngines
}

// TestMain stops the shared topology, if a test started it.
func TestMain(m *testing.M) {
	code := m.Run()
	if debezium != nil {
		debezium.stop(code != 0)
	}
	os.Exit(code)
}

// sharedDebezium starts the topology on its first call and returns it.
func sharedDebezium(t *testing.T) *debeziumTopology {
	t.Helper()
	debeziumOnce.Do(func() { debezium, debeziumErr = startDebeziumTopology() })
	if debeziumErr != nil {
		t.Fatalf("debezium topology: %v", debeziumErr)
	}
	return debezium
}

func startDebeziumTopology() (_ *debeziumTopology, err error) {
	// Not the first test's context: the topology outlives it.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	d := &debeziumTopology{}
	defer func() {
		if err != nil {
			d.stop(true)
		}
	}()
	if d.dir, err = os.MkdirTemp("", "agora-debezium-"); err != nil {
		return nil, err
	}
	// Postgres runs as the postgres user, who must reach its folder.
	if err := os.Chmod(d.dir, 0o755); err != nil {
		return nil, err
	}
	if d.pg, err = pgserver.Start(ctx, filepath.Join(d.dir, "pg"), quietLog()); err != nil {
		return nil, err
	}
	if err := d.pg.CreateDatabase(ctx, "agora"); err != nil {
		return nil, err
	}
	d.url = d.pg.URL("agora")
	if d.db, err = relay.NewPool(ctx, d.url); err != nil {
		return nil, err
	}
	// The connector's snapshot is taken once, when it starts: the
	// envelope test compares Debezium's snapshot reads with the relay's,
	// so its tables and their first rows are made before. The other tests
	// make their own tables later, which the publication (FOR ALL TABLES)
	// streams from their first change.
	if err := seedEnvelope(ctx, d.db); err != nil {
		return nil, err
	}
	if d.engines, err = app.StartRealEngines(ctx, app.EnginesOptions{Dir: filepath.Join(d.dir, "engines"), DatabaseURL: d.url, Brokers: 1, Log: quietLog()}); err != nil {
		return nil, err
	}
	// Wait for the snapshot's end: a Connect killed during it (the replay
	// test kills it) would take the snapshot again, twice in the topics.
	for total(ctx, d.engines.Kafka.Brokers(), "agora", envelopeTables) < envelopeSnapshotRows {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("no snapshot of the envelope tables (see %s)", d.engines.Connect.LogFile())
		case <-time.After(200 * time.Millisecond):
		}
	}
	return d, nil
}

// stop stops the engines (Connect flushes its offsets), then Postgres;
// the folder stays when keep is set.
func (d *debeziumTopology) stop(keep bool) {
	if d.engines != nil {
		d.engines.Close()
	}
	if d.db != nil {
		d.db.Close()
	}
	if d.pg != nil {
		_ = d.pg.Stop()
	}
	if keep {
		fmt.Fprintf(os.Stderr, "debezium topology kept in %s\n", d.dir)
	} else if d.dir != "" {
		_ = os.RemoveAll(d.dir)
	}
}

var tables atomic.Int64

// ownTable is a table name no other call in this test binary returns: a
// test's tables on the shared database are new on every run (-count=2
// too), so it never reads an earlier run's changes.
func ownTable(prefix string) string {
	return fmt.Sprintf("%s_%d", prefix, tables.Add(1))
}
