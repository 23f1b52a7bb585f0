package linkpreview_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"agora/internal/adapters/linkpreview"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/outbound"
)

func errCode(err error) string {
	if e, ok := apperr.As(err); ok {
		return e.Code
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want, code string }{
		{"example.com", "https://example.com", ""},
		{"  www.example.com/a?b=c#d  ", "https://www.example.com/a?b=c#d", ""},
		{"http://example.com/x", "http://example.com/x", ""},
		{"HTTPS://Example.com", "https://Example.com", ""},
		{"", "", "parametersMissingException"},
		{"   ", "", "parametersMissingException"},
		{"ftp://example.com/file", "", "validationFailed"},
		{"javascript:alert(1)", "", "validationFailed"},
		{"javascript://example.com/%0aalert(1)", "", "validationFailed"},
		{"data:text/html,<script>alert(1)</script>", "", "validationFailed"},
		{"https://user:secret@example.com/", "", "validationFailed"},
		{"mailto:someone@example.com", "", "validationFailed"},
		{"http://", "", "validationFailed"},
		{"http://exa mple.com/", "", "validationFailed"},
		{"https://example.com/" + strings.Repeat("a", 2048), "", "validationFailed"},
	}
	for _, tt := range tests {
		u, err := linkpreview.Normalize(tt.in)
		if errCode(err) != tt.code {
			t.Errorf("Normalize(%q): error %v, want code %q", tt.in, err, tt.code)
			continue
		}
		if err == nil && u.String() != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, u, tt.want)
		}
		if tt.code == "validationFailed" {
			e, _ := apperr.As(err)
			if f, _ := e.Details["fields"].(map[string]string); f["url"] == "" {
				t.Errorf("Normalize(%q): no message for field url: %v", tt.in, e.Details)
			}
		}
	}
}

// TestServiceCachesAndLimits: a preview is fetched once and reused; a
// failure is not kept; each account has its own limit.
func TestServiceCachesAndLimits(t *testing.T) {
	var hits atomic.Int64
	var down atomic.Bool
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if down.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<title>Cached</title>"))
	}))
	defer s.Close()
	svc := linkpreview.New(linkpreview.Options{Fetch: linkpreview.FetcherOptions{Guard: outbound.New(netip.MustParseAddrPort(s.Listener.Addr().String()))}, PerAccountPerMinute: 3})
	ctx := context.Background()

	for i := 0; i < 2; i++ {
		l, err := svc.Preview(ctx, "alice", s.URL+"/page")
		if err != nil || l.Preview.Title != "Cached" {
			t.Fatalf("call %d: %+v %v", i, l, err)
		}
	}
	if hits.Load() != 1 {
		t.Errorf("the page was fetched %d times, want once", hits.Load())
	}
	down.Store(true)
	if _, err := svc.Preview(ctx, "bob", s.URL+"/other"); errCode(err) != "linkPreviewFailed" {
		t.Errorf("down: %v", err)
	}
	down.Store(false)
	if l, err := svc.Preview(ctx, "bob", s.URL+"/other"); err != nil || l.Preview.Title != "Cached" {
		t.Errorf("after a failure the page is fetched again: %+v %v", l, err)
	}

	// alice has made 2 of her 3; the 4th is refused with a retry delay.
	if _, err := svc.Preview(ctx, "alice", s.URL+"/page"); err != nil {
		t.Fatal(err)
	}
	_, err := svc.Preview(ctx, "alice", s.URL+"/page")
	e, ok := apperr.As(err)
	if !ok || e.Code != "tooManyRequests" || e.Kind != apperr.TooMany || e.RetryAfter < 1 {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := svc.Preview(ctx, "carol", s.URL+"/page"); err != nil {
		t.Errorf("another account is limited: %v", err)
	}
	// A missing url is reported as such, before the limit is counted.
	if _, err := svc.Preview(ctx, "alice", " "); errCode(err) != "parametersMissingException" {
		t.Errorf("missing url: %v", err)
	}
}
