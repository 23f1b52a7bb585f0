package linkpreview

import (
	"errors"
	"io"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// Bounds of the preview's fields, in characters.
const (
	MaxTitle       = 300
	MaxDescription = 1000
	MaxSiteName    = 100
)

// maxToken bounds one token the tokenizer buffers (a huge attribute or
// title), apart from the fetcher's cap on the whole response.
const maxToken = 256 << 10

// ReadHTML reads a page's preview fields from its HTML head. contentType is
// the response's Content-Type, for its charset (a <meta charset> in the
// first 1024 bytes is honoured too, and pages in legacy encodings come out
// as UTF-8); page is the page's final URL, against which relative image
// and video URLs are resolved. Reading stops at </head> or <body>, so a
// large page costs only its head. Malformed markup gives what could be
// read; the error is the reader's, never the markup's.
//
// The fields are text: entities are decoded once, tags inside a title stay
// as the characters they are, and nothing here is markup for the client to
// render.
func ReadHTML(r io.Reader, contentType string, page *url.URL) (Preview, error) {
	r, err := charset.NewReader(r, contentType)
	if errors.Is(err, io.EOF) {
		// An empty page (its sniffing found no byte to read) says nothing.
		return Preview{}, nil
	}
	if err != nil {
		return Preview{}, err
	}
	z := html.NewTokenizer(r)
	z.SetMaxBuf(maxToken)
	meta := map[string]string{}
	var title strings.Builder
	inTitle, titleSeen := false, false
	base := page
read:
	for {
		switch z.Next() {
		case html.ErrorToken:
			if err := z.Err(); err != io.EOF && !errors.Is(err, html.ErrBufferExceeded) {
				return Preview{}, err
			}
			break read
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch string(name) {
			case "meta":
				if hasAttr {
					readMeta(z, meta)
				}
			case "title":
				// The first <title> is the page's; an <svg><title> in a
				// body we never reach.
				inTitle = !titleSeen
				titleSeen = true
			case "base":
				if href := attr(z, hasAttr, "href"); href != "" {
					if b, err := page.Parse(strings.TrimSpace(href)); err == nil && webURL(b) {
						base = b
					}
				}
			case "body":
				break read
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "head":
				break read
			case "title":
				inTitle = false
			}
		case html.TextToken:
			if inTitle && title.Len() < 4*MaxTitle {
				title.Write(z.Text())
			}
		}
	}
	p := Preview{
		Title:       text(MaxTitle, meta["og:title"], meta["twitter:title"], title.String()),
		Description: text(MaxDescription, meta["og:description"], meta["twitter:description"], meta["description"]),
		SiteName:    text(MaxSiteName, meta["og:site_name"]),
		Image: link(base, meta["og:image"], meta["og:image:url"], meta["og:image:secure_url"],
			meta["twitter:image"], meta["twitter:image:src"]),
		Video: link(base, meta["og:video:secure_url"], meta["og:video:url"], meta["og:video"], meta["twitter:player"]),
	}
	return p, nil
}

// metaKeys are the <meta> names and properties a preview reads.
var metaKeys = map[string]bool{
	"og:title": true, "og:description": true, "og:site_name": true,
	"og:image": true, "og:image:url": true, "og:image:secure_url": true,
	"og:video": true, "og:video:url": true, "og:video:secure_url": true,
	"twitter:title": true, "twitter:description": true, "twitter:image": true,
	"twitter:image:src": true, "twitter:player": true, "description": true,
}

// readMeta records a <meta property|name=… content=…> the preview reads.
// The first of each key wins: Open Graph lists the main image first.
func readMeta(z *html.Tokenizer, meta map[string]string) {
	var key, content string
	hasContent := false
	for {
		k, v, more := z.TagAttr()
		switch string(k) {
		case "property", "name":
			// Open Graph says property, many sites write name.
			if n := strings.ToLower(strings.TrimSpace(string(v))); metaKeys[n] && key == "" {
				key = n
			}
		case "content":
			content, hasContent = string(v), true
		}
		if !more {
			break
		}
	}
	if key != "" && hasContent {
		if _, seen := meta[key]; !seen {
			meta[key] = content
		}
	}
}

func attr(z *html.Tokenizer, hasAttr bool, name string) string {
	for hasAttr {
		var k, v []byte
		k, v, hasAttr = z.TagAttr()
		if string(k) == name {
			return string(v)
		}
	}
	return ""
}

// text is the first candidate that has any text once cleaned, cut to max
// characters.
func text(max int, candidates ...string) string {
	for _, c := range candidates {
		if t := clean(c, max); t != "" {
			return t
		}
	}
	return ""
}

// clean makes s one line of plain text: invalid UTF-8 replaced, control
// and bidirectional-override characters (which could reorder what a reader
// sees around the text) made spaces, runs of space collapsed, and at most
// max characters, the last an ellipsis when cut.
func clean(s string, max int) string {
	if len(s) > 8*max {
		s = s[:8*max] // bounds the work; ToValidUTF8 mends a cut rune
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	rs := []rune(s)
	return strings.TrimSpace(string(rs[:max-1])) + "…"
}

// link is the first candidate that resolves, against base, to an http(s)
// URL: javascript:, data: and every other scheme are dropped.
func link(base *url.URL, candidates ...string) string {
	for _, c := range candidates {
		c = strings.TrimSpace(c)
		if c == "" || len(c) > MaxURL {
			continue
		}
		u, err := base.Parse(c)
		if err != nil || !webURL(u) {
			continue
		}
		if s := u.String(); len(s) <= MaxURL {
			return s
		}
	}
	return ""
}

func webURL(u *url.URL) bool {
	return (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != "" && u.Opaque == ""
}
