package chserver

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"agora/internal/standins/childproc"
)

// serverDir is a fresh folder for a server.
func serverDir(t *testing.T) string {
	t.Helper()
	if _, err := Binary(); errors.Is(err, ErrNoServerBinary) {
		t.Fatal(err, " (make test installs it: scripts/install-deps.sh clickhouse)")
	}
	return filepath.Join(t.TempDir(), "ch")
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// start starts a server on dir and stops it when the test ends.
func start(t *testing.T, ctx context.Context, dir string) *Server {
	t.Helper()
	begin := time.Now()
	s, err := Start(ctx, dir, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("started in %v", time.Since(begin).Round(time.Millisecond))
	t.Cleanup(func() { _ = s.Stop() })
	return s
}

func connect(t *testing.T, s *Server, database string) driver.Conn {
	t.Helper()
	opts, err := clickhouse.ParseDSN(s.URL(database))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := clickhouse.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func pidOnFile(t *testing.T, dir string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "clickhouse-server.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func writePid(t *testing.T, dir string, pid int) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "clickhouse-server.pid"), []byte(strconv.Itoa(pid)+"\n"), 0o640); err != nil {
		t.Fatal(err)
	}
}

func TestStartQueryStopRestartKeepsData(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := serverDir(t)

	s := start(t, ctx, dir)
	if !strings.HasPrefix(s.URL("agora"), "clickhouse://default:") || !strings.HasSuffix(s.URL("agora"), s.Addr()+"/agora") {
		t.Fatalf("URL %q", s.URL("agora"))
	}
	if s.Addr() == s.HTTPAddr() {
		t.Fatalf("native and HTTP share %s", s.Addr())
	}
	for i := 0; i < 2; i++ {
		if err := s.CreateDatabase(ctx, "agora"); err != nil {
			t.Fatalf("CreateDatabase #%d: %v", i+1, err)
		}
	}
	conn := connect(t, s, "agora")
	var version string
	if err := conn.QueryRow(ctx, "SELECT version()").Scan(&version); err != nil || version == "" {
		t.Fatalf("SELECT version(): %q, %v", version, err)
	}
	t.Logf("ClickHouse %s", version)
	var tz string
	if err := conn.QueryRow(ctx, "SELECT timezone()").Scan(&tz); err != nil || (tz != "UTC" && tz != "Etc/UTC") {
		t.Fatalf("timezone() = %q, %v; want UTC", tz, err)
	}
	// The default profile's settings are in force.
	var lowCardinality string
	if err := conn.QueryRow(ctx, "SELECT value FROM system.settings WHERE name = 'allow_experimental_low_cardinality_type'").Scan(&lowCardinality); err != nil || lowCardinality != "1" {
		t.Fatalf("allow_experimental_low_cardinality_type = %q, %v", lowCardinality, err)
	}
	if err := conn.Exec(ctx, "CREATE TABLE kept (v String) ENGINE = MergeTree ORDER BY v"); err != nil {
		t.Fatal(err)
	}
	// INSERT … VALUES through Exec hangs on 18.16 (the server waits for a
	// data block the client never sends); INSERT … SELECT and batches work.
	if err := conn.Exec(ctx, "INSERT INTO kept (v) SELECT 'before restart'"); err != nil {
		t.Fatal(err)
	}
	_ = conn.Close()

	// A wrong password is refused: the user is not open.
	bad := strings.Replace(s.URL("agora"), s.password, "wrong", 1)
	if opts, err := clickhouse.ParseDSN(bad); err == nil {
		if c, err := clickhouse.Open(opts); err == nil {
			if err := c.Ping(ctx); err == nil {
				t.Fatal("a wrong password was accepted")
			}
			_ = c.Close()
		}
	}

	begin := time.Now()
	if err := s.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	t.Logf("stopped in %v", time.Since(begin).Round(time.Millisecond))
	if _, err := os.Stat(filepath.Join(dir, "clickhouse-server.pid")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("pid file after Stop: %v", err)
	}
	if err := s.Stop(); err != nil {
		t.Fatalf("second Stop: %v", err)
	}

	s2 := start(t, ctx, dir)
	var v string
	if err := connect(t, s2, "agora").QueryRow(ctx, "SELECT v FROM kept").Scan(&v); err != nil || v != "before restart" {
		t.Fatalf("after restart: %q, %v", v, err)
	}
}

func TestStaleAndOrphanedServers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := serverDir(t)

	// The first server is never stopped by its owner, as after a crash.
	orphan, err := Start(ctx, dir, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = orphan.Stop() })
	if err := orphan.CreateDatabase(ctx, "agora"); err != nil {
		t.Fatal(err)
	}
	if err := connect(t, orphan, "agora").Exec(ctx, "CREATE TABLE kept (v UInt8) ENGINE = TinyLog"); err != nil {
		t.Fatal(err)
	}

	t.Run("orphaned server", func(t *testing.T) {
		s := start(t, ctx, dir)
		select {
		case <-orphan.Exited():
		case <-time.After(5 * time.Second):
			t.Fatalf("orphaned clickhouse-server %d still running after a new Start", orphan.PID())
		}
		if pid := pidOnFile(t, dir); pid != s.PID() {
			t.Fatalf("pid file names %d, want the new server %d", pid, s.PID())
		}
		if err := connect(t, s, "agora").Exec(ctx, "INSERT INTO kept (v) SELECT 1"); err != nil {
			t.Fatalf("data after replacing the orphan: %v", err)
		}
		if err := s.Stop(); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("dead pid", func(t *testing.T) {
		// 999999 is above any pid_max of a 64-bit Linux (at most 2^22).
		writePid(t, dir, 999999)
		s := start(t, ctx, dir)
		if pid := pidOnFile(t, dir); pid != s.PID() {
			t.Fatalf("pid file names %d, want the new server %d", pid, s.PID())
		}
		if err := s.Stop(); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("live pid that is not this server", func(t *testing.T) {
		// A recycled pid must be neither obeyed nor killed.
		sleep := exec.Command("sleep", "60")
		if err := sleep.Start(); err != nil {
			t.Skip("no sleep command:", err)
		}
		t.Cleanup(func() { _ = sleep.Process.Kill(); _ = sleep.Wait() })
		writePid(t, dir, sleep.Process.Pid)
		s := start(t, ctx, dir)
		if pid := pidOnFile(t, dir); pid != s.PID() {
			t.Fatalf("pid file names %d, want the new server %d", pid, s.PID())
		}
		if err := sleep.Process.Signal(syscall.Signal(0)); err != nil {
			t.Fatalf("the unrelated process was stopped: %v", err)
		}
		if err := s.Stop(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestQuoteIdentifier(t *testing.T) {
	for in, want := range map[string]string{
		"agora":     "`agora`",
		"a`b":       "`a\\`b`",
		`back\hack`: "`back\\\\hack`",
	} {
		if got := QuoteIdentifier(in); got != want {
			t.Errorf("QuoteIdentifier(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestStartedAgainAfterACrash kills the server as a crash would: it is
// started again on the same address with the same password, its data
// kept, and the same client's next calls work; after Stop it stays down.
func TestStartedAgainAfterACrash(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s := start(t, ctx, serverDir(t))
	if err := s.CreateDatabase(ctx, "agora"); err != nil {
		t.Fatal(err)
	}
	conn := connect(t, s, "agora")
	if err := conn.Exec(ctx, "CREATE TABLE kept (v String) ENGINE = MergeTree ORDER BY v"); err != nil {
		t.Fatal(err)
	}
	if err := conn.Exec(ctx, "INSERT INTO kept (v) SELECT 'before the crash'"); err != nil {
		t.Fatal(err)
	}
	addr, first := s.Addr(), pidOnFile(t, s.dir)
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var v string
	deadline := time.Now().Add(60 * time.Second)
	for {
		err := conn.QueryRow(ctx, "SELECT v FROM kept").Scan(&v)
		if err == nil && s.Restarts() == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not back after a crash: %v (restarts %d)", err, s.Restarts())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if v != "before the crash" || s.Addr() != addr || pidOnFile(t, s.dir) == first {
		t.Fatalf("after the crash: %q on %s (was %s), pid %d (was %d)", v, s.Addr(), addr, pidOnFile(t, s.dir), first)
	}
	pid := pidOnFile(t, s.dir)
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	if childproc.Running(pid, s.configFile()) || s.Restarts() != 1 {
		t.Fatalf("after Stop: running %v, restarts %d", childproc.Running(pid, s.configFile()), s.Restarts())
	}
}
