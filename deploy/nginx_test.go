package deploy_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLoadBalancerRunsHidingInternalRoutes runs nginx over the load
// balancer's configuration, with its upstreams swapped for a local server
// that records what reaches it: the metrics and the dev mailbox answer 404
// from nginx in every spelling nginx and the API's routes take alike (case,
// a trailing slash, percent-encoding, doubled slashes) and never reach the
// API; the rest does. nginx is Debian's nginx-light (scripts/install-deps.sh
// nginx, which make test runs).
func TestLoadBalancerRunsHidingInternalRoutes(t *testing.T) {
	bin, err := exec.LookPath("nginx")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nginx"); serr != nil {
			t.Fatal("nginx is not installed: run scripts/install-deps.sh nginx")
		}
		bin = "/usr/sbin/nginx"
	}
	var mu sync.Mutex
	var reached []string
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		reached = append(reached, r.RequestURI)
		mu.Unlock()
		fmt.Fprint(w, "upstream")
	}))
	defer upstream.Close()

	raw, err := os.ReadFile(nginxFile)
	if err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	conf := localNginxConf(t, string(raw), strings.TrimPrefix(upstream.URL, "http://"), port)
	dir := t.TempDir()
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
    include %[1]s/agora.conf;
}
`, dir)
	if err := os.WriteFile(filepath.Join(dir, "agora.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"))
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	defer func() {
		cancel()
		_ = cmd.Wait()
	}()
	waitListening(t, "127.0.0.1:"+port, &stderr)

	get := func(path string) (int, string) {
		t.Helper()
		// A raw request line, so that the path reaches nginx as written.
		c, err := net.Dial("tcp", "127.0.0.1:"+port)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: agora.test\r\nConnection: close\r\n\r\n", path)
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	for _, path := range []string{
		"/metrics", "/metrics/", "/METRICS", "/Metrics?format=text", "//metrics", "/%6detrics", "/./metrics", "/x/../metrics",
		"/api/dev/mailbox", "/api/dev/mailbox?to=a@b.test", "/API/DEV/MAILBOX", "/api/dev/mailbox/", "/api/dev%2Fmailbox",
		"/api//dev/mailbox", "/api/%64ev/mailbox", "/api/dev",
	} {
		if st, body := get(path); st != 404 || body == "upstream" {
			t.Errorf("GET %s through nginx: %d %q, want nginx's 404", path, st, body)
		}
	}
	mu.Lock()
	if len(reached) > 0 {
		t.Errorf("the API was reached with %q", reached)
	}
	mu.Unlock()
	for _, path := range []string{"/", "/api/me", "/api/hub", "/api/blobs/x/y", "/api/devices", "/metricsboard", "/forums/1"} {
		if st, body := get(path); st != 200 || body != "upstream" {
			t.Errorf("GET %s through nginx: %d %q, want the API's answer", path, st, body)
		}
	}
}

// localNginxConf is the load balancer's configuration with every upstream
// server (Docker service names, re-resolved with `resolve`) replaced by
// addr, the resolver dropped, and the listener on 127.0.0.1:port.
func localNginxConf(t *testing.T, conf, addr, port string) string {
	t.Helper()
	conf = regexp.MustCompile(`(?m)^\s*resolver\s[^;]*;`).ReplaceAllString(conf, "")
	servers := regexp.MustCompile(`(?m)^(\s*)server\s+[A-Za-z0-9.-]+:\d+[^;]*;`)
	if n := len(servers.FindAllString(conf, -1)); n < 3 {
		t.Fatalf("found %d upstream servers, want api-1, api-2 and livekit: the rewrite is broken", n)
	}
	conf = servers.ReplaceAllString(conf, "${1}server "+addr+";")
	listen := regexp.MustCompile(`listen\s+80\s*;`)
	if !listen.MatchString(conf) {
		t.Fatal("no `listen 80;` to move")
	}
	return listen.ReplaceAllString(conf, "listen 127.0.0.1:"+port+";")
}

// freePort is a TCP port free on loopback a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return port
}

// waitListening waits until nginx accepts connections at addr.
func waitListening(t *testing.T, addr string, stderr *bytes.Buffer) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nginx did not start: %v\n%s", err, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
