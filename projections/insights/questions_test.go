package insights_test

import (
	"reflect"
	"testing"

	"agora/projections/insights"
)

func TestQuestions(t *testing.T) {
	tests := []struct {
		name, raw string
		want      []string
	}{
		{"none", "Thanks, that helps.", nil},
		{"one", "Where is the deck?", []string{"Where is the deck?"}},
		{"among statements", "Great talk. Where is the deck? I missed it!", []string{"Where is the deck?"}},
		{"two", "Who runs it? When does it start?", []string{"Who runs it?", "When does it start?"}},
		{"a run of marks", "Really?! Wow?? Ok.", []string{"Really?!", "Wow??"}},
		{"lines end sentences", "First line without a mark\nsecond one?", []string{"second one?"}},
		{"a URL's query is no end", "See https://x.example/?q=1 for it.", nil},
		{"a URL then a question", "See https://x.example/?q=1 ok? Yes.", []string{"See https://x.example/?q=1 ok?"}},
		{"decimals", "Is 3.14 close to pi?", []string{"Is 3.14 close to pi?"}},
		{"closing quote", `He asked "why?" and left.`, []string{`He asked "why?"`}},
		{"marks alone", "? ?? !", nil},
		{"mentions read as names", "Is [Ada Lovelace](0190a0a0-0000-7000-8000-000000000001) here?", []string{"Is Ada Lovelace here?"}},
		{"full-width", "これは何ですか？ はい。", []string{"これは何ですか？"}},
		{"empty", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := insights.Questions(tc.raw); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Questions(%q) = %q, want %q", tc.raw, got, tc.want)
			}
		})
	}
}
