package aisearch

import "testing"

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
