package httpapi

import (
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"github.com/valyala/fasthttp"
)

// apiPolicy is the Content-Security-Policy of every response but the web
// app's pages and the blobs (which keep their own sandboxing policy): an
// API answer is never a page, so it may load nothing, and no site may
// frame it.
const apiPolicy = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// The embedded players of the recognised link types (web/src/features/feed/lib/media.ts,
// embedFor): the only frames of other sites the app shows.
const playerOrigins = "https://www.youtube-nocookie.com https://player.vimeo.com https://cdnapisec.kaltura.com"

// safeHost is a Host header fit to be written into a policy: a host name or
// address and a port, nothing that could end a directive.
var safeHost = regexp.MustCompile(`^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$`)

// appPolicy is the Content-Security-Policy of the web app's pages.
//
//   - script-src 'self': every script is a file of the build (index.html
//     has no inline script; the theme and browser checks are src/boot/*.js,
//     built into assets/ by vite.config.ts). 'wasm-unsafe-eval' lets a page
//     compile WebAssembly, and nothing else that 'unsafe-eval' would (no
//     eval, no new Function): the Meet Up's virtual background runs
//     MediaPipe's person segmentation, a .wasm file of the build; without
//     it the browser refuses WebAssembly.instantiate.
//   - style-src 'unsafe-inline': the app's CSS is files, but the UI
//     renders style elements that no hash can name and no nonce can reach
//     (index.html is one static, cached file): Radix's ScrollArea and
//     Select render a <style> of their own, and its dialogs and menus lock
//     scrolling through react-remove-scroll's <style>, with the scrollbar's
//     measured width. Tried without it, the browser tests' forum pages
//     report style-src-elem violations. The unsupported-browser notice and
//     the not-built page carry style attributes too. (React's style props
//     are set through the CSSOM, which the policy does not govern.) Styles
//     cannot run code, so this only lets injected markup restyle the page.
//   - img-src https: http:: a link preview's image is the linked page's
//     og:image address (internal/adapters/linkpreview), shown from that site as the
//     member's browser reads it, and forum and community images are
//     addresses too; blob URLs are on this origin or the public URL's.
//     The app makes no data: or blob: image, so neither is allowed.
//   - connect-src: the API and the hub's WebSocket on this host. 'self'
//     covers ws: and wss: of the page's origin in current browsers; older
//     ones (CSP 2) need them named, so the request's host and the public
//     URL's host are.
//     The Meet Up screen connects to LiveKit's public URL (its signalling
//     WebSocket, and HTTP for its checks), which is another origin.
//   - frame-src: the video players (and this origin). No blob is framed:
//     the file viewer shows images, audio and video in their elements,
//     renders a PDF's bytes itself (pdf.js) and downloads the rest.
func appPolicy(c fiber.Ctx, publicURL, sfuURL string) string {
	hosts := []string{}
	if h := string(c.RequestCtx().Host()); safeHost.MatchString(h) {
		hosts = append(hosts, h)
	}
	public := ""
	if u, err := url.Parse(publicURL); err == nil && u.Host != "" && safeHost.MatchString(u.Host) {
		public = " " + u.Scheme + "://" + u.Host
		if !slices.Contains(hosts, u.Host) {
			hosts = append(hosts, u.Host)
		}
	}
	var sockets strings.Builder
	for _, h := range hosts {
		sockets.WriteString(" ws://" + h + " wss://" + h)
	}
	sockets.WriteString(sfuOrigins(sfuURL))
	return "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' https: http:; font-src 'self'; " +
		"connect-src 'self'" + sockets.String() + "; " +
		"frame-src 'self' " + playerOrigins + "; " +
		"media-src 'self'" + public + "; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}

// sfuOrigins are the WebSocket and HTTP origins of LiveKit's public URL
// (ws or http given, wss and https alike), or "" for none or an unsafe
// host.
func sfuOrigins(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || !safeHost.MatchString(u.Host) {
		return ""
	}
	switch u.Scheme {
	case "ws", "http":
		return " ws://" + u.Host + " http://" + u.Host
	case "wss", "https":
		return " wss://" + u.Host + " https://" + u.Host
	}
	return ""
}

// setSecurityHeaders gives a response the headers every answer carries.
// The referrer is cut to the origin when leaving the site: a password
// reset's token rides in its page's URL.
func setSecurityHeaders(h *fasthttp.ResponseHeader) {
	h.Set(fiber.HeaderContentSecurityPolicy, apiPolicy)
	h.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	h.Set(fiber.HeaderReferrerPolicy, "strict-origin-when-cross-origin")
}

// secure sets the security headers before anything else runs, so that
// every answer has them, errors included; a handler may then set a policy
// of its own (the web app's pages, the blobs).
func secure(c fiber.Ctx) error {
	setSecurityHeaders(&c.Response().Header)
	return c.Next()
}

// knownMethods answers a method Fiber does not route (PROPFIND, BREW…)
// with the JSON error body, where Fiber would answer a plain-text 501
// before any handler of ours runs.
func knownMethods(methods []string, next fasthttp.RequestHandler) fasthttp.RequestHandler {
	known := map[string]bool{}
	for _, m := range methods {
		known[m] = true
	}
	return func(ctx *fasthttp.RequestCtx) {
		if known[string(ctx.Method())] {
			next(ctx)
			return
		}
		ctx.Response.Reset()
		setSecurityHeaders(&ctx.Response.Header)
		ctx.Response.Header.Set("X-Request-Id", uuid.NewString())
		ctx.SetStatusCode(fiber.StatusNotImplemented)
		ctx.SetContentType(fiber.MIMEApplicationJSONCharsetUTF8)
		b, _ := json.Marshal(transportError(fiber.StatusNotImplemented))
		ctx.SetBody(b)
	}
}
