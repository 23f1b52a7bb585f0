package httpapi_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"agora/app/testenv"
)

// directives reads a Content-Security-Policy into its directives.
func directives(policy string) map[string]string {
	d := map[string]string{}
	for _, part := range strings.Split(policy, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(part), " ")
		if name != "" {
			d[name] = value
		}
	}
	return d
}

// wantSecurityHeaders checks the headers every answer carries.
func wantSecurityHeaders(t *testing.T, what string, h http.Header) {
	t.Helper()
	if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("%s: X-Content-Type-Options %q", what, got)
	}
	if got := h.Get("Referrer-Policy"); got != "strict-origin-when-cross-origin" {
		t.Errorf("%s: Referrer-Policy %q", what, got)
	}
	if got := directives(h.Get("Content-Security-Policy"))["frame-ancestors"]; got != "'none'" {
		t.Errorf("%s: frame-ancestors %q in %q", what, got, h.Get("Content-Security-Policy"))
	}
}

// TestSecurityHeaders: the web app's pages run only the build's scripts and
// load what the app shows (blobs, link previews' images, the hub's
// WebSocket); API answers load nothing; no site may frame either.
func TestSecurityHeaders(t *testing.T) {
	env := testenv.New(t)
	host := strings.TrimPrefix(env.URL, "http://")
	// The Meet Up screen connects to LiveKit, another origin.
	sfuHost := strings.TrimPrefix(env.SFU(t).PublicURL(), "ws://")

	req, _ := http.NewRequest("GET", env.URL+"/home", nil)
	req.Header.Set("Accept", "text/html")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /home: %d %s, want the app's page", res.StatusCode, res.Header.Get("Content-Type"))
	}
	wantSecurityHeaders(t, "the app's page", res.Header)
	page := directives(res.Header.Get("Content-Security-Policy"))
	for name, want := range map[string][]string{
		"script-src":  {"'self'"},
		"object-src":  {"'none'"},
		"base-uri":    {"'none'"},
		"connect-src": {"'self'", "ws://" + host, "wss://" + host, "ws://" + sfuHost, "http://" + sfuHost},
		"img-src":     {"'self'", "https:"},
		"frame-src":   {"'self'", "https://www.youtube-nocookie.com"},
	} {
		got := strings.Fields(page[name])
		for _, w := range want {
			if !contains(got, w) {
				t.Errorf("page %s %q lacks %s", name, page[name], w)
			}
		}
	}
	// WebAssembly (the Meet Up's virtual background) is all that may be
	// compiled: no inline script, no eval, no other site's scripts.
	if s := strings.Fields(page["script-src"]); !contains(s, "'wasm-unsafe-eval'") {
		t.Errorf("script-src %q does not allow WebAssembly", page["script-src"])
	}
	if s := strings.ReplaceAll(page["script-src"], "'wasm-unsafe-eval'", ""); strings.Contains(s, "unsafe") || strings.Contains(s, "*") {
		t.Errorf("script-src %q allows inline or foreign scripts", page["script-src"])
	}
	if page["default-src"] != "'self'" {
		t.Errorf("default-src %q", page["default-src"])
	}

	c := env.Client(t)
	for _, p := range []string{"/api/tokens/decode", "/api/openapi.json", "/api/nope", "/healthz"} {
		r := c.Do("GET", p, nil)
		wantSecurityHeaders(t, "GET "+p, r.Header)
		if got := directives(r.Header.Get("Content-Security-Policy"))["default-src"]; got != "'none'" {
			t.Errorf("GET %s: default-src %q, want 'none'", p, got)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// rawRequest writes req on a new connection, as is, and reads the answer:
// what Fiber and fasthttp answer before any handler runs.
func rawRequest(t *testing.T, env *testenv.Env, req string) (*http.Response, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(env.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(2 * time.Minute))
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("read the answer to %.40q: %v", req, err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, b
}

// TestTransportErrorBodies: the answers Fiber and fasthttp give before our
// handlers (an unknown method, a method a path lacks, headers over the read
// buffer, a request that never ends, bytes that are no request) are the one
// JSON error body with a catalogue code, and carry the security headers.
func TestTransportErrorBodies(t *testing.T) {
	env := testenv.New(t)
	for _, tc := range []struct {
		name, req string
		status    int
		code      string
	}{
		{"unknown method", "PROPFIND /api/communities HTTP/1.1\r\nHost: x\r\n\r\n", 501, "methodNotAllowed"},
		{"unknown method outside the API", "BREW / HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\n\r\n", 501, "methodNotAllowed"},
		{"method the path lacks", "DELETE /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 405, "methodNotAllowed"},
		{"headers too large", "GET /api/communities HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 20<<10) + "\r\n\r\n", 431, "requestTooLarge"},
		{"not a request", "GARBAGE\r\n\r\n", 400, "badRequest"},
		// Answered when the read timeout (30 s) ends.
		{"request that never ends", "GET /api/communities HTTP/1.1\r\nHost: x\r\n", 408, "badRequest"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, b := rawRequest(t, env, tc.req)
			var body struct {
				Code    string         `json:"code"`
				Message string         `json:"message"`
				Details map[string]any `json:"details"`
			}
			if res.StatusCode != tc.status || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
				t.Fatalf("%d %s %s; want %d and the JSON error body", res.StatusCode, res.Header.Get("Content-Type"), b, tc.status)
			}
			dec := json.NewDecoder(strings.NewReader(string(b)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&body); err != nil || body.Code != tc.code || body.Message == "" {
				t.Errorf("body %s (%v); want code %q and a message", b, err, tc.code)
			}
			if strings.Contains(body.Message, "GARBAGE") {
				t.Errorf("message %q echoes the request", body.Message)
			}
			wantSecurityHeaders(t, tc.name, res.Header)
		})
	}
}
