package answer

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"agora/search"
	"agora/search/words"
)

// NoAnswer is the extractive answer when no retrieved post says enough
// about the question.
const NoAnswer = "No post in this forum answers that yet."

// Extractive answers with no model. It scores every sentence of the posts
// by the question's words it holds (their stems, a misspelt word read as
// the posts' nearest, rare words weighing more, the retrieval's best posts
// first) and by how much of the question its thread is about, leaves out
// what answers nothing (a greeting, a sign-off, a question, a sentence
// another one already says), keeps the best sentence and the few others
// nearly as good, and writes them grouped by post, each post's sentences
// in their own order followed by its one citation marker, and saying who
// wrote them (voice). When the question asks for a figure (how much, what
// percent, when), a sentence carrying one comes first; a sentence saying
// the question again is none of the answer. When even the
// best sentence holds too little of the question, or its thread too
// little of all the question asks, it answers from the thread the
// retrieval's two rankings agreed on (Request.Agreed), a paraphrase's
// words being unlike its answer's, and otherwise says that no post
// answers. It is
// deterministic, so that the feature works, and can be tested, with no
// model configured.
type Extractive struct {
	// MaxPassages is how many sentences the answer holds at most; 0 means 3.
	MaxPassages int
}

type passage struct {
	text  string
	words map[string]bool // its meaningful words, for near-duplicates
	stems map[string]bool // their stems, for scoring
	post  int             // index in the request's posts
	pos   int             // sentence index within the post
	score float64
	// covers is the share of the question's weight the sentence holds.
	covers float64
	// figure is set when the question asks for a figure (an amount, a
	// share, a date) and the sentence carries one.
	figure bool
	// base is the score without the figure's bonus.
	base float64
}

// kindQuestion is the Kind of a thread a member opened as a question: the
// asker's post, whose sentences ask rather than answer.
const kindQuestion = "question"

// Answer implements Answerer.
func (e Extractive) Answer(ctx context.Context, req Request, emit func(string) error) (string, error) {
	limit := e.MaxPassages
	if limit <= 0 {
		limit = 3
	}
	picked, err := pick(ctx, req, limit)
	if err != nil {
		return "", err
	}
	if len(picked) == 0 {
		if err := emit(NoAnswer); err != nil {
			return "", err
		}
		return NoAnswer, nil
	}
	// One post's sentences are written together, with who said them
	// (voice), then its citation marker.
	var b strings.Builder
	for i := 0; i < len(picked); {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		j := i
		var sents []string
		for ; j < len(picked) && picked[j].post == picked[i].post; j++ {
			sents = append(sents, endSentence(picked[j].text))
		}
		piece := voice(sents, req.Author(req.Posts[picked[i].post])) + fmt.Sprintf(" [%d]", picked[i].post+1)
		if i > 0 {
			piece = " " + piece
		}
		// The piece streams a sentence at a time, as it is read: the
		// parts add up to the piece.
		for _, part := range strings.SplitAfter(piece, ". ") {
			if err := emit(part); err != nil {
				return "", err
			}
		}
		b.WriteString(piece)
		i = j
	}
	return b.String(), nil
}

// How the sentences are weighed: a word of the previous question (what
// "it" or "that post" of a follow-up stands for) counts earlierWeight of
// one of this question; a sentence of the thread ranked r (by its best
// post) counts 1/(1+threadDecay*r), times the share of the question its
// thread is about (see about); one of a post the previous answer cited
// gains citedBonus. The answer keeps the sentences scoring at least
// keepShare of the best one, or sameShare for a sentence of the best
// one's thread or of a post the conversation points back at; it answers
// at all only when the best holds minCovers of the question's weight and
// its thread minAbout of all the question asks (minAboutAlone when the
// two rankings put another thread first), or it continues the
// conversation.
const (
	earlierWeight = 0.4
	threadDecay   = 0.7
	citedBonus    = 1.5
	keepShare     = 0.75
	sameShare     = 0.3
	minCovers     = 0.3
	minAbout      = 0.2
	// minAboutAlone is minAbout for a thread the two rankings did not
	// both put first (Request.Hybrid): two fifths of what the question
	// asks. Read from the train half (0.35, 0.4 and 0.5 were tried).
	minAboutAlone = 0.4
	// figureBonus weighs a sentence that carries the figure asked for
	// ("what percent…?") against one that only names the subject: the
	// one without the number does not answer, so it needs to hold twice
	// as much of the question to come first. Set by that reading, not
	// fitted to any evaluation.
	figureBonus = 2
	// When words refuse and the two rankings did not agree on a thread,
	// the sentence nearest the question in meaning among the first
	// meaningThreads threads' (at most meaningSentences of them) answers
	// when the cosine of its vector and the question's is at least
	// minMeaning. Read from the training questions with all-MiniLM-L6-v2
	// (1, 2 and 3 threads and bars from 0.2 to 0.7 tried): a question the
	// forum cannot answer is as near a post's sentence as a paraphrase
	// below about 0.4.
	meaningThreads   = 2
	meaningSentences = 64
	minMeaning       = 0.44
)

// term is a question word as the posts read it, with its weight: word as
// asked, stem as the posts hold it, held when any does.
type term struct {
	word, stem     string
	weight         float64
	question, held bool
}

// pick returns the answer's sentences in the order they are written: the
// best-scoring one and at most limit-1 others scoring nearly as well,
// grouped by post (the post of the best sentence first), each group in the
// post's own order; none when nothing answers.
func pick(ctx context.Context, req Request, limit int) ([]passage, error) {
	var all []passage
	df, vocab := map[string]int{}, map[string]int{}
	asked := stemsOf(req.Question)
	figure := asksFigure(req.Question)
	for i, p := range req.Posts {
		for j, sent := range sentences(p.Text) {
			if chatter(sent) {
				continue
			}
			c := passage{text: sent, words: contentWords(sent), stems: map[string]bool{}, post: i, pos: j,
				figure: figure != figureNone && holdsFigure(sent, figure)}
			for w := range c.words {
				c.stems[words.Stem(w)] = true
			}
			// The question said again (by the asker's post, or a
			// comment quoting it) answers nothing.
			if restates(c, asked, p.Kind == kindQuestion) {
				continue
			}
			for w := range c.words {
				vocab[w]++
			}
			for st := range c.stems {
				df[st]++
			}
			all = append(all, c)
		}
	}
	var terms []term
	for _, t := range readTerms(req, df, vocab) {
		if t.held {
			terms = append(terms, t)
		}
	}
	// Every sentence here was retrieved for the question, so its subject's
	// words are in most of them: their weight falls gently with how many
	// hold them, not to nothing.
	n := float64(len(all))
	idf := func(st string) float64 { return math.Log(1 + n/float64(df[st])) }
	weight := 0.0
	for _, t := range terms {
		if t.question {
			weight += idf(t.stem)
		}
	}
	cited := map[string]bool{}
	if h := len(req.History); h > 0 {
		for _, id := range req.History[h-1].Cited {
			cited[id] = true
		}
	}
	isCited := func(c passage) bool { p := req.Posts[c.post]; return cited[p.ID] || cited[p.ThreadID] }
	threads := map[string]int{}
	for _, p := range req.Posts {
		if _, ok := threads[p.Thread()]; !ok {
			threads[p.Thread()] = len(threads)
		}
	}
	topic := about(req)
	best := 0.0
	for i := range all {
		c := &all[i]
		held := 0.0
		for _, t := range terms {
			if c.stems[t.stem] {
				c.score += t.weight * idf(t.stem)
				if t.question {
					held += idf(t.stem)
				}
			}
		}
		if weight > 0 {
			c.covers = held / weight
		}
		c.score *= topic[req.Posts[c.post].Thread()]
		best = max(best, c.score)
	}
	var cands []passage
	for _, c := range all {
		if best > 0 {
			c.score /= best
		}
		if c.score == 0 {
			continue
		}
		c.score /= 1 + threadDecay*float64(threads[req.Posts[c.post].Thread()])
		if isCited(c) {
			c.score *= citedBonus
			c.covers = 1 // it goes on with what was answered
		}
		// The figure asked for puts its sentence first, but what else
		// the answer keeps is chosen as without it (choose reads base).
		// A figure in a sentence holding too little of the question to
		// lead the answer does not make it lead: that would leave the
		// question unanswered rather than answered without the figure.
		c.base = c.score
		if c.figure && c.covers >= minCovers {
			c.score *= figureBonus
		}
		cands = append(cands, c)
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
	// "Who did he mention in that post?" is about the posts the previous
	// answer cited: when they say anything to it, the answer is theirs.
	referred := false
	if len(cited) > 0 && refersBack(req.Question) {
		var theirs []passage
		for _, c := range cands {
			if isCited(c) {
				theirs = append(theirs, c)
			}
		}
		if len(theirs) > 0 {
			cands, referred = theirs, true
		}
	}
	// Words alone refuse a paraphrase; the thread both rankings put
	// first is its subject all the same, and its best sentence by the
	// words it shares is the answer; without such a thread, the sentence
	// nearest the question in meaning is, if near enough. A thread the
	// meaning ranking did not put first must hold more of the question
	// to be its answer: the words of a question the forum cannot answer
	// still find a post sharing a few of them.
	refuse := len(cands) == 0 || cands[0].covers < minCovers
	if !refuse && !isCited(cands[0]) {
		t := req.Posts[cands[0].post].Thread()
		bar := minAbout
		if req.Hybrid && t != req.Agreed {
			bar = minAboutAlone
		}
		refuse = topic[t] < bar
	}
	if refuse {
		var theirs []passage
		for _, c := range cands {
			if req.Agreed != "" && req.Posts[c.post].Thread() == req.Agreed {
				theirs = append(theirs, c)
			}
		}
		if len(theirs) == 0 && req.Meaning != nil {
			var err error
			if theirs, err = nearestInMeaning(ctx, req, all, threads); err != nil {
				return nil, err
			}
		}
		if len(theirs) == 0 {
			return nil, nil
		}
		cands = theirs
	}
	top := cands[0]
	topThread := req.Posts[top.post].Thread()
	// What the previous answer said is not said again, unless the posts
	// hold nothing else for the question ("Who did he mention in that
	// post?" about a post the answer quoted whole).
	var said []map[string]bool
	if h := len(req.History); h > 0 {
		for _, sent := range sentences(req.History[h-1].Answer) {
			said = append(said, contentWords(sent))
		}
	}
	sameThread := func(c passage) bool {
		return referred || req.Posts[c.post].Thread() == topThread
	}
	// Another thread's sentence joins only from a thread as much about
	// the question as the best one's: a sentence holding the question's
	// words in a thread about something else answers something else.
	kept := cands[:0:0]
	for _, c := range cands {
		if sameThread(c) || topic[req.Posts[c.post].Thread()] >= topic[topThread] {
			kept = append(kept, c)
		}
	}
	cands = kept
	picked := choose(cands, top, limit, sameThread, said)
	if len(picked) == 0 {
		picked = choose(cands, top, limit, sameThread, nil)
	}
	rank := map[int]int{} // post → rank of its best sentence
	for _, c := range picked {
		if _, ok := rank[c.post]; !ok {
			rank[c.post] = len(rank)
		}
	}
	sort.SliceStable(picked, func(a, b int) bool {
		if picked[a].post != picked[b].post {
			return rank[picked[a].post] < rank[picked[b].post]
		}
		return picked[a].pos < picked[b].pos
	})
	return picked, nil
}

// nearestInMeaning returns, when the sentence nearest the question in
// meaning among those of the request's first meaningThreads threads is at
// least minMeaning near it, the sentences of its thread, nearest first,
// each scored by that nearness; otherwise none. A question post's own
// sentences are left out: they say what was asked, and a paraphrase of
// the question is nearest them.
func nearestInMeaning(ctx context.Context, req Request, all []passage, threads map[string]int) ([]passage, error) {
	var in []passage
	texts := []string{req.Question}
	for _, c := range all {
		p := req.Posts[c.post]
		if threads[p.Thread()] < meaningThreads && p.Kind != kindQuestion && len(in) < meaningSentences {
			in = append(in, c)
			texts = append(texts, c.text)
		}
	}
	if len(in) == 0 {
		return nil, nil
	}
	vs, err := req.Meaning.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("answer: embedding the sentences: %w", err)
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("answer: embedding the sentences: %d vectors for %d texts", len(vs), len(texts))
	}
	for i := range in {
		near := search.Cosine(vs[0], vs[i+1])
		in[i].score, in[i].base, in[i].covers = near, near, 1
	}
	sort.SliceStable(in, func(a, b int) bool { return in[a].score > in[b].score })
	if in[0].score < minMeaning {
		return nil, nil
	}
	thread := req.Posts[in[0].post].Thread()
	out := in[:0:0]
	for _, c := range in {
		if req.Posts[c.post].Thread() == thread {
			out = append(out, c)
		}
	}
	return out, nil
}

// about returns, for each thread of the posts, the share of the question's
// weight (and the previous question's, at earlierWeight) that its posts
// hold, every sentence counted: a thread's own question says what it is
// about. A word weighs by how few of the forum's posts hold it
// (req.Frequencies; without them, how few of the request's threads do),
// one no post holds as one a single post holds; a word none of the
// request's posts holds still counts in the whole, so that a question
// sharing one common word with a thread is not read as its subject.
func about(req Request) map[string]float64 {
	stems := map[string]map[string]bool{}
	vocab := map[string]int{}
	for _, p := range req.Posts {
		t := p.Thread()
		if stems[t] == nil {
			stems[t] = map[string]bool{}
		}
		for _, w := range words.Split(p.Text) {
			if !words.IsStop(w) {
				stems[t][words.Stem(w)] = true
				vocab[w]++
			}
		}
	}
	df := map[string]int{}
	for _, held := range stems {
		for st := range held {
			df[st]++
		}
	}
	idf := func(w, st string) float64 { return math.Log(1 + float64(len(stems))/float64(max(df[st], 1))) }
	if f := req.Frequencies; f != nil && f.Posts > 0 {
		idf = func(w, _ string) float64 { return math.Log(1 + float64(f.Posts)/float64(max(f.Words[w], 1))) }
	}
	out := map[string]float64{}
	total := 0.0
	for _, q := range readTerms(req, df, vocab) {
		x := q.weight * idf(q.word, q.stem)
		total += x
		if !q.held {
			continue
		}
		for t, held := range stems {
			if held[q.stem] {
				out[t] += x
			}
		}
	}
	for t := range out {
		out[t] /= total
	}
	return out
}

// refersBack reports a question that points at what was said before: a
// pronoun or a demonstrative ("he", "that post", "it").
func refersBack(q string) bool {
	for _, w := range words.Split(q) {
		if anaphora[w] {
			return true
		}
	}
	return false
}

var anaphora = map[string]bool{"he": true, "she": true, "they": true, "him": true, "her": true, "them": true,
	"his": true, "hers": true, "their": true, "theirs": true, "it": true, "its": true, "that": true,
	"this": true, "those": true, "these": true, "there": true, "then": true, "one": true, "ones": true}

// choose takes, best first, at most limit sentences scoring (before the
// figure's bonus) at least keepShare of top's (sameShare for those
// sameThread keeps), none nearly the same as one taken or one said.
func choose(cands []passage, top passage, limit int, sameThread func(passage) bool, said []map[string]bool) []passage {
	var picked []passage
	for _, c := range cands {
		if len(picked) == limit {
			break
		}
		share := keepShare
		if sameThread(c) {
			share = sameShare
		}
		if c.base < share*top.base {
			continue
		}
		dup := false
		for _, p := range picked {
			dup = dup || nearDuplicate(c.words, p.words)
		}
		for _, w := range said {
			dup = dup || nearDuplicate(c.words, w)
		}
		if !dup {
			picked = append(picked, c)
		}
	}
	return picked
}

// readTerms are the question's words, then the previous question's that
// it does not hold, each stem once; a word no document (df, vocab) holds
// is read as their nearest word within a typo or two, and is not held if
// none is near.
func readTerms(req Request, df, vocab map[string]int) []term {
	var out []term
	seen := map[string]bool{}
	add := func(text string, weight float64, question bool) {
		for _, w := range words.Terms(text) {
			st, held := words.Read(w, df, vocab)
			if !seen[st] {
				seen[st] = true
				out = append(out, term{word: w, stem: st, weight: weight, question: question, held: held})
			}
		}
	}
	add(req.Question, 1, true)
	if h := len(req.History); h > 0 {
		add(req.History[h-1].Question, earlierWeight, false)
	}
	return out
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
	n := len(words.Split(s))
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
	for _, w := range words.Split(sentence) {
		if !words.IsStop(w) {
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

// sentences splits a post into sentences, at ., ! or ? followed by a space,
// and at line breaks. Bracketed numbers are taken out, so that a post's own
// "[2]" never reads as a citation.
func sentences(text string) []string {
	text = spacedMarkerRE.ReplaceAllString(text, "")
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
	// A list item's dash, and a greeting that opens a longer sentence
	// ("Hi Hiroshi, there is a program for this"), are not part of what
	// it says; a short one ("Thanks, Chris") stays whole for chatter.
	s = strings.TrimLeft(s, "-*• ")
	if m := openingRE.FindStringIndex(s); m != nil && len(strings.Fields(s[m[1]:])) >= 4 {
		rest := []rune(s[m[1]:])
		rest[0] = unicode.ToUpper(rest[0])
		s = string(rest)
	}
	if s == "" {
		return out
	}
	return append(out, s)
}

// openingRE is a greeting opening a sentence, with up to two names and its
// comma: "Hi all, ", "Hello Maya, ", "Hey Chris Morgan, ".
var openingRE = regexp.MustCompile(`^(?i:hi|hello|hey|hiya|dear|good (?:morning|afternoon|evening)|morning|thanks|thank you)(?: [\p{L}'’-]+){0,2}, `)
