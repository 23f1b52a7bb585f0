// Package nginxserver runs Debian's nginx (scripts/install-deps.sh nginx,
// which make test runs) in the foreground over an http-level
// configuration file, such as deploy's load balancer: deploy's tests and
// cmd/agora's real-engines suite run the very file a deployment mounts.
package nginxserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"agora/internal/standins/childproc"
)

// ErrNotInstalled means nginx is not on the machine.
var ErrNotInstalled = errors.New("nginx is not installed: run scripts/install-deps.sh nginx")

// Server is a running nginx.
type Server struct {
	cmd    *exec.Cmd
	exited <-chan struct{}
	stderr *lockedBuffer
}

// Binary is nginx's path.
func Binary() (string, error) {
	if bin, err := exec.LookPath("nginx"); err == nil {
		return bin, nil
	}
	if childproc.IsExecutable("/usr/sbin/nginx") {
		return "/usr/sbin/nginx", nil
	}
	return "", ErrNotInstalled
}

// Start runs nginx with its prefix, pid file and temporary folders in dir
// and site included in its http block, and returns once it accepts
// connections at listen, the address site listens on. Its error log is
// kept for Log.
func Start(ctx context.Context, dir, site, listen string) (*Server, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// master_process off: one process, which the kill of cmd ends.
	main := fmt.Sprintf(`pid %[1]s/nginx.pid;
error_log stderr warn;
daemon off;
master_process off;
events {}
http {
    access_log off;
    client_body_temp_path %[1]s/body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
    include %[1]s/site.conf;
}
`, dir)
	if err := childproc.WriteFile(filepath.Join(dir, "site.conf"), site, 0o644); err != nil {
		return nil, err
	}
	if err := childproc.WriteFile(filepath.Join(dir, "nginx.conf"), main, 0o644); err != nil {
		return nil, err
	}
	s := &Server{stderr: &lockedBuffer{}}
	s.cmd = exec.Command(bin, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"))
	s.cmd.Stderr = s.stderr
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if s.exited, err = childproc.Start(s.cmd); err != nil {
		return nil, fmt.Errorf("nginxserver: %w", err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; {
		c, err := net.DialTimeout("tcp", listen, time.Second)
		if err == nil {
			c.Close()
			return s, nil
		}
		select {
		case <-s.exited:
			return nil, fmt.Errorf("nginxserver: nginx exited: %s", s.stderr.String())
		case <-ctx.Done():
			s.Stop()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("nginxserver: not listening on %s: %v\n%s", listen, err, s.stderr.String())
		}
	}
}

// Log is what nginx wrote to its error log.
func (s *Server) Log() string { return s.stderr.String() }

// Stop ends nginx.
func (s *Server) Stop() {
	_ = s.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-s.exited:
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
}

// lockedBuffer is a buffer that the process's stderr copier writes while
// a test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
