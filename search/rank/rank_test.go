package rank

import (
	"testing"
	"time"

	"agora/search"
)

func ids(s []Scored) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = x.Post.ID
	}
	return out
}

func post(id, text string) search.Post { return search.Post{ID: id, ThreadID: id, Text: text} }

// filler makes the candidates a forum's worth, so that a word's rarity
// means something.
func filler(n int) []search.Post {
	var out []search.Post
	for i := range n {
		out = append(out, post("f"+string(rune('a'+i)), "We met the team for lunch and talked about the quarter."))
	}
	return out
}

func TestStemsMeetOtherForms(t *testing.T) {
	cands := append(filler(8),
		post("stem", "We prioritized the onboarding fixes over new reports."),
		post("other", "Onboarding is owned by the growth team."))
	got := ids(Passages(Question{Text: "How do you prioritize onboarding work?"}, cands))
	if len(got) < 2 || got[0] != "stem" {
		t.Errorf("ranked %v; want stem (prioritized, onboarding) first", got)
	}
}

func TestMisspeltWordReadsAsTheNearest(t *testing.T) {
	cands := append(filler(8), post("right", "Our prioritization framework is RICE."), post("other", "A framework for hiring."))
	got := ids(Passages(Question{Text: "which prioritisaton framwork?"}, cands))
	if len(got) == 0 || got[0] != "right" {
		t.Errorf("ranked %v; want right first", got)
	}
}

func TestPhraseAndCoverage(t *testing.T) {
	cands := append(filler(8),
		post("apart", "Debt piles up. Meanwhile the tech team ships a sprint budget."),
		post("phrase", "We keep a tech debt budget of 20% in every sprint."))
	got := ids(Passages(Question{Text: "tech debt budget"}, cands))
	if len(got) < 2 || got[0] != "phrase" {
		t.Errorf("ranked %v; want phrase first", got)
	}
}

func TestEarlierQuestionWeighsLess(t *testing.T) {
	cands := append(filler(8),
		post("earlier", "Pricing pages: we test the annual plan discount."),
		post("now", "Maya ran the discount test with three cohorts."))
	got := ids(Passages(Question{Text: "who ran the discount test", Earlier: "pricing page experiments"}, cands))
	if len(got) < 2 || got[0] != "now" {
		t.Errorf("ranked %v; want now (this question's words) first", got)
	}
}

func TestRecencyBreaksCloseCalls(t *testing.T) {
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	old, fresh := post("old", "Our discovery interviews run weekly."), post("fresh", "Our discovery interviews run weekly.")
	old.CreatedAt = now.AddDate(0, -4, 0).UnixMilli()
	fresh.CreatedAt = now.AddDate(0, 0, -2).UnixMilli()
	got := ids(Passages(Question{Text: "discovery interviews", Now: now}, append(filler(8), old, fresh)))
	if len(got) < 2 || got[0] != "fresh" {
		t.Errorf("ranked %v; want fresh first", got)
	}
}

func TestNothingSharedRanksNothing(t *testing.T) {
	if got := Passages(Question{Text: "kubernetes"}, filler(3)); len(got) != 0 {
		t.Errorf("ranked %v; want none", ids(got))
	}
	if got := Passages(Question{Text: "kubernetes"}, nil); len(got) != 0 {
		t.Errorf("ranked %v from no candidates", ids(got))
	}
}

func TestHashtagsCount(t *testing.T) {
	tagged := post("tagged", "Notes from Tuesday.")
	tagged.Hashtags = []string{"pricing"}
	got := ids(Passages(Question{Text: "pricing"}, append(filler(8), post("once", "The pricing of lunch went up, said the team, and the quarter went on."), tagged)))
	if len(got) < 2 || got[0] != "tagged" {
		t.Errorf("ranked %v; want tagged first", got)
	}
}

func TestFuse(t *testing.T) {
	kw := []Scored{{Post: post("a", "")}, {Post: post("b", "")}, {Post: post("c", "")}}
	near := []search.Post{post("d", ""), post("b", "")}
	got := ids(Fuse(kw, near))
	// b is in both rankings; a tops one, d tops the other.
	if want := []string{"b", "a", "d", "c"}; len(got) != 4 || got[0] != want[0] || got[3] != want[3] {
		t.Errorf("fused %v, want %v", got, want)
	}
	if got := ids(Fuse(kw, nil)); got[0] != "a" || got[2] != "c" {
		t.Errorf("keyword alone: %v", got)
	}
}
