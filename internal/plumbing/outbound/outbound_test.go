package outbound_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"sync/atomic"
	"testing"

	"agora/internal/plumbing/outbound"
)

// server is a loopback server that counts what reaches it.
type server struct {
	*httptest.Server
	hits atomic.Int64
}

func serve(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) addr() netip.AddrPort { return netip.MustParseAddrPort(s.Listener.Addr().String()) }

func ok(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) }

// TestClientRefusesInternalAddresses: a loopback server is reached only
// when its address is allowed exactly; a name resolving to it, another
// port of the same address, and a redirect from an allowed server to it
// are refused before any connection reaches it.
func TestClientRefusesInternalAddresses(t *testing.T) {
	inside := serve(t, ok)
	entry := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, inside.URL+"/secret", http.StatusFound)
	})
	allowed := serve(t, ok)
	c := outbound.New(entry.addr(), allowed.addr()).Client(outbound.Options{MaxRedirects: 5})

	res, err := c.Get(allowed.URL)
	if err != nil {
		t.Fatalf("the allowed address: %v", err)
	}
	res.Body.Close()

	port := inside.addr().Port()
	for _, u := range []string{
		inside.URL,
		"http://localhost:" + itoa(port) + "/",          // a name, resolved when dialled
		"http://[::ffff:127.0.0.1]:" + itoa(port) + "/", // IPv4-mapped
		entry.URL + "/go",                               // a redirect to it
	} {
		if _, err := c.Get(u); !errors.Is(err, outbound.ErrRefused) {
			t.Errorf("%s: got %v, want ErrRefused", u, err)
		}
	}
	if n := inside.hits.Load(); n != 0 {
		t.Errorf("the internal server got %d requests", n)
	}
	if n := entry.hits.Load(); n != 1 {
		t.Errorf("the allowed entry got %d requests, want 1", n)
	}
	// With nothing allowed, even the allowed servers are internal.
	if _, err := outbound.New().Client(outbound.Options{}).Get(allowed.URL); !errors.Is(err, outbound.ErrRefused) {
		t.Errorf("no allowance: got %v, want ErrRefused", err)
	}
}

// TestRedirectsNotFollowedByDefault: a client with no MaxRedirects answers
// the redirect itself (a push service answers the post it gets).
func TestRedirectsNotFollowedByDefault(t *testing.T) {
	target := serve(t, ok)
	entry := serve(t, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, target.URL, http.StatusFound) })
	res, err := outbound.New(entry.addr(), target.addr()).Client(outbound.Options{}).Get(entry.URL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound || target.hits.Load() != 0 {
		t.Errorf("got %d and %d requests at the target, want the 302 itself", res.StatusCode, target.hits.Load())
	}
}

func TestRefusesHost(t *testing.T) {
	g := outbound.New(netip.MustParseAddrPort("127.0.0.1:4444"))
	for u, want := range map[string]bool{
		"https://127.0.0.1/x":            true,
		"http://127.0.0.1:4444/x":        false, // allowed exactly
		"http://127.0.0.1:4445/x":        true,
		"https://localhost/x":            true,
		"https://a.localhost./x":         true,
		"https://[::1]:4444/x":           true,
		"https://169.254.169.254/latest": true,
		"https://10.1.2.3/x":             true,
		"https://push.example.com/x":     false, // checked when dialled
		"https://93.184.215.14/x":        false,
	} {
		pu, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.RefusesHost(pu); got != want {
			t.Errorf("RefusesHost(%s) = %v, want %v", u, got, want)
		}
	}
}

func itoa(p uint16) string { return strconv.Itoa(int(p)) }
