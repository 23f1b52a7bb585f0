package answer

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode"
)

// NoAnswer is the extractive answer when no retrieved post shares a word
// with the question.
const NoAnswer = "No post in this forum answers that yet."

// Extractive answers with no model: it picks the sentences of the posts that
// share the most words with the question and streams them, each followed by
// its citation marker. It is deterministic, so that the feature works, and
// can be tested, with no model configured.
type Extractive struct {
	// MaxPassages is how many sentences the answer holds at most; 0 means 3.
	MaxPassages int
}

type passage struct {
	text  string
	post  int // index in the request's posts
	pos   int // sentence index within the post
	score int
}

// Answer implements Answerer.
func (e Extractive) Answer(ctx context.Context, req Request, emit func(string) error) (string, error) {
	limit := e.MaxPassages
	if limit <= 0 {
		limit = 3
	}
	terms := queryTerms(req.Question)
	var cands []passage
	for i, p := range req.Posts {
		for j, sent := range sentences(p.Text) {
			if sc := overlap(terms, sent); sc > 0 {
				cands = append(cands, passage{text: sent, post: i, pos: j, score: sc})
			}
		}
	}
	// Best first; ties go to the better-ranked post, then the earlier sentence.
	sort.SliceStable(cands, func(a, b int) bool {
		if cands[a].score != cands[b].score {
			return cands[a].score > cands[b].score
		}
		if cands[a].post != cands[b].post {
			return cands[a].post < cands[b].post
		}
		return cands[a].pos < cands[b].pos
	})
	if len(cands) > limit {
		cands = cands[:limit]
	}
	if len(cands) == 0 {
		if err := emit(NoAnswer); err != nil {
			return "", err
		}
		return NoAnswer, nil
	}
	var b strings.Builder
	for i, c := range cands {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		piece := fmt.Sprintf("%s [%d]", c.text, c.post+1)
		if i > 0 {
			piece = " " + piece
		}
		if err := emit(piece); err != nil {
			return "", err
		}
		b.WriteString(piece)
	}
	return b.String(), nil
}

// stopwords are left out of the overlap: they match everything.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but of to in on at for with by from as is are was
		were be been being it its this that these those i you he she we they me my our your their
		do does did how what when where which who whom why can could should would will shall may
		might must has have had not no so if then than there here about into over any some all
		just also more most very too up out get got`) {
		stopwords[w] = true
	}
}

// words splits text into lower-cased words of letters and digits.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// QueryTerms returns the question's words that carry meaning: lower-cased,
// without stopwords or one-letter words, each once, in order. Retrieval
// falls back to them when no post holds every word of a question.
func QueryTerms(q string) []string { return queryTerms(q) }

func queryTerms(q string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range words(q) {
		if len([]rune(w)) < 2 || stopwords[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// overlap counts the question terms the sentence holds. Words of five
// letters or more match on their first five, a crude stem, so that
// "deploying" meets "deployment".
func overlap(terms []string, sentence string) int {
	have := map[string]bool{}
	for _, w := range words(sentence) {
		have[w] = true
		if r := []rune(w); len(r) >= 5 {
			have["~"+string(r[:5])] = true
		}
	}
	n := 0
	for _, t := range terms {
		if have[t] {
			n++
		} else if r := []rune(t); len(r) >= 5 && have["~"+string(r[:5])] {
			n++
		}
	}
	return n
}

// sentences splits a post into sentences, at ., ! or ? followed by a space,
// and at line breaks. Bracketed numbers are taken out, so that a post's own
// "[2]" never reads as a citation.
func sentences(text string) []string {
	text = markerRE.ReplaceAllString(text, "")
	var out []string
	for _, line := range strings.Split(text, "\n") {
		start := 0
		rs := []rune(line)
		for i, r := range rs {
			if (r == '.' || r == '!' || r == '?') && (i+1 == len(rs) || unicode.IsSpace(rs[i+1])) {
				out = appendSentence(out, string(rs[start:i+1]))
				start = i + 1
			}
		}
		out = appendSentence(out, string(rs[start:]))
	}
	return out
}

func appendSentence(out []string, s string) []string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return out
	}
	return append(out, s)
}
