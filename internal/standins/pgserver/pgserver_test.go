package pgserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// clusterDir is a fresh folder for a cluster that the unprivileged postgres
// user can reach when the tests run as root (t.TempDir's parent is 0700).
func clusterDir(t *testing.T) string {
	t.Helper()
	if _, err := BinDir(); errors.Is(err, ErrNoServerBinaries) {
		t.Fatal(err, " (make test installs the server: scripts/install-deps.sh)")
	}
	dir, err := os.MkdirTemp("", "agora-pgserver-test-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return filepath.Join(dir, "pg")
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// handle is a started server; tests and their cleanup may both stop it,
// which Stop allows.
type handle struct {
	*Server
}

// start starts a server on dir and stops it when the test ends.
func start(t *testing.T, ctx context.Context, dir string) *handle {
	t.Helper()
	s, err := Start(ctx, dir, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	h := &handle{Server: s}
	t.Cleanup(func() { _ = h.Stop() })
	return h
}

func connect(t *testing.T, ctx context.Context, s *handle, db string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(ctx, s.URL(db))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

func lockFile(dir string) string { return filepath.Join(dir, "data", "postmaster.pid") }

// lockPID is the pid recorded in the cluster's postmaster.pid.
func lockPID(t *testing.T, dir string) int {
	t.Helper()
	b, err := os.ReadFile(lockFile(dir))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	if err != nil {
		t.Fatalf("postmaster.pid: %v", err)
	}
	return pid
}

// writeLock writes a postmaster.pid that names pid, in the layout postgres
// writes (pid, data folder, start time, port, socket dir, ...).
func writeLock(t *testing.T, dir string, pid int) {
	t.Helper()
	content := fmt.Sprintf("%d\n%s\n%d\n5432\n%s\n127.0.0.1\n  5432001         0\nready   \n",
		pid, filepath.Join(dir, "data"), time.Now().Unix(), filepath.Join(dir, "run"))
	if err := os.WriteFile(lockFile(dir), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestStartCreateStopRestartKeepsData(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := clusterDir(t)

	s := start(t, ctx, dir)
	if s.Port() <= 0 {
		t.Fatalf("port %d", s.Port())
	}
	if !strings.HasPrefix(s.URL("agora"), "postgres://agora:") || !strings.Contains(s.URL("agora"), "/agora?sslmode=disable") {
		t.Fatalf("URL %q", s.URL("agora"))
	}
	// The cluster files belong to the server user; the folder must keep the
	// password so that a restart can connect.
	if _, err := os.Stat(filepath.Join(dir, "password")); err != nil {
		t.Fatalf("password file: %v", err)
	}
	for i := 0; i < 2; i++ {
		if err := s.CreateDatabase(ctx, "agora"); err != nil {
			t.Fatalf("CreateDatabase #%d: %v", i+1, err)
		}
	}
	// A name that needs quoting is created as given.
	if err := s.CreateDatabase(ctx, "Agora Test"); err != nil {
		t.Fatalf("CreateDatabase with a quoted name: %v", err)
	}
	conn := connect(t, ctx, s, "agora")
	if _, err := conn.Exec(ctx, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('before restart')"); err != nil {
		t.Fatal(err)
	}
	var level string
	if err := conn.QueryRow(ctx, "SHOW wal_level").Scan(&level); err != nil || level != "logical" {
		t.Fatalf("wal_level = %q (%v), want logical", level, err)
	}
	var keep string
	if err := conn.QueryRow(ctx, "SHOW max_slot_wal_keep_size").Scan(&keep); err != nil || keep == "-1" {
		t.Fatalf("max_slot_wal_keep_size = %q (%v), want a bound", keep, err)
	}
	_ = conn.Close(ctx)

	if err := s.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if _, err := os.Stat(lockFile(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("postmaster.pid after Stop: %v", err)
	}

	begin := time.Now()
	s2 := start(t, ctx, dir)
	t.Logf("restart on existing data in %v", time.Since(begin).Round(time.Millisecond))
	if err := s2.CreateDatabase(ctx, "agora"); err != nil {
		t.Fatalf("CreateDatabase after restart: %v", err)
	}
	var v string
	if err := connect(t, ctx, s2, "agora").QueryRow(ctx, "SELECT v FROM kept").Scan(&v); err != nil || v != "before restart" {
		t.Fatalf("after restart: %q, %v", v, err)
	}
}

func TestStartClearsStaleLockFile(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := clusterDir(t)

	s := start(t, ctx, dir)
	if err := s.CreateDatabase(ctx, "agora"); err != nil {
		t.Fatal(err)
	}
	if _, err := connect(t, ctx, s, "agora").Exec(ctx, "CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)"); err != nil {
		t.Fatal(err)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}

	t.Run("dead pid", func(t *testing.T) {
		// 999999 is above any pid_max of a 64-bit Linux (at most 2^22).
		writeLock(t, dir, 999999)
		s := start(t, ctx, dir)
		if pid := lockPID(t, dir); pid == 999999 || pid != s.PID() {
			t.Fatalf("postmaster.pid names %d, want the new server %d", pid, s.PID())
		}
		var n int
		if err := connect(t, ctx, s, "agora").QueryRow(ctx, "SELECT v FROM kept").Scan(&n); err != nil || n != 42 {
			t.Fatalf("data after start over a stale lock: %d, %v", n, err)
		}
		if err := s.Stop(); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("live pid that is not postgres", func(t *testing.T) {
		// A recycled pid: postgres itself would refuse to start on this lock.
		sleep := exec.Command("sleep", "60")
		if err := sleep.Start(); err != nil {
			t.Skip("no sleep command:", err)
		}
		t.Cleanup(func() { _ = sleep.Process.Kill(); _ = sleep.Wait() })
		writeLock(t, dir, sleep.Process.Pid)
		s := start(t, ctx, dir)
		if pid := lockPID(t, dir); pid != s.PID() {
			t.Fatalf("postmaster.pid names %d, want the new server %d", pid, s.PID())
		}
		if err := s.Stop(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestStartStopsOrphanedServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := clusterDir(t)

	// The first server is never stopped by its owner, as after a crash. It
	// is stopped here only if the test fails before replacing it.
	o, err := Start(ctx, dir, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	orphan := &handle{Server: o}
	replaced := false
	t.Cleanup(func() {
		if !replaced {
			_ = orphan.Stop()
		}
	})
	orphanPID := orphan.PID()
	if err := orphan.CreateDatabase(ctx, "agora"); err != nil {
		t.Fatal(err)
	}
	if _, err := connect(t, ctx, orphan, "agora").Exec(ctx, "CREATE TABLE kept (v int); INSERT INTO kept VALUES (7)"); err != nil {
		t.Fatal(err)
	}

	s := start(t, ctx, dir)
	select {
	case <-orphan.Exited():
		replaced = true // Stop would now wait for an exit already received
	case <-time.After(5 * time.Second):
		t.Fatalf("orphaned postgres %d still running after a new Start", orphanPID)
	}
	if pid := lockPID(t, dir); pid != s.PID() {
		t.Fatalf("postmaster.pid names %d, want the new server %d", pid, s.PID())
	}
	var n int
	if err := connect(t, ctx, s, "agora").QueryRow(ctx, "SELECT v FROM kept").Scan(&n); err != nil || n != 7 {
		t.Fatalf("data after replacing the orphan: %d, %v", n, err)
	}
}

func TestStartRedoesHalfFinishedInit(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := clusterDir(t)
	// What an interrupted initdb leaves: a data folder and no password file.
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "PG_VERSION"), []byte("15\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := start(t, ctx, dir)
	if err := s.CreateDatabase(ctx, "agora"); err != nil {
		t.Fatal(err)
	}
}

// TestStopTwice: a second Stop returns at once instead of waiting for an
// exit it already saw.
func TestStopTwice(t *testing.T) {
	s, err := Start(context.Background(), clusterDir(t), quietLog())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Stop() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("second Stop hangs")
	}
}

// TestKilledServerIsStartedAgain: a server that dies (here SIGKILL, in the
// fault tests and a full disk a failed recovery) is started again on its
// port with its data, and one that Stop ended is not.
func TestKilledServerIsStartedAgain(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s := start(t, ctx, clusterDir(t))
	port := s.Port()
	if _, err := connect(t, ctx, s, "postgres").Exec(ctx, "CREATE TABLE kept (v int); INSERT INTO kept VALUES (9)"); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	if err := s.Kill(); err != nil {
		t.Fatal(err)
	}
	for s.Restarts() == 0 {
		if time.Since(killed) > time.Minute {
			t.Fatal("postgres not started again within a minute of SIGKILL")
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("started again %v after SIGKILL", time.Since(killed).Round(time.Millisecond))
	var n int
	if err := connect(t, ctx, s, "postgres").QueryRow(ctx, "SELECT v FROM kept").Scan(&n); err != nil || n != 9 || s.Port() != port {
		t.Fatalf("after the restart: port %d (was %d), kept %d, %v", s.Port(), port, n, err)
	}

	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	if err := s.ping(ctx); err == nil || s.Restarts() != 1 {
		t.Fatalf("a stopped server was started again (ping %v, %d restarts)", err, s.Restarts())
	}
}
