package search

import (
	"strings"
	"unicode"
)

// HasWords reports whether text holds something to search for, a letter or
// a digit. A blank text matches everything; a text of punctuation alone
// ("%") is not blank, and its search should find nothing rather than all.
func HasWords(text string) bool {
	return strings.IndexFunc(text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}
