// Package words holds how the AI search reads text: lower-cased words of
// letters and digits, the stopwords that carry no meaning, a question's
// meaningful terms and their stems. Retrieval (package rank) and the
// extractive answerer read text the same way through it.
package words

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/go-porterstemmer"
)

// Split splits text into lower-cased words of letters and digits.
func Split(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// IsStop reports a word that matches everything: "the", "how", "we".
func IsStop(w string) bool { return stopwords[w] }

// Terms returns the question's words that carry meaning: lower-cased,
// without stopwords or one-letter words, each once, in order.
func Terms(q string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range Split(q) {
		if len([]rune(w)) < 2 || stopwords[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// Stem is the word's Porter stem ("prioritizing" and "prioritize" are
// "priorit"), so that a question meets a post written in another form of
// its words. Numbers and short words are their own stem.
func Stem(w string) string {
	if len(w) < 4 || unicode.IsDigit([]rune(w)[0]) {
		return w
	}
	return porterstemmer.StemString(w)
}

// Nearest returns the word of vocab closest to s within the typos the
// store allows (one from five letters, two from nine, the first letter
// right), the most frequent of equals; "" when there is none.
func Nearest(s string, vocab map[string]int) string {
	allowed := Typos(s)
	if allowed == 0 {
		return ""
	}
	best, bestD := "", allowed+1
	rs := []rune(s)
	for c, f := range vocab {
		cr := []rune(c)
		if cr[0] != rs[0] || abs(len(cr)-len(rs)) > allowed {
			continue
		}
		d := distance(rs, cr, allowed)
		if d < bestD || d == bestD && (f > vocab[best] || f == vocab[best] && c < best) {
			best, bestD = c, d
		}
	}
	if bestD > allowed {
		return ""
	}
	return best
}

// distance is the Damerau-Levenshtein (optimal string alignment) distance
// of a and b, or limit+1 once it exceeds limit.
func distance(a, b []rune, limit int) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			low = min(low, cur[j])
		}
		if low > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Stems returns the meaningful words of text as the stems a set of
// documents holds (df counts the documents holding each stem): a word
// none holds is read as the nearest word of vocab (the documents' words),
// within the typos allowed; a word still unheld is left out, and a stem in
// seen too (the caller's, shared across texts, so that each stem counts
// once).
func Stems(text string, df, vocab map[string]int, seen map[string]bool) []string {
	var out []string
	for _, w := range Terms(text) {
		st, ok := Read(w, df, vocab)
		if !ok || seen[st] {
			continue
		}
		seen[st] = true
		out = append(out, st)
	}
	return out
}

// Read returns the stem of the word w as a set of documents holds it (df
// counts the documents holding each stem): its own, or that of the
// nearest word of vocab (the documents' words) within the typos allowed;
// ok is false when none of them holds either.
func Read(w string, df, vocab map[string]int) (stem string, ok bool) {
	st := Stem(w)
	if df[st] == 0 {
		if near := Nearest(w, vocab); near != "" {
			st = Stem(near)
		}
	}
	return st, df[st] > 0
}

// Typos is how many typos a word may hold and still match: none up to four
// letters, one from five, two from nine, as Meilisearch allows (and the
// embedded engine, and the AI search's ranking, after it).
func Typos(w string) int {
	switch n := utf8.RuneCountInString(w); {
	case n >= 9:
		return 2
	case n >= 5:
		return 1
	}
	return 0
}

var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but of to in on at for with by from as is are was
		were be been being it its this that these those i you he she we they me my our your their
		do does did how what when where which who whom why can could should would will shall may
		might must has have had not no so if then than there here about into over any some all
		just also more most very too up out get got us them his her him one ones anyone someone
		else other others such each there's it's i'm we're you're they're don't doesn't didn't
		s t re ve ll d m`) {
		stopwords[w] = true
	}
}
