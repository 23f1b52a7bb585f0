// Package plaintext holds the rules of the one-line text a person types
// into a form: names, job titles, companies, tags. That text reaches e-mail
// headers and other members' screens, so it may hold no control character
// (a CR or LF would start a new mail header, a TAB or NUL misleads) and no
// bidirectional formatting character (which reorders what others read
// around it, as in "Trojan Source").
package plaintext

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"agora/internal/apperr"
)

// NameMax is the longest name (spec 000 §5: 50).
const NameMax = 50

// Clean reports whether s holds no control and no bidirectional formatting
// character.
func Clean(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) }) < 0
}

// Unclean is the message of a field that is not Clean.
const Unclean = "must not contain control or bidirectional formatting characters"

// Name trims a person's name and adds to bad, under field, what breaks its
// rules: 1 to NameMax characters, Clean.
func Name(bad apperr.Fields, field, v string) string {
	v = strings.TrimSpace(v)
	switch {
	case v == "" || utf8.RuneCountInString(v) > NameMax:
		bad.Add(field, "must be 1 to 50 characters")
	case !Clean(v):
		bad.Add(field, Unclean)
	}
	return v
}

// Line trims a one-line text other than a name and adds to bad, under
// field, what breaks its rules: at most max characters, Clean.
func Line(bad apperr.Fields, field, v string, max int) string {
	v = strings.TrimSpace(v)
	switch {
	case utf8.RuneCountInString(v) > max:
		bad.Add(field, "is too long")
	case !Clean(v):
		bad.Add(field, Unclean)
	}
	return v
}
