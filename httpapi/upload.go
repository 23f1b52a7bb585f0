package httpapi

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/valyala/fasthttp"

	cmdupload "agora/command/upload"
	"agora/internal/adapters/blob"
	"agora/internal/plumbing/auth"
	qupload "agora/query/upload"
)

// uploadRoutes serve uploads (spec 001 §7 POST /sas): the signed URL, then
// the blob store's own PUT and GET, which the URL's signature authorizes.
func (s *server) uploadRoutes(api fiber.Router) {
	h := &uploadHandlers{cmd: s.Commands.Uploads, q: s.Queries.Uploads}
	api.Post("/sas", only(auth.GroupAuthenticated), h.create)
	api.Put("/blobs/:id/:name", h.put)
	api.Get("/blobs/:id/:name", h.get)
	// Fiber's automatic HEAD routes come after the /api catch-all; a blob's
	// HEAD (its size, for a download manager) is registered here.
	api.Head("/blobs/:id/:name", h.get)
	// A picture's address lasts; its blob's signed URL does not: the
	// request is sent on to a fresh one, which the browser may reuse for
	// a part of the URL's life.
	api.Get("/pictures/:id", h.picture)
}

func (h *uploadHandlers) picture(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	to, reuse, err := h.q.Picture(c.Context(), id)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "private, max-age="+strconv.Itoa(int(reuse.Seconds())))
	return c.Redirect().Status(fiber.StatusFound).To(to)
}

type uploadHandlers struct {
	cmd *cmdupload.Service
	q   *qupload.Queries
}

func (h *uploadHandlers) create(c fiber.Ctx) error {
	var in struct {
		Kind      *string `json:"kind"`
		Name      *string `json:"name"`
		MediaType *string `json:"mediaType"`
		Size      *int64  `json:"size"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	t, err := h.cmd.Create(c.Context(), cmdupload.Create{
		Actor: caller(c), Kind: in.Kind, Name: in.Name, MediaType: in.MediaType, Size: in.Size,
	})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(t)
}

func (h *uploadHandlers) put(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	body := c.Request().BodyStream()
	if body == nil {
		body = bytes.NewReader(c.Body())
	}
	u, err := h.cmd.Put(c.Context(), cmdupload.Put{
		ID: id, Expires: c.Query("exp"), Signature: c.Query("sig"), Body: body,
	})
	if err != nil {
		// A refused upload (a full disk, a bad signature) leaves its body
		// unread on the connection: the server would read it as the next
		// request, and closing with unread bytes resets the connection,
		// which can reach the client before the answer. Read the rest (at
		// most the largest upload) and drop it, so the client gets the answer.
		_, _ = io.Copy(io.Discard, io.LimitReader(body, cmdupload.MaxFileSize+1))
		return err
	}
	return c.JSON(u)
}

// get serves a blob so that no upload can act as a page of this origin: the
// type read from its bytes (never HTML or SVG: those are served as
// application/octet-stream), nosniff, a sandboxing CSP, and as a download
// unless it is an image, audio or video (inlineType), which the viewer's
// <img>, <audio> and <video> show. A blob never changes, so it is cached
// for good and its id is its ETag; one byte range is served when asked, so
// that a player can seek.
func (h *uploadHandlers) get(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	b, err := h.q.Open(c.Context(), qupload.Open{ID: id, Expires: c.Query("exp"), Signature: c.Query("sig")})
	if err != nil {
		return err
	}
	disposition := "attachment"
	if inlineType(b.MediaType) {
		disposition = "inline"
	}
	etag := `"` + b.ID.String() + `"`
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderContentSecurityPolicy, "sandbox; default-src 'none'")
	c.Set(fiber.HeaderCacheControl, "private, max-age=31536000, immutable")
	c.Set(fiber.HeaderETag, etag)
	c.Set(fiber.HeaderLastModified, b.CompletedOn.UTC().Format(http.TimeFormat))
	c.Set(fiber.HeaderAcceptRanges, "bytes")
	c.Set(fiber.HeaderContentDisposition, contentDisposition(disposition, b.Name))
	if inm := c.Get(fiber.HeaderIfNoneMatch); inm != "" && (inm == etag || inm == "*" || strings.Contains(inm, etag)) {
		b.File.Close()
		c.Status(fiber.StatusNotModified)
		return nil
	}
	start, length, status := int64(0), b.Size, fiber.StatusOK
	if s, n, ok := byteRange(c.Get(fiber.HeaderRange), b.Size); ok {
		start, length, status = s, n, fiber.StatusPartialContent
		c.Set(fiber.HeaderContentRange, fmt.Sprintf("bytes %d-%d/%d", s, s+n-1, b.Size))
	}
	c.Set(fiber.HeaderContentType, b.MediaType)
	c.Status(status)
	c.Response().SetBodyStream(struct {
		io.Reader
		io.Closer
	}{io.NewSectionReader(b.File, start, length), b.File}, int(length))
	return nil
}

// inlineType reports whether a blob served as mediaType is shown where it
// is opened rather than saved: images, audio and video, which a browser
// plays as media and never runs as a page. A PDF stays a download: the
// viewer renders its bytes itself (web/src/features/feed/components/pdf-viewer.tsx).
func inlineType(mediaType string) bool {
	return blob.IsImageType(mediaType) || strings.HasPrefix(mediaType, "audio/") || strings.HasPrefix(mediaType, "video/")
}

// byteRange reads a Range header of one byte range (RFC 9110 §14.1.2)
// against a body of size bytes. ok is false when the whole body is to be
// served instead: no header, another unit, several ranges, a malformed or
// unsatisfiable range (the RFC lets a server ignore any Range header, and
// a 200 with the whole blob is always a correct answer).
func byteRange(h string, size int64) (start, length int64, ok bool) {
	spec, found := strings.CutPrefix(h, "bytes=")
	if !found || strings.Contains(spec, ",") {
		return 0, 0, false
	}
	first, last, found := strings.Cut(strings.TrimSpace(spec), "-")
	if !found {
		return 0, 0, false
	}
	if first == "" { // the last n bytes
		n, err := strconv.ParseInt(last, 10, 64)
		if err != nil || n <= 0 || size == 0 {
			return 0, 0, false
		}
		n = min(n, size)
		return size - n, n, true
	}
	s, err := strconv.ParseInt(first, 10, 64)
	if err != nil || s < 0 || s >= size {
		return 0, 0, false
	}
	end := size - 1
	if last != "" {
		e, err := strconv.ParseInt(last, 10, 64)
		if err != nil || e < s {
			return 0, 0, false
		}
		end = min(e, size-1)
	}
	return s, end - s + 1, true
}

// contentDisposition names the file for the browser: filename* carries the
// name in UTF-8 (RFC 6266, RFC 8187), filename an ASCII stand-in for old
// clients.
func contentDisposition(disposition, name string) string {
	var ascii, ext strings.Builder
	for _, r := range name {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			ascii.WriteByte('_')
		} else {
			ascii.WriteRune(r)
		}
	}
	for _, c := range []byte(name) {
		if isAttrChar(c) {
			ext.WriteByte(c)
		} else {
			fmt.Fprintf(&ext, "%%%02X", c)
		}
	}
	return fmt.Sprintf(`%s; filename="%s"; filename*=UTF-8''%s`, disposition, ascii.String(), ext.String())
}

// isAttrChar is RFC 8187's attr-char: what filename* may hold unescaped.
func isAttrChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$&+-.^_`|~", c) >= 0
}

// Request bodies. fasthttp would read a whole body into memory before the
// handler runs; uploads instead stream theirs to disk, so the server
// streams request bodies and bounds them here: an upload's PUT gets a long
// read deadline and its handler counts the bytes, every other request gets
// BodyLimit (a member import's POST, its file's limit), checked from
// Content-Length before any of the body is read and while reading a
// chunked one.
const (
	// uploadReadTimeout lets a 50 MB upload arrive over a slow link.
	uploadReadTimeout = 15 * time.Minute
	// blobWriteTimeout lets a 50 MB blob leave over a slow link.
	blobWriteTimeout = 15 * time.Minute
)

// limitBodies turns on request body streaming and installs the bound on
// every request but an upload's PUT. Call it before any route is added.
func (s *server) limitBodies(app *fiber.App) {
	srv := app.Server()
	srv.StreamRequestBody = true
	// Multipart bodies would be pre-read into temporary files, whatever
	// their size; the API has none.
	srv.DisablePreParseMultipartForm = true
	srv.HeaderReceived = requestConfig
	app.Use(boundBody)
}

// isBlobPath reports whether a request path (and query) is under the blob
// store's prefix; Fiber matches routes case-insensitively, so this does too.
func isBlobPath(uri []byte) bool {
	return len(uri) >= len(blob.PathPrefix) && strings.EqualFold(string(uri[:len(blob.PathPrefix)]), blob.PathPrefix)
}

// bodyLimit is the largest body of a request: BodyLimit, or an import's
// file (memberimport.go).
func bodyLimit(method, uri []byte) int {
	if isImportPost(method, uri) {
		return importBodyLimit
	}
	return BodyLimit
}

// requestConfig runs when a request's headers are in, before its body is
// read (fasthttp's HeaderReceived).
func requestConfig(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
	blobPath := isBlobPath(h.RequestURI())
	switch {
	case blobPath && h.IsPut():
		return fasthttp.RequestConfig{ReadTimeout: uploadReadTimeout}
	case blobPath && (h.IsGet() || h.IsHead()):
		return fasthttp.RequestConfig{WriteTimeout: blobWriteTimeout}
	case h.ContentLength() > bodyLimit(h.Method(), h.RequestURI()):
		// boundBody refuses it from its length: read as little of it as
		// fasthttp allows (1 byte) rather than 8 KiB that may never come.
		return fasthttp.RequestConfig{MaxRequestBodySize: 1}
	}
	return fasthttp.RequestConfig{}
}

// boundBody gives every request but an upload's PUT the body it had before
// streaming: in memory and at most bodyLimit, else 413 requestTooLarge.
// A connection whose body is not read to its end is closed, so that its
// rest is never taken for the next request.
func boundBody(c fiber.Ctx) error {
	req := c.Request()
	if c.Method() == fiber.MethodPut && isBlobPath([]byte(c.Path())) {
		c.RequestCtx().SetConnectionClose()
		return c.Next()
	}
	limit := bodyLimit(req.Header.Method(), req.Header.RequestURI())
	if req.Header.ContentLength() > limit {
		c.RequestCtx().SetConnectionClose()
		return fiber.ErrRequestEntityTooLarge
	}
	if req.IsBodyStream() && req.Header.ContentLength() != 0 {
		b, err := io.ReadAll(io.LimitReader(req.BodyStream(), int64(limit)+1))
		if err != nil {
			c.RequestCtx().SetConnectionClose()
			return fiber.ErrBadRequest
		}
		if len(b) > limit {
			c.RequestCtx().SetConnectionClose()
			return fiber.ErrRequestEntityTooLarge
		}
		req.SetBody(b)
	}
	return c.Next()
}
