package blob_test

import (
	"bytes"
	"errors"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/internal/adapters/blob"
)

// parts splits a signed URL into what Verify takes.
func parts(t *testing.T, raw string) (id uuid.UUID, exp, sig string) {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	id, ok := blob.IDFromURL(raw)
	if !ok {
		t.Fatalf("IDFromURL(%q) found no id", raw)
	}
	return id, u.Query().Get("exp"), u.Query().Get("sig")
}

func TestSignedURLs(t *testing.T) {
	s, err := blob.New(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	id := uuid.New()
	raw, err := s.URL("https://agora.test/", id, "a report (v2).pdf", "PUT", now.Add(15*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(raw, "https://agora.test/api/blobs/"+id.String()+"/a%20report%20%28v2%29.pdf?") {
		t.Fatalf("URL = %s", raw)
	}
	gotID, exp, sig := parts(t, raw)
	if gotID != id {
		t.Fatalf("IDFromURL = %s, want %s", gotID, id)
	}
	if err := s.Verify(id, "PUT", exp, sig, now); err != nil {
		t.Fatalf("a fresh signature: %v", err)
	}
	if err := s.Verify(id, "PUT", exp, sig, now.Add(15*time.Minute)); err != nil {
		t.Fatalf("at its expiry: %v", err)
	}

	other, err := blob.New(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	flip := []byte(sig)
	flip[3] ^= 1
	for _, tc := range []struct {
		name     string
		s        *blob.Store
		id       uuid.UUID
		method   string
		exp, sig string
		at       time.Time
		want     error
	}{
		{"expired", s, id, "PUT", exp, sig, now.Add(15*time.Minute + time.Second), blob.ErrSignatureExpired},
		{"other method", s, id, "GET", exp, sig, now, blob.ErrSignatureInvalid},
		{"other blob", s, uuid.New(), "PUT", exp, sig, now, blob.ErrSignatureInvalid},
		{"later expiry", s, id, "PUT", exp + "0", sig, now, blob.ErrSignatureInvalid},
		{"tampered signature", s, id, "PUT", exp, string(flip), now, blob.ErrSignatureInvalid},
		{"truncated signature", s, id, "PUT", exp, sig[:len(sig)-2], now, blob.ErrSignatureInvalid},
		{"no signature", s, id, "PUT", exp, "", now, blob.ErrSignatureInvalid},
		{"not base64", s, id, "PUT", exp, "!!" + sig, now, blob.ErrSignatureInvalid},
		{"no expiry", s, id, "PUT", "", sig, now, blob.ErrSignatureInvalid},
		{"another store's key", other, id, "PUT", exp, sig, now, blob.ErrSignatureInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.s.Verify(tc.id, tc.method, tc.exp, tc.sig, tc.at); !errors.Is(err, tc.want) {
				t.Fatalf("Verify = %v, want %v", err, tc.want)
			}
		})
	}
}

// TestGeneratedKeyIsKept: without a configured secret the key is made once
// and kept in the folder, so URLs signed before a restart (or by another
// node on the same folder) stay valid.
func TestGeneratedKeyIsKept(t *testing.T) {
	dir := t.TempDir()
	a, _ := blob.New(dir, "")
	id := uuid.New()
	exp := time.Now().Add(time.Hour)
	raw, err := a.URL("http://x", id, "n", "GET", exp)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(dir, "signing.key"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("signing.key mode %v, want 0600", info.Mode().Perm())
	}
	b, _ := blob.New(dir, "")
	_, e, s := parts(t, raw)
	if err := b.Verify(id, "GET", e, s, time.Now()); err != nil {
		t.Fatalf("a second store on the folder: %v", err)
	}
	// A configured secret is used instead, and is not written anywhere.
	dir2 := t.TempDir()
	c, _ := blob.New(dir2, strings.Repeat("s", 32))
	if err := c.Verify(id, "GET", e, s, time.Now()); !errors.Is(err, blob.ErrSignatureInvalid) {
		t.Fatalf("a store with another secret: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir2, "signing.key")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a configured secret wrote signing.key: %v", err)
	}
}

func TestNewTouchesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "blobs")
	if _, err := blob.New(dir, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("New created %s: %v", dir, err)
	}
}

func TestStage(t *testing.T) {
	dir := t.TempDir()
	s, _ := blob.New(dir, "")
	body := bytes.Repeat([]byte("0123456789"), 100)

	st, err := s.Stage(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	if st.Size != int64(len(body)) || !bytes.Equal(st.Head, body[:blob.HeadSize]) {
		t.Fatalf("staged %d bytes, head %d", st.Size, len(st.Head))
	}
	id := uuid.New()
	if err := s.Commit(st, id); err != nil {
		t.Fatal(err)
	}
	f, err := s.Open(id)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(f)
	f.Close()
	if !bytes.Equal(got, body) {
		t.Fatal("the blob differs from the body")
	}

	// One byte over the limit: refused, and no temporary file is left.
	if _, err := s.Stage(bytes.NewReader(body), int64(len(body)-1)); !errors.Is(err, blob.ErrTooLarge) {
		t.Fatalf("over the limit: %v", err)
	}
	// A client that goes away mid-body leaves nothing either.
	broken := io.MultiReader(bytes.NewReader(body), errReader{})
	if _, err := s.Stage(broken, 1<<20); err == nil {
		t.Fatal("a failed read was staged")
	}
	if left, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}

	st, err = s.Stage(strings.NewReader("x"), 10)
	if err != nil {
		t.Fatal(err)
	}
	s.Discard(st)
	if left, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(left) != 0 {
		t.Fatalf("Discard left %v", left)
	}
	if _, err := s.Open(uuid.New()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Open of a missing blob: %v", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

func TestSniffAndServedType(t *testing.T) {
	for _, tc := range []struct {
		name, head, sniffed, served string
	}{
		{"png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "image/png", "image/png"},
		{"jpeg", "\xff\xd8\xff\xe0\x00\x10JFIF", "image/jpeg", "image/jpeg"},
		{"gif", "GIF89a\x01\x00", "image/gif", "image/gif"},
		{"webp", "RIFF\x24\x00\x00\x00WEBPVP8 ", "image/webp", "image/webp"},
		{"pdf", "%PDF-1.7\n", "application/pdf", "application/pdf"},
		{"html", "<!DOCTYPE html><script>alert(1)</script>", "text/html", "application/octet-stream"},
		{"xml", "<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>", "text/xml", "application/octet-stream"},
		{"text", "just some words", "text/plain", "text/plain; charset=utf-8"},
		{"7z", "7z\xBC\xAF\x27\x1C\x00\x04", "application/x-7z-compressed", "application/x-7z-compressed"},
		{"unknown", "\x00\x01\x02\x03", "application/octet-stream", "application/octet-stream"},
		// Sound and video the viewer plays, named so that it is served as such.
		{"ogg vorbis", "OggS\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x01\x02\x03\x04\x00\x00\x00\x00\x00\x00\x00\x00\x01\x1e\x01vorbis", "audio/ogg", "audio/ogg"},
		{"ogg theora", "OggS\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x01\x02\x03\x04\x00\x00\x00\x00\x00\x00\x00\x00\x01\x2a\x80theora", "video/ogg", "video/ogg"},
		{"flac", "fLaC\x00\x00\x00\x22", "audio/flac", "audio/flac"},
		{"aac adts", "\xFF\xF1\x50\x80\x02\x1F\xFC", "audio/aac", "audio/aac"},
		{"m4a", "\x00\x00\x00\x1cftypM4A \x00\x00\x00\x00M4A mp42isom", "audio/mp4", "audio/mp4"},
		{"mp4", "\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom", "video/mp4", "video/mp4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := blob.Sniff([]byte(tc.head))
			if got != tc.sniffed {
				t.Fatalf("Sniff = %q, want %q", got, tc.sniffed)
			}
			if s := blob.ServedType(got); s != tc.served {
				t.Fatalf("ServedType(%q) = %q, want %q", got, s, tc.served)
			}
		})
	}
}

func TestIDFromURL(t *testing.T) {
	id := uuid.New()
	for raw, want := range map[string]bool{
		"https://agora.test/api/blobs/" + id.String() + "/x.png?exp=1&sig=a": true,
		"http://elsewhere/API/Blobs/" + id.String() + "/x.png":               true,
		"https://example.org/agora/api/blobs/" + id.String() + "/x.png":      true,
		"https://img.test/a.png":                       false,
		"https://agora.test/api/blobs/not-an-id/x.png": false,
		"https://agora.test/api/blobsx/" + id.String(): false,
		"::not a url": false,
	} {
		got, ok := blob.IDFromURL(raw)
		if ok != want || (ok && got != id) {
			t.Errorf("IDFromURL(%q) = %s, %v", raw, got, ok)
		}
	}
}
