package linkpreview_test

import (
	"strings"
	"testing"

	"agora/internal/adapters/linkpreview"
	"agora/internal/plumbing/apperr"
)

// TestFormLink: a form's link is trimmed, blank is none, and anything but
// an http(s) URL of at most MaxURL bytes is refused under its field.
func TestFormLink(t *testing.T) {
	s := func(v string) *string { return &v }
	long := "https://cdn.example/" + strings.Repeat("a", linkpreview.MaxURL-len("https://cdn.example/"))
	for _, c := range []struct {
		in   *string
		want *string
		ok   bool
	}{
		{nil, nil, true},
		{s("   "), nil, true},
		{s(" https://cdn.example/a.png "), s("https://cdn.example/a.png"), true},
		{s("http://localhost:8080/a.png"), s("http://localhost:8080/a.png"), true},
		{s(long), s(long), true},
		{s(long + "a"), s(long + "a"), false},
		{s("ftp://cdn.example/a.png"), s("ftp://cdn.example/a.png"), false},
		{s("/relative.png"), s("/relative.png"), false},
		{s("https://"), s("https://"), false},
		{s("javascript:alert(1)"), s("javascript:alert(1)"), false},
	} {
		bad := apperr.Fields{}
		got := linkpreview.FormLink(bad, "image", c.in)
		if (got == nil) != (c.want == nil) || (got != nil && *got != *c.want) || (bad["image"] == "") != c.ok {
			t.Errorf("FormLink(%v): %v, refused %q", c.in, got, bad["image"])
		}
		if !c.ok && bad["image"] != "must be an http(s) URL of at most 2048 characters" {
			t.Errorf("message %q", bad["image"])
		}
	}
}
