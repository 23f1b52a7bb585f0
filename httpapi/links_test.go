package httpapi_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"sync/atomic"
	"testing"

	"agora/app/seed"
	"agora/app/testenv"
	"agora/internal/plumbing/config"
)

type linkView struct {
	URL        string `json:"url"`
	MediaType  string `json:"mediaType"`
	ViewerType string `json:"viewerType"`
	Preview    struct {
		Title       string `json:"title"`
		Description string `json:"description"`
		Image       string `json:"image"`
	} `json:"preview"`
}

// linkSite is a page server on loopback that counts its requests.
func linkSite(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/article":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(`<html><head><title>Fallback</title>
<meta property="og:title" content="Quarterly &lt;planning&gt;">
<meta property="og:description" content="How we plan.">
<meta property="og:image" content="/img/cover.png"></head><body></body></html>`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.Close)
	return s, &hits
}

// allowSite lets the server preview the loopback site, exactly.
func allowSite(s *httptest.Server) func(*config.Config) {
	return testenv.AllowOutbound(netip.MustParseAddrPort(s.Listener.Addr().String()))
}

func previewPath(link string) string { return "/api/links/preview?url=" + url.QueryEscape(link) }

// TestLinkPreview: a member previews a page; the answer is a post's link,
// ready to attach; a page that answers 404 is linkPreviewFailed.
func TestLinkPreview(t *testing.T) {
	site, _ := linkSite(t)
	env := testenv.New(t, allowSite(site))
	member := env.As(t, seed.MemberEmail)

	r := member.Do("GET", previewPath(site.URL+"/article"), nil)
	if r.Status != 200 {
		t.Fatalf("preview: %d %s", r.Status, r.Body)
	}
	var l linkView
	r.JSON(t, &l)
	if l.URL != site.URL+"/article" || l.MediaType != "text/html" || l.ViewerType != "external" ||
		l.Preview.Title != "Quarterly <planning>" || l.Preview.Description != "How we plan." || l.Preview.Image != site.URL+"/img/cover.png" {
		t.Errorf("got %+v", l)
	}

	if r := member.Do("GET", previewPath(site.URL+"/gone"), nil); r.Status != 422 || r.Code() != "linkPreviewFailed" {
		t.Errorf("404 page: %d %s", r.Status, r.Body)
	}
}

// TestLinkPreviewBadRequests: no session is 401, and bad links are
// 400s with the spec's codes, before anything is fetched.
func TestLinkPreviewBadRequests(t *testing.T) {
	site, hits := linkSite(t)
	env := testenv.New(t)
	if r := env.Client(t).Do("GET", previewPath(site.URL+"/article"), nil); r.Status != 401 || r.Code() != "authenticationRequired" {
		t.Errorf("without a session: %d %s", r.Status, r.Body)
	}
	member := env.As(t, seed.MemberEmail)
	_, port, _ := net.SplitHostPort(site.Listener.Addr().String())
	for _, tt := range []struct{ path, code string }{
		{"/api/links/preview", "parametersMissingException"},
		{previewPath("   "), "parametersMissingException"},
		{previewPath("ftp://example.com/file"), "validationFailed"},
		{previewPath("javascript:alert(1)"), "validationFailed"},
		{previewPath("https://user:pw@example.com/"), "validationFailed"},
		// Private addresses are refused by default: loopback by address and
		// by name, and the cloud metadata address.
		{previewPath(site.URL + "/article"), "linkPreviewRefused"},
		{previewPath("localhost:" + port + "/article"), "linkPreviewRefused"},
		{previewPath("http://169.254.169.254/latest/meta-data/"), "linkPreviewRefused"},
	} {
		r := member.Do("GET", tt.path, nil)
		if r.Status != 400 || r.Code() != tt.code {
			t.Errorf("%s: %d %s, want 400 %s", tt.path, r.Status, r.Body, tt.code)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback site got %d requests", n)
	}
}

// TestLinkPreviewRateLimit: each account has its own limit.
func TestLinkPreviewRateLimit(t *testing.T) {
	site, _ := linkSite(t)
	env := testenv.New(t, allowSite(site), func(c *config.Config) { c.LinkPreview.PerAccountPerMinute = 2 })
	member, expert := env.As(t, seed.MemberEmail), env.As(t, seed.ExpertEmail)
	for i := 0; i < 2; i++ {
		if r := member.Do("GET", previewPath(site.URL+"/article"), nil); r.Status != 200 {
			t.Fatalf("call %d: %d %s", i+1, r.Status, r.Body)
		}
	}
	r := member.Do("GET", previewPath(site.URL+"/article"), nil)
	if r.Status != 429 || r.Code() != "tooManyRequests" || r.Header.Get("Retry-After") == "" {
		t.Errorf("over the limit: %d %s", r.Status, r.Body)
	}
	if r := expert.Do("GET", previewPath(site.URL+"/article"), nil); r.Status != 200 {
		t.Errorf("another account: %d %s", r.Status, r.Body)
	}
}
