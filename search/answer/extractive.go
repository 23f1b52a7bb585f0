package answer

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"agora/search"
)

// NoAnswer is the extractive answer when no retrieved post shares a word
// with the question.
const NoAnswer = "No post in this forum answers that yet."

// Extractive answers with no model. It scores every sentence of the posts
// by the question's words it holds, leaves out what answers nothing (a
// greeting, a sign-off, a question, a sentence another one already says),
// keeps the few best, and writes them grouped by post, each post's
// sentences in their own order followed by its one citation marker. It is
// deterministic, so that the feature works, and can be tested, with no
// model configured.
type Extractive struct {
	// MaxPassages is how many sentences the answer holds at most; 0 means 3.
	MaxPassages int
}

type passage struct {
	text  string
	words map[string]bool // its meaningful words, for near-duplicates
	post  int             // index in the request's posts
	pos   int             // sentence index within the post
	score int
}

// Answer implements Answerer.
func (e Extractive) Answer(ctx context.Context, req Request, emit func(string) error) (string, error) {
	limit := e.MaxPassages
	if limit <= 0 {
		limit = 3
	}
	picked := pick(conversationTerms(req), req.Posts, limit)
	if len(picked) == 0 {
		if err := emit(NoAnswer); err != nil {
			return "", err
		}
		return NoAnswer, nil
	}
	var b strings.Builder
	for i, c := range picked {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		piece := c.text
		if i+1 == len(picked) || picked[i+1].post != c.post {
			piece += fmt.Sprintf(" [%d]", c.post+1)
		}
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

// weights are how much a sentence's word counts: a word of the question
// most, a word of the previous question (what "it" or "that post" of a
// follow-up stands for) less; a sentence of a post the previous answer
// cited gains conversationBonus, once it holds a word of either.
type weights struct {
	question, previous []string
	cited              map[string]bool
}

const conversationBonus = 2

// conversationTerms are the words a request's sentences are scored by.
func conversationTerms(req Request) weights {
	w := weights{question: queryTerms(req.Question), cited: map[string]bool{}}
	if n := len(req.History); n > 0 {
		last := req.History[n-1]
		have := map[string]bool{}
		for _, t := range w.question {
			have[t] = true
		}
		for _, t := range queryTerms(last.Question) {
			if !have[t] {
				w.previous = append(w.previous, t)
			}
		}
		for _, id := range last.Cited {
			w.cited[id] = true
		}
	}
	return w
}

func (w weights) score(p search.Post, sentence string) int {
	sc := 2*overlap(w.question, sentence) + overlap(w.previous, sentence)
	if sc > 0 && (w.cited[p.ID] || w.cited[p.ThreadID]) {
		sc += conversationBonus
	}
	return sc
}

// pick returns the answer's sentences in the order they are written: at
// most limit of the best-scoring ones, grouped by post (the post of the
// best sentence first), each group in the post's own order.
func pick(terms weights, posts []search.Post, limit int) []passage {
	var cands []passage
	for i, p := range posts {
		for j, sent := range sentences(p.Text) {
			if chatter(sent) {
				continue
			}
			if sc := terms.score(p, sent); sc > 0 {
				cands = append(cands, passage{text: sent, words: contentWords(sent), post: i, pos: j, score: sc})
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
	var picked []passage
	rank := map[int]int{} // post → rank of its best sentence
	for _, c := range cands {
		if len(picked) == limit {
			break
		}
		dup := false
		for _, p := range picked {
			if nearDuplicate(c.words, p.words) {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		if _, ok := rank[c.post]; !ok {
			rank[c.post] = len(rank)
		}
		picked = append(picked, c)
	}
	sort.SliceStable(picked, func(a, b int) bool {
		if picked[a].post != picked[b].post {
			return rank[picked[a].post] < rank[picked[b].post]
		}
		return picked[a].pos < picked[b].pos
	})
	return picked
}

// Greetings, self-introductions and sign-offs open or close a post and say
// nothing about its subject; a question asks rather than answers. Greetings
// and sign-offs are recognised only in short sentences, so that "Best
// practice is to…" or "Thanks to the new runner, builds take 5 minutes"
// stay.
var (
	greetingRE = regexp.MustCompile(`^(hi|hello|hey|hiya|howdy|greetings|dear|welcome|good (morning|afternoon|evening|day)|morning|evening)\b`)
	signoffRE  = regexp.MustCompile(`^(thanks|thank you|thank u|thx|ty|cheers|regards|best|all the best|best regards|kind regards|warm regards|warmly|sincerely|many thanks|hope (this|that|it) helps|looking forward|talk soon|see you)\b`)
	hereRE     = regexp.MustCompile(`^[\p{L}'’-]+( [\p{L}'’-]+)? here\b`)
)

// chatter reports a sentence that answers nothing: a greeting, a
// self-introduction ("Chris here."), a sign-off, or a question.
func chatter(sentence string) bool {
	s := strings.ToLower(strings.TrimSpace(sentence))
	if strings.HasSuffix(s, "?") {
		return true
	}
	n := len(words(s))
	switch {
	case greetingRE.MatchString(s) && n <= 8:
		return true
	case signoffRE.MatchString(s) && n <= 6:
		return true
	case hereRE.MatchString(s) && n <= 6:
		return true
	}
	return false
}

// contentWords returns the sentence's words without stopwords.
func contentWords(sentence string) map[string]bool {
	out := map[string]bool{}
	for _, w := range words(sentence) {
		if !stopwords[w] {
			out[w] = true
		}
	}
	return out
}

// nearDuplicate reports two sentences that say the same: most of the
// shorter one's words are in the other.
func nearDuplicate(a, b map[string]bool) bool {
	small, large := a, b
	if len(small) > len(large) {
		small, large = large, small
	}
	if len(small) == 0 {
		return true
	}
	shared := 0
	for w := range small {
		if large[w] {
			shared++
		}
	}
	return float64(shared) >= 0.8*float64(len(small))
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
