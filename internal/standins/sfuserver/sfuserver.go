// Package sfuserver runs a private LiveKit server (livekit-server, the SFU of
// Meet Ups) as a child process: the embedded stand-in for a LiveKit
// deployment that `agora dev`, the test harness and the benchmark use.
//
// Nothing it opens leaves loopback: signalling and the room service listen
// on 127.0.0.1, and its media (ICE over UDP, multiplexed on one port, and
// over TCP) is gathered on the lo interface only and advertised as
// 127.0.0.1, which livekit-server does only with rtc.node_ip,
// rtc.use_external_ip false, rtc.interfaces.includes [lo] and
// rtc.enable_loopback_candidate set (with --bind alone it still binds its
// media ports to every interface). ICE over TCP is off: its port is bound
// on every interface whatever the filters say. Ports are free ones chosen
// at each start. The API key pair is made on the first
// start and kept in the folder, so tokens signed before a restart of
// `agora dev` on the same folder stay good.
package sfuserver

import (
	"context"
	"encoding/json"
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

// Version is the livekit-server version scripts/install-deps.sh builds
// (the one the Go module proxy serves with all its dependencies) and
// deploy/ runs.
const Version = "v1.13.5"

// ErrNoServerBinary means livekit-server is not installed.
var ErrNoServerBinary = errors.New("sfuserver: livekit-server not found (install it with: scripts/install-deps.sh livekit, which builds " + Version + " into ~/.cache/agora; or put livekit-server on PATH)")

// Server is a running private LiveKit server.
type Server struct {
	dir        string
	webhookURL string
	key        string
	secret     string
	port       int // signalling and room service (HTTP, WebSocket)
	udpPort    int // media (ICE over UDP), every participant on this one port
	log        *slog.Logger
	cmd        *exec.Cmd
	// exited is closed when the process has ended, so any number of
	// waiters (Close twice, the start loop) see it.
	exited <-chan struct{}
}

// Start starts livekit-server with its configuration and keys in dir (made
// if missing), waiting until it answers. webhookURL, when not empty, is
// where it posts its signed webhooks (the API's POST /api/livekit/webhook),
// signed with the server's key. A server left running on dir by a killed
// earlier run is stopped first.
func Start(ctx context.Context, dir, webhookURL string, log *slog.Logger) (*Server, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("sfuserver: %w", err)
	}
	s := &Server{dir: dir, webhookURL: webhookURL, log: log}
	if err := s.loadKeys(); err != nil {
		return nil, err
	}
	s.clearOrphan()
	err = childproc.StartRetrying(ctx, log, "livekit-server", 200*time.Millisecond, func() error {
		if err := s.choosePorts(); err != nil {
			return err
		}
		return s.launch(ctx, bin)
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Binary finds livekit-server: in the cache folder scripts/install-deps.sh
// builds it into ($XDG_CACHE_HOME or ~/.cache)/agora/livekit-server-<Version>/,
// else on PATH.
func Binary() (string, error) {
	if p, ok := childproc.CachedBinary("livekit-server", Version); ok {
		return p, nil
	}
	return "", ErrNoServerBinary
}

func (s *Server) configFile() string { return filepath.Join(s.dir, "livekit.yaml") }
func (s *Server) keysFile() string   { return filepath.Join(s.dir, "keys.json") }
func (s *Server) pidFile() string    { return filepath.Join(s.dir, "livekit-server.pid") }
func (s *Server) logFile() string    { return filepath.Join(s.dir, "livekit-server.log") }

type keys struct {
	APIKey    string `json:"apiKey"`
	APISecret string `json:"apiSecret"`
}

// loadKeys reads the folder's key pair, making one on first use.
func (s *Server) loadKeys() error {
	var k keys
	if raw, err := os.ReadFile(s.keysFile()); err == nil {
		if err := json.Unmarshal(raw, &k); err != nil || k.APIKey == "" || len(k.APISecret) < 32 {
			return fmt.Errorf("sfuserver: %s is not a key pair (remove it to make a new one)", s.keysFile())
		}
	} else if errors.Is(err, os.ErrNotExist) {
		k = keys{APIKey: "agora-" + childproc.RandomHex(6), APISecret: childproc.RandomHex(32)}
		raw, _ := json.MarshalIndent(k, "", "  ")
		if err := writePrivate(s.keysFile(), string(raw)+"\n"); err != nil {
			return err
		}
	} else {
		return fmt.Errorf("sfuserver: %w", err)
	}
	s.key, s.secret = k.APIKey, k.APISecret
	return nil
}

// choosePorts picks free loopback ports: a TCP one (signalling) and one
// that is free for UDP (the media mux).
func (s *Server) choosePorts() error {
	for range 20 {
		ports, err := childproc.FreePorts(2)
		if err != nil {
			return fmt.Errorf("sfuserver: %w", err)
		}
		c, err := net.ListenPacket("udp4", net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[1])))
		if err != nil {
			continue
		}
		c.Close()
		s.port, s.udpPort = ports[0], ports[1]
		return nil
	}
	return errors.New("sfuserver: no free UDP port found")
}

// clearOrphan stops a livekit-server that a killed earlier run left on this
// folder (named in the pid file, with this folder's config on its command
// line), and removes a stale pid file.
func (s *Server) clearOrphan() { childproc.StopOrphan(s.pidFile(), s.configFile(), s.log) }

// launch writes the configuration for the chosen ports, starts the server
// and waits until its signalling port answers.
func (s *Server) launch(ctx context.Context, bin string) error {
	if err := writePrivate(s.configFile(), s.configYAML()); err != nil {
		return err
	}
	// Each start's log replaces the last one's, so the file stays small.
	out, err := os.OpenFile(s.logFile(), os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("sfuserver: %w", err)
	}
	cmd := exec.Command(bin, "--config", s.configFile())
	cmd.Dir = s.dir
	// The environment's LIVEKIT_* settings (LIVEKIT_KEYS, LIVEKIT_CONFIG…)
	// would override the file; the child gets none of them.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "LIVEKIT_") && !strings.HasPrefix(kv, "NODE_IP=") && !strings.HasPrefix(kv, "UDP_PORT=") && !strings.HasPrefix(kv, "REDIS_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Stdout, cmd.Stderr = out, out
	// Pdeathsig stops the server if this process dies without closing it;
	// Setpgid keeps a Ctrl-C in the terminal from reaching it first.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	begin := time.Now()
	exited, err := childproc.Start(cmd)
	out.Close() // the child has its own copy
	if err != nil {
		return fmt.Errorf("sfuserver: start livekit-server: %w", err)
	}
	s.cmd, s.exited = cmd, exited
	if err := writePrivate(s.pidFile(), strconv.Itoa(cmd.Process.Pid)+"\n"); err != nil {
		_ = s.Close()
		return err
	}
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-exited:
			_ = os.Remove(s.pidFile())
			return fmt.Errorf("sfuserver: livekit-server exited during start (%v); see %s", cmd.ProcessState, s.logFile())
		default:
		}
		resp, err := client.Get("http://" + s.Addr() + "/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				s.log.Info("livekit started", "url", s.URL(), "took", time.Since(begin).Round(time.Millisecond))
				return nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			_ = s.Close()
			return fmt.Errorf("sfuserver: livekit-server not ready on %s (see %s)", s.Addr(), s.logFile())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// configYAML is the server's configuration (JSON is YAML, and quotes every
// path and key safely).
func (s *Server) configYAML() string {
	conf := map[string]any{
		"port":           s.port,
		"bind_addresses": []string{"127.0.0.1"},
		"rtc": map[string]any{
			// No ICE over TCP: livekit-server binds its TCP port on every
			// interface whatever the filters say, and loopback needs no
			// fallback for blocked UDP.
			"tcp_port": 0,
			"udp_port": s.udpPort,
			// The lo interface's address is a candidate only with this;
			// without it the filters below leave no address at all.
			"enable_loopback_candidate": true,
			"node_ip":                   "127.0.0.1",
			"use_external_ip":           false,
			"interfaces":                map[string]any{"includes": []string{"lo"}},
			"ips":                       map[string]any{"includes": []string{"127.0.0.1/32"}},
			// No STUN servers to hand browsers: everything is local.
			"stun_servers": []string{},
		},
		"keys":    map[string]string{s.key: s.secret},
		"logging": map[string]any{"level": "info", "pion_level": "error"},
		"room": map[string]any{
			"auto_create": true,
		},
		"turn": map[string]any{"enabled": false},
	}
	if s.webhookURL != "" {
		conf["webhook"] = map[string]any{"api_key": s.key, "urls": []string{s.webhookURL}}
	}
	raw, _ := json.MarshalIndent(conf, "", "  ")
	return "# Written by agora on every start: the private LiveKit server (internal/standins/sfuserver).\n" + string(raw) + "\n"
}

// Addr is host:port of signalling and the room service.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// URL is the signalling URL, ws://127.0.0.1:PORT: LIVEKIT_URL's form, for
// browsers (on this machine) and for the room service alike.
func (s *Server) URL() string { return "ws://" + s.Addr() }

// APIKey and APISecret are the server's key pair.
func (s *Server) APIKey() string    { return s.key }
func (s *Server) APISecret() string { return s.secret }

// PID is the server process's id (to measure its CPU time).
func (s *Server) PID() int {
	if s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// MediaPort is the UDP port all media goes through.
func (s *Server) MediaPort() int { return s.udpPort }

// Close stops the server: it is asked to stop, then asked again (which
// livekit-server takes as "do not wait for the participants to leave"),
// and killed if it has not ended within 10 s.
func (s *Server) Close() error {
	if s.cmd == nil || s.cmd.Process == nil {
		return nil
	}
	defer s.removePidFile()
	for _, step := range []struct {
		sig  syscall.Signal
		wait time.Duration
	}{{syscall.SIGTERM, time.Second}, {syscall.SIGTERM, 10 * time.Second}, {syscall.SIGKILL, 10 * time.Second}} {
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
	return errors.New("sfuserver: livekit-server does not stop")
}

// removePidFile removes the pid file if it still names this server.
func (s *Server) removePidFile() {
	data, err := os.ReadFile(s.pidFile())
	if err == nil && strings.TrimSpace(string(data)) == strconv.Itoa(s.cmd.Process.Pid) {
		_ = os.Remove(s.pidFile())
	}
}

// writePrivate replaces path's content atomically, readable by this user
// only (the files hold the API secret).
func writePrivate(path, content string) error {
	if err := childproc.WriteFile(path, content, 0o600); err != nil {
		return fmt.Errorf("sfuserver: %w", err)
	}
	return nil
}
