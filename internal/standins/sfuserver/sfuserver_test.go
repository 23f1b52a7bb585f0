package sfuserver_test

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
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"agora/internal/standins/childproc"
	"agora/internal/standins/sfuserver"
)

func start(t *testing.T, dir string) *sfuserver.Server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := sfuserver.Start(ctx, dir, "", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// TestLoopbackOnly starts the server and checks that every socket it
// listens on (TCP) or receives on (UDP) is bound to 127.0.0.1: nothing of
// an agora dev's SFU is reachable from another machine.
func TestLoopbackOnly(t *testing.T) {
	s := start(t, t.TempDir())
	resp, err := http.Get("http://" + strings.TrimPrefix(s.URL(), "ws://") + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET / answered %d", resp.StatusCode)
	}
	socks := sockets(t, s.PID())
	want := map[string]bool{
		"tcp 127.0.0.1:" + strings.TrimPrefix(s.URL(), "ws://127.0.0.1:"): false,
		"udp 127.0.0.1:" + strconv.Itoa(s.MediaPort()):                    false,
	}
	for _, sock := range socks {
		if _, ok := want[sock]; ok {
			want[sock] = true
		}
		addr := sock[strings.IndexByte(sock, ' ')+1:]
		host, _, _ := net.SplitHostPort(addr)
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			t.Errorf("livekit-server listens on %s, which is not loopback", sock)
		}
	}
	for sock, seen := range want {
		if !seen {
			t.Errorf("livekit-server does not listen on %s (it listens on %v)", sock, socks)
		}
	}
	pid := s.PID()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if childproc.Running(pid, "livekit") {
		t.Error("livekit-server still runs after Close")
	}
}

// TestKeysKeptAcrossStarts: a second start on the same folder (agora dev
// run again) uses the same key pair, so tokens signed before still work.
func TestKeysKeptAcrossStarts(t *testing.T) {
	dir := t.TempDir()
	a := start(t, dir)
	key, secret := a.APIKey(), a.APISecret()
	if key == "" || len(secret) < 32 {
		t.Fatalf("key %q, secret of %d characters", key, len(secret))
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	b := start(t, dir)
	if b.APIKey() != key || b.APISecret() != secret {
		t.Error("the second start made a new key pair")
	}
	if st, err := os.Stat(filepath.Join(dir, "keys.json")); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("keys.json: %v, %v (want mode 0600)", st.Mode(), err)
	}
	other := start(t, t.TempDir())
	if other.APISecret() == secret {
		t.Error("two folders share a secret")
	}
}

// sockets lists the process's bound TCP listeners and UDP sockets as
// "tcp 127.0.0.1:7880", from its file descriptors and /proc/net.
func sockets(t *testing.T, pid int) []string {
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
	for _, table := range []string{"tcp", "tcp6", "udp", "udp6"} {
		f, err := os.Open(fmt.Sprintf("/proc/%d/net/%s", pid, table))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Scan() // header
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 10 || !inodes[fields[9]] {
				continue
			}
			// TCP: listeners only (state 0A); UDP: every bound socket.
			if strings.HasPrefix(table, "tcp") && fields[3] != "0A" {
				continue
			}
			out = append(out, strings.TrimSuffix(table, "6")+" "+procAddr(t, fields[1]))
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
