// Package linkpreview reads what a web link points to, for the card a post
// shows under its link (spec 001 §3 "link", §7 GET /links/preview): the
// page's Open Graph and Twitter card fields, its <title> and description,
// and whether the link plays in an embedded viewer (YouTube, Vimeo,
// Kaltura).
//
// Fetching a URL that a member typed is a server-side request forgery risk,
// so the fetcher checks the address it actually connects to (after DNS, on
// every redirect) and refuses loopback, private, link-local and other
// non-public ranges; it has short timeouts, few redirects and a size cap.
package linkpreview

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"time"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/ratelimit"
)

// Viewer types of a link (spec 001 §3).
const (
	// ViewerEmbedded is a video that plays in the post (YouTube, Vimeo, Kaltura).
	ViewerEmbedded = "embedded"
	// ViewerExternal is a web page, opened in a new tab.
	ViewerExternal = "external"
	// ViewerOther is a link to something that is not a page (a PDF, an image…).
	ViewerOther = "other"
)

// Link is a post's link as the client attaches it to a post: the shape of
// command/feed's Link, with the preview filled in.
type Link struct {
	URL        string  `json:"url"`
	MediaType  string  `json:"mediaType"`
	ViewerType string  `json:"viewerType"`
	Preview    Preview `json:"preview"`
}

// Preview is what a page says about itself. Every field is plain text or
// an http(s) URL, already trimmed and bounded; any may be empty.
type Preview struct {
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	SiteName    string `json:"siteName,omitempty"`
	// Image is the page's picture, resolved against the page's URL.
	Image string `json:"image,omitempty"`
	// Video is the page's og:video (or twitter:player) URL.
	Video string `json:"video,omitempty"`
	// Provider and VideoID name the video of an embedded link (youtube,
	// vimeo, kaltura), so the client builds its player URL from an id it
	// can check rather than from the link as typed.
	Provider string `json:"provider,omitempty"`
	VideoID  string `json:"videoId,omitempty"`
}

// Errors of a preview (the codes are ours: the spec says only that a failed
// preview is logged by the client and the link data cleared).
var (
	// ErrRefused is a link to an address previews never fetch: loopback,
	// private, link-local and other non-public ranges, or a redirect to one.
	ErrRefused = apperr.New(apperr.BadInput, "linkPreviewRefused", "links to private or local addresses cannot be previewed")
	// ErrFailed is a page that could not be read: unreachable, too slow,
	// an error status, or too large before its head ended.
	ErrFailed = apperr.New(apperr.Unprocessable, "linkPreviewFailed", "the page could not be previewed")
	// ErrTooMany is a caller over the per-account limit; RetryAfter is set per call.
	ErrTooMany = apperr.New(apperr.TooMany, "tooManyRequests", "too many link previews; try again later")
)

// MaxURL is the longest link accepted, as command/feed accepts for a post's link.
const MaxURL = 2048

// Normalize turns what a member typed into an http(s) URL: surrounding
// space is trimmed and a missing scheme becomes https:// (spec 001 §5
// Links). It answers validationFailed (field url) for anything else.
func Normalize(raw string) (*url.URL, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return nil, apperr.MissingParameters("url")
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	bad := func(msg string) error { return apperr.Invalid(map[string]string{"url": msg}) }
	if len(s) > MaxURL {
		return nil, bad("must be at most 2048 characters")
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return nil, bad("must be a valid URL")
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, bad("must be an http(s) URL")
	case u.Hostname() == "" || u.Opaque != "":
		return nil, bad("must name a host")
	case u.User != nil:
		// A user name in a link is either a credential or a disguise
		// (https://bank.example@evil.example/).
		return nil, bad("must not contain a user name or password")
	}
	return u, nil
}

// Options configure a Service.
type Options struct {
	Fetch FetcherOptions
	// PerAccountPerMinute bounds the previews one account asks for.
	PerAccountPerMinute int
	// CacheTTL is how long a preview is reused; 0 means 10 minutes.
	CacheTTL time.Duration
	// CacheSize bounds the cached previews; 0 means 1000.
	CacheSize int
}

// Service answers preview requests: rate limit, URL check, cache, fetch.
type Service struct {
	fetch *Fetcher
	limit *ratelimit.Limiter
	cache *cache
}

// New builds the service.
func New(o Options) *Service {
	if o.PerAccountPerMinute < 1 {
		o.PerAccountPerMinute = 1
	}
	if o.CacheTTL <= 0 {
		o.CacheTTL = 10 * time.Minute
	}
	if o.CacheSize <= 0 {
		o.CacheSize = 1000
	}
	return &Service{
		fetch: NewFetcher(o.Fetch),
		limit: ratelimit.New(o.PerAccountPerMinute, time.Minute),
		cache: &cache{ttl: o.CacheTTL, size: o.CacheSize, entries: map[string]cacheEntry{}, now: time.Now},
	}
}

// Preview previews raw for account (the caller's user id, the rate-limit key).
func (s *Service) Preview(ctx context.Context, account, raw string) (Link, error) {
	if strings.TrimSpace(raw) == "" {
		return Link{}, apperr.MissingParameters("url")
	}
	if ok, retry := s.limit.Allow(account); !ok {
		e := *ErrTooMany
		e.RetryAfter = ratelimit.Seconds(retry)
		return Link{}, &e
	}
	u, err := Normalize(raw)
	if err != nil {
		return Link{}, err
	}
	key := u.String()
	if l, ok := s.cache.get(key); ok {
		return l, nil
	}
	l, err := s.fetch.Fetch(ctx, u)
	if err != nil {
		return Link{}, err
	}
	s.cache.put(key, l)
	return l, nil
}

// cache keeps recent previews by URL, so that the debounced requests of
// one member typing, and many members sharing one link, fetch it once.
// Failures are not kept: a page that was down may be up a second later.
type cache struct {
	ttl     time.Duration
	size    int
	now     func() time.Time
	mu      sync.Mutex
	entries map[string]cacheEntry
}

type cacheEntry struct {
	link    Link
	expires time.Time
}

func (c *cache) get(key string) (Link, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || !c.now().Before(e.expires) {
		return Link{}, false
	}
	return e.link, true
}

func (c *cache) put(key string, l Link) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if len(c.entries) >= c.size {
		for k, e := range c.entries {
			if !now.Before(e.expires) {
				delete(c.entries, k)
			}
		}
	}
	if len(c.entries) >= c.size {
		// Still full of live entries: start over rather than track
		// recency; a miss costs one fetch.
		clear(c.entries)
	}
	c.entries[key] = cacheEntry{link: l, expires: now.Add(c.ttl)}
}
