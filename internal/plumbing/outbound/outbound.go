// Package outbound is the one way the server connects to a URL that a
// member or an admin supplied (a link to preview, a push endpoint, an
// organization's identity provider and the endpoints its discovery
// document names): only public addresses, checked on the address actually
// dialled when connecting, so that neither a name resolving inside, a DNS
// answer that changes between a check and the connection, nor a redirect
// can make the server reach its own network. Addresses listed exactly in
// AGORA_OUTBOUND_ALLOW (agora dev's test identity provider, the tests'
// loopback servers) are the only exceptions.
package outbound

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// ErrRefused is a connection, or a URL, to an address that is not public
// and not allowed.
var ErrRefused = errors.New("outbound: address not allowed")

// Guard says which addresses may be connected to: public ones and those
// it allows, each exactly (address and port). A nil or zero Guard allows
// none beyond the public ones.
type Guard struct {
	allow map[netip.AddrPort]bool
}

// New is a guard that also allows the addresses listed, exactly.
func New(allow ...netip.AddrPort) *Guard {
	g := &Guard{allow: make(map[netip.AddrPort]bool, len(allow))}
	for _, ap := range allow {
		g.allow[normal(ap)] = true
	}
	return g
}

// normal judges an IPv4-mapped address as its IPv4 address.
func normal(ap netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(ap.Addr().Unmap().WithZone(""), ap.Port())
}

// Permits reports whether ap may be connected to.
func (g *Guard) Permits(ap netip.AddrPort) bool {
	return Public(ap.Addr()) || g.Allowed(ap)
}

// Allowed reports whether ap is one of the addresses allowed exactly; an
// allowed address may be spoken to in plain http (a loopback test server
// has no certificate).
func (g *Guard) Allowed(ap netip.AddrPort) bool {
	return g != nil && g.allow[normal(ap)]
}

// AllowedURL reports whether u's host is an allowed address literal with
// its port (the scheme's default when u names none).
func (g *Guard) AllowedURL(u *url.URL) bool {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	ap, err := netip.ParseAddrPort(net.JoinHostPort(u.Hostname(), port))
	return err == nil && g.Allowed(ap)
}

// RefusesHost reports a URL whose host is sure to be refused when dialled,
// so that it can be refused with a field's message when it is submitted:
// an address literal that is neither public nor allowed, or localhost.
// Other names are checked when they are dialled.
func (g *Guard) RefusesHost(u *url.URL) bool {
	if a, err := netip.ParseAddr(u.Hostname()); err == nil {
		return !Public(a) && !g.AllowedURL(u)
	}
	h := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	return h == "localhost" || strings.HasSuffix(h, ".localhost")
}

// Options shape a client; zero values take the defaults.
type Options struct {
	// Timeout bounds a whole request, redirects and reading included;
	// 0 means 10s.
	Timeout time.Duration
	// MaxRedirects bounds the redirects followed, each to an http(s) URL
	// and dialled through the same check; 0 follows none (the client
	// answers the redirect itself).
	MaxRedirects int
	// MaxResponseHeaderBytes bounds a response's head; 0 means 64 KiB.
	MaxResponseHeaderBytes int64
	// Rewrite, when set, changes host:port before it is resolved: a
	// stand-in for DNS in tests. The address dialled is checked all the
	// same.
	Rewrite func(hostport string) string
}

// Client is an HTTP client whose every connection is checked by g just
// before it is made, and which uses no proxy from the environment (a proxy
// would connect on the server's behalf to addresses the check never sees).
func (g *Guard) Client(o Options) *http.Client {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.MaxResponseHeaderBytes <= 0 {
		o.MaxResponseHeaderBytes = 64 << 10
	}
	dialer := &net.Dialer{Timeout: min(o.Timeout, 5*time.Second), ControlContext: g.control}
	transport := &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if o.Rewrite != nil {
				addr = o.Rewrite(addr)
			}
			return dialer.DialContext(ctx, network, addr)
		},
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    min(o.Timeout, 5*time.Second),
		ResponseHeaderTimeout:  o.Timeout,
		MaxResponseHeaderBytes: o.MaxResponseHeaderBytes,
		MaxIdleConns:           32,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        30 * time.Second,
	}
	return &http.Client{
		Transport: transport,
		Timeout:   o.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if o.MaxRedirects == 0 {
				return http.ErrUseLastResponse
			}
			if len(via) > o.MaxRedirects {
				return fmt.Errorf("outbound: more than %d redirects", o.MaxRedirects)
			}
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return fmt.Errorf("%w: redirect to %s", ErrRefused, req.URL.Scheme)
			}
			return nil
		},
	}
}

// control runs on the resolved address just before connecting: the one
// place every name, rebinding answer and redirect is judged.
func (g *Guard) control(_ context.Context, network, address string, _ syscall.RawConn) error {
	if network != "tcp4" && network != "tcp6" {
		return fmt.Errorf("%w: network %s", ErrRefused, network)
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil || !g.Permits(ap) {
		return fmt.Errorf("%w: %s", ErrRefused, address)
	}
	return nil
}
