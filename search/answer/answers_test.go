package answer_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"agora/search"
	"agora/search/answer"
	"agora/search/answer/answertest"
)

// The posts of these tests are written as members write in a forum: a
// thread, its comments, people speaking for themselves.

var members = map[string]string{"u-grace": "Grace Liu", "u-omar": "Omar Haddad", "u-lena": "Lena Park", "u-maya": "Maya Chen"}

// officeHours is a member's question, asked anonymously, and its answers.
var officeHours = []search.Post{
	{ID: "oh", ThreadID: "oh", Kind: "question", ChannelID: "c",
		Text: "Are there office hours for new managers? I'm new to managing and I'm looking for office hours for new managers."},
	{ID: "oh-grace", ThreadID: "oh", Kind: "comment", ChannelID: "c", AuthorID: "u-grace",
		Text: "I hold office hours for new managers every Tuesday at 4 pm in the Maple room."},
	{ID: "oh-omar", ThreadID: "oh", Kind: "comment", ChannelID: "c", AuthorID: "u-omar",
		Text: "We record the office hours and I post my notes for new managers in the wiki afterwards."},
}

// TestAnswerNamesWhoSaidWhat: an answer built from first-person posts of
// different members names each ("Grace Liu holds office hours…"), quoting
// after the name what it cannot rewrite safely, and never names the asker
// of an anonymous question.
func TestAnswerNamesWhoSaidWhat(t *testing.T) {
	got := extract(t, answer.Request{Question: "Who holds office hours for new managers?", Posts: officeHours, Authors: members})
	if !strings.Contains(got, "Grace Liu holds office hours for new managers every Tuesday at 4 pm") {
		t.Errorf("answer %q does not say that Grace Liu holds the office hours", got)
	}
	if strings.Contains(got, "I hold") {
		t.Errorf("answer %q keeps Grace Liu's first person unnamed", got)
	}
	// Omar's sentence has "we", "I" and "my": it is quoted after his name,
	// or left out, never his words as someone else's.
	if strings.Contains(got, "record the office hours") && !strings.Contains(got, "Omar Haddad: “We record") {
		t.Errorf("answer %q gives Omar Haddad's words without his name", got)
	}
	for _, s := range []string{"I'm new", "looking for office hours"} {
		if strings.Contains(got, s) {
			t.Errorf("answer %q offers the anonymous asker's own words", got)
		}
	}
}

// TestAnswerNeverNamesAnAnonymousAuthor: an anonymous post has no author
// id, so whatever names the request knows, its sentences are nobody's by
// name; in the first person they are quoted as a member's, so that they
// do not read as the previous author's.
func TestAnswerNeverNamesAnAnonymousAuthor(t *testing.T) {
	posts := []search.Post{
		{ID: "q", ThreadID: "q", Kind: "question", ChannelID: "c",
			Text: "How do other teams run retros? Ours have gone stale."},
		{ID: "a", ThreadID: "q", Kind: "comment", ChannelID: "c",
			Text: "I run our retros as a silent writing exercise for ten minutes, then we vote on two topics."},
	}
	got := extract(t, answer.Request{Question: "How do teams run retros?", Posts: posts, Authors: members})
	for _, name := range members {
		if strings.Contains(got, name) {
			t.Errorf("answer %q names %s for an anonymous post", got, name)
		}
	}
	if !strings.Contains(got, "A member: “I run our retros as a silent writing exercise") {
		t.Errorf("answer %q does not quote the anonymous member's words as a member's", got)
	}
}

// pricing is a thread whose figure is in a comment that shares fewer of
// the question's words than the thread's own sentences.
var pricing = []search.Post{
	{ID: "np", ThreadID: "np", Kind: "post", ChannelID: "c", AuthorID: "u-maya",
		Text: "Nonprofits get a discount on the annual plan. The nonprofit discount on the annual plan needs proof of charitable status. " +
			"Send the annual plan discount form to billing and mention that you are a nonprofit."},
	{ID: "np-lena", ThreadID: "np", Kind: "comment", ChannelID: "c", AuthorID: "u-lena",
		Text: "The discount is 15 % for nonprofits, taken off the list price at renewal."},
}

// TestAnswerKeepsTheFigureAsked: "how much" is answered by the sentence
// that carries the amount, and "what percent" by the one with the
// percentage, even when other sentences hold more of the question's words.
func TestAnswerKeepsTheFigureAsked(t *testing.T) {
	for _, q := range []string{
		"How much is the nonprofit discount on the annual plan?",
		"What percent discount do nonprofits get on the annual plan?",
	} {
		got := extract(t, answer.Request{Question: q, Posts: pricing, Authors: members})
		if !strings.Contains(got, "15 %") {
			t.Errorf("%q: answer %q leaves out the 15 %%", q, got)
		}
	}
	ml := []search.Post{
		{ID: "gpu", ThreadID: "gpu", Kind: "post", ChannelID: "c", AuthorID: "u-omar",
			Text: "The GPU credits program is open to ML teams in the research track. GPU credits for ML teams renew every quarter. " +
				"ML teams apply for GPU credits through the platform team's form."},
		{ID: "gpu-grace", ThreadID: "gpu", Kind: "comment", ChannelID: "c", AuthorID: "u-grace",
			Text: "The credits cover 60 % of the compute bill for ML teams."},
	}
	got := extract(t, answer.Request{Question: "What percentage of the bill do GPU credits cover for ML teams?", Posts: ml, Authors: members})
	if !strings.Contains(got, "60 %") {
		t.Errorf("answer %q leaves out the 60 %%", got)
	}
}

// TestAnswerNeverRestatesTheQuestion: a question the forum cannot answer
// (the refund policy) is not answered with the asker's own post saying it
// again, nor with an unrelated sentence: the answer says that no post
// answers, and cites nothing.
func TestAnswerNeverRestatesTheQuestion(t *testing.T) {
	posts := []search.Post{
		{ID: "rf", ThreadID: "rf", Kind: "question", ChannelID: "c", AuthorID: "u-omar",
			Text: "What is the refund policy for the annual plan? I am asking about the refund policy for the annual plan before renewal."},
		{ID: "lunch", ThreadID: "lunch", Kind: "post", ChannelID: "c", AuthorID: "u-lena",
			Text: "Lunch and learn sessions moved to Fridays at noon."},
	}
	w := &flushWriter{}
	req := answer.Request{SearchID: "s", Question: "What is the refund policy for the annual plan?", Posts: posts, Authors: members}
	res, err := answer.Run(context.Background(), answer.Extractive{}, req, answer.NewStream(w, "s"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != answer.NoAnswer || len(res.Citations) != 0 || len(res.Sources) != 0 {
		t.Errorf("answer %q citing %v, want %q citing nothing", res.Answer, res.Citations, answer.NoAnswer)
	}
	if last := w.events(t); len(last[len(last)-1].Posts) != 0 {
		t.Errorf("answer event lists sources %+v for no answer", last[len(last)-1].Posts)
	}
}

// TestAnswerListsOnlyItsSources: of seven posts retrieved, the answer
// event lists the ones the answer cites, numbered as cited, and its text's
// markers use those numbers; what is stored is the same.
func TestAnswerListsOnlyItsSources(t *testing.T) {
	posts := []search.Post{
		{ID: "x1", ThreadID: "x1", Kind: "post", ChannelID: "c", Text: "The design review is on Mondays."},
		{ID: "x2", ThreadID: "x2", Kind: "post", ChannelID: "c", Text: "Lunch is pizza on Fridays."},
		{ID: "x3", ThreadID: "x3", Kind: "post", ChannelID: "c", Text: "Book club reads one novel a month."},
		{ID: "x4", ThreadID: "x4", Kind: "post", ChannelID: "c", Text: "Parking passes are at the front desk."},
	}
	srv := answertest.New(t, answertest.Options{Tokens: []string{"Parking passes are at the front desk [4]", ", and lunch is pizza [2][4]."}})
	m, err := answer.NewModel(answer.Config{BaseURL: srv.URL, Model: "test-model"}, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	w := &flushWriter{}
	res, err := answer.Run(context.Background(), m, answer.Request{SearchID: "s", Question: "Where are parking passes, and what is lunch?", Posts: posts}, answer.NewStream(w, "s"), nil)
	if err != nil {
		t.Fatal(err)
	}
	evs := w.events(t)
	if n := len(evs[0].Posts); n != len(posts) {
		t.Errorf("threads event lists %d posts, want the %d retrieved", n, len(posts))
	}
	last := evs[len(evs)-1]
	want := "Parking passes are at the front desk [1], and lunch is pizza [2][1]."
	if last.Answer != want || res.Answer != want {
		t.Errorf("answer %q (result %q), want %q", last.Answer, res.Answer, want)
	}
	if got := joined(evs); got != want {
		t.Errorf("completions add up to %q, want the answer %q", got, want)
	}
	var ids []string
	for i, s := range last.Posts {
		ids = append(ids, s.ID)
		if s.N != i+1 {
			t.Errorf("source %s numbered %d, want %d", s.ID, s.N, i+1)
		}
	}
	if !slices.Equal(ids, []string{"x4", "x2"}) || !slices.Equal(last.Citations, ids) {
		t.Errorf("answer event sources %v citations %v, want x4, x2", ids, last.Citations)
	}
	if len(res.Sources) != 2 || res.Sources[0].ID != "x4" || res.Sources[0].N != 1 {
		t.Errorf("result sources %+v", res.Sources)
	}
}

// TestModelPromptNamesTheAuthors: the model is told who wrote each post
// (no one for an anonymous one) and which post is a member's question, and
// the system prompt asks it to name people and cite only what it uses;
// what it streams back lists only the posts it cited.
func TestModelPromptNamesTheAuthors(t *testing.T) {
	srv := answertest.New(t, answertest.Options{Tokens: []string{"Grace Liu holds office hours for new managers on Tuesdays at 4 pm [2]."}})
	m, err := answer.NewModel(answer.Config{BaseURL: srv.URL, Model: "test-model"}, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	w := &flushWriter{}
	res, err := answer.Run(context.Background(), m, answer.Request{SearchID: "s", Question: "Who holds office hours?", Posts: officeHours, Authors: members}, answer.NewStream(w, "s"), nil)
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[0].Messages
	system, user := msgs[0].Content, msgs[len(msgs)-1].Content
	for _, want := range []string{`<post n="1" kind="question">`, `<post n="2" author="Grace Liu">`, `<post n="3" author="Omar Haddad">`} {
		if !strings.Contains(user, want) {
			t.Errorf("prompt lacks %s:\n%s", want, user)
		}
	}
	for _, want := range []string{"Say who said what", "never guess or name its author", answer.NoAnswer, "Cite only posts you use"} {
		if !strings.Contains(system, want) {
			t.Errorf("system prompt lacks %q", want)
		}
	}
	if res.Answer != "Grace Liu holds office hours for new managers on Tuesdays at 4 pm [1]." || len(res.Sources) != 1 || res.Sources[0].ID != "oh-grace" {
		t.Errorf("answer %q sources %+v, want the one cited as [1]", res.Answer, res.Sources)
	}
}
