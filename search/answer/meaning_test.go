package answer_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"agora/search"
	"agora/search/answer"
	"agora/search/sentence"
)

var shared struct {
	once sync.Once
	enc  *sentence.Encoder
	err  error
}

// model is the sentence-embedding model agora dev embeds with, loaded
// once for the package's tests; they skip, saying so, when
// scripts/install-deps.sh sentencemodel has not installed it.
func model(t *testing.T) search.Embedder {
	t.Helper()
	f, err := sentence.Installed()
	if err != nil {
		t.Skipf("%v: the sentence model is not installed", err)
	}
	for _, p := range []string{filepath.Join(f.Dir, sentence.ModelFile), f.Library} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("the sentence model is not installed (no %s): scripts/install-deps.sh sentencemodel", p)
		}
	}
	shared.once.Do(func() { shared.enc, shared.err = sentence.Open(f) })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.enc
}

// costPosts answer a question about what drives a bill in words of their
// own; the other thread shares the question's words and answers nothing.
var costPosts = []search.Post{
	{ID: "tags", Kind: "post", AuthorID: "u1", Text: "Our warehouse invoice doubled in one quarter. " +
		"We tag each query with the dashboard that issued it, so the invoice breaks down by dashboard and the most expensive ones stand out."},
	{ID: "sync", Kind: "post", AuthorID: "u2", Text: "The data platform guild meets on Thursdays. " +
		"Bring one chart you are proud of and one you would like to retire."},
}

var costAuthors = map[string]string{"u1": "Maya Patel", "u2": "Jordan Ellis"}

// TestExtractiveAnswersAParaphraseByMeaning: a question worded unlike the
// post that answers it holds too few of its words for the words alone to
// answer; read by meaning, the post answers it, and a question that means
// nothing the posts say is still not answered.
func TestExtractiveAnswersAParaphraseByMeaning(t *testing.T) {
	q := "How can I tell which dashboards make our cloud data bill so high?"
	req := answer.Request{Question: q, Posts: costPosts, Authors: costAuthors}
	if got := extract(t, req); got != answer.NoAnswer {
		t.Errorf("by words alone: answer %q, want %q", got, answer.NoAnswer)
	}
	req.Embed = model(t)
	got := extract(t, req)
	if !strings.Contains(got, "tag each query with the dashboard") || !strings.Contains(got, "[1]") {
		t.Errorf("by meaning: answer %q, want the tagged queries, cited", got)
	}
	if strings.Contains(got, "Thursdays") {
		t.Errorf("by meaning: answer %q holds the guild's meetings", got)
	}
	req.Question = "Which cheese pairs best with a dry white wine?"
	if got := extract(t, req); got != answer.NoAnswer {
		t.Errorf("an unrelated question: answer %q, want %q", got, answer.NoAnswer)
	}
}

// TestExtractiveRefusesWhatNoPostSpeaksTo: a question on a post's subject
// asking what no post says (its words held by none: "sponsors", "pay") is
// not answered by the post about the subject, read by meaning; what the
// post does say is.
func TestExtractiveRefusesWhatNoPostSpeaksTo(t *testing.T) {
	posts := []search.Post{
		{ID: "news", Kind: "post", AuthorID: "u1", Text: "Small announcement: the community now has a monthly newsletter. " +
			"It goes out on the first Monday of each month to every member, with the best threads and the next Meet Ups."},
		{ID: "kit", Kind: "post", AuthorID: "u2", Text: "Meet Up hosts get a host kit a week before their session: a slide template and a checklist."},
	}
	e := model(t)
	for q, want := range map[string]string{
		"How much do sponsors pay to appear in the monthly newsletter?": answer.NoAnswer,
		"What does an advert in the newsletter cost?":                   answer.NoAnswer,
		"Can hosts claim their travel costs for a Meet Up?":             answer.NoAnswer,
		"When does the monthly newsletter go out?":                      "first Monday of each month",
		"What is in the host kit?":                                      "a slide template and a checklist",
	} {
		got := extract(t, answer.Request{Question: q, Posts: posts, Authors: costAuthors, Embed: e})
		if !strings.Contains(got, want) {
			t.Errorf("%q: answer %q, want %q", q, got, want)
		}
	}
}
