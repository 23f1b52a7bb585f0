package httpapi

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gofiber/fiber/v3"

	"agora/web"
)

// TestStaticSite checks the cache headers, compression and SPA fallback on
// a fake build, independent of whether web/dist was built.
func TestStaticSite(t *testing.T) {
	big := make([]byte, 4096)
	for i := range big {
		big[i] = 'a'
	}
	site, err := newStaticSite(fstest.MapFS{
		"index.html":           {Data: []byte("<!doctype html><title>app</title>")},
		"favicon.svg":          {Data: []byte("<svg/>")},
		"sw.js":                {Data: []byte("self.addEventListener('push', () => {})")},
		"assets/index-abc.js":  {Data: big},
		".keep":                {Data: nil},
		"assets/index-abc.css": {Data: []byte("body{}")},
	}, true)
	if err != nil {
		t.Fatal(err)
	}
	app := fiber.New()
	app.Use(site.handler)
	app.Use(func(c fiber.Ctx) error { return c.Status(404).SendString("json 404") })

	for _, tc := range []struct {
		path, accept, encoding string
		status                 int
		cache, contentEncoding string
		body                   string
	}{
		{"/assets/index-abc.js", "*/*", "gzip", 200, "public, max-age=31536000, immutable", "gzip", ""},
		{"/assets/index-abc.js", "*/*", "", 200, "public, max-age=31536000, immutable", "", string(big)},
		{"/favicon.svg", "*/*", "", 200, "no-cache", "", "<svg/>"},
		{"/home", "text/html", "", 200, "no-cache", "", "<!doctype html><title>app</title>"},
		{"/", "text/html", "", 200, "no-cache", "", "<!doctype html><title>app</title>"},
		{"/home", "application/json", "", 404, "", "", "json 404"},
		{"/assets/gone.js", "text/html", "", 404, "", "", "json 404"},
		{"/api/nope", "text/html", "", 404, "", "", "json 404"},
		{"/.keep", "*/*", "", 404, "", "", "json 404"},
	} {
		req := httptest.NewRequest("GET", tc.path, nil)
		req.Header.Set("Accept", tc.accept)
		if tc.encoding != "" {
			req.Header.Set("Accept-Encoding", tc.encoding)
		}
		res, err := app.Test(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != tc.status || res.Header.Get("Cache-Control") != tc.cache || res.Header.Get("Content-Encoding") != tc.contentEncoding {
			t.Errorf("GET %s (Accept %s): %d, Cache-Control %q, Content-Encoding %q", tc.path, tc.accept, res.StatusCode,
				res.Header.Get("Cache-Control"), res.Header.Get("Content-Encoding"))
		}
		if tc.body != "" && string(body) != tc.body {
			t.Errorf("GET %s: body %.40q", tc.path, body)
		}
	}

	// The service worker is served at the root, revalidated each time, with
	// a policy of its own that lets it show its icon and fetch nothing.
	req := httptest.NewRequest("GET", "/sw.js", nil)
	res, err := app.Test(req)
	if err != nil || res.StatusCode != 200 || res.Header.Get("Cache-Control") != "no-cache" ||
		!strings.HasPrefix(res.Header.Get("Content-Type"), "text/javascript") ||
		res.Header.Get("Content-Security-Policy") != "default-src 'none'; img-src 'self'" {
		t.Errorf("GET /sw.js: %d %v %v", res.StatusCode, res.Header, err)
	}

	// Revalidation of index.html with its ETag.
	req = httptest.NewRequest("GET", "/home", nil)
	req.Header.Set("Accept", "text/html")
	res, _ = app.Test(req)
	req = httptest.NewRequest("GET", "/home", nil)
	req.Header.Set("Accept", "text/html")
	req.Header.Set("If-None-Match", res.Header.Get("ETag"))
	if res, _ = app.Test(req); res.StatusCode != 304 {
		t.Errorf("revalidation: %d, want 304", res.StatusCode)
	}

	// Without a build, browsers get the "not built" page.
	empty, _ := newStaticSite(nil, false)
	app2 := fiber.New()
	app2.Use(empty.handler)
	req = httptest.NewRequest("GET", "/login", nil)
	req.Header.Set("Accept", "text/html")
	if res, _ = app2.Test(req); res.StatusCode != 503 {
		t.Errorf("not built: %d, want 503", res.StatusCode)
	}
}

// TestStaticSiteBuildID: the served index.html names its build in a meta
// tag, the id the hub announces (web.BuildID of the same files).
func TestStaticSiteBuildID(t *testing.T) {
	files := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><html><head><title>app</title></head><body></body></html>")}}
	site, err := newStaticSite(files, true)
	if err != nil {
		t.Fatal(err)
	}
	id := web.BuildID(files)
	want := `<!doctype html><html><head><title>app</title><meta name="agora-build" content="` + id + `"></head><body></body></html>`
	if got := string(site.files["/index.html"].body); len(id) != 16 || got != want {
		t.Errorf("index.html %q, want %q", got, want)
	}
	other := web.BuildID(fstest.MapFS{"index.html": {Data: []byte("<!doctype html><html><head><script src=/assets/index-new.js></script></head></html>")}})
	if other == id || other == "" || web.BuildID(fstest.MapFS{}) != "" {
		t.Errorf("build ids %q and %q: want two ids, and none without index.html", id, other)
	}
}
