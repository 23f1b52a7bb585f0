package linkpreview_test

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"agora/internal/adapters/linkpreview"
)

var page, _ = url.Parse("https://blog.example.com/posts/2024/roadmaps.html")

func readFixture(t *testing.T, name, contentType string) linkpreview.Preview {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := linkpreview.ReadHTML(bytes.NewReader(b), contentType, page)
	if err != nil {
		t.Fatalf("ReadHTML(%s): %v", name, err)
	}
	return p
}

func TestReadHTMLFixtures(t *testing.T) {
	tests := []struct {
		file        string
		contentType string
		want        linkpreview.Preview
	}{
		{"og.html", "text/html; charset=utf-8", linkpreview.Preview{
			// og:* win over twitter:*, <title> and meta description;
			// whitespace collapses; the first og:image is the main one;
			// a <meta> in a script or in the body is not read.
			Title:       "Roadmaps that survive contact with reality",
			Description: "How three teams plan a quarter & keep it honest.",
			SiteName:    "Product Notes",
			Image:       "https://cdn.example.org/cover.png",
			Video:       "https://video.example.org/embed/42",
		}},
		{"title_only.html", "text/html", linkpreview.Preview{Title: "Only a title"}},
		{"twitter.html", "text/html", linkpreview.Preview{
			Title: "Card title", Description: "Card description", Image: "https://blog.example.com/img/card.jpg",
		}},
		{"relative_image.html", "text/html", linkpreview.Preview{
			Title: "Relative",
			Image: "https://blog.example.com/posts/images/photo.jpg?size=large",
			Video: "https://player.example.org/v/7",
		}},
		{"base_href.html", "text/html", linkpreview.Preview{Image: "https://static.example.net/assets/pic.png"}},
		// javascript:, data:, vbscript:, ftp: and a javascript: with a
		// newline in it are all dropped; nothing else offers an image.
		{"javascript_image.html", "text/html", linkpreview.Preview{Title: "No safe image"}},
		// The charset comes from <meta charset> when the header has none.
		{"latin1.html", "text/html", linkpreview.Preview{Title: "Café crème", Description: "Naïve résumé"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			if got := readFixture(t, tt.file, tt.contentType); got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestReadHTMLBrokenMarkup: unclosed tags, unquoted and single-quoted
// attributes, an upper-case attribute name, no </head> and an unclosed
// quote running to the end give what can be read, without an error.
func TestReadHTMLBrokenMarkup(t *testing.T) {
	p := readFixture(t, "broken.html", "text/html")
	if p.Title != "Single quoted" || p.Description != "unquoted-description" {
		t.Errorf("got %+v", p)
	}
	if utf8.RuneCountInString(p.SiteName) > linkpreview.MaxSiteName {
		t.Errorf("site name not bounded: %q", p.SiteName)
	}
}

// TestReadHTMLCharsets: a charset from the header wins; bytes that are not
// UTF-8 under any declared charset still come out as valid UTF-8.
func TestReadHTMLCharsets(t *testing.T) {
	latin := []byte("<title>Gr\xfc\xdfe</title>")
	p, err := linkpreview.ReadHTML(bytes.NewReader(latin), "text/html; charset=ISO-8859-1", page)
	if err != nil || p.Title != "Grüße" {
		t.Errorf("latin-1 from the header: %+v %v", p, err)
	}
	p = readFixture(t, "invalid_utf8.html", "text/html; charset=utf-8")
	if !utf8.ValidString(p.Title) || !strings.HasPrefix(p.Title, "Invalid ") {
		t.Errorf("invalid bytes: %q", p.Title)
	}
	p = readFixture(t, "invalid_utf8.html", "text/html; charset=x-unknown-charset")
	if !utf8.ValidString(p.Title) || !strings.HasPrefix(p.Title, "Invalid ") {
		t.Errorf("unknown charset: %q", p.Title)
	}
}

// TestReadHTMLXSS: titles and descriptions full of markup come out as the
// text they are. Entities are decoded exactly once (&amp;lt; stays &lt;,
// never becomes <), a script cannot write a field, and an image URL
// cannot break out of an attribute.
func TestReadHTMLXSS(t *testing.T) {
	p := readFixture(t, "xss.html", "text/html")
	want := linkpreview.Preview{
		Title:       `<script>alert('title')</script> <img src=x onerror=alert(1)> &lt;b&gt;`,
		Description: `<img src=x onerror="alert(2)"> <svg onload=alert(3)> <iframe src=javascript:alert(4)>`,
		SiteName:    `Site</title><script>alert(5)</script>`,
	}
	img := p.Image
	p.Image = ""
	if p != want {
		t.Errorf("got  %+v\nwant %+v", p, want)
	}
	if !strings.HasPrefix(img, "https://cdn.example.org/x.png") || strings.ContainsAny(img, "\"'<> ") {
		t.Errorf("image URL %q is not one escaped URL", img)
	}
	// What the API sends: JSON whose strings hold no raw markup characters.
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsAny(b, "<>") {
		t.Errorf("JSON carries raw markup: %s", b)
	}
}

// TestReadHTMLBoundsFields: each field is cut to its bound, with an ellipsis.
func TestReadHTMLBoundsFields(t *testing.T) {
	long := strings.Repeat("word ", 2000)
	doc := `<meta property="og:title" content="` + long + `"><meta name="description" content="` + long +
		`"><meta property="og:site_name" content="` + long + `"><meta property="og:image" content="https://x.example/` +
		strings.Repeat("a", 3000) + `"><meta name="twitter:image" content="https://x.example/ok.png">`
	p, err := linkpreview.ReadHTML(strings.NewReader(doc), "text/html", page)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		s   string
		max int
	}{"title": {p.Title, linkpreview.MaxTitle}, "description": {p.Description, linkpreview.MaxDescription}, "siteName": {p.SiteName, linkpreview.MaxSiteName}} {
		if n := utf8.RuneCountInString(c.s); n != c.max || !strings.HasSuffix(c.s, "…") {
			t.Errorf("%s: %d characters, want %d ending in an ellipsis", name, n, c.max)
		}
	}
	if p.Image != "https://x.example/ok.png" {
		t.Errorf("an over-long image URL was not skipped: %q", p.Image)
	}
}

// TestReadHTMLStopsAtHead: nothing after </head> or <body> is read, so a
// large page costs only its head.
func TestReadHTMLStopsAtHead(t *testing.T) {
	r := &countingReader{r: strings.NewReader("<head><title>T</title></head>" + strings.Repeat("<p>body</p>", 100000))}
	p, err := linkpreview.ReadHTML(r, "text/html; charset=utf-8", page)
	if err != nil || p.Title != "T" {
		t.Fatalf("%+v %v", p, err)
	}
	if r.n > 64<<10 {
		t.Errorf("read %d bytes of a page whose head is 29", r.n)
	}
}

type countingReader struct {
	r interface{ Read([]byte) (int, error) }
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}
