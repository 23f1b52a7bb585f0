package answer

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"agora/search/words"
)

// This file is how the extractive answer says who said what, and which
// sentences carry the figure a question asks for.

// firstPersonRE finds a first-person word: a sentence holding one speaks
// for its author ("I", "my team", "we give ML teams 60 %"), and strung
// after another author's it would read as the same person.
var firstPersonRE = regexp.MustCompile(`(?i)(?:^|[^\p{L}'’])(i|me|my|mine|myself|we|us|our|ours|ourselves|i['’](?:m|ve|ll|d)|we['’](?:re|ve|ll|d))(?:$|[^\p{L}'’])`)

// firstPerson reports a sentence in its author's own voice.
func firstPerson(s string) bool { return firstPersonRE.MatchString(s) }

// leadRE is a sentence opening with "I" and its verb: "I hold", "I'm",
// "I usually run", "I don't".
var leadRE = regexp.MustCompile(`^I(['’](?:m|ve|ll)\b| +([\p{L}'’]+))(?: +([\p{L}'’]+))?`)

// Verb forms after "I" that become the third person as they are (a modal,
// a past tense), or as given.
var (
	asIs = map[string]bool{"will": true, "can": true, "could": true, "would": true, "should": true,
		"might": true, "must": true, "may": true, "was": true, "wasn't": true, "can't": true, "won't": true,
		"couldn't": true, "wouldn't": true, "shouldn't": true, "didn't": true, "had": true,
		// Irregular past tenses, which take no -s.
		"went": true, "found": true, "wrote": true, "ran": true, "took": true, "made": true, "got": true,
		"gave": true, "saw": true, "came": true, "knew": true, "thought": true, "told": true, "said": true,
		"left": true, "kept": true, "felt": true, "brought": true, "bought": true, "taught": true,
		"built": true, "sent": true, "spent": true, "held": true, "met": true, "began": true,
		"became": true, "chose": true, "spoke": true, "won": true, "lost": true, "heard": true,
		"did": true, "led": true, "paid": true, "sold": true, "meant": true, "drove": true, "grew": true}
	conjugated = map[string]string{"am": "is", "have": "has", "do": "does", "don't": "doesn't",
		"haven't": "hasn't", "'m": "is", "’m": "is", "'ve": "has", "’ve": "has", "'ll": "will", "’ll": "will",
		"don’t": "doesn’t", "haven’t": "hasn’t"}
	// Words that are both a present and a past tense ("I read", "I set"):
	// which one is meant cannot be told, so such a sentence is quoted.
	ambiguous = map[string]bool{"read": true, "put": true, "set": true, "cut": true, "let": true,
		"hit": true, "quit": true, "cost": true, "hurt": true, "shut": true, "spread": true, "bet": true}
	// Adverbs that may stand between "I" and its verb.
	adverbs = map[string]bool{"also": true, "usually": true, "always": true, "often": true, "never": true,
		"just": true, "still": true, "only": true, "now": true, "typically": true, "generally": true,
		"personally": true, "sometimes": true, "already": true, "really": true, "normally": true, "mostly": true}
)

// named rewrites a sentence its author wrote as "I …" into one naming
// them ("I hold office hours" → "Grace Liu holds office hours"), when it
// can do so safely: the sentence opens with "I" and a verb it knows how to
// put in the third person, and holds no other first-person word (in "I
// hold my office hours" the "my" would stay the author's). ok is false
// when it cannot.
func named(s, name string) (string, bool) {
	m := leadRE.FindStringSubmatchIndex(s)
	if m == nil {
		return "", false
	}
	if firstPerson(s[m[1]:]) {
		return "", false
	}
	if m[2] >= 0 && m[4] < 0 { // a contraction: I'm, I've, I'll
		verb := s[m[2]:m[3]]
		rest := s[m[3]:]
		if firstPerson(rest) {
			return "", false
		}
		return name + " " + conjugated[verb] + rest, true
	}
	word := s[m[4]:m[5]]
	var adverb string
	verbAt, verbEnd := m[4], m[5]
	if l := strings.ToLower(word); adverbs[l] || (strings.HasSuffix(l, "ly") && len(l) > 4) {
		if m[6] < 0 {
			return "", false
		}
		adverb, verbAt, verbEnd = word+" ", m[6], m[7]
	}
	verb := s[verbAt:verbEnd]
	rest := s[verbEnd:]
	if firstPerson(rest) {
		return "", false
	}
	third, ok := thirdPerson(verb)
	if !ok {
		return "", false
	}
	return name + " " + adverb + third + rest, true
}

// thirdPerson is the verb as "she" or "he" says it; ok is false for a word
// that is not plainly a verb in a form it knows.
func thirdPerson(verb string) (string, bool) {
	l := strings.ToLower(verb)
	if verb != l || ambiguous[l] {
		return "", false // a name or an acronym after "I" is no verb
	}
	if c, ok := conjugated[l]; ok {
		return c, true
	}
	if asIs[l] || (strings.HasSuffix(l, "ed") && len(l) > 3) {
		return l, true
	}
	if strings.ContainsAny(l, "'’") || len(l) < 2 {
		return "", false
	}
	switch {
	case strings.HasSuffix(l, "s"), strings.HasSuffix(l, "sh"), strings.HasSuffix(l, "ch"),
		strings.HasSuffix(l, "x"), strings.HasSuffix(l, "z"), strings.HasSuffix(l, "o"):
		return l + "es", true
	case strings.HasSuffix(l, "y") && len(l) > 2 && !strings.ContainsRune("aeiou", rune(l[len(l)-2])):
		return l[:len(l)-1] + "ies", true
	}
	return l + "s", true
}

// voice writes one post's sentences with who said them. A sentence "I …"
// becomes one naming its author where named can do it; when any of them
// speaks in the first person otherwise, they are quoted after the name;
// otherwise the name leads them, unless the first already names the
// author. A post with no name to give (anonymous, or the minutes) keeps
// its sentences, and first-person ones are quoted as a member's, so that
// they do not read as the previous author's.
func voice(sents []string, name string) string {
	out := make([]string, len(sents))
	quoted := false
	for i, s := range sents {
		out[i] = s
		if !firstPerson(s) {
			continue
		}
		if r, ok := named(s, name); ok && name != "" {
			out[i] = r
			continue
		}
		quoted = true
	}
	switch {
	case quoted && name != "":
		return name + ": “" + strings.Join(sents, " ") + "”"
	case quoted:
		return "A member: “" + strings.Join(sents, " ") + "”"
	case name != "" && !strings.HasPrefix(out[0], name+" "):
		return name + ": " + strings.Join(out, " ")
	}
	return strings.Join(out, " ")
}

// endSentence gives a line without its full stop (a list item, a figure on
// a line of its own) one, so that the next sentence does not run on.
func endSentence(s string) string {
	if r, _ := utf8.DecodeLastRuneInString(s); !strings.ContainsRune(".!?:;)\"'”’", r) {
		return s + "."
	}
	return s
}

// Figures a question can ask for.
const (
	figureNone = iota
	figureAny
	figurePercent
	figureWhen
)

// asksPercentRE, asksWhenRE and asksAmountRE read what kind of figure a
// question asks for: a share, a date or time or duration, an amount or a
// count.
var (
	asksPercentRE = regexp.MustCompile(`\b(percent|percentage|per cent|what share|what proportion|what fraction|how big a share)\b|%`)
	asksWhenRE    = regexp.MustCompile(`^(when|until when|since when)\b|\b(when (is|are|was|were|do|does|did|will|can|should)|what (time|day|date|year|month|hour)|which (day|date|year|month|week)|how (long|often|soon)|deadline)\b`)
	asksAmountRE  = regexp.MustCompile(`\b(how (much|many|big|large|fast|old)|what('s| is| was)? the (cost|price|fee|rate|discount|budget|size|number|amount|limit)|how much does|cost|price|discount|fee)\b`)
)

// asksFigure is the kind of figure the question asks for, figureNone when
// it asks for none.
func asksFigure(q string) int {
	q = strings.ToLower(strings.TrimSpace(q))
	switch {
	case asksPercentRE.MatchString(q):
		return figurePercent
	case asksWhenRE.MatchString(q):
		return figureWhen
	case asksAmountRE.MatchString(q):
		return figureAny
	}
	return figureNone
}

var (
	numberRE  = regexp.MustCompile(`\d|[$€£¥]|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|dozen|half|double|twice)\b`)
	percentRE = regexp.MustCompile(`\d\s*%|\b(percent|per cent)\b`)
	whenRE    = regexp.MustCompile(`\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|noon|midnight|today|tomorrow|yesterday|tonight|weekly|monthly|daily|yearly|annually|quarterly|week|weeks|month|months|year|years|day|days|hour|hours|minute|minutes|morning|afternoon|evening|q[1-4]|(19|20)\d\d|\d{1,2}(:\d\d)?\s*(am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d\d|\d{1,2}(st|nd|rd|th))\b`)
)

// holdsFigure reports a sentence carrying the kind of figure asked for: a
// percentage for a share, a day, date, time or duration for "when", and
// for an amount a number, a currency or a percentage ("how much of a
// discount?" is answered by "15 %").
func holdsFigure(s string, kind int) bool {
	s = strings.ToLower(s)
	switch kind {
	case figurePercent:
		return percentRE.MatchString(s)
	case figureWhen:
		return whenRE.MatchString(s)
	case figureAny:
		return numberRE.MatchString(s)
	}
	return false
}

// restates reports a sentence that says again what the question asks
// rather than answering it: it adds at most one meaningful word of its own
// to the question's ("I'm looking for the refund policy of the annual
// plan"), or, in the asker's own post (a question), it holds most of the
// question's words.
func restates(c passage, question map[string]bool, asker bool) bool {
	if len(question) == 0 {
		return false
	}
	shared, own := 0, 0
	for st := range c.stems {
		if question[st] {
			shared++
		} else {
			own++
		}
	}
	if 2*shared < len(question) {
		return false
	}
	return asker || own <= 1
}

// stemsOf are the stems of the text's meaningful words.
func stemsOf(text string) map[string]bool {
	out := map[string]bool{}
	for w := range contentWords(text) {
		out[words.Stem(w)] = true
	}
	return out
}
