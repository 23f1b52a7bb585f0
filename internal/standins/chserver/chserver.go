// Package chserver runs a private ClickHouse server from the machine's
// installed binary: the embedded stand-in for the insights warehouse that
// `agora dev` and the test harness use.
//
// The server lives in a folder of its own (config, data, tmp, logs),
// listens on free loopback ports for the native protocol and HTTP (no
// interserver, TLS or other ports), and has one user, default, reachable
// from loopback only with a random password kept in the folder. Its
// settings are small, for a 2-core machine shared with Postgres and the
// tests. Debian's clickhouse-server (18.16) runs as root without complaint
// and owns nothing outside the folder, so unlike Postgres it needs no
// unprivileged user.
package chserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"agora/internal/standins/childproc"
)

// ErrNoServerBinary means no ClickHouse server is installed.
var ErrNoServerBinary = errors.New("chserver: clickhouse-server not found (install it with: scripts/install-deps.sh clickhouse, or apt-get install -y clickhouse-server clickhouse-client)")

// User is the server's only user; the application connects as it.
const User = "default"

// Server is a running private ClickHouse server.
type Server struct {
	dir      string
	password string
	tcpPort  int
	httpPort int
	bin      []string
	log      *slog.Logger

	// Supervised starts the server again when it ends unexpectedly.
	childproc.Supervised
}

// Start writes the server's configuration under dir and starts it, waiting
// until it answers over the native protocol. A server left running on dir
// by a killed earlier run (named in the pid file) is stopped first, and a
// stale pid file is removed, so a start after a crash needs no help.
func Start(ctx context.Context, dir string, log *slog.Logger) (*Server, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, log: log, bin: bin}
	if err := s.prepare(); err != nil {
		return nil, err
	}
	if err := s.clearOrphan(); err != nil {
		return nil, err
	}
	err = childproc.StartRetrying(ctx, log, "clickhouse", 300*time.Millisecond, func() error {
		ports, err := childproc.FreePorts(2)
		if err != nil {
			return err
		}
		s.tcpPort, s.httpPort = ports[0], ports[1]
		return s.launch(ctx, time.Minute)
	})
	if err != nil {
		return nil, err
	}
	go s.watch()
	return s, nil
}

// Binary finds the server: clickhouse-server on PATH or in /usr/sbin
// (Debian's package) or /usr/bin, else the single clickhouse binary of
// ClickHouse's own packages, whose first argument is then "server".
func Binary() ([]string, error) {
	if p, err := exec.LookPath("clickhouse-server"); err == nil {
		return []string{p}, nil
	}
	for _, p := range []string{"/usr/sbin/clickhouse-server", "/usr/bin/clickhouse-server"} {
		if childproc.IsExecutable(p) {
			return []string{p}, nil
		}
	}
	if p, err := exec.LookPath("clickhouse"); err == nil {
		return []string{p, "server"}, nil
	}
	if childproc.IsExecutable("/usr/bin/clickhouse") {
		return []string{"/usr/bin/clickhouse", "server"}, nil
	}
	return nil, ErrNoServerBinary
}

func (s *Server) configFile() string   { return filepath.Join(s.dir, "config.xml") }
func (s *Server) usersFile() string    { return filepath.Join(s.dir, "users.xml") }
func (s *Server) passwordFile() string { return filepath.Join(s.dir, "password") }
func (s *Server) pidFile() string      { return filepath.Join(s.dir, "clickhouse-server.pid") }
func (s *Server) logDir() string       { return filepath.Join(s.dir, "log") }

// prepare makes the folders and the users file, and keeps the password of
// an earlier start so that URLs handed out before a restart still work.
func (s *Server) prepare() error {
	for _, d := range []string{s.dir, s.logDir(), filepath.Join(s.dir, "data")} {
		if err := os.MkdirAll(d, 0o750); err != nil {
			return fmt.Errorf("chserver: %w", err)
		}
	}
	if pw, err := os.ReadFile(s.passwordFile()); err == nil && len(strings.TrimSpace(string(pw))) > 0 {
		s.password = strings.TrimSpace(string(pw))
	} else {
		s.password = childproc.RandomHex(24)
		if err := os.WriteFile(s.passwordFile(), []byte(s.password+"\n"), 0o600); err != nil {
			return fmt.Errorf("chserver: %w", err)
		}
	}
	return writeFile(s.usersFile(), usersXML(s.password))
}

// clearOrphan handles what a killed parent leaves: a server still running
// on this folder (asked to stop, then killed) or a pid file whose process
// is gone or is something else (removed). ClickHouse itself writes no pid
// file when it runs in the foreground, so the file is agora's own; the
// server's lock on data/status is released by the kernel when it dies.
func (s *Server) clearOrphan() error {
	data, err := os.ReadFile(s.pidFile())
	if err != nil {
		return nil
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	// The config path is on the command line of this folder's server only.
	if !childproc.Running(pid, s.configFile()) {
		s.log.Warn("removing a stale clickhouse pid file", "pid", pid)
		return os.Remove(s.pidFile())
	}
	s.log.Warn("stopping an orphaned clickhouse-server left by an earlier run", "pid", pid)
	_ = syscall.Kill(pid, syscall.SIGTERM)
	if waitGone(pid, s.configFile(), 30*time.Second) {
		return os.Remove(s.pidFile())
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	if waitGone(pid, s.configFile(), 5*time.Second) {
		return os.Remove(s.pidFile())
	}
	return fmt.Errorf("chserver: clickhouse-server (pid %d) on %s does not stop", pid, s.dir)
}

func waitGone(pid int, marker string, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if !childproc.Running(pid, marker) {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// launch starts the server on s.tcpPort and s.httpPort and waits until it
// answers, at most wait.
func (s *Server) launch(ctx context.Context, wait time.Duration) error {
	bin := s.bin
	if err := writeFile(s.configFile(), s.configXML()); err != nil {
		return err
	}
	// Output before the logger starts (and a crash's) lands here.
	out, err := os.OpenFile(filepath.Join(s.logDir(), "stderr.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o640)
	if err != nil {
		return err
	}
	args := append(append([]string{}, bin[1:]...), "--config-file="+s.configFile())
	cmd := exec.Command(bin[0], args...)
	cmd.Dir = s.dir
	cmd.Stdout, cmd.Stderr = out, out
	// Pdeathsig asks the kernel to stop the server (gracefully) if this
	// process dies without stopping it; Setpgid keeps a Ctrl-C in the
	// terminal from reaching it before agora has finished with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM, Setpgid: true}
	begin := time.Now()
	exited, err := childproc.Start(cmd)
	out.Close() // the child has its own copy
	if err != nil {
		return fmt.Errorf("chserver: start clickhouse-server: %w", err)
	}
	s.Started(cmd, exited)
	if err := writeFile(s.pidFile(), strconv.Itoa(cmd.Process.Pid)+"\n"); err != nil {
		_ = halt(cmd, exited)
		return err
	}

	deadline := time.Now().Add(wait)
	for {
		select {
		case <-exited:
			s.removePidFile()
			return fmt.Errorf("chserver: clickhouse-server exited during start (%v); see %s", cmd.ProcessState, filepath.Join(s.logDir(), "clickhouse-server.err.log"))
		default:
		}
		if err := s.ping(ctx); err == nil {
			s.log.Info("clickhouse started", "addr", s.Addr(), "took", time.Since(begin).Round(time.Millisecond))
			return nil
		} else if time.Now().After(deadline) || ctx.Err() != nil {
			_ = halt(cmd, exited)
			s.removePidFile()
			return fmt.Errorf("chserver: clickhouse-server not ready: %w", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// watch starts the server again, on the same ports and with the same
// password, whenever it dies (a signal or a failure status, not a clean
// shutdown), so that the warehouse's clients
// (the projection retries its batches, the reports their next call) carry
// on: Debian's ClickHouse 18.16 can crash (a segfault while creating a
// MergeTree read task was seen once in a 20-minute insights benchmark).
// A start may take 15 minutes: after a crash 18.16 first loads every part,
// those a merge had replaced too, minutes with millions of rows.
func (s *Server) watch() {
	s.Watch(s.log, "clickhouse-server", filepath.Join(s.logDir(), "clickhouse-server.err.log"), func() error { return s.launch(context.Background(), 15*time.Minute) }, s.Stop)
}

// connect opens a connection to database on this server.
func (s *Server) connect(database string) (driver.Conn, error) {
	return clickhouse.Open(&clickhouse.Options{
		Addr:        []string{s.Addr()},
		Auth:        clickhouse.Auth{Database: database, Username: User, Password: s.password},
		DialTimeout: time.Second,
		// One connection is all the server's own calls need.
		MaxOpenConns: 1, MaxIdleConns: 1,
	})
}

func (s *Server) ping(ctx context.Context) error {
	conn, err := s.connect("default")
	if err != nil {
		return err
	}
	defer conn.Close()
	cctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return conn.Ping(cctx)
}

// Addr is host:port of the native protocol interface.
func (s *Server) Addr() string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.tcpPort))
}

// HTTPAddr is host:port of the HTTP interface (for curl and a browser;
// clickhouse-go's HTTP mode does not work with 18.16).
func (s *Server) HTTPAddr() string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.httpPort))
}

// URL is the clickhouse:// (native protocol) URL of database on this
// server, in the form CLICKHOUSE_URL takes.
func (s *Server) URL(database string) string {
	u := url.URL{
		Scheme: "clickhouse",
		User:   url.UserPassword(User, s.password),
		Host:   s.Addr(),
		Path:   "/" + database,
	}
	return u.String()
}

// CreateDatabase creates name if it does not exist yet.
func (s *Server) CreateDatabase(ctx context.Context, name string) error {
	conn, err := s.connect("default")
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Exec(ctx, "CREATE DATABASE IF NOT EXISTS "+QuoteIdentifier(name))
}

// QuoteIdentifier quotes a database or table name for ClickHouse SQL.
func QuoteIdentifier(name string) string {
	return "`" + strings.NewReplacer(`\`, `\\`, "`", "\\`").Replace(name) + "`"
}

// Stop asks the server to shut down (it finishes running queries and
// flushes) and waits for it; after 30 s it is killed.
func (s *Server) Stop() error {
	cmd, exited := s.Stopping()
	if cmd == nil || cmd.Process == nil {
		return nil
	}
	defer s.removePidFile()
	return halt(cmd, exited)
}

// Kill ends the server with SIGKILL, as a crash would, and waits for it;
// the server is then started again as after any unexpected end (watch).
// The fault tests call it.
func (s *Server) Kill() error {
	cmd, exited := s.Current()
	if cmd == nil || cmd.Process == nil {
		return nil
	}
	err := cmd.Process.Kill()
	<-exited
	return err
}

// Restart starts a server that Stop stopped again, on the same ports and
// with the same password, so the clients made before carry on (the fault
// tests stop the warehouse under writes and bring it back).
func (s *Server) Restart(ctx context.Context) error {
	s.Resume()
	if err := s.launch(ctx, time.Minute); err != nil {
		return err
	}
	go s.watch()
	return nil
}

// halt asks the server process cmd to shut down and waits for it; after
// 30 s it is killed.
func halt(cmd *exec.Cmd, exited <-chan struct{}) error {
	select {
	case <-exited:
		return nil
	default:
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
		return nil
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
		return errors.New("chserver: clickhouse-server had to be killed")
	}
}

// removePidFile removes the pid file if it still names this server (a
// later Start on the same folder may have replaced it).
func (s *Server) removePidFile() {
	data, err := os.ReadFile(s.pidFile())
	if err == nil && strings.TrimSpace(string(data)) == strconv.Itoa(s.PID()) {
		_ = os.Remove(s.pidFile())
	}
}

// configXML is the server configuration. The root element is <yandex>,
// which 18.16 needs and later versions still read. Settings that only
// newer versions know are left out: 18.16 ignores unknown server keys but
// refuses unknown profile settings.
func (s *Server) configXML() string {
	d := s.dir
	return `<?xml version="1.0"?>
<!-- Written by agora on every start: the embedded ClickHouse server. -->
<yandex>
    <logger>
        <level>information</level>
        <log>` + xmlText(filepath.Join(d, "log", "clickhouse-server.log")) + `</log>
        <errorlog>` + xmlText(filepath.Join(d, "log", "clickhouse-server.err.log")) + `</errorlog>
        <size>10M</size>
        <count>2</count>
    </logger>

    <!-- Loopback only; no interserver, TLS, MySQL or PostgreSQL ports. -->
    <listen_host>127.0.0.1</listen_host>
    <tcp_port>` + strconv.Itoa(s.tcpPort) + `</tcp_port>
    <http_port>` + strconv.Itoa(s.httpPort) + `</http_port>

    <path>` + xmlText(filepath.Join(d, "data")+"/") + `</path>
    <tmp_path>` + xmlText(filepath.Join(d, "tmp")+"/") + `</tmp_path>
    <user_files_path>` + xmlText(filepath.Join(d, "user_files")+"/") + `</user_files_path>
    <format_schema_path>` + xmlText(filepath.Join(d, "format_schemas")+"/") + `</format_schema_path>
    <users_config>` + xmlText(s.usersFile()) + `</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <timezone>UTC</timezone>

    <!-- Small, for a 2-core machine shared with Postgres and the tests
         (the defaults are 5 GiB of marks and 8 GiB of uncompressed cache). -->
    <mark_cache_size>268435456</mark_cache_size>
    <uncompressed_cache_size>134217728</uncompressed_cache_size>
    <max_connections>256</max_connections>
    <max_concurrent_queries>64</max_concurrent_queries>
    <keep_alive_timeout>3</keep_alive_timeout>
    <mlock_executable>false</mlock_executable>
</yandex>
`
}

// usersXML is the users file: one user, default, with password (kept as
// its SHA-256), reachable from loopback only.
func usersXML(password string) string {
	sum := sha256.Sum256([]byte(password))
	return `<?xml version="1.0"?>
<!-- Written by agora on every start: the embedded ClickHouse server's users. -->
<yandex>
    <profiles>
        <default>
            <!-- Per query; the machine has 24 GiB for everything. -->
            <max_memory_usage>2000000000</max_memory_usage>
            <max_bytes_before_external_group_by>1000000000</max_bytes_before_external_group_by>
            <max_bytes_before_external_sort>1000000000</max_bytes_before_external_sort>
            <max_threads>2</max_threads>
            <use_uncompressed_cache>0</use_uncompressed_cache>
            <!-- An idle connection notices a shutdown within a second, not
                 ten, so Stop is quick while clients still hold connections. -->
            <poll_interval>1</poll_interval>
            <!-- LowCardinality is experimental in 18.16 and needs this. -->
            <allow_experimental_low_cardinality_type>1</allow_experimental_low_cardinality_type>
        </default>
    </profiles>
    <users>
        <default>
            <password_sha256_hex>` + hex.EncodeToString(sum[:]) + `</password_sha256_hex>
            <networks>
                <ip>127.0.0.1</ip>
                <ip>::1</ip>
            </networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
    </users>
    <quotas>
        <default>
            <interval>
                <duration>3600</duration>
                <queries>0</queries>
                <errors>0</errors>
                <result_rows>0</result_rows>
                <read_rows>0</read_rows>
                <execution_time>0</execution_time>
            </interval>
        </default>
    </quotas>
</yandex>
`
}

func xmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// writeFile replaces path's content atomically, so that a server reading
// it never sees half a file.
func writeFile(path, content string) error {
	if err := childproc.WriteFile(path, content, 0o640); err != nil {
		return fmt.Errorf("chserver: %w", err)
	}
	return nil
}
