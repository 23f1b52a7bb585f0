package insights

import (
	"strings"
	"unicode"

	"agora/internal/rules/richtext"
)

// Questions are the questions a comment or a reply asks (the inline
// questions of spec 002 §2): the sentences of its plain text (mentions as
// names) that end in a question mark, trimmed, in order. A sentence ends
// at a line break, or at '.', '!', '?' (or '…' and the full-width marks)
// followed by a space, a closing quote or bracket, or the end of the
// text; so the '?' of a URL's query ("https://x.example/?q=1") and the
// '.' of "3.14" end nothing. A run of marks ("?!", "??") ends one
// sentence, which is a question when the run holds a '?'. A "sentence"
// without a letter or a digit ("?") is none.
func Questions(raw string) []string {
	text := []rune(richtext.Plain(raw))
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		r := text[i]
		if r == '\n' || r == '\r' {
			start = i + 1
			continue
		}
		if !isStop(r) {
			continue
		}
		// The run of stops and closing marks that ends here, if it does.
		j := i
		question := false
		for j < len(text) && (isStop(text[j]) || isCloser(text[j])) {
			if text[j] == '?' || text[j] == '？' {
				question = true
			}
			j++
		}
		if j < len(text) && !unicode.IsSpace(text[j]) {
			i = j - 1 // inside a word, a number or a URL
			continue
		}
		if question {
			if s := strings.TrimSpace(string(text[start:j])); hasWord(s) {
				out = append(out, s)
			}
		}
		start = j
		i = j - 1
	}
	return out
}

func isStop(r rune) bool {
	switch r {
	case '.', '!', '?', '…', '？', '！', '。':
		return true
	}
	return false
}

func isCloser(r rune) bool {
	switch r {
	case '"', '\'', ')', ']', '»', '”', '’':
		return true
	}
	return false
}

func hasWord(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}
