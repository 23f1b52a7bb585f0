package stripemock_test

import (
	"bufio"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"agora/internal/standins/childproc"
	"agora/internal/standins/stripemock"
)

func start(t *testing.T, dir string) *stripemock.Server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := stripemock.Start(ctx, dir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// TestLoopbackOnly starts stripe-mock, asks it for a product, and checks
// that both of its listeners (HTTP and HTTPS) are bound to 127.0.0.1:
// without -https-addr its HTTPS port would listen on every interface.
func TestLoopbackOnly(t *testing.T) {
	s := start(t, t.TempDir())
	req, _ := http.NewRequest("POST", s.URL()+"/v1/products", strings.NewReader("name=Forum"))
	req.SetBasicAuth(stripemock.SecretKey, "")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /v1/products answered %d", resp.StatusCode)
	}
	socks := listeners(t, s.PID())
	if len(socks) != 2 {
		t.Errorf("stripe-mock listens on %v, want its HTTP and HTTPS ports", socks)
	}
	for _, addr := range socks {
		host, _, _ := net.SplitHostPort(addr)
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			t.Errorf("stripe-mock listens on %s, which is not loopback", addr)
		}
	}
	pid := s.PID()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if childproc.Running(pid, "stripe-mock") {
		t.Error("stripe-mock still runs after Close")
	}
}

// TestOrphanStopped: a stripe-mock left on the folder by a killed run
// (its pid file still there) is stopped by the next start.
func TestOrphanStopped(t *testing.T) {
	dir := t.TempDir()
	a := start(t, dir)
	// As if this process had died: the pid file stays, the server runs.
	pid := a.PID()
	b := start(t, dir)
	if childproc.Running(pid, "stripe-mock") {
		t.Error("the orphaned stripe-mock still runs")
	}
	raw, err := os.ReadFile(dir + "/stripe-mock.pid")
	if err != nil || strings.TrimSpace(string(raw)) != strconv.Itoa(b.PID()) {
		t.Errorf("pid file %q (%v), want %d", raw, err, b.PID())
	}
}

// listeners lists the process's TCP listeners as host:port, from its file
// descriptors and /proc/net.
func listeners(t *testing.T, pid int) []string {
	t.Helper()
	inodes := map[string]bool{}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range fds {
		link, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if err == nil && strings.HasPrefix(link, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
		}
	}
	var out []string
	for _, table := range []string{"tcp", "tcp6"} {
		f, err := os.Open(fmt.Sprintf("/proc/%d/net/%s", pid, table))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Scan() // header
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 10 || !inodes[fields[9]] || fields[3] != "0A" {
				continue
			}
			out = append(out, procAddr(t, fields[1]))
		}
		f.Close()
	}
	return out
}

// procAddr decodes /proc/net's "0100007F:1CD8" (little-endian words).
func procAddr(t *testing.T, s string) string {
	hexIP, hexPort, _ := strings.Cut(s, ":")
	raw, err := hex.DecodeString(hexIP)
	if err != nil {
		t.Fatal(err)
	}
	ip := make(net.IP, len(raw))
	for i := 0; i < len(raw); i += 4 {
		ip[i], ip[i+1], ip[i+2], ip[i+3] = raw[i+3], raw[i+2], raw[i+1], raw[i]
	}
	port, _ := strconv.ParseUint(hexPort, 16, 16)
	return net.JoinHostPort(ip.String(), strconv.FormatUint(port, 10))
}
