package linkpreview

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// FetcherOptions configure a Fetcher; zero values take the defaults.
type FetcherOptions struct {
	// AllowPrivate lets previews reach loopback, private and link-local
	// addresses. For tests only (AGORA_LINK_PREVIEW_ALLOW_PRIVATE), whose
	// pages are served on loopback.
	AllowPrivate bool
	// Timeout bounds a whole fetch, redirects and reading included; 0 means 5s.
	Timeout time.Duration
	// MaxBytes bounds what is read of a response before its head ends;
	// 0 means 1 MiB.
	MaxBytes int64
	// MaxRedirects bounds the redirects followed; 0 means 5.
	MaxRedirects int
}

// UserAgent names Agora to the sites it previews, as crawlers do.
const UserAgent = "Mozilla/5.0 (compatible; AgoraLinkPreview/1.0; +https://agora.local/link-preview)"

// Fetcher fetches pages for previews over its own HTTP client, whose dialer
// checks every address it connects to.
type Fetcher struct {
	opts   FetcherOptions
	client *http.Client
	// permit, when set (tests), replaces the address check, so a test can
	// allow one loopback server and see another refused.
	permit func(netip.AddrPort) bool
	// resolve, when set (tests), rewrites host:port before the dialer
	// resolves it, standing in for DNS so that nothing leaves loopback.
	resolve func(hostport string) string
}

// errAddress is a connection refused by the address check; Fetch answers
// it with ErrRefused.
var errAddress = errors.New("linkpreview: address not allowed")

// errTooLarge is a response over MaxBytes before its head ended.
var errTooLarge = errors.New("linkpreview: response too large")

// NewFetcher builds a fetcher.
func NewFetcher(o FetcherOptions) *Fetcher {
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 1 << 20
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = 5
	}
	f := &Fetcher{opts: o}
	dialer := &net.Dialer{
		Timeout: 2 * time.Second,
		// The check runs on the resolved address just before connecting,
		// so a DNS name pointing inside, a rebinding answer or a redirect
		// to a private host are all caught where it matters.
		ControlContext: f.checkAddress,
	}
	transport := &http.Transport{
		// No proxy from the environment: a proxy would connect on our
		// behalf to addresses this dialer never sees.
		Proxy: nil,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if f.resolve != nil {
				addr = f.resolve(addr)
			}
			return dialer.DialContext(ctx, network, addr)
		},
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    3 * time.Second,
		ResponseHeaderTimeout:  4 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
		MaxIdleConns:           32,
		IdleConnTimeout:        30 * time.Second,
	}
	f.client = &http.Client{
		Transport: transport,
		Timeout:   o.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > o.MaxRedirects {
				return fmt.Errorf("linkpreview: more than %d redirects", o.MaxRedirects)
			}
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return fmt.Errorf("%w: redirect to %s", errAddress, req.URL.Scheme)
			}
			return nil
		},
	}
	return f
}

func (f *Fetcher) checkAddress(_ context.Context, network, address string, _ syscall.RawConn) error {
	if network != "tcp4" && network != "tcp6" {
		return fmt.Errorf("%w: network %s", errAddress, network)
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s", errAddress, address)
	}
	switch {
	case f.permit != nil:
		if f.permit(ap) {
			return nil
		}
	case f.opts.AllowPrivate || Public(ap.Addr()):
		return nil
	}
	return fmt.Errorf("%w: %s", errAddress, ap.Addr())
}

// Fetch reads the preview of u, which Normalize has checked.
func (f *Fetcher) Fetch(ctx context.Context, u *url.URL) (Link, error) {
	ctx, cancel := context.WithTimeout(ctx, f.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Link{}, ErrFailed.Wrap(err)
	}
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5")
	req.Header.Set("Accept-Language", "en;q=1, *;q=0.5")
	res, err := f.client.Do(req)
	if err != nil {
		if errors.Is(err, errAddress) {
			return Link{}, ErrRefused.Wrap(err)
		}
		return Link{}, ErrFailed.Wrap(err)
	}
	defer res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return Link{}, ErrFailed.Wrap(fmt.Errorf("linkpreview: %s answered %d", u.Redacted(), res.StatusCode))
	}
	contentType := res.Header.Get("Content-Type")
	mediaType, _, err := mime.ParseMediaType(contentType)
	if err != nil || mediaType == "" {
		mediaType = "application/octet-stream"
	}
	l := Link{URL: u.String(), MediaType: mediaType}
	final := res.Request.URL // after redirects
	if mediaType != "text/html" && mediaType != "application/xhtml+xml" {
		// Not a page: the media type is all a preview says.
		l.ViewerType = ViewerOther
		return l, nil
	}
	body := &capReader{r: res.Body, left: f.opts.MaxBytes}
	p, err := ReadHTML(body, contentType, final)
	if err != nil {
		return Link{}, ErrFailed.Wrap(err)
	}
	l.ViewerType = ViewerExternal
	// The link as typed is checked first: a youtu.be link stays a YouTube
	// link even when it redirects to a consent page elsewhere.
	for _, v := range []*url.URL{u, final} {
		if prov := Provider(v); prov != "" {
			l.ViewerType, p.Provider, p.VideoID = ViewerEmbedded, prov, VideoID(prov, v)
			break
		}
	}
	l.Preview = p
	return l, nil
}

// capReader reads at most left bytes, then fails with errTooLarge rather
// than pretending the body ended.
type capReader struct {
	r    io.Reader
	left int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// One byte more tells a body of exactly the cap from a larger one.
		var one [1]byte
		if n, err := c.r.Read(one[:]); n == 0 && err != nil {
			return 0, err
		}
		return 0, errTooLarge
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}
