// Package plaintext holds the rules of the text a person types into a
// form. One-line text (names, job titles, companies, tags) reaches e-mail
// headers and other members' screens, so it may hold no control character
// (a CR or LF would start a new mail header, a TAB or NUL misleads) and no
// bidirectional formatting character (which reorders what others read
// around it, as in "Trojan Source"). Multi-line text (descriptions, a
// bio, an agenda) follows the same rule but for the line break.
package plaintext

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"agora/internal/plumbing/apperr"
)

// Trim removes from both ends of s what shows nothing: white space and
// the invisible characters (zero-width space, joiners, word joiner, BOM,
// soft hyphen, fillers…). It is the one rule of an empty text: a name, a
// title, a post or a comment made only of them is empty, as the reader
// sees it.
//
// Bidirectional formatting characters are invisible too, but are kept at
// the ends of a text that shows something, so that Clean still refuses
// them where they are not allowed rather than have them vanish unseen.
func Trim(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return invisible(r) && !unicode.Is(unicode.Bidi_Control, r) })
	if strings.IndexFunc(s, func(r rune) bool { return !invisible(r) }) < 0 {
		return ""
	}
	return s
}

// invisible reports whether r shows nothing where it stands: white space,
// a format character (Unicode category Cf: U+200B–U+200F, U+2060–U+2064,
// U+FEFF, U+00AD…) other than the prepended marks that draw a sign, the
// other default-ignorable code points (U+034F, the Hangul fillers…), the
// variation selectors, and the blank braille pattern.
func invisible(r rune) bool {
	switch {
	case unicode.IsSpace(r):
		return true
	case unicode.Is(unicode.Cf, r):
		return !unicode.Is(unicode.Prepended_Concatenation_Mark, r)
	}
	return unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || unicode.Is(unicode.Variation_Selector, r) || r == '\u2800'
}

// NameMax is the longest name (spec 000 §5: 50).
const NameMax = 50

// Clean reports whether s holds no control and no bidirectional formatting
// character.
func Clean(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) }) < 0
}

// Unclean is the message of a field that is not Clean.
const Unclean = "must not contain control or bidirectional formatting characters"

// Name trims (Trim) a person's name and adds to bad, under field, what breaks its
// rules: 1 to NameMax characters, Clean.
func Name(bad apperr.Fields, field, v string) string {
	v = Trim(v)
	switch {
	case v == "" || utf8.RuneCountInString(v) > NameMax:
		bad.Add(field, "must be 1 to 50 characters")
	case !Clean(v):
		bad.Add(field, Unclean)
	}
	return v
}

// Required trims (Trim) a one-line text a form must have, such as a
// community's, a forum's or a Meet Up's name, and adds to bad, under
// field, what breaks its rules: 1 to max characters once trimmed, Clean.
// The form gives the limit; the rules and their messages are the same for
// every form.
func Required(bad apperr.Fields, field, v string, max int) string {
	v = Trim(v)
	switch {
	case v == "" || utf8.RuneCountInString(v) > max:
		bad.Add(field, "must be 1 to "+strconv.Itoa(max)+" characters, not only spaces")
	case !Clean(v):
		bad.Add(field, Unclean)
	}
	return v
}

// CleanText reports whether the multi-line text s holds no control
// character but the line feed, and no bidirectional formatting character.
func CleanText(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool {
		return r != '\n' && unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
	}) < 0
}

// UncleanText is the message of a multi-line field that is not CleanText.
const UncleanText = "must not contain control characters other than line breaks, nor bidirectional formatting characters"

// Text trims (Trim) a multi-line text, such as a description, a bio or an
// agenda, with its line breaks written "\n" (a CR LF pasted from another
// system is one), and adds to bad, under field, what breaks its rules: at
// most max characters, at least min once trimmed (min 1: the form must
// have it), CleanText.
func Text(bad apperr.Fields, field, v string, min, max int) string {
	v = Trim(strings.ReplaceAll(v, "\r\n", "\n"))
	switch n := utf8.RuneCountInString(v); {
	case min > 0 && (n < min || n > max):
		bad.Add(field, "must be "+strconv.Itoa(min)+" to "+strconv.Itoa(max)+" characters, not only spaces")
	case n > max:
		bad.Add(field, "must be at most "+strconv.Itoa(max)+" characters")
	case !CleanText(v):
		bad.Add(field, UncleanText)
	}
	return v
}

// Line trims (Trim) a one-line text other than a name and adds to bad, under
// field, what breaks its rules: at most max characters, Clean.
func Line(bad apperr.Fields, field, v string, max int) string {
	v = Trim(v)
	switch {
	case utf8.RuneCountInString(v) > max:
		bad.Add(field, "is too long")
	case !Clean(v):
		bad.Add(field, Unclean)
	}
	return v
}
