package plaintext_test

import (
	"testing"

	"agora/internal/apperr"
	"agora/internal/plaintext"
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
