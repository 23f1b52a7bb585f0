package words

import (
	"slices"
	"testing"
)

func TestTerms(t *testing.T) {
	got := Terms("How do we decide WHAT to drop from the roadmap, and who decides?")
	want := []string{"decide", "drop", "roadmap", "decides"}
	if !slices.Equal(got, want) {
		t.Errorf("Terms = %q, want %q", got, want)
	}
}

func TestStem(t *testing.T) {
	for _, tt := range []struct{ a, b string }{
		{"prioritizing", "prioritize"},
		{"deployments", "deployment"},
		{"interviews", "interviewing"},
		{"alerts", "alerting"},
	} {
		if Stem(tt.a) != Stem(tt.b) {
			t.Errorf("Stem(%q) = %q, Stem(%q) = %q; want the same", tt.a, Stem(tt.a), tt.b, Stem(tt.b))
		}
	}
	if Stem("2024") != "2024" || Stem("sql") != "sql" {
		t.Errorf("numbers and short words keep their form")
	}
}

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"framwork", "framework", 2, 1},
		{"teh", "the", 2, 1}, // a transposition is one edit
		{"abc", "xyz", 1, 2},
		{"same", "same", 1, 0},
	} {
		if got := distance([]rune(tt.a), []rune(tt.b), tt.limit); got != tt.want {
			t.Errorf("distance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
	}
}

func TestNearest(t *testing.T) {
	vocab := map[string]int{"framework": 3, "frameworks": 1, "prioritization": 2, "the": 9}
	for _, tt := range []struct{ w, want string }{
		{"framwork", "framework"},
		{"prioritisaton", "prioritization"},
		{"teh", ""},       // too short for a typo
		{"gramework", ""}, // the first letter must be right
	} {
		if got := Nearest(tt.w, vocab); got != tt.want {
			t.Errorf("Nearest(%q) = %q, want %q", tt.w, got, tt.want)
		}
	}
}
