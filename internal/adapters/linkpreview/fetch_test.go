package linkpreview

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/outbound"
)

// site is a test web server on loopback that counts the requests it gets.
type site struct {
	*httptest.Server
	hits atomic.Int64
}

func newSite(t *testing.T, h http.HandlerFunc) *site {
	t.Helper()
	s := &site{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) addrPort(t *testing.T) netip.AddrPort {
	t.Helper()
	ap, err := netip.ParseAddrPort(s.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	return ap
}

func htmlPage(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(body))
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := Normalize(s)
	if err != nil {
		t.Fatalf("Normalize(%q): %v", s, err)
	}
	return u
}

// code is the catalogue code of err, or "" for nil.
func code(err error) string {
	if err == nil {
		return ""
	}
	if e, ok := apperr.As(err); ok {
		return e.Code
	}
	return "not an apperr: " + err.Error()
}

func TestFetchReadsAPage(t *testing.T) {
	og, err := os.ReadFile("testdata/og.html")
	if err != nil {
		t.Fatal(err)
	}
	var gotUA string
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		gotUA = r.Header.Get("User-Agent")
		switch r.URL.Path {
		case "/old":
			http.Redirect(w, r, "/articles/new", http.StatusMovedPermanently)
		case "/articles/new":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write(og)
		case "/relative":
			htmlPage(`<head><meta property="og:image" content="img/a.png"><title>R</title></head>`)(w, r)
		}
	})
	f := NewFetcher(FetcherOptions{Guard: outbound.New(s.addrPort(t))})
	l, err := f.Fetch(context.Background(), mustURL(t, s.URL+"/old"))
	if err != nil {
		t.Fatal(err)
	}
	if l.URL != s.URL+"/old" || l.MediaType != "text/html" || l.ViewerType != ViewerExternal ||
		l.Preview.Title != "Roadmaps that survive contact with reality" || l.Preview.Image != "https://cdn.example.org/cover.png" {
		t.Errorf("got %+v", l)
	}
	if !strings.Contains(gotUA, "Agora") {
		t.Errorf("User-Agent %q does not name Agora", gotUA)
	}
	// Relative images resolve against the page after redirects.
	l, err = f.Fetch(context.Background(), mustURL(t, s.URL+"/relative"))
	if err != nil || l.Preview.Image != s.URL+"/img/a.png" || l.Preview.Title != "R" {
		t.Errorf("relative image: %+v %v", l, err)
	}
}

func TestFetchNotAPage(t *testing.T) {
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/PDF")
		_, _ = w.Write([]byte("%PDF-1.7 <title>not read</title>"))
	})
	l, err := NewFetcher(FetcherOptions{Guard: outbound.New(s.addrPort(t))}).Fetch(context.Background(), mustURL(t, s.URL+"/a.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if l.MediaType != "application/pdf" || l.ViewerType != ViewerOther || l.Preview != (Preview{}) {
		t.Errorf("got %+v", l)
	}
}

// TestFetchEmbeddedProviders: links to YouTube, Vimeo and Kaltura are
// embedded, with the video id read from the link as typed. A stand-in for
// DNS sends those hosts to a loopback server, so nothing leaves the machine.
func TestFetchEmbeddedProviders(t *testing.T) {
	s := newSite(t, htmlPage(`<head><meta property="og:title" content="A video"></head>`))
	f := NewFetcher(FetcherOptions{Guard: outbound.New(s.addrPort(t))})
	target := s.Listener.Addr().String()
	f.resolve = func(string) string { return target }
	tests := []struct{ link, provider, id string }{
		{"http://youtu.be/dQw4w9WgXcQ", ProviderYouTube, "dQw4w9WgXcQ"},
		{"http://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42", ProviderYouTube, "dQw4w9WgXcQ"},
		{"http://m.youtube.com/shorts/abcdefghijk", ProviderYouTube, "abcdefghijk"},
		{"http://www.youtube-nocookie.com/embed/dQw4w9WgXcQ", ProviderYouTube, "dQw4w9WgXcQ"},
		{"http://youtube.com/@channel", ProviderYouTube, ""},
		{"http://vimeo.com/channels/staffpicks/76979871", ProviderVimeo, "76979871"},
		{"http://player.vimeo.com/video/76979871", ProviderVimeo, "76979871"},
		{"http://cdnapisec.kaltura.com/p/243342/sp/24334200/embedIframeJs/uiconf_id/20540612/partner_id/243342?entry_id=1_sf5ovm7u", ProviderKaltura, "1_sf5ovm7u"},
		{"http://media.kaltura.com/media/Intro/1_abcd1234", ProviderKaltura, "1_abcd1234"},
	}
	for _, tt := range tests {
		l, err := f.Fetch(context.Background(), mustURL(t, tt.link))
		if err != nil {
			t.Errorf("%s: %v", tt.link, err)
			continue
		}
		if l.ViewerType != ViewerEmbedded || l.Preview.Provider != tt.provider || l.Preview.VideoID != tt.id || l.Preview.Title != "A video" {
			t.Errorf("%s: got %+v", tt.link, l)
		}
	}
	for _, other := range []string{"http://youtube.com.evil.example/watch?v=dQw4w9WgXcQ", "http://notvimeo.com/1", "http://kaltura.com.example/1_abcd1234"} {
		l, err := f.Fetch(context.Background(), mustURL(t, other))
		if err != nil || l.ViewerType != ViewerExternal || l.Preview.Provider != "" {
			t.Errorf("%s: got %+v %v, want an external page", other, l, err)
		}
	}
}

// TestFetchRefusesPrivateAddresses: with private addresses refused, no
// request reaches a server on loopback, by literal address, by a name that
// resolves there, or by a redirect from a server that is allowed.
func TestFetchRefusesPrivateAddresses(t *testing.T) {
	target := newSite(t, htmlPage("<title>secret</title>"))
	_, port, _ := net.SplitHostPort(target.Listener.Addr().String())
	f := NewFetcher(FetcherOptions{})
	for _, link := range []string{
		target.URL,
		"http://[::1]:" + port + "/",
		"http://localhost:" + port + "/",
		"http://10.0.0.1/",
		"http://192.168.1.1/",
		"http://172.16.0.1/",
		"http://100.64.0.1/",
		"http://169.254.169.254/latest/meta-data/",
		"http://[fd00::1]/",
		"http://[fe80::1]/",
		"http://[::ffff:127.0.0.1]:" + port + "/",
		"http://0.0.0.0:" + port + "/",
	} {
		start := time.Now()
		_, err := f.Fetch(context.Background(), mustURL(t, link))
		if code(err) != "linkPreviewRefused" {
			t.Errorf("%s: got %v, want linkPreviewRefused", link, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: took %v; the refusal should come before connecting", link, d)
		}
	}
	// A public-looking name that resolves inside (a stand-in for DNS).
	f.resolve = func(hostport string) string {
		if strings.HasPrefix(hostport, "intranet.example.com:") {
			return target.Listener.Addr().String()
		}
		return hostport
	}
	if _, err := f.Fetch(context.Background(), mustURL(t, "http://intranet.example.com/")); code(err) != "linkPreviewRefused" {
		t.Errorf("a name resolving to loopback: got %v", err)
	}

	// A redirect from an allowed server to a loopback one.
	entry := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/internal", http.StatusFound)
	})
	allowed := entry.addrPort(t)
	f = NewFetcher(FetcherOptions{Guard: outbound.New(allowed)})
	if _, err := f.Fetch(context.Background(), mustURL(t, entry.URL+"/go")); code(err) != "linkPreviewRefused" {
		t.Errorf("redirect to loopback: got %v, want linkPreviewRefused", err)
	}
	if entry.hits.Load() != 1 {
		t.Errorf("the allowed server got %d requests, want 1", entry.hits.Load())
	}
	if n := target.hits.Load(); n != 0 {
		t.Errorf("the refused server got %d requests", n)
	}
}

func TestFetchFailures(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	bigHead := "<head><title>Big</title>" + strings.Repeat(`<meta name="x" content="padding">`, 400) + "</head>"
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/missing":
			http.NotFound(w, r)
		case "/error":
			http.Error(w, "boom", http.StatusInternalServerError)
		case "/slow":
			select {
			case <-release:
			case <-r.Context().Done():
			}
		case "/big-head":
			htmlPage(bigHead)(w, r)
		case "/big-body":
			htmlPage("<head><title>Small head</title></head><body>"+strings.Repeat("x", 100000)+"</body>")(w, r)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/to-file":
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		}
	})
	f := NewFetcher(FetcherOptions{Guard: outbound.New(s.addrPort(t)), Timeout: 300 * time.Millisecond, MaxBytes: 4096})
	tests := []struct{ path, want string }{
		{"/missing", "linkPreviewFailed"},
		{"/error", "linkPreviewFailed"},
		{"/slow", "linkPreviewFailed"},
		{"/big-head", "linkPreviewFailed"},
		{"/loop", "linkPreviewFailed"},
		{"/to-file", "linkPreviewRefused"},
		{"/big-body", ""}, // the head ends within the cap: the rest is not read
	}
	for _, tt := range tests {
		start := time.Now()
		l, err := f.Fetch(context.Background(), mustURL(t, s.URL+tt.path))
		if code(err) != tt.want {
			t.Errorf("%s: got %v, want %q", tt.path, err, tt.want)
		}
		if tt.want == "" && l.Preview.Title != "Small head" {
			t.Errorf("%s: got %+v", tt.path, l)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: took %v with a 300ms timeout", tt.path, d)
		}
	}
	// Nothing listens on a port just closed: unreachable.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	f = NewFetcher(FetcherOptions{Guard: outbound.New(netip.MustParseAddrPort(addr))})
	if _, err := f.Fetch(context.Background(), mustURL(t, "http://"+addr+"/")); code(err) != "linkPreviewFailed" {
		t.Errorf("unreachable: got %v", err)
	}
}

func TestCapReader(t *testing.T) {
	for _, tt := range []struct {
		body    string
		cap     int64
		tooBig  bool
		wantLen int
	}{
		{"12345", 5, false, 5},
		{"123456", 5, true, 5},
		{"", 5, false, 0},
	} {
		c := &capReader{r: strings.NewReader(tt.body), left: tt.cap}
		var got []byte
		buf := make([]byte, 2)
		var err error
		for {
			var n int
			n, err = c.Read(buf)
			got = append(got, buf[:n]...)
			if err != nil {
				break
			}
		}
		if (err == errTooLarge) != tt.tooBig || len(got) != tt.wantLen {
			t.Errorf("%q cap %d: read %d bytes, err %v", tt.body, tt.cap, len(got), err)
		}
	}
}
