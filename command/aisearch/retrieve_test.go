package aisearch

import (
	"slices"
	"testing"
)

// TestQueries: retrieval tries the question as typed, then its meaningful
// words (as asked, then longest first), then its longest words, three, two
// and one, then the others alone, without repeats, eight at most.
func TestQueries(t *testing.T) {
	tests := []struct {
		question string
		want     []string
	}{
		{"How do we deploy the migrations?", []string{"How do we deploy the migrations?", "deploy migrations", "migrations deploy", "migrations", "deploy"}},
		{"When does the zqabc guild meet on Tuesdays?", []string{
			"When does the zqabc guild meet on Tuesdays?", "zqabc guild meet tuesdays", "tuesdays zqabc guild meet",
			"tuesdays zqabc guild", "tuesdays zqabc", "tuesdays", "zqabc", "guild"}},
		{"migrations", []string{"migrations"}},
		{"how do we?", []string{"how do we?"}},
		{"   ", nil},
	}
	for _, tt := range tests {
		if got := queries(tt.question); !slices.Equal(got, tt.want) {
			t.Errorf("queries(%q) = %q, want %q", tt.question, got, tt.want)
		}
	}
}

func TestCheckQuestion(t *testing.T) {
	long := ""
	for range MaxQuestion {
		long += "é"
	}
	tests := []struct {
		in, trimmed string
		ok          bool
	}{
		{"  why?  ", "why?", true},
		{" \t\n ", "", false},
		{long, long, true},
		{long + "x", long + "x", false},
	}
	for _, tt := range tests {
		got, problem := CheckQuestion(tt.in)
		if got != tt.trimmed || (problem == "") != tt.ok {
			t.Errorf("CheckQuestion(%q) = %q, %q", tt.in, got, problem)
		}
	}
}
