// Package pgserver runs a private PostgreSQL cluster from the machine's
// server binaries: the embedded stand-in for a managed Postgres that
// `agora dev` and the test harness use.
//
// The cluster lives in a folder of its own, listens on a free loopback port,
// keeps its socket in the data folder, and has wal_level=logical so the CDC
// relay can read it. initdb refuses to run as root, so when the process is
// root the server runs as an unprivileged system user. A server that ends
// unexpectedly is started again on its port (see watch).
package pgserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"agora/internal/standins/childproc"
)

// ErrNoServerBinaries means no PostgreSQL server package is installed.
var ErrNoServerBinaries = errors.New("pgserver: PostgreSQL server binaries not found (install them with: apt-get install -y postgresql)")

// Server is a running private cluster.
type Server struct {
	bin      string
	cred     *syscall.Credential
	dir      string
	port     int
	password string
	log      *slog.Logger

	// Supervised starts the server again when it ends unexpectedly.
	childproc.Supervised
}

// superuser is the cluster's bootstrap role; the application connects as it.
const superuser = "agora"

// Start initialises dir on first use and starts the server. A stale lock
// file or an orphaned postmaster left by a killed parent is cleared first,
// so a start after a crash needs no help.
func Start(ctx context.Context, dir string, log *slog.Logger) (*Server, error) {
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	cred, err := runAs()
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, log: log, bin: bin, cred: cred}
	if err := s.ensureInit(ctx, bin, cred); err != nil {
		return nil, err
	}
	if err := s.clearOrphan(); err != nil {
		return nil, err
	}
	// A port can be taken between choosing and binding it; try a few.
	for attempt := 0; ; attempt++ {
		var ports []int
		if ports, err = childproc.FreePorts(1); err != nil {
			return nil, err
		}
		s.port = ports[0]
		err = s.launch(ctx)
		if err == nil {
			go s.watch()
			return s, nil
		}
		if attempt == 4 || ctx.Err() != nil {
			return nil, err
		}
		log.Warn("postgres start failed, retrying", "err", err)
		time.Sleep(300 * time.Millisecond)
	}
}

// BinDir finds the server binaries: pg_config --bindir, else the newest
// /usr/lib/postgresql/N/bin.
func BinDir() (string, error) {
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		d := strings.TrimSpace(string(out))
		if fileExists(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if fileExists(filepath.Join(d, "postgres")) && fileExists(filepath.Join(d, "initdb")) {
			return d, nil
		}
	}
	return "", ErrNoServerBinaries
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// runAs returns the credential to run postgres with: nil when not root,
// otherwise the postgres system user that Debian's server package creates.
func runAs() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("pgserver: running as root needs the unprivileged 'postgres' user (apt-get install -y postgresql creates it): %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func (s *Server) pgdata() string       { return filepath.Join(s.dir, "data") }
func (s *Server) socketDir() string    { return filepath.Join(s.dir, "run") }
func (s *Server) passwordFile() string { return filepath.Join(s.dir, "password") }

func (s *Server) ensureInit(ctx context.Context, bin string, cred *syscall.Credential) error {
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return fmt.Errorf("pgserver: %w", err)
	}
	if pw, err := os.ReadFile(s.passwordFile()); err == nil && fileExists(filepath.Join(s.pgdata(), "PG_VERSION")) {
		s.password = strings.TrimSpace(string(pw))
		return chownTree(s.socketDir(), cred)
	}
	// A half-finished earlier init leaves a folder initdb refuses; start over.
	if err := os.RemoveAll(s.pgdata()); err != nil {
		return fmt.Errorf("pgserver: %w", err)
	}
	if cred != nil {
		if err := checkTraversable(s.dir, int(cred.Uid)); err != nil {
			return err
		}
	}
	s.password = childproc.RandomHex(24)
	pwFile := filepath.Join(s.dir, "initdb.pw")
	if err := os.WriteFile(pwFile, []byte(s.password+"\n"), 0o600); err != nil {
		return err
	}
	defer os.Remove(pwFile)
	for _, d := range []string{s.pgdata(), s.socketDir()} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	if err := chownTree(s.dir, cred); err != nil {
		return err
	}
	s.log.Info("creating a private PostgreSQL cluster", "dir", s.pgdata())
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "initdb"),
		"-D", s.pgdata(), "-U", superuser, "--pwfile", pwFile,
		"--auth-local=scram-sha-256", "--auth-host=scram-sha-256",
		"-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
	cmd.Dir = s.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pgserver: initdb: %w: %s", err, out)
	}
	conf := strings.Join([]string{
		"# Written by agora: settings of the embedded cluster.",
		"listen_addresses = '127.0.0.1'",
		"wal_level = logical",
		"max_wal_senders = 10",
		"max_replication_slots = 10",
		// A slot keeps WAL until its reader confirms it; a reader gone for
		// good (Debezium's after agora dev --engines real, a test's relay)
		// would keep it until the disk is full. Past this, Postgres gives
		// the slot up instead, as deploy/'s Postgres does.
		"max_slot_wal_keep_size = 1GB",
		"max_connections = 200",
		"shared_buffers = 128MB",
		"fsync = on",
		"synchronous_commit = on",
		"log_min_messages = warning",
		"",
	}, "\n")
	if err := appendFile(filepath.Join(s.pgdata(), "postgresql.conf"), conf); err != nil {
		return err
	}
	// The password file is written last: its presence marks a finished init.
	return os.WriteFile(s.passwordFile(), []byte(s.password+"\n"), 0o600)
}

// clearOrphan handles what a killed parent leaves: a postmaster still running
// on this folder (it is told to shut down fast) or a lock file whose process
// is gone or is not postgres (it is removed).
func (s *Server) clearOrphan() error {
	lock := filepath.Join(s.pgdata(), "postmaster.pid")
	data, err := os.ReadFile(lock)
	if err != nil {
		return nil
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(data), "\n", 2)[0]))
	if !isPostgres(pid) {
		s.log.Warn("removing a stale postmaster.pid", "pid", pid)
		return os.Remove(lock)
	}
	s.log.Warn("stopping an orphaned postgres left by an earlier run", "pid", pid)
	_ = syscall.Kill(pid, syscall.SIGINT)
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if !isPostgres(pid) {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = syscall.Kill(pid, syscall.SIGQUIT)
	time.Sleep(500 * time.Millisecond)
	if isPostgres(pid) {
		return fmt.Errorf("pgserver: postgres (pid %d) on %s does not stop", pid, s.pgdata())
	}
	return nil
}

func isPostgres(pid int) bool { return childproc.Running(pid, "postgres") }

// launch starts the server on s.port and waits until it answers.
func (s *Server) launch(ctx context.Context) error {
	bin, cred := s.bin, s.cred
	logFile, err := os.OpenFile(filepath.Join(s.dir, "postgres.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(filepath.Join(bin, "postgres"),
		"-D", s.pgdata(), "-p", strconv.Itoa(s.port),
		"-c", "unix_socket_directories="+s.socketDir())
	cmd.Dir = s.dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// Pdeathsig asks the kernel to stop postgres (fast shutdown) if this
	// process dies without stopping it (childproc.Start keeps the thread
	// it fires on alive for the server's life).
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGINT, Setpgid: true}
	exited, err := childproc.Start(cmd)
	logFile.Close() // the child has its own copy
	if err != nil {
		return fmt.Errorf("pgserver: start postgres: %w", err)
	}
	s.Started(cmd, exited)

	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-exited:
			return fmt.Errorf("pgserver: postgres exited during start (%v); see %s", cmd.ProcessState, filepath.Join(s.dir, "postgres.log"))
		default:
		}
		if err := s.ping(ctx); err == nil {
			return nil
		} else if time.Now().After(deadline) || ctx.Err() != nil {
			_ = halt(cmd, exited)
			return fmt.Errorf("pgserver: postgres not ready: %w", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// watch starts the server again on its port whenever it ends other than
// by Stop, so that its clients reconnect to it: Postgres restarts its own
// crashed backends, but the postmaster itself exits when the recovery that
// follows fails. A full disk does that: a checkpoint that cannot write
// PANICs, the recovery's checkpoint can fail the same way, and a new
// postmaster cannot even write its lock file until space returns; so the
// server is tried again every few seconds until it starts.
func (s *Server) watch() {
	s.Watch(s.log, "postgres", filepath.Join(s.dir, "postgres.log"), func() error { return s.launch(context.Background()) }, s.Stop)
}

func (s *Server) ping(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	conn, err := pgx.Connect(cctx, s.URL("postgres"))
	if err != nil {
		return err
	}
	return conn.Close(cctx)
}

// URL is the connection URL of database name on this cluster.
func (s *Server) URL(database string) string {
	u := url.URL{
		Scheme:   "postgres",
		User:     url.UserPassword(superuser, s.password),
		Host:     net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)),
		Path:     "/" + database,
		RawQuery: "sslmode=disable",
	}
	return u.String()
}

// Port is the loopback port the server listens on.
func (s *Server) Port() int { return s.port }

// CreateDatabase creates name if it does not exist yet.
func (s *Server) CreateDatabase(ctx context.Context, name string) error {
	conn, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	return err
}

// Stop shuts the server down fast (clients disconnected, no recovery needed
// on the next start) and waits for it.
func (s *Server) Stop() error {
	cmd, exited := s.Stopping()
	if cmd == nil || cmd.Process == nil {
		return nil
	}
	return halt(cmd, exited)
}

// halt asks the server process cmd to shut down fast and waits for it;
// after 30 s it is told to stop at once.
func halt(cmd *exec.Cmd, exited <-chan struct{}) error {
	_ = cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-exited:
		return nil
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Signal(syscall.SIGQUIT)
		<-exited
		return errors.New("pgserver: postgres needed an immediate shutdown")
	}
}

// Kill ends the server and its backends with SIGKILL, as a crash of the
// machine's postgres would, and waits for the server process; it is then
// started again as after any unexpected end (watch), and recovers from the
// write-ahead log. The fault tests call it.
func (s *Server) Kill() error {
	cmd, exited := s.Current()
	if cmd == nil || cmd.Process == nil {
		return nil
	}
	// postgres runs in a process group of its own (Setpgid): the group is
	// the postmaster and its backends.
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	<-exited
	return err
}

// Restart starts a server that Stop stopped again, on the same port, so
// the clients made before reconnect to it.
func (s *Server) Restart(ctx context.Context) error {
	if err := s.clearOrphan(); err != nil {
		return err
	}
	s.Resume()
	if err := s.launch(ctx); err != nil {
		return err
	}
	go s.watch()
	return nil
}

func chownTree(root string, cred *syscall.Credential) error {
	if cred == nil {
		return nil
	}
	return filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, int(cred.Uid), int(cred.Gid))
	})
}

// checkTraversable fails early, with a clear message, when the unprivileged
// server user could not reach dir (a data folder under /root, say).
func checkTraversable(dir string, uid int) error {
	for d := dir; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil && fi.Mode().Perm()&0o001 == 0 {
			if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != uid {
				return fmt.Errorf("pgserver: %s is not reachable by the postgres user (mode %v); choose a data folder outside it", d, fi.Mode().Perm())
			}
		}
		if d == filepath.Dir(d) {
			return nil
		}
	}
}

func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteString("\n" + text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
