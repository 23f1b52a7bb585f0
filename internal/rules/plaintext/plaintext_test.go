package plaintext_test

import (
	"strconv"
	"strings"
	"testing"

	"agora/internal/plumbing/apperr"
	"agora/internal/rules/plaintext"
)

func TestClean(t *testing.T) {
	for _, s := range []string{"Grace Liu", "Zoë O'Brien-Łukasz", "李雷", "محمد", "Ada 🚀", ""} {
		if !plaintext.Clean(s) {
			t.Errorf("%q is refused", s)
		}
	}
	for _, s := range []string{"J\r\nBcc: a@evil.test", "a\nb", "tab\there", "nul\x00", "del\x7f", "c1\u0085",
		"rlo\u202Eevil", "lri\u2066x\u2069", "lrm\u200E", "alm\u061C"} {
		if plaintext.Clean(s) {
			t.Errorf("%q is accepted", s)
		}
	}
}

func TestName(t *testing.T) {
	bad := apperr.Fields{}
	if got := plaintext.Name(bad, "firstName", "  Grace "); got != "Grace" || len(bad) != 0 {
		t.Errorf("a name: %q, %v", got, bad)
	}
	plaintext.Name(bad, "firstName", "J\r\nBcc: a@evil.test")
	plaintext.Name(bad, "lastName", "")
	plaintext.Line(bad, "company", "Acme\u202E", 100)
	plaintext.Line(bad, "jobTitle", string(make([]byte, 101)), 100)
	if bad["firstName"] != plaintext.Unclean || bad["lastName"] == "" || bad["company"] != plaintext.Unclean || bad["jobTitle"] != "is too long" {
		t.Errorf("refusals: %v", bad)
	}
}

// TestTrim: what shows nothing is trimmed from both ends, so that a text of
// nothing else is empty; visible text, and invisible characters inside it
// (an emoji's joiner), are kept.
func TestTrim(t *testing.T) {
	for in, want := range map[string]string{
		"  Grace ":                                   "Grace",
		"\u200b\u200c\u200d\u2060\ufeff":             "",
		" \u00a0\u3000\t\n\u200b ":                   "",
		"\u00ad\u034f\u115f\u1160\u3164\uffa0\u2800": "",
		"\ufe0f\u180e\u2061\u2064":                   "",
		"\u200bAda\u200b":                            "Ada",
		"👩\u200d💻":                                   "👩\u200d💻",
		"a\u200bb":                                   "a\u200bb",
		"\u0600":                                     "\u0600", // a prepended mark draws a sign
	} {
		if got := plaintext.Trim(in); got != want {
			t.Errorf("Trim(%+q) = %+q, want %+q", in, got, want)
		}
	}
	bad := apperr.Fields{}
	plaintext.Name(bad, "firstName", "\u200b \ufeff")
	if bad["firstName"] == "" {
		t.Error("a name of invisible characters is accepted")
	}
}

// TestRequired: a form's required text is trimmed and holds 1 to max
// characters (not bytes); the limit is the form's.
func TestRequired(t *testing.T) {
	for _, c := range []struct {
		in, want string
		max      int
		ok       bool
	}{
		{"  Book club ", "Book club", 75, true},
		{strings.Repeat("é", 75), strings.Repeat("é", 75), 75, true},
		{strings.Repeat("é", 76), strings.Repeat("é", 76), 75, false},
		{"\u200b \u00a0", "", 75, false},
		{"", "", 1000, false},
		{"ab", "ab", 1, false},
	} {
		bad := apperr.Fields{}
		got := plaintext.Required(bad, "name", c.in, c.max)
		if got != c.want || (bad["name"] == "") != c.ok {
			t.Errorf("Required(%q, %d) = %q, refused %q", c.in, c.max, got, bad["name"])
		}
		if !c.ok && bad["name"] != "must be 1 to "+strconv.Itoa(c.max)+" characters, not only spaces" {
			t.Errorf("Required(%q, %d): message %q", c.in, c.max, bad["name"])
		}
	}
}

// TestRequiredIsClean: a form's one-line required text (a community's, a
// forum's, a Meet Up's name) refuses controls and bidi overrides too.
func TestRequiredIsClean(t *testing.T) {
	for _, s := range []string{"Book club\r\nBcc: x@evil.test", "Book\tclub", "Book\aclub", "Book \u202Ebulc"} {
		bad := apperr.Fields{}
		plaintext.Required(bad, "name", s, 75)
		if bad["name"] != plaintext.Unclean {
			t.Errorf("Required(%+q): %v", s, bad)
		}
	}
}

// TestText: a multi-line text keeps its line breaks (a CR LF is one) and
// refuses every other control character and the bidi formatting ones.
func TestText(t *testing.T) {
	bad := apperr.Fields{}
	if got := plaintext.Text(bad, "description", " One\r\nTwo\n\nThree ", 1, 100); got != "One\nTwo\n\nThree" || len(bad) != 0 {
		t.Errorf("a multi-line text: %q, %v", got, bad)
	}
	for _, s := range []string{"a\rb", "a\tb", "a\ab", "a\x1bb", "a\u0085b", "a\u202Eb", "a\u2066b\u2069", "a\u200Fb"} {
		bad := apperr.Fields{}
		plaintext.Text(bad, "description", s, 1, 100)
		if bad["description"] != plaintext.UncleanText {
			t.Errorf("Text(%+q): %v", s, bad)
		}
	}
	for _, c := range []struct {
		in       string
		min, max int
		ok       bool
	}{{"", 0, 10, true}, {"", 1, 10, false}, {" \n ", 1, 10, false}, {strings.Repeat("é", 10), 1, 10, true}, {strings.Repeat("é", 11), 0, 10, false}} {
		bad := apperr.Fields{}
		plaintext.Text(bad, "bio", c.in, c.min, c.max)
		if (len(bad) == 0) != c.ok {
			t.Errorf("Text(%q, %d, %d): %v", c.in, c.min, c.max, bad)
		}
	}
}
