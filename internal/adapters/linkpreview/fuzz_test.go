package linkpreview_test

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"agora/internal/adapters/linkpreview"
)

// FuzzReadHTML: whatever a page holds, reading it does not panic, every
// field is valid UTF-8 within its bound, and the image and video are
// absolute http(s) URLs or nothing.
func FuzzReadHTML(f *testing.F) {
	files, err := filepath.Glob("testdata/*.html")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "text/html")
	}
	f.Add([]byte(`<meta property="og:image" content="javascript:alert(1)">`), "text/html; charset=utf-8")
	f.Add([]byte(`<base href="data:text/html,x"><meta property="og:image" content="a.png">`), "text/html")
	f.Add([]byte("<title>\x00\u202e\xff</title>"), "text/html; charset=shift_jis")
	f.Add([]byte(`<meta property="og:video" content="//evil.example/%zz">`), "application/xhtml+xml")
	page, _ := url.Parse("https://blog.example.com/a/b.html")
	f.Fuzz(func(t *testing.T, doc []byte, contentType string) {
		p, err := linkpreview.ReadHTML(bytes.NewReader(doc), contentType, page)
		if err != nil {
			t.Fatalf("an in-memory page gave an error: %v", err)
		}
		for _, c := range []struct {
			name, s string
			max     int
		}{
			{"title", p.Title, linkpreview.MaxTitle},
			{"description", p.Description, linkpreview.MaxDescription},
			{"siteName", p.SiteName, linkpreview.MaxSiteName},
			{"image", p.Image, linkpreview.MaxURL},
			{"video", p.Video, linkpreview.MaxURL},
		} {
			if !utf8.ValidString(c.s) || utf8.RuneCountInString(c.s) > c.max {
				t.Fatalf("%s %q is invalid or over %d characters", c.name, c.s, c.max)
			}
		}
		for _, s := range []string{p.Image, p.Video} {
			if s == "" {
				continue
			}
			u, err := url.Parse(s)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				t.Fatalf("URL %q is not an absolute http(s) URL", s)
			}
		}
	})
}
