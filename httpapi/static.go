package httpapi

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"path"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v3"

	"agora/web"
)

// The web app (web/dist, embedded) is served outside /api:
//
//   - files under /assets/ carry a content hash in their names, so they are
//     cached for a year and marked immutable;
//   - every other file (index.html, favicon…) is `no-cache`: the browser
//     revalidates it with its ETag, so a new deployment is picked up at once;
//   - a GET for any other path from a browser navigation (Accept includes
//     text/html) answers index.html, and the client-side router shows the
//     page or its 404. API clients that do not ask for HTML keep getting the
//     JSON 404 of x-unmatched, and /api/* never falls back.
//
// Text files (and WebAssembly) are gzipped once, when first asked for, and
// sent compressed to clients that accept it: not at start-up, where the
// virtual background's two .wasm builds alone would take a third of a
// second of every server's start (every test server's too) for files most
// sessions never load. index.html carries the build's id (web.BuildID) in a
// <meta name="agora-build">, which the app compares with the id the hub
// announces, to offer a reload after a deployment.

type staticFile struct {
	body        []byte
	contentType string
	etag        string
	immutable   bool

	gzipOnce sync.Once
	gzipped  []byte // nil when not worth it
}

// compressed is f's body gzipped, made on the first call, or nil when f is
// not compressible or gzip would not make it smaller.
func (f *staticFile) compressed() []byte {
	f.gzipOnce.Do(func() {
		if !compressible(f.contentType) || len(f.body) <= 512 {
			return
		}
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		_, _ = zw.Write(f.body)
		_ = zw.Close()
		if b.Len() < len(f.body) {
			f.gzipped = b.Bytes()
		}
	})
	return f.gzipped
}

type staticSite struct {
	files map[string]*staticFile // by URL path, "/assets/index-abc.js"
	built bool
	// publicURL is AGORA_PUBLIC_URL, which the pages' policy lets them load from.
	publicURL string
	// sfuURL is LiveKit's public URL, which the Meet Up screen connects to.
	sfuURL string
}

// notBuiltPage is what a browser gets when the binary was built without
// the web app (go build without `make build`).
const notBuiltPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Agora: web app not built</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem">
<h1>Web app not built</h1><p>This agora binary was built without the web app: run <code>make build</code> (or <code>make dev</code>) and start it again.</p>
<p>The API is served under <a href="/api/openapi.json">/api/</a>.</p></body></html>`

func newStaticSite(dist fs.FS, built bool) (*staticSite, error) {
	s := &staticSite{files: map[string]*staticFile{}, built: built}
	if dist == nil || !built {
		return s, nil
	}
	err := fs.WalkDir(dist, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			return err
		}
		body, err := fs.ReadFile(dist, p)
		if err != nil {
			return err
		}
		if p == "index.html" {
			body = withBuildID(body, web.BuildID(dist))
		}
		sum := sha256.Sum256(body)
		f := &staticFile{
			body:        body,
			contentType: mime.TypeByExtension(path.Ext(p)),
			etag:        `"` + hex.EncodeToString(sum[:8]) + `"`,
			immutable:   strings.HasPrefix(p, "assets/"),
		}
		if f.contentType == "" {
			f.contentType = "application/octet-stream"
		}
		s.files["/"+p] = f
		return nil
	})
	return s, err
}

// withBuildID adds the meta tag naming the build to a page's head.
func withBuildID(page []byte, id string) []byte {
	i := bytes.Index(page, []byte("</head>"))
	if id == "" || i < 0 {
		return page
	}
	tag := `<meta name="agora-build" content="` + id + `">`
	return append(append(append([]byte{}, page[:i]...), tag...), page[i:]...)
}

func compressible(ct string) bool {
	return strings.HasPrefix(ct, "text/") || strings.Contains(ct, "javascript") ||
		strings.Contains(ct, "json") || strings.Contains(ct, "svg") || strings.Contains(ct, "wasm")
}

// handler serves files and the SPA fallback; everything else goes on to
// the JSON 404/405 answers.
func (s *staticSite) handler(c fiber.Ctx) error {
	if c.Method() != fiber.MethodGet && c.Method() != fiber.MethodHead {
		return c.Next()
	}
	p := c.Path()
	if p == "/api" || strings.HasPrefix(p, "/api/") {
		return c.Next()
	}
	if f, ok := s.files[p]; ok && p != "/index.html" {
		return s.send(c, f)
	}
	if strings.HasPrefix(p, "/assets/") || !strings.Contains(c.Get(fiber.HeaderAccept), "text/html") {
		return c.Next()
	}
	if !s.built {
		c.Set(fiber.HeaderCacheControl, "no-store")
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		c.Set(fiber.HeaderContentSecurityPolicy, appPolicy(c, s.publicURL, s.sfuURL))
		return c.Status(fiber.StatusServiceUnavailable).SendString(notBuiltPage)
	}
	return s.send(c, s.files["/index.html"])
}

// serviceWorker is the push notifications' service worker
// (web/public/sw.js), at the root so that its scope is the whole app.
const serviceWorker = "/sw.js"

// workerPolicy is the service worker's own policy (a worker's policy is
// the one its script came with): it fetches nothing, and loads only the
// notifications' icon from this origin.
const workerPolicy = "default-src 'none'; img-src 'self'"

func (s *staticSite) send(c fiber.Ctx, f *staticFile) error {
	if f.immutable {
		c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
	} else {
		c.Set(fiber.HeaderCacheControl, "no-cache")
	}
	c.Set(fiber.HeaderETag, f.etag)
	c.Set(fiber.HeaderVary, fiber.HeaderAcceptEncoding)
	c.Set(fiber.HeaderContentType, f.contentType)
	switch {
	case strings.HasPrefix(f.contentType, "text/html"):
		// A page of the app; other files keep the API's policy, which
		// lets an SVG opened on its own run nothing.
		c.Set(fiber.HeaderContentSecurityPolicy, appPolicy(c, s.publicURL, s.sfuURL))
	case c.Path() == serviceWorker:
		c.Set(fiber.HeaderContentSecurityPolicy, workerPolicy)
	}
	if c.Get(fiber.HeaderIfNoneMatch) == f.etag {
		return c.SendStatus(fiber.StatusNotModified)
	}
	if strings.Contains(c.Get(fiber.HeaderAcceptEncoding), "gzip") {
		if gz := f.compressed(); gz != nil {
			c.Set(fiber.HeaderContentEncoding, "gzip")
			return c.Send(gz)
		}
	}
	return c.Send(f.body)
}

// mountWebApp serves the embedded web app as middleware (app.Use), so the
// pages are not API operations and the route contract test ignores them.
func mountWebApp(app *fiber.App, publicURL, sfuURL string) error {
	site, err := newStaticSite(web.Dist())
	if err != nil {
		return err
	}
	site.publicURL, site.sfuURL = publicURL, sfuURL
	app.Use(site.handler)
	return nil
}
