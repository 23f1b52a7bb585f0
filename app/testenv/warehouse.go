package testenv

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"agora/analytics"
	"agora/app"
	"agora/internal/standins/chserver"
)

// One ClickHouse server per test binary, started by the first Warehouse
// call and stopped by Main; each test gets a database of its own on it.
var (
	warehouseServer *chserver.Server
	warehouseDir    string
	warehouseErr    error
	warehouseOnce   sync.Once
)

func startWarehouse() {
	warehouseDir, warehouseErr = os.MkdirTemp("", "agora-test-clickhouse-")
	if warehouseErr != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	warehouseServer, warehouseErr = chserver.Start(ctx, warehouseDir, log)
}

// stopWarehouse stops the shared server, if one was started.
func stopWarehouse() {
	if warehouseServer != nil {
		_ = warehouseServer.Stop()
	}
	if warehouseDir != "" {
		_ = os.RemoveAll(warehouseDir)
	}
}

var notIdentifier = regexp.MustCompile(`[^a-z0-9_]+`)

// Warehouse gives t a fresh, migrated warehouse database of its own on the
// test binary's shared ClickHouse server: an open connection to it and its
// clickhouse:// URL (CLICKHOUSE_URL's form). The database is dropped and
// the connection closed when t ends. Packages that use it call
// testenv.Main from TestMain, which stops the server.
func Warehouse(t testing.TB) (driver.Conn, string) {
	t.Helper()
	warehouseOnce.Do(startWarehouse)
	if warehouseErr != nil {
		t.Fatalf("testenv: warehouse: %v", warehouseErr)
	}
	return WarehouseOn(t, warehouseServer)
}

// OwnWarehouse starts a ClickHouse server for t alone (stopped when t
// ends), for a test that stops and starts it, and gives a fresh, migrated
// database on it as Warehouse does.
func OwnWarehouse(t testing.TB) (*chserver.Server, driver.Conn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir, err := os.MkdirTemp("", "agora-test-clickhouse-")
	if err != nil {
		t.Fatal(err)
	}
	s, err := chserver.Start(ctx, dir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		_ = os.RemoveAll(dir)
		t.Fatalf("testenv: warehouse: %v", err)
	}
	t.Cleanup(func() {
		_ = s.Stop()
		_ = os.RemoveAll(dir)
	})
	conn, _ := WarehouseOn(t, s)
	return s, conn
}

// WarehouseOn makes a fresh, migrated database on s for t (another one
// each call: a scratch warehouse beside the test's, say), dropped when t
// ends, and gives it as Warehouse does.
func WarehouseOn(t testing.TB, s *chserver.Server) (driver.Conn, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The test's name, made an identifier, and a unique tail (kept when a
	// long name is cut) tell the databases of a failed run apart.
	name := notIdentifier.ReplaceAllString(strings.ToLower(Unique(t.Name())), "_")
	if len(name) > 80 {
		name = name[len(name)-80:]
	}
	name = "test_" + strings.Trim(name, "_")
	if err := s.CreateDatabase(ctx, name); err != nil {
		t.Fatalf("testenv: warehouse: %v", err)
	}
	url := s.URL(name)
	conn, err := analytics.Open(ctx, url)
	if err != nil {
		t.Fatalf("testenv: warehouse: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = conn.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s", chserver.QuoteIdentifier(name)))
		_ = conn.Close()
	})
	if err := app.MigrateWarehouse(ctx, conn, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatalf("testenv: warehouse migrations: %v", err)
	}
	return conn, url
}
