// Package stripemock runs Stripe's stripe-mock (the Stripe API answered
// from its OpenAPI fixtures, keeping no state) as a child process: the
// stand-in for Stripe that `agora dev` and the test harness use when no
// STRIPE_SECRET_KEY is set, so that products, prices, checkout and portal
// sessions are real calls of stripe-go to a real server.
//
// It listens on loopback only: stripe-mock binds its HTTPS port on every
// interface unless given an address for it too, so both -http-addr and
// -https-addr name 127.0.0.1 and a free port of their own, chosen at each
// start.
package stripemock

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"agora/internal/standins/childproc"
)

// Version is the stripe-mock version scripts/install-deps.sh installs (the
// one the Go module proxy serves).
const Version = "v0.203.0"

// SecretKey is the key the API is given for stripe-mock, which takes any
// test key of three parts (sk_test_X, no more underscores).
const SecretKey = "sk_test_agoraStripeMock"

// ErrNoBinary means stripe-mock is not installed.
var ErrNoBinary = errors.New("stripemock: stripe-mock not found (install it with: scripts/install-deps.sh stripe, which puts " + Version + " into ~/.cache/agora; or put stripe-mock on PATH)")

// Server is a running stripe-mock.
type Server struct {
	dir       string
	httpPort  int
	httpsPort int
	log       *slog.Logger
	cmd       *exec.Cmd
	exited    <-chan struct{}
}

// Start starts stripe-mock with its pid file and log in dir (made if
// missing), waiting until it answers. A stripe-mock left running on dir by
// a killed earlier run is stopped first.
func Start(ctx context.Context, dir string, log *slog.Logger) (*Server, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("stripemock: %w", err)
	}
	s := &Server{dir: dir, log: log}
	s.clearOrphan()
	err = childproc.StartRetrying(ctx, log, "stripe-mock", 200*time.Millisecond, func() error {
		ports, err := childproc.FreePorts(2)
		if err != nil {
			return fmt.Errorf("stripemock: %w", err)
		}
		s.httpPort, s.httpsPort = ports[0], ports[1]
		return s.launch(ctx, bin)
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Binary finds stripe-mock: in the cache folder scripts/install-deps.sh
// installs it into ($XDG_CACHE_HOME or ~/.cache)/agora/stripe-mock-<Version>/,
// else on PATH.
func Binary() (string, error) {
	if p, ok := childproc.CachedBinary("stripe-mock", Version); ok {
		return p, nil
	}
	return "", ErrNoBinary
}

func (s *Server) pidFile() string { return filepath.Join(s.dir, "stripe-mock.pid") }
func (s *Server) logFile() string { return filepath.Join(s.dir, "stripe-mock.log") }

// clearOrphan stops a stripe-mock that a killed earlier run left on this
// folder (named in its pid file, with the binary's name on its command
// line), and removes a stale pid file.
func (s *Server) clearOrphan() { childproc.StopOrphan(s.pidFile(), "stripe-mock", s.log) }

// launch starts stripe-mock on the chosen ports and waits until it answers
// an authenticated call.
func (s *Server) launch(ctx context.Context, bin string) error {
	out, err := os.OpenFile(s.logFile(), os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("stripemock: %w", err)
	}
	cmd := exec.Command(bin,
		"-http-addr", net.JoinHostPort("127.0.0.1", strconv.Itoa(s.httpPort)),
		"-https-addr", net.JoinHostPort("127.0.0.1", strconv.Itoa(s.httpsPort)))
	cmd.Dir = s.dir
	cmd.Stdout, cmd.Stderr = out, out
	// Pdeathsig stops it if this process dies without closing it; Setpgid
	// keeps a Ctrl-C in the terminal from reaching it first.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	begin := time.Now()
	exited, err := childproc.Start(cmd)
	out.Close() // the child has its own copy
	if err != nil {
		return fmt.Errorf("stripemock: start stripe-mock: %w", err)
	}
	s.cmd, s.exited = cmd, exited
	if err := childproc.WriteFile(s.pidFile(), strconv.Itoa(cmd.Process.Pid)+"\n", 0o600); err != nil {
		_ = s.Close()
		return fmt.Errorf("stripemock: %w", err)
	}
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-exited:
			_ = os.Remove(s.pidFile())
			return fmt.Errorf("stripemock: stripe-mock exited during start (%v); see %s", cmd.ProcessState, s.logFile())
		default:
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL()+"/v1/products", nil)
		req.SetBasicAuth(SecretKey, "")
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				s.log.Info("stripe-mock started", "url", s.URL(), "took", time.Since(begin).Round(time.Millisecond))
				return nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			_ = s.Close()
			return fmt.Errorf("stripemock: stripe-mock not ready on %s (see %s)", s.URL(), s.logFile())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// URL is the base URL of its HTTP API, STRIPE_API_URL's form.
func (s *Server) URL() string {
	return "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(s.httpPort))
}

// PID is the process's id.
func (s *Server) PID() int {
	if s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// Close stops stripe-mock: asked to stop, then killed after 5 s.
func (s *Server) Close() error {
	if s.cmd == nil || s.cmd.Process == nil {
		return nil
	}
	defer s.removePidFile()
	for _, step := range []struct {
		sig  syscall.Signal
		wait time.Duration
	}{{syscall.SIGTERM, 5 * time.Second}, {syscall.SIGKILL, 10 * time.Second}} {
		select {
		case <-s.exited:
			return nil
		default:
		}
		_ = s.cmd.Process.Signal(step.sig)
		select {
		case <-s.exited:
			return nil
		case <-time.After(step.wait):
		}
	}
	return errors.New("stripemock: stripe-mock does not stop")
}

// removePidFile removes the pid file if it still names this server.
func (s *Server) removePidFile() {
	data, err := os.ReadFile(s.pidFile())
	if err == nil && strings.TrimSpace(string(data)) == strconv.Itoa(s.cmd.Process.Pid) {
		_ = os.Remove(s.pidFile())
	}
}
