// Package richtext reads the text of posts and comments (spec 001 §4
// "Reading text"): a mention is a bracketed display name followed by a
// parenthesised user id, `[Ada Lovelace](0190…)`, and a hashtag is `#`
// followed by letters, digits or underscores. The server derives a post's
// mentions and hashtags from its text, so a client cannot claim to mention
// someone the text does not.
package richtext

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
)

// MaxHashtagLen bounds a hashtag name (in runes); longer runs are cut.
const MaxHashtagLen = 100

// Parsed is what a text refers to, each in order of first appearance and
// without duplicates. Hashtags keep the case of their first appearance;
// duplicates are found case-insensitively.
type Parsed struct {
	Mentions []uuid.UUID
	Hashtags []string
}

// Parse finds the mentions and hashtags of raw.
func Parse(raw string) Parsed {
	p := Parsed{Mentions: []uuid.UUID{}, Hashtags: []string{}}
	seenUser := map[uuid.UUID]bool{}
	seenTag := map[string]bool{}
	for i := 0; i < len(raw); {
		switch raw[i] {
		case '[':
			if id, n, ok := mentionAt(raw[i:]); ok {
				if !seenUser[id] {
					seenUser[id] = true
					p.Mentions = append(p.Mentions, id)
				}
				i += n
				continue
			}
		case '#':
			// A hashtag starts a word: "a#b" and "/#frag" are not one (URL
			// fragments).
			if i == 0 || startsWord(lastRune(raw[:i])) {
				name, n := tagAt(raw[i+1:])
				if name != "" {
					if k := strings.ToLower(name); !seenTag[k] {
						seenTag[k] = true
						p.Hashtags = append(p.Hashtags, name)
					}
					i += 1 + n
					continue
				}
			}
		}
		i++
	}
	return p
}

// IsHashtag tells whether s is a hashtag's name as Parse reads one (what
// follows the #), whole.
func IsHashtag(s string) bool {
	name, n := tagAt(s)
	return name == s && n == len(s)
}

// Plain is raw as words to search and read: each mention becomes its
// display name ("[Ada Lovelace](0190…)" → "Ada Lovelace"); everything else,
// hashtags included, is kept.
func Plain(raw string) string {
	return Rewrite(raw, func(uuid.UUID) (string, bool) { return "", false })
}

// Rewrite gives each mention of raw the display name that name knows for its
// id, so that the text shown in a mention is the server's, not the writer's
// ("[Anyone](id of Ada)" → "[Ada Lovelace](id of Ada)"). A mention whose id
// name does not know (false) becomes its display text alone, plain words
// that claim no one. Brackets, parentheses and line breaks, which would end
// the markup early, are left out of a known name. Everything else is kept.
func Rewrite(raw string, name func(uuid.UUID) (string, bool)) string {
	if !strings.Contains(raw, "](") {
		return raw
	}
	var b strings.Builder
	b.Grow(len(raw))
	for i := 0; i < len(raw); {
		if raw[i] == '[' {
			if id, n, ok := mentionAt(raw[i:]); ok {
				if known, ok := name(id); ok {
					b.WriteString("[" + markupName(known) + "](" + id.String() + ")")
				} else {
					b.WriteString(raw[i+1 : i+strings.IndexByte(raw[i:], ']')])
				}
				i += n
				continue
			}
		}
		b.WriteByte(raw[i])
		i++
	}
	return b.String()
}

// markupName is name as a mention's display text: without the characters
// that end the markup, spaces folded, never empty (the parser needs one).
func markupName(name string) string {
	name = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if strings.ContainsRune("[]()", r) {
			return -1
		}
		return r
	}, name)), " ")
	if name == "" {
		return "?"
	}
	return name
}

// mentionAt reads `[display](uuid)` at the start of s and returns the id and
// the length consumed.
func mentionAt(s string) (uuid.UUID, int, bool) {
	end := strings.IndexByte(s, ']')
	if end < 2 || strings.ContainsAny(s[1:end], "[\n") {
		return uuid.Nil, 0, false
	}
	rest := s[end+1:]
	if len(rest) < 2 || rest[0] != '(' {
		return uuid.Nil, 0, false
	}
	close := strings.IndexByte(rest, ')')
	if close < 0 {
		return uuid.Nil, 0, false
	}
	idText := rest[1:close]
	// Only the canonical 36-character form: uuid.Parse also takes braces
	// and urn: prefixes, which no client writes.
	if len(idText) != 36 {
		return uuid.Nil, 0, false
	}
	id, err := uuid.Parse(idText)
	if err != nil || id == uuid.Nil {
		return uuid.Nil, 0, false
	}
	return id, end + 1 + close + 1, true
}

// tagAt reads a hashtag name at the start of s and returns it and the bytes
// consumed (the whole run, even past MaxHashtagLen).
func tagAt(s string) (string, int) {
	n, runes := 0, 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		if !isTagRune(r) {
			break
		}
		n += size
		runes++
	}
	name := s[:n]
	if runes > MaxHashtagLen {
		name = string([]rune(name)[:MaxHashtagLen])
	}
	return name, n
}

func isTagRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func startsWord(prev rune) bool {
	return unicode.IsSpace(prev) || strings.ContainsRune("([{\"'", prev)
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}
