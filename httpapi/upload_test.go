package httpapi_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/seed"
	"agora/app/testenv"
	"agora/internal/adapters/blob"
	"agora/internal/plumbing/config"
)

// uploadEnv is a server whose blob store is a folder of the test's.
type uploadEnv struct {
	*testenv.Env
	dir string
}

func newUploadEnv(t *testing.T) *uploadEnv {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "blobs")
	env := testenv.New(t, func(c *config.Config) { c.Blobs.Dir = dir })
	return &uploadEnv{Env: env, dir: dir}
}

// files lists the files of a folder of the blob store (objects or tmp).
func (e *uploadEnv) files(t *testing.T, sub string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(e.dir, sub))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, en := range entries {
		names = append(names, en.Name())
	}
	return names
}

// local is the path and query of a URL of this server, for the client.
func (e *uploadEnv) local(t *testing.T, raw string) string {
	t.Helper()
	if !strings.HasPrefix(raw, e.URL+blob.PathPrefix) {
		t.Fatalf("URL %q is not a blob URL of %s", raw, e.URL)
	}
	return strings.TrimPrefix(raw, e.URL)
}

type ticket struct {
	ID        string `json:"id"`
	URL       string `json:"url"`
	Method    string `json:"method"`
	ExpiresOn string `json:"expiresOn"`
	MaxSize   int64  `json:"maxSize"`
}

type uploadResult struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	Name      string `json:"name"`
	URL       string `json:"url"`
	MediaType string `json:"mediaType"`
	Size      int64  `json:"size"`
}

// sas asks for an upload URL and fails the test unless it gets one.
func sas(t *testing.T, c *testenv.Client, kind, name, mediaType string, size int) ticket {
	t.Helper()
	r := c.Do("POST", "/api/sas", map[string]any{"kind": kind, "name": name, "mediaType": mediaType, "size": size})
	if r.Status != http.StatusCreated {
		t.Fatalf("POST /api/sas %s %q: %d %s", kind, name, r.Status, r.Body)
	}
	var tk ticket
	r.JSON(t, &tk)
	return tk
}

// upload asks for a URL and puts body there, failing unless it completes.
func (e *uploadEnv) upload(t *testing.T, c *testenv.Client, kind, name, mediaType string, body []byte) uploadResult {
	t.Helper()
	tk := sas(t, c, kind, name, mediaType, len(body))
	r := e.Client(t).Do("PUT", e.local(t, tk.URL), body)
	if r.Status != http.StatusOK {
		t.Fatalf("PUT %s: %d %s", name, r.Status, r.Body)
	}
	var u uploadResult
	r.JSON(t, &u)
	return u
}

func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		for y := 0; y < h; y++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 200, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var pdfBytes = []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")

// wantSafeHeaders checks the headers every served blob has.
func wantSafeHeaders(t *testing.T, r *testenv.Response, contentType, disposition string) {
	t.Helper()
	for h, want := range map[string]string{
		"Content-Type":            contentType,
		"X-Content-Type-Options":  "nosniff",
		"Content-Security-Policy": "sandbox; default-src 'none'",
		"Cache-Control":           "private, max-age=31536000, immutable",
	} {
		if got := r.Header.Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
	if got := r.Header.Get("Content-Disposition"); got != disposition {
		t.Errorf("Content-Disposition = %q, want %q", got, disposition)
	}
}

// TestUploadImage: sign, put a real PNG, read it back with the headers that
// keep it harmless, in part and conditionally; attach it to a post.
func TestUploadImage(t *testing.T) {
	e := newUploadEnv(t)
	member := e.As(t, seed.MemberEmail)
	memberID := userID(t, e.Env, seed.MemberEmail)
	body := pngBytes(t, 40, 30)

	tk := sas(t, member, "image", "Screenshot 1.png", "image/png", len(body))
	if tk.Method != "PUT" || tk.MaxSize != int64(len(body)) {
		t.Errorf("ticket: %+v", tk)
	}
	if exp, err := time.Parse(time.RFC3339, tk.ExpiresOn); err != nil || exp.Before(time.Now().Add(14*time.Minute)) || exp.After(time.Now().Add(16*time.Minute)) {
		t.Errorf("expiresOn = %q, want about 15 minutes from now", tk.ExpiresOn)
	}
	if n := e.Count(t, "uploads", "id = $1 AND owner_id = $2 AND state = 'pending' AND kind = 'image' AND declared_size = $3", tk.ID, memberID, len(body)); n != 1 {
		t.Fatalf("no pending upload row for %s", tk.ID)
	}
	if len(e.files(t, "objects")) != 0 {
		t.Fatal("a blob exists before its bytes were put")
	}

	// The PUT needs no session: the URL's signature is the permission.
	r := e.Client(t).Do("PUT", e.local(t, tk.URL), body)
	if r.Status != 200 {
		t.Fatalf("PUT: %d %s", r.Status, r.Body)
	}
	var u uploadResult
	r.JSON(t, &u)
	if u.ID != tk.ID || u.Type != "image" || u.Name != "Screenshot 1.png" || u.MediaType != "image/png" || u.Size != int64(len(body)) {
		t.Errorf("upload result: %+v", u)
	}
	if n := e.Count(t, "uploads", "id = $1 AND state = 'complete' AND sniffed_media_type = 'image/png' AND size = $2", tk.ID, len(body)); n != 1 {
		t.Error("the upload row is not complete")
	}
	if got := e.files(t, "objects"); len(got) != 1 || got[0] != tk.ID {
		t.Errorf("objects = %v, want [%s]", got, tk.ID)
	}
	if got := e.files(t, "tmp"); len(got) != 0 {
		t.Errorf("temporary files left: %v", got)
	}

	// Read without a session, as an <img> does.
	anon := e.Client(t)
	path := e.local(t, u.URL)
	r = anon.Do("GET", path, nil)
	if r.Status != 200 || !bytes.Equal(r.Body, body) {
		t.Fatalf("GET: %d, %d bytes (want %d)", r.Status, len(r.Body), len(body))
	}
	wantSafeHeaders(t, r, "image/png", `inline; filename="Screenshot 1.png"; filename*=UTF-8''Screenshot%201.png`)
	etag := r.Header.Get("ETag")
	if etag != `"`+u.ID+`"` {
		t.Errorf("ETag = %q", etag)
	}

	// One byte range; a conditional GET; HEAD.
	req, _ := http.NewRequest("GET", e.URL+path, nil)
	req.Header.Set("Range", "bytes=8-15")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	part, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 206 || !bytes.Equal(part, body[8:16]) || res.Header.Get("Content-Range") != "bytes 8-15/"+strconv.Itoa(len(body)) {
		t.Errorf("range: %d %q %q", res.StatusCode, part, res.Header.Get("Content-Range"))
	}
	req, _ = http.NewRequest("GET", e.URL+path, nil)
	req.Header.Set("If-None-Match", etag)
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 304 {
		t.Errorf("If-None-Match: %d, want 304", res.StatusCode)
	}
	if r := anon.Do("HEAD", path, nil); r.Status != 200 || r.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
		t.Errorf("HEAD: %d, Content-Length %q", r.Status, r.Header.Get("Content-Length"))
	}

	// A second PUT to the completed upload is refused and changes nothing.
	wantError(t, e.Client(t).Do("PUT", e.local(t, tk.URL), pngBytes(t, 2, 2)), 409, "uploadCompleted")
	if r := anon.Do("GET", path, nil); !bytes.Equal(r.Body, body) {
		t.Error("the second PUT replaced the blob")
	}

	// The member shows the image in a post.
	f := newFeedFixture(t)
	r = member.Do("POST", "/api/series/"+f.welcome+"/threads", map[string]any{"channelId": f.welcomeMain, "image": map[string]any{"url": u.URL}})
	if r.Status != 201 {
		t.Fatalf("post with the image: %d %s", r.Status, r.Body)
	}
	var th struct {
		Image *struct {
			URL string `json:"url"`
		} `json:"image"`
	}
	r.JSON(t, &th)
	if th.Image == nil {
		t.Fatal("the post has no image")
	}
	if r := anon.Do("GET", e.local(t, th.Image.URL), nil); r.Status != 200 || !bytes.Equal(r.Body, body) {
		t.Errorf("the post's image URL serves %d, %d bytes", r.Status, len(r.Body))
	}
}

// TestUploadFilesServedAsAttachments: a PDF keeps its type but downloads;
// HTML uploaded as a file is accepted but served as bytes, never as a page.
func TestUploadFilesServedAsAttachments(t *testing.T) {
	e := newUploadEnv(t)
	member := e.As(t, seed.MemberEmail)
	anon := e.Client(t)

	pdf := e.upload(t, member, "file", "Q3 plan — draft.pdf", "application/pdf", pdfBytes)
	if pdf.Type != "file" || pdf.MediaType != "application/pdf" {
		t.Errorf("pdf: %+v", pdf)
	}
	r := anon.Do("GET", e.local(t, pdf.URL), nil)
	if r.Status != 200 || !bytes.Equal(r.Body, pdfBytes) {
		t.Fatalf("GET pdf: %d %s", r.Status, r.Body)
	}
	wantSafeHeaders(t, r, "application/pdf", `attachment; filename="Q3 plan _ draft.pdf"; filename*=UTF-8''Q3%20plan%20%E2%80%94%20draft.pdf`)

	page := []byte("<!DOCTYPE html><html><body><script>fetch('/api/users/me')</script></body></html>")
	// The client says text/plain and names it .txt: the bytes decide.
	html := e.upload(t, member, "file", "notes.txt", "text/plain", page)
	if html.MediaType != "application/octet-stream" {
		t.Errorf("HTML upload served as %q", html.MediaType)
	}
	if n := e.Count(t, "uploads", "id = $1 AND sniffed_media_type = 'text/html' AND declared_media_type = 'text/plain'", html.ID); n != 1 {
		t.Error("the row does not keep the sniffed and declared types")
	}
	r = anon.Do("GET", e.local(t, html.URL), nil)
	if r.Status != 200 || !bytes.Equal(r.Body, page) {
		t.Fatalf("GET html: %d", r.Status)
	}
	wantSafeHeaders(t, r, "application/octet-stream", `attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`)

	// A file may also be an image; it still downloads only if it is not
	// one (here it is, so it shows).
	img := e.upload(t, member, "file", "diagram.png", "", pngBytes(t, 3, 3))
	if img.MediaType != "image/png" {
		t.Errorf("a PNG uploaded as a file is served as %q", img.MediaType)
	}
}

// TestUploadRefusals: what is refused is refused with its code, and leaves
// no blob and no completed row.
func TestUploadRefusals(t *testing.T) {
	e := newUploadEnv(t)
	member := e.As(t, seed.MemberEmail)
	memberID := userID(t, e.Env, seed.MemberEmail)
	put := func(tk ticket, body []byte) *testenv.Response {
		return e.Client(t).Do("PUT", e.local(t, tk.URL), body)
	}
	nothingStored := func(t *testing.T, id string) {
		t.Helper()
		if n := e.Count(t, "uploads", "id = $1 AND state = 'pending' AND size IS NULL", id); n != 1 {
			t.Errorf("upload %s is not left pending", id)
		}
		for _, sub := range []string{"objects", "tmp"} {
			for _, f := range e.files(t, sub) {
				if sub == "tmp" || f == id {
					t.Errorf("%s/%s left in the blob store", sub, f)
				}
			}
		}
	}

	t.Run("no session", func(t *testing.T) {
		wantError(t, e.Client(t).Do("POST", "/api/sas", map[string]any{"kind": "file", "name": "a.pdf", "size": 10}), 401, "authenticationRequired")
	})

	t.Run("declared upload", func(t *testing.T) {
		before := e.Count(t, "uploads", "owner_id = $1", memberID)
		wantMissing(t, member.Do("POST", "/api/sas", map[string]any{}), "kind", "name", "size")
		wantMissing(t, member.Do("POST", "/api/sas", map[string]any{"kind": "image", "name": "a.png", "size": 10}), "mediaType")
		for name, c := range map[string]struct {
			body  map[string]any
			field string
		}{
			"kind":              {map[string]any{"kind": "video", "name": "a", "size": 1}, "kind"},
			"empty name":        {map[string]any{"kind": "file", "name": "  ", "size": 1}, "name"},
			"name with a slash": {map[string]any{"kind": "file", "name": "../etc/passwd", "size": 1}, "name"},
			"backslash":         {map[string]any{"kind": "file", "name": `a\b.txt`, "size": 1}, "name"},
			"control character": {map[string]any{"kind": "file", "name": "a\nb.txt", "size": 1}, "name"},
			"name too long":     {map[string]any{"kind": "file", "name": strings.Repeat("é", 256), "size": 1}, "name"},
			"zero bytes":        {map[string]any{"kind": "file", "name": "empty.txt", "size": 0}, "size"},
			"bad media type":    {map[string]any{"kind": "file", "name": "a", "mediaType": "not a type", "size": 1}, "mediaType"},
		} {
			t.Run(name, func(t *testing.T) {
				er := wantError(t, member.Do("POST", "/api/sas", c.body), 400, "uploadRejected")
				if fields, _ := er.Details["fields"].(map[string]any); fields[c.field] == nil || len(fields) != 1 {
					t.Errorf("details.fields = %v, want only %s", er.Details["fields"], c.field)
				}
			})
		}
		er := wantError(t, member.Do("POST", "/api/sas", map[string]any{"kind": "image", "name": "a.svg", "mediaType": "image/svg+xml", "size": 10}), 400, "uploadRejected")
		if types, _ := er.Details["supportedTypes"].([]any); len(types) != 4 {
			t.Errorf("an unsupported image type does not list the supported ones: %v", er.Details)
		}
		// spec 000 §9: an image is at most 3,000,000 bytes (not 3 MiB).
		er = wantError(t, member.Do("POST", "/api/sas", map[string]any{"kind": "image", "name": "big.png", "mediaType": "image/png", "size": 3_000_001}), 413, "uploadTooLarge")
		if er.Details["maxSize"] != float64(3_000_000) {
			t.Errorf("maxSize = %v", er.Details["maxSize"])
		}
		er = wantError(t, member.Do("POST", "/api/sas", map[string]any{"kind": "file", "name": "big.zip", "size": 50<<20 + 1}), 413, "uploadTooLarge")
		if er.Details["maxSize"] != float64(50<<20) {
			t.Errorf("maxSize = %v", er.Details["maxSize"])
		}
		wantError(t, member.Do("POST", "/api/sas", map[string]any{"kind": "file", "name": "a", "size": 1.5}), 400, "invalidBody")
		if after := e.Count(t, "uploads", "owner_id = $1", memberID); after != before {
			t.Errorf("refused declarations wrote %d rows", after-before)
		}
		// The limits themselves are accepted.
		sas(t, member, "image", "max.gif", "image/gif", 3_000_000)
		sas(t, member, "file", "max.bin", "", 50<<20)
		// An image of exactly 3,000,000 bytes is put and kept.
		exact := append(pngBytes(t, 1, 1), make([]byte, 3_000_000)...)[:3_000_000]
		if r := put(sas(t, member, "image", "exact.png", "image/png", len(exact)), exact); r.Status != 200 {
			t.Errorf("an image of 3,000,000 bytes: %d %s", r.Status, r.Body)
		}
	})

	t.Run("an image that is really HTML", func(t *testing.T) {
		page := []byte("<html><script>alert(document.cookie)</script></html>")
		tk := sas(t, member, "image", "cat.png", "image/png", len(page))
		er := wantError(t, put(tk, page), 400, "uploadRejected")
		if types, _ := er.Details["supportedTypes"].([]any); len(types) != 4 {
			t.Errorf("details: %v", er.Details)
		}
		nothingStored(t, tk.ID)
		// Text is no image either.
		tk2 := sas(t, member, "image", "cat.jpg", "image/jpeg", 11)
		wantError(t, put(tk2, []byte("hello world")), 400, "uploadRejected")
		nothingStored(t, tk2.ID)
		// A refused upload may be retried at the same URL with real bytes.
		body := pngBytes(t, 1, 1)
		tk3 := sas(t, member, "image", "dot.png", "image/png", len(body))
		bad := append([]byte("<html>"), make([]byte, len(body)-6)...)
		wantError(t, put(tk3, bad), 400, "uploadRejected")
		if r := put(tk3, body); r.Status != 200 {
			t.Errorf("retry with an image: %d %s", r.Status, r.Body)
		}
	})

	t.Run("sizes", func(t *testing.T) {
		tk := sas(t, member, "file", "short.txt", "text/plain", 10)
		er := wantError(t, put(tk, nil), 400, "uploadRejected")
		if er.Details["reason"] != "no bytes in file" {
			t.Errorf("reason = %v", er.Details["reason"])
		}
		nothingStored(t, tk.ID)
		wantError(t, put(tk, []byte("12345")), 400, "uploadRejected")
		nothingStored(t, tk.ID)
		// More bytes than declared, with an honest Content-Length.
		wantError(t, put(tk, []byte("0123456789ABC")), 413, "uploadTooLarge")
		nothingStored(t, tk.ID)
		// More bytes than declared, chunked: nothing says the length, the
		// bytes are counted as they come.
		res := chunkedPut(t, e.URL+e.local(t, tk.URL), bytes.NewReader(bytes.Repeat([]byte("x"), 64<<10)))
		if res.status != 413 || !strings.Contains(res.body, "uploadTooLarge") {
			t.Errorf("chunked over the declared size: %d %s", res.status, res.body)
		}
		nothingStored(t, tk.ID)
		// An image body of 3,000,001 bytes, declared as 3,000,000, chunked.
		big := append(pngBytes(t, 1, 1), make([]byte, 3_000_001)...)[:3_000_001]
		tk2 := sas(t, member, "image", "huge.png", "image/png", 3_000_000)
		res = chunkedPut(t, e.URL+e.local(t, tk2.URL), bytes.NewReader(big))
		if res.status != 413 || !strings.Contains(res.body, "uploadTooLarge") {
			t.Errorf("chunked image of 3,000,001 bytes: %d %s", res.status, res.body)
		}
		nothingStored(t, tk2.ID)
		// Exactly the declared bytes, chunked, are fine.
		if res := chunkedPut(t, e.URL+e.local(t, tk.URL), strings.NewReader("0123456789")); res.status != 200 {
			t.Errorf("chunked, exact: %d %s", res.status, res.body)
		}
	})

	t.Run("signatures", func(t *testing.T) {
		tk := sas(t, member, "file", "s.pdf", "application/pdf", len(pdfBytes))
		u, _ := url.Parse(tk.URL)
		q := u.Query()
		sig := []byte(q.Get("sig"))
		sig[0] ^= 1
		for name, change := range map[string]func(url.Values){
			"tampered signature": func(v url.Values) { v.Set("sig", string(sig)) },
			"later expiry":       func(v url.Values) { v.Set("exp", strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10)) },
			"no signature":       func(v url.Values) { v.Del("sig") },
			"no expiry":          func(v url.Values) { v.Del("exp") },
		} {
			t.Run(name, func(t *testing.T) {
				v := u.Query()
				change(v)
				wantError(t, e.Client(t).Do("PUT", u.Path+"?"+v.Encode(), pdfBytes), 403, "blobSignatureInvalid")
			})
		}
		// Another upload's id under this signature.
		other := sas(t, member, "file", "o.pdf", "application/pdf", len(pdfBytes))
		wantError(t, e.Client(t).Do("PUT", strings.Replace(e.local(t, tk.URL), tk.ID, other.ID, 1), pdfBytes), 403, "blobSignatureInvalid")
		nothingStored(t, tk.ID)
		nothingStored(t, other.ID)

		// A refused upload's body is read to its end before the connection
		// (never reused after a PUT) closes: closed with bytes unread, it
		// would be reset, and a reset can reach the client before the answer
		// (CI saw a full disk's 507 lost so).
		conn, err := net.Dial("tcp", strings.TrimPrefix(e.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		big := bytes.Repeat([]byte("%PDF-1.4 refused "), 1<<17) // 2 MiB, past the socket buffers
		v := u.Query()
		v.Set("sig", string(sig))
		sent := make(chan error, 1)
		go func() {
			_, err := fmt.Fprintf(conn, "PUT %s?%s HTTP/1.1\r\nHost: x\r\nContent-Type: application/pdf\r\nContent-Length: %d\r\n\r\n%s", u.Path, v.Encode(), len(big), big)
			sent <- err
		}()
		rd := bufio.NewReader(conn)
		res, err := http.ReadResponse(rd, nil)
		if err != nil || res.StatusCode != 403 {
			t.Fatalf("a refused 2 MiB upload: %v %v", res, err)
		}
		if _, err := io.Copy(io.Discard, rd); err != nil {
			t.Errorf("after the answer: %v, want the connection closed cleanly", err)
		}
		if err := <-sent; err != nil {
			t.Errorf("sending the body: %v, want all of it read", err)
		}

		// URLs past their expiry, signed with the server's own key (kept
		// in the folder), for PUT and for GET.
		store, err := blob.New(e.dir, "")
		if err != nil {
			t.Fatal(err)
		}
		id := uuid.MustParse(tk.ID)
		expired, _ := store.URL(e.URL, id, "s.pdf", "PUT", time.Now().Add(-time.Minute))
		wantError(t, e.Client(t).Do("PUT", e.local(t, expired), pdfBytes), 403, "blobSignatureExpired")
		nothingStored(t, tk.ID)

		done := e.upload(t, member, "file", "r.pdf", "application/pdf", pdfBytes)
		expired, _ = store.URL(e.URL, uuid.MustParse(done.ID), "r.pdf", "GET", time.Now().Add(-time.Minute))
		wantError(t, e.Client(t).Do("GET", e.local(t, expired), nil), 403, "blobSignatureExpired")
		// A PUT URL does not read, nor a read URL put.
		wantError(t, e.Client(t).Do("GET", e.local(t, tk.URL), nil), 403, "blobSignatureInvalid")
		wantError(t, e.Client(t).Do("PUT", e.local(t, done.URL), pdfBytes), 403, "blobSignatureInvalid")
		// A pending upload has nothing to read, even with a GET signature.
		pending, _ := store.URL(e.URL, id, "s.pdf", "GET", time.Now().Add(time.Hour))
		wantError(t, e.Client(t).Do("GET", e.local(t, pending), nil), 404, "notFound")
		wantInvalid(t, e.Client(t).Do("GET", "/api/blobs/nope/x?exp=1&sig=x", nil), "id")
	})
}

// TestUploadNeedsAForum: an account that is a member of no forum and of no
// community and manages nothing has nowhere to put an upload and may not
// store one (F3); a member of a community in no forum uploads their
// picture (issue 16).
func TestUploadNeedsAForum(t *testing.T) {
	e := newUploadEnv(t)
	m := newMember(t, e.Env, "noforum")
	exec(t, e.Env, `DELETE FROM series_memberships WHERE profile_id = $1`, m.ProfileID)
	exec(t, e.Env, `DELETE FROM community_memberships WHERE profile_id = $1`, m.ProfileID)
	wantError(t, m.Client.Do("POST", "/api/sas", map[string]any{"kind": "file", "name": "a.bin", "size": 1 << 20}), 403, "forbidden")
	if n := e.Count(t, "uploads", "owner_id = $1", m.UserID); n != 0 {
		t.Errorf("the refused ticket left %d upload rows", n)
	}

	// A member of a community, in no forum, uploads their picture for their
	// peers to see.
	join(t, e.Env, communityID(t, e.Env, leadershipCircle), "member", m.ProfileID)
	sas(t, m.Client, "image", "me.png", "image/png", 1<<10)
	exec(t, e.Env, `DELETE FROM community_memberships WHERE profile_id = $1`, m.ProfileID)

	// An admin of their organization, in no forum, uploads a community's
	// image: they manage its communities.
	exec(t, e.Env, `UPDATE profiles SET role = 'admin' WHERE id = $1`, m.ProfileID)
	sas(t, m.Client, "image", "cover.png", "image/png", 1<<10)
	exec(t, e.Env, `UPDATE profiles SET role = 'member' WHERE id = $1`, m.ProfileID)

	// Once in a forum, the same request is answered.
	joinForum(t, e.Env, m, newFeedFixture(t).welcome)
	sas(t, m.Client, "file", "a.bin", "", 1<<20)
}

// TestUploadQuota: the bytes of a member's uploads not on a post, pending
// or put, are bounded; one over is refused and stores nothing; posting an
// upload frees its room (F3).
func TestUploadQuota(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "blobs")
	const quota = 60 << 20
	env := testenv.New(t, func(c *config.Config) { c.Blobs.Dir, c.Blobs.UploadQuota = dir, quota })
	e := &uploadEnv{Env: env, dir: dir}
	f := feedFixtureOn(t, env)
	m := newMember(t, env, "quota")
	joinForum(t, env, m, f.welcome)

	pdf := e.upload(t, m.Client, "file", "put.pdf", "application/pdf", pdfBytes)
	sas(t, m.Client, "file", "big.bin", "", 50<<20)
	used := int64(50<<20) + int64(len(pdfBytes))
	r := m.Client.Do("POST", "/api/sas", map[string]any{"kind": "file", "name": "over.bin", "size": quota - used + 1})
	er := wantError(t, r, 413, "uploadQuotaExceeded")
	if er.Details["quota"] != float64(quota) || er.Details["used"] != float64(used) {
		t.Errorf("details = %v, want quota %d and used %d", er.Details, quota, used)
	}
	if n := e.Count(t, "uploads", "owner_id = $1 AND name = 'over.bin'", m.UserID); n != 0 {
		t.Error("the refused ticket left an upload row")
	}
	// What fits still fits; an upload on a post no longer counts.
	sas(t, m.Client, "file", "fits.bin", "", int(quota-used))
	wantError(t, m.Client.Do("POST", "/api/sas", map[string]any{"kind": "file", "name": "x", "size": len(pdfBytes)}), 413, "uploadQuotaExceeded")
	post(t, m.Client, f.welcome, map[string]any{"channelId": f.welcomeMain, "file": map[string]any{"id": pdf.ID, "name": pdf.Name, "url": pdf.URL, "mediaType": pdf.MediaType}})
	sas(t, m.Client, "file", "x", "", len(pdfBytes))
	// A ticket whose URL expired can never be put: it holds no room.
	wantError(t, m.Client.Do("POST", "/api/sas", map[string]any{"kind": "file", "name": "y", "size": 40 << 20}), 413, "uploadQuotaExceeded")
	exec(t, env, `UPDATE uploads SET created_on = now() - $2 * interval '1 second' WHERE owner_id = $1 AND name = 'big.bin'`, m.UserID, env.Config.Blobs.UploadURLTTL.Seconds())
	sas(t, m.Client, "file", "y", "", 40<<20)
}

// TestUploadSweep: an upload no post shows after AGORA_UPLOAD_UNATTACHED_TTL
// goes with its blob; one on a post stays (F3).
func TestUploadSweep(t *testing.T) {
	e := newUploadEnv(t)
	f := newFeedFixture(t)
	member := e.As(t, seed.MemberEmail)
	old := e.upload(t, member, "file", "forgotten.pdf", "application/pdf", pdfBytes)
	kept := e.upload(t, member, "file", "posted.pdf", "application/pdf", pdfBytes)
	post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "file": map[string]any{"id": kept.ID, "name": kept.Name, "url": kept.URL, "mediaType": kept.MediaType}})
	exec(t, e.Env, `UPDATE uploads SET created_on = now() - interval '2 days' WHERE id = ANY($1::uuid[])`, []string{old.ID, kept.ID})
	// A ticket never used, past its URL's life (and the hour after): its
	// upload can never come, so it goes too; a fresh ticket stays.
	expired := sas(t, member, "file", "never.bin", "", 1<<20)
	fresh := sas(t, member, "file", "soon.bin", "", 1<<20)
	exec(t, e.Env, `UPDATE uploads SET created_on = now() - $2 * interval '1 second' - interval '61 minutes' WHERE id = $1`, expired.ID, e.Config.Blobs.UploadURLTTL.Seconds())

	// A node sweeps when it starts listening: one on the same blob folder.
	testenv.New(t, func(c *config.Config) { c.Blobs.Dir = e.dir })
	// The sweep deletes the rows, then their blobs: both are waited for.
	eventually(t, func() bool {
		return e.Count(t, "uploads", "id = $1", old.ID) == 0 && !slices.Contains(e.files(t, "objects"), old.ID)
	})
	if r := e.Client(t).Do("GET", e.local(t, old.URL), nil); r.Status != 404 {
		t.Errorf("the swept upload's URL answers %d", r.Status)
	}
	if !slices.Contains(e.files(t, "objects"), kept.ID) || e.Count(t, "uploads", "id = $1", kept.ID) != 1 {
		t.Error("the sweep took the posted upload")
	}
	if e.Count(t, "uploads", "id = $1", expired.ID) != 0 || e.Count(t, "uploads", "id = $1", fresh.ID) != 1 {
		t.Error("the sweep kept a ticket whose URL expired, or took one still open")
	}
}

// TestUploadURLsUseThePublicURL: upload and blob URLs are on the public
// URL whatever Host the request names (F14): the server's own address
// (testenv's AGORA_PUBLIC_URL), or AGORA_PUBLIC_URL as set.
func TestUploadURLsUseThePublicURL(t *testing.T) {
	forged(t, newUploadEnv(t).Env, "")
	dir := filepath.Join(t.TempDir(), "blobs")
	forged(t, testenv.New(t, func(c *config.Config) { c.Blobs.Dir, c.PublicURL = dir, "https://agora.example.org/" }), "https://agora.example.org")
}

// forged asks for an upload URL with a forged Host and checks it is on
// public (env's own URL when empty).
func forged(t *testing.T, env *testenv.Env, public string) {
	t.Helper()
	if public == "" {
		public = env.URL
	}
	c := env.As(t, seed.MemberEmail)
	req, err := http.NewRequest("POST", env.URL+"/api/sas", strings.NewReader(`{"kind":"file","name":"a.pdf","size":10}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "evil.test"
	req.Header.Set("Authorization", "Bearer "+c.Token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var tk ticket
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 201 {
		t.Fatalf("POST /api/sas: %d %s", res.StatusCode, b)
	}
	if err := json.Unmarshal(b, &tk); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tk.URL, public+blob.PathPrefix+tk.ID+"/") {
		t.Errorf("upload URL %q is not on the public URL", tk.URL)
	}
}

// wavBytes is a WAV file of n silent 8-bit mono samples at 8 kHz.
func wavBytes(n int) []byte {
	var b bytes.Buffer
	le := func(v uint32, size int) {
		for i := 0; i < size; i++ {
			b.WriteByte(byte(v >> (8 * i)))
		}
	}
	b.WriteString("RIFF")
	le(uint32(36+n), 4)
	b.WriteString("WAVEfmt ")
	le(16, 4)
	le(1, 2)    // PCM
	le(1, 2)    // mono
	le(8000, 4) // samples a second
	le(8000, 4) // bytes a second
	le(1, 2)    // block align
	le(8, 2)    // bits a sample
	b.WriteString("data")
	le(uint32(n), 4)
	b.Write(bytes.Repeat([]byte{0x80}, n))
	return b.Bytes()
}

// TestUploadMediaServedInline: audio and video are served inline, with
// their type and byte ranges, so that the viewer's <audio> and <video> play
// and seek them; a PDF and an SVG stay downloads under the same sandboxing
// policy. The URL is the permission: a reader outside the forum never gets
// it, and a forged one is refused.
func TestUploadMediaServedInline(t *testing.T) {
	e := newUploadEnv(t)
	f := feedFixtureOn(t, e.Env)
	member := e.As(t, seed.MemberEmail)
	anon := e.Client(t)
	webm := append([]byte("\x1A\x45\xDF\xA3\x9F\x42\x86\x81\x01"), bytes.Repeat([]byte{0}, 64)...)
	svg := []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)
	for _, c := range []struct {
		name, declared string
		body           []byte
		served, disp   string
	}{
		{"talk.wav", "audio/wav", wavBytes(800), "audio/wave", "inline"},
		{"clip.webm", "video/webm", webm, "video/webm", "inline"},
		{"slides.pdf", "application/pdf", pdfBytes, "application/pdf", "attachment"},
		{"logo.svg", "image/svg+xml", svg, "application/octet-stream", "attachment"},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := e.upload(t, member, "file", c.name, c.declared, c.body)
			th := post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "a file",
				"file": map[string]any{"id": u.ID, "name": u.Name, "url": u.URL, "mediaType": u.MediaType}})
			var got struct {
				File struct{ URL, MediaType string } `json:"file"`
			}
			member.Do("GET", "/api/threads/"+th.ID, nil).JSON(t, &got)
			if got.File.MediaType != c.served {
				t.Errorf("the post's file is %q, want %q", got.File.MediaType, c.served)
			}
			path := e.local(t, got.File.URL)
			r := anon.Do("GET", path, nil)
			if r.Status != 200 || !bytes.Equal(r.Body, c.body) {
				t.Fatalf("GET: %d, %d bytes", r.Status, len(r.Body))
			}
			wantSafeHeaders(t, r, c.served, fmt.Sprintf(`%s; filename="%s"; filename*=UTF-8''%s`, c.disp, c.name, c.name))

			// A player asks for a range first, then seeks.
			for _, rg := range []struct {
				header     string
				start, end int
			}{{"bytes=0-", 0, len(c.body) - 1}, {"bytes=4-11", 4, 11}, {"bytes=-8", len(c.body) - 8, len(c.body) - 1}} {
				req, _ := http.NewRequest("GET", e.URL+path, nil)
				req.Header.Set("Range", rg.header)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				part, _ := io.ReadAll(res.Body)
				res.Body.Close()
				want := fmt.Sprintf("bytes %d-%d/%d", rg.start, rg.end, len(c.body))
				if res.StatusCode != 206 || !bytes.Equal(part, c.body[rg.start:rg.end+1]) || res.Header.Get("Content-Range") != want ||
					res.Header.Get("Content-Disposition") != r.Header.Get("Content-Disposition") {
					t.Errorf("Range %s: %d, %d bytes, %q (want %q), %q", rg.header, res.StatusCode, len(part), res.Header.Get("Content-Range"), want, res.Header.Get("Content-Disposition"))
				}
			}

			// Outside the forum the post, and so its URL, is not found; a
			// URL with another signature is refused.
			wantError(t, e.As(t, seed.OutsiderEmail).Do("GET", "/api/threads/"+th.ID, nil), 404, "notFound")
			pu, _ := url.Parse(path)
			q := pu.Query()
			q.Set("sig", strings.Repeat("A", 43))
			pu.RawQuery = q.Encode()
			wantError(t, anon.Do("GET", pu.String(), nil), 403, "blobSignatureInvalid")
		})
	}
}
