package sentence

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Tokenizer is BERT's uncased tokenizer over a WordPiece vocabulary: the
// text is cleaned (control characters dropped, every kind of white space
// made a space), CJK ideographs set apart, accents stripped and letters
// lower-cased; it is split at white space and around each punctuation
// character; each word becomes its longest pieces of the vocabulary, left
// to right ("embeddings" → "em", "##bed", "##ding", "##s"), or [UNK] when
// it has none; [CLS] and [SEP] enclose the pieces, truncated to MaxLen
// ids in all. It is what all-MiniLM-L6-v2 was trained with (its
// tokenizer.json names BertNormalizer, BertPreTokenizer and WordPiece).
type Tokenizer struct {
	vocab              map[string]int64
	cls, sep, unk, pad int64
	// MaxLen is the most ids a text becomes, [CLS] and [SEP] included.
	MaxLen int
	// maxWordRunes is the longest word split into pieces; a longer one
	// is [UNK] (tokenizer.json's max_input_chars_per_word).
	maxWordRunes int
}

// LoadTokenizer reads the vocabulary and the WordPiece settings of a
// Hugging Face tokenizer.json whose model is WordPiece and whose
// normalizer lower-cases (the uncased BERT family); maxLen is the most
// ids a text becomes.
func LoadTokenizer(path string, maxLen int) (*Tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sentence: %w", err)
	}
	var f struct {
		Normalizer struct {
			Type      string `json:"type"`
			Lowercase bool   `json:"lowercase"`
		} `json:"normalizer"`
		Model struct {
			Type                    string           `json:"type"`
			UnkToken                string           `json:"unk_token"`
			ContinuingSubwordPrefix string           `json:"continuing_subword_prefix"`
			MaxInputCharsPerWord    int              `json:"max_input_chars_per_word"`
			Vocab                   map[string]int64 `json:"vocab"`
		} `json:"model"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("sentence: %s: %w", path, err)
	}
	m := f.Model
	// Another normalizer or model would tokenize differently from what
	// this code does, silently: refused instead.
	if m.Type != "WordPiece" || f.Normalizer.Type != "BertNormalizer" || !f.Normalizer.Lowercase || m.ContinuingSubwordPrefix != "##" {
		return nil, fmt.Errorf("sentence: %s is not an uncased BERT WordPiece tokenizer (model %q, normalizer %q)", path, m.Type, f.Normalizer.Type)
	}
	if maxLen < 2 {
		return nil, fmt.Errorf("sentence: max length %d leaves no room for [CLS] and [SEP]", maxLen)
	}
	t := &Tokenizer{vocab: m.Vocab, MaxLen: maxLen, maxWordRunes: m.MaxInputCharsPerWord}
	if t.maxWordRunes <= 0 {
		t.maxWordRunes = 100
	}
	for _, s := range []struct {
		tok string
		id  *int64
	}{{"[CLS]", &t.cls}, {"[SEP]", &t.sep}, {m.UnkToken, &t.unk}, {"[PAD]", &t.pad}} {
		id, ok := m.Vocab[s.tok]
		if !ok {
			return nil, fmt.Errorf("sentence: %s has no %s token", path, s.tok)
		}
		*s.id = id
	}
	return t, nil
}

// Encode returns text's ids: [CLS], its pieces (the first MaxLen-2), [SEP].
func (t *Tokenizer) Encode(text string) []int64 {
	ids := []int64{t.cls}
	limit := t.MaxLen - 1
	for _, w := range basicTokens(text) {
		if len(ids) >= limit {
			break
		}
		ids = t.wordPiece(w, ids)
	}
	if len(ids) > limit {
		ids = ids[:limit]
	}
	return append(ids, t.sep)
}

// wordPiece appends word's pieces to ids: greedily the longest prefix in
// the vocabulary, then the longest "##" continuation, and so on; a word
// that cannot be covered so is one [UNK], as in BERT.
func (t *Tokenizer) wordPiece(word string, ids []int64) []int64 {
	runes := []rune(word)
	if len(runes) > t.maxWordRunes {
		return append(ids, t.unk)
	}
	start := len(ids)
	for i := 0; i < len(runes); {
		j := len(runes)
		var id int64
		found := false
		for ; j > i; j-- {
			piece := string(runes[i:j])
			if i > 0 {
				piece = "##" + piece
			}
			if id, found = t.vocab[piece]; found {
				break
			}
		}
		if !found {
			return append(ids[:start], t.unk)
		}
		ids = append(ids, id)
		i = j
	}
	return ids
}

// basicTokens normalises text as BertNormalizer does (clean, CJK set
// apart, accents stripped, lower-cased) and splits it as BertPreTokenizer
// does: at white space, and each punctuation character a word of its own.
func basicTokens(text string) []string {
	var b strings.Builder
	for _, r := range text {
		switch {
		case r == 0 || r == unicode.ReplacementChar || isControl(r):
			continue
		case isSpace(r):
			b.WriteByte(' ')
		case isCJK(r):
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	// Accents: decomposed, their combining marks dropped ("café" → "cafe").
	var s strings.Builder
	for _, r := range norm.NFD.String(b.String()) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		s.WriteString(strings.ToLower(string(r)))
	}
	var out []string
	for _, field := range strings.FieldsFunc(s.String(), isSpace) {
		begin := 0
		for i, r := range field {
			if isPunct(r) {
				if begin < i {
					out = append(out, field[begin:i])
				}
				out = append(out, string(r))
				begin = i + len(string(r))
			}
		}
		if begin < len(field) {
			out = append(out, field[begin:])
		}
	}
	return out
}

// isSpace is BERT's white space: Unicode's White_Space (space, tab, line
// breaks, no-break space…); vertical tab and form feed are controls to
// isControl, which is asked first.
func isSpace(r rune) bool { return unicode.IsSpace(r) }

// isControl is a control or format character other than the white space
// isSpace takes.
func isControl(r rune) bool {
	if r == '\t' || r == '\n' || r == '\r' {
		return false
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs)
}

// isPunct is BERT's punctuation: every ASCII non-letter non-digit
// printable ("$", "+", "^" and "`" are symbols to Unicode, not
// punctuation, but BERT splits them off too) and Unicode's P categories.
func isPunct(r rune) bool {
	if (r >= 33 && r <= 47) || (r >= 58 && r <= 64) || (r >= 91 && r <= 96) || (r >= 123 && r <= 126) {
		return true
	}
	return unicode.IsPunct(r)
}

// isCJK is a CJK Unified Ideograph (BERT's blocks), which BERT tokenizes
// one character at a time.
func isCJK(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0x3400 && r <= 0x4DBF) || (r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) || (r >= 0x2B740 && r <= 0x2B81F) || (r >= 0x2B820 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) || (r >= 0x2F800 && r <= 0x2FA1F)
}
