package aisearch_test

import (
	"testing"

	"agora/command/aisearch"
)

func TestNormalizeQuestion(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Where is the zephyr checklist?", "where is the zephyr checklist"},
		{"  WHERE is   the Zephyr-checklist?!", "where is the zephyr checklist"},
		{"Où est l'Été ?", "où est l été"},
		{"v2.1 release?", "v2 1 release"},
		{"?!…", ""},
	} {
		if got := aisearch.NormalizeQuestion(c.in); got != c.want {
			t.Errorf("NormalizeQuestion(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
