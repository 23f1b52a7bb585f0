package main

import (
	"strings"
	"testing"

	"agora/app/seed"
)

// TestAIQuestions checks the evaluation's files as the bench reads them,
// so that a typo fails here rather than after the bench's setup: every
// answer names a thread of the demo discussions or of the evaluation's
// posts, the held-out set is large enough and split about in half, and the
// posts are what the bench can write through the API.
func TestAIQuestions(t *testing.T) {
	qs, err := readAIQuestions()
	if err != nil {
		t.Fatal(err)
	}
	demo, err := seed.Discussions()
	if err != nil {
		t.Fatal(err)
	}
	posts, err := seed.ParseDiscussions(aiQuestionFiles, "aiquality/posts")
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, d := range demo {
		for _, th := range d.Threads {
			keys[th.Key] = true
		}
	}
	entries := 0
	for _, d := range posts {
		for _, th := range d.Threads {
			if keys[th.Key] {
				t.Errorf("%s: the evaluation's post %q has a demo thread's key", th.Pos, th.Key)
			}
			keys[th.Key] = true
			if th.Kind != seed.KindPost && th.Kind != seed.KindQuestion || th.Image != nil || th.Link != nil || th.Anonymous || len(th.Reactions) > 0 {
				t.Errorf("%s: not a plain post or question", th.Pos)
			}
			entries++
			for _, c := range th.Comments {
				entries += 1 + len(c.Replies)
			}
		}
	}
	if entries < 40 || entries > 80 {
		t.Errorf("the evaluation's posts: %d posts, comments and replies, want 40 to 80", entries)
	}
	kinds := map[string]bool{"direct": true, "paraphrase": true, "misspelling": true, "follow-up": true, "figure": true,
		"date": true, "who-said": true, "in-comment": true, "unanswerable": true, "unreadable": true}
	halves := map[string]int{}
	fresh := 0
	for _, q := range qs {
		for _, k := range q.answers {
			if !keys[k] {
				t.Errorf("%s: no thread %q", q.where, k)
			}
		}
		if q.group == aiTeam {
			continue
		}
		if q.group == aiFresh {
			fresh++
		} else {
			halves[q.firstHalf]++
		}
		if !kinds[q.kind] {
			t.Errorf("%s: unknown kind %q", q.where, q.kind)
		}
		if q.kind == "unreadable" && q.asker != "member" {
			t.Errorf("%s: only the demo member has forums out of reach", q.where)
		}
	}
	n := halves["train"] + halves["test"]
	if n < 200 || halves["train"] < n*2/5 || halves["test"] < n*2/5 {
		t.Errorf("held-out questions: %v, want at least 200, each half at least 40%%", halves)
	}
	if fresh < 100 {
		t.Errorf("fresh questions: %d, want at least 100 for the test", fresh)
	}
}

// TestAIQuestionHalves checks that a file cannot move a question out of the
// half the split gives it, that a follow-up goes with its lead, and which
// questions -ai-split train and test ask.
func TestAIQuestionHalves(t *testing.T) {
	lead := "How many mentors are there?"
	other := map[string]string{"train": "test", "test": "train"}
	h := aiHalf(lead)
	if aiHalf(lead) != h {
		t.Fatal("aiHalf is not a function of the text")
	}
	file := func(leadHalf, followHalf string) string {
		return "Q member welcome direct " + leadHalf + " | " + lead + "\nA w-mentor-program\n\n" +
			"Q member welcome follow-up " + followHalf + " | And who runs it?\nA w-mentor-program\n"
	}
	qs, err := parseAIQuestions("t.txt", file(h, h), aiHeldOut)
	if err != nil || len(qs) != 2 || qs[1].firstHalf != h || qs[1].half != "train" {
		t.Fatalf("a well-split file: %v, %v", qs, err)
	}
	for _, f := range []string{file(other[h], other[h]), file(h, other[h])} {
		if _, err := parseAIQuestions("t.txt", f, aiHeldOut); err == nil || !strings.Contains(err.Error(), "the split puts it in") {
			t.Errorf("a question in the wrong half: %v", err)
		}
	}
	// Over many texts the hash splits about in half.
	n := map[string]int{}
	for i := range 1000 {
		n[aiHalf(strings.Repeat("q", i))]++
	}
	if n["train"] < 400 || n["test"] < 400 {
		t.Errorf("aiHalf over 1000 texts: %v", n)
	}
	// The first held-out set is trained on, whatever its half; the fresh
	// questions are the test.
	fresh, err := parseAIQuestions("f.txt", "Q member welcome direct | Who runs Mentor Match?\nA w-mentor-program\n", aiFresh)
	if err != nil || len(fresh) != 1 {
		t.Fatalf("a fresh file: %v, %v", fresh, err)
	}
	all := append(append(qs, aiQuestion{group: aiTeam, half: "train"}), fresh...)
	if got := aiSelected(all, "test"); len(got) != 1 || got[0].group != aiFresh {
		t.Errorf("-ai-split test kept %v, want the fresh question alone", got)
	}
	if got := aiSelected(all, "train"); len(got) != 3 {
		t.Errorf("-ai-split train kept %d questions, want the held-out two and the team's", len(got))
	}
}
