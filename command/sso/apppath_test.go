package sso

import "testing"

// TestAppPath (issue 31, G6): only a path of this app survives; a target a
// browser would read as another site's, once it drops tabs and newlines
// and turns a backslash into a slash, is dropped whole.
func TestAppPath(t *testing.T) {
	for target, want := range map[string]string{
		"/communities/x":          "/communities/x",
		"/posts/1?reason=mention": "/posts/1?reason=mention",
		"/a%2F%2Fb#c":             "/a%2F%2Fb#c",
		"/\t/evil.example":        "",
		"/\n/evil.example":        "",
		"/\r\n/evil.example":      "",
		"\t//evil.example":        "",
		" /x":                     "",
		"/ /evil.example":         "",
		"/\u00a0/evil.example":    "",
		"//evil.example":          "",
		"/\\evil.example":         "",
		"/x\\..\\\\evil.example":  "",
		"https://evil.example/":   "",
		"javascript:alert(1)":     "",
		"evil.example":            "",
		"/\x00":                   "",
		"":                        "",
	} {
		if got := appPath(target); got != want {
			t.Errorf("appPath(%q) = %q, want %q", target, got, want)
		}
	}
}
