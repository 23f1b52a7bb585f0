package minutes

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"agora/search/words"
)

// MaxContent is the longest minutes text, in characters (the contract's
// PATCH limit, which compiled minutes keep to as well).
const MaxContent = 20000

// Line is one utterance of the transcript.
type Line struct {
	// Speaker is the speaker's display name.
	Speaker string
	Text    string
	At      time.Time
}

// Model writes minutes with a language model: answer.Model's Complete.
type Model interface {
	Complete(ctx context.Context, system, user string) (string, error)
}

// SystemPrompt tells the model what minutes are.
const SystemPrompt = `You write the minutes of an online meeting from its agenda and its transcript.
The transcript comes from speech recognition and has no punctuation; some words may be misheard.
Write plain text: a one-paragraph summary, then the points discussed in the agenda's order with who raised them, then decisions and action items if any.
Use only what the transcript says. Do not invent names, numbers or decisions.`

// Prompt is the model's user message: the agenda, then the transcript.
func Prompt(agenda string, lines []Line) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Agenda: %s\n\nTranscript:\n", strings.TrimSpace(agenda))
	for _, l := range lines {
		fmt.Fprintf(&b, "[%s] %s: %s\n", l.At.UTC().Format("15:04"), l.Speaker, l.Text)
	}
	return b.String()
}

// Compile writes the minutes: with the model when there is one, else (or
// when the model fails: the meeting's minutes are not lost to an outage)
// extractively. It returns which one wrote them ("model" or "extractive").
func Compile(ctx context.Context, m Model, agenda string, lines []Line) (text, by string, err error) {
	if m != nil && len(lines) > 0 {
		out, err := m.Complete(ctx, SystemPrompt, Prompt(agenda, lines))
		if err == nil && strings.TrimSpace(out) != "" {
			return truncate(strings.TrimSpace(out)), "model", nil
		}
		if ctx.Err() != nil {
			return "", "", ctx.Err()
		}
	}
	return Extractive(agenda, lines), "extractive", nil
}

// NoSpeech is the minutes of a recording in which nothing was recognised.
const NoSpeech = "Nothing was said while the notes were recorded."

// Extractive writes minutes with no model, led by the agenda: the agenda,
// then the transcript's lines that carry the most agenda words and the
// meeting's frequent words, with their speakers, in the order they were
// said. It is deterministic, so that minutes exist, and can be tested, with
// no model configured.
func Extractive(agenda string, lines []Line) string {
	var b strings.Builder
	if a := strings.TrimSpace(agenda); a != "" {
		fmt.Fprintf(&b, "Agenda: %s\n\n", a)
	}
	if len(lines) == 0 {
		b.WriteString(NoSpeech)
		return b.String()
	}
	agendaTerms := map[string]bool{}
	for _, w := range words.Terms(agenda) {
		agendaTerms[w] = true
	}
	// A word is frequent when several utterances say it: what the meeting
	// kept coming back to.
	terms := make([][]string, len(lines))
	spread := map[string]int{}
	for i, l := range lines {
		terms[i] = words.Terms(l.Text)
		for _, w := range terms[i] {
			spread[w]++
		}
	}
	type cand struct{ i, score int }
	var cands []cand
	for i := range lines {
		score := 0
		for _, w := range terms[i] {
			if agendaTerms[w] {
				score += 3
			}
			if spread[w] > 1 {
				score += spread[w] - 1
			}
		}
		// Every utterance with a content word is a candidate: a short
		// meeting's only sentence is its minutes.
		if len(terms[i]) > 0 {
			cands = append(cands, cand{i, score})
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].score > cands[b].score })
	keep := min(len(cands), max(5, len(lines)/3), 40)
	cands = cands[:keep]
	sort.Slice(cands, func(a, b int) bool { return cands[a].i < cands[b].i })

	b.WriteString("Notes:\n")
	for _, c := range cands {
		l := lines[c.i]
		fmt.Fprintf(&b, "- %s: %s\n", l.Speaker, sentence(l.Text))
	}
	return truncate(strings.TrimRight(b.String(), "\n"))
}

// sentence capitalises a recognised utterance and ends it with a full stop.
func sentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	s = strings.ToUpper(string(r)) + s[n:]
	if !strings.ContainsAny(s[len(s)-1:], ".!?") {
		s += "."
	}
	return s
}

func truncate(s string) string {
	if utf8.RuneCountInString(s) <= MaxContent {
		return s
	}
	r := []rune(s)
	return string(r[:MaxContent-1]) + "…"
}
