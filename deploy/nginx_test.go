package deploy_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"agora/deploy"
	"agora/internal/standins/nginxserver"
)

// TestLoadBalancerRunsHidingInternalRoutes runs nginx over the load
// balancer's configuration, with its upstreams swapped for a local server
// that records what reaches it: the metrics and the dev mailbox answer 404
// from nginx in every spelling nginx and the API's routes take alike (case,
// a trailing slash, percent-encoding, doubled slashes) and never reach the
// API; the rest does. nginx is Debian's nginx-light (scripts/install-deps.sh
// nginx, which make test runs).
func TestLoadBalancerRunsHidingInternalRoutes(t *testing.T) {
	var mu sync.Mutex
	var reached []string
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		reached = append(reached, r.RequestURI)
		mu.Unlock()
		fmt.Fprint(w, "upstream")
	}))
	defer upstream.Close()

	addr := strings.TrimPrefix(upstream.URL, "http://")
	listen := "127.0.0.1:" + freePort(t)
	conf, err := deploy.LoadBalancerFor(map[string]string{"api-1": addr, "api-2": addr, "livekit": addr}, listen)
	if err != nil {
		t.Fatal(err)
	}
	lb, err := nginxserver.Start(t.Context(), t.TempDir(), conf, listen)
	if err != nil {
		t.Fatal(err)
	}
	defer lb.Stop()
	port := strings.TrimPrefix(listen, "127.0.0.1:")

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
