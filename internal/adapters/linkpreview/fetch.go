package linkpreview

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"time"

	"agora/internal/plumbing/outbound"
)

// FetcherOptions configure a Fetcher; zero values take the defaults.
type FetcherOptions struct {
	// Guard says which addresses previews may reach; nil means public
	// ones only. The tests' pages on loopback are allowed through it,
	// exactly (AGORA_OUTBOUND_ALLOW).
	Guard *outbound.Guard
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

// Fetcher fetches pages for previews over the outbound guard's client,
// which checks every address it connects to.
type Fetcher struct {
	opts   FetcherOptions
	client *http.Client
	// resolve, when set (tests), rewrites host:port before the dialer
	// resolves it, standing in for DNS so that nothing leaves loopback.
	resolve func(hostport string) string
}

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
	if o.Guard == nil {
		o.Guard = outbound.New()
	}
	f := &Fetcher{opts: o}
	f.client = o.Guard.Client(outbound.Options{
		Timeout: o.Timeout, MaxRedirects: o.MaxRedirects,
		Rewrite: func(hostport string) string {
			if f.resolve != nil {
				return f.resolve(hostport)
			}
			return hostport
		},
	})
	return f
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
		if errors.Is(err, outbound.ErrRefused) {
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
