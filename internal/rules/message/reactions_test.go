package message_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/nullable"
	"agora/internal/rules/message"
)

func TestReactionKinds(t *testing.T) {
	want := []string{"liked", "loved", "smiled", "disliked", "neutral"}
	if len(message.ReactionKinds) != len(want) {
		t.Fatalf("ReactionKinds = %v, want %v", message.ReactionKinds, want)
	}
	for i, k := range want {
		if message.ReactionKinds[i] != k {
			t.Errorf("ReactionKinds[%d] = %q, want %q (spec 001 §3)", i, message.ReactionKinds[i], k)
		}
		if !message.ValidReaction(k) {
			t.Errorf("ValidReaction(%q) = false", k)
		}
	}
	for _, k := range []string{"", "Liked", "angry", "liked "} {
		if message.ValidReaction(k) {
			t.Errorf("ValidReaction(%q) = true", k)
		}
	}
}

func TestCheckReaction(t *testing.T) {
	for _, c := range []struct {
		name  string
		field nullable.Field[string]
		code  string // "" for accepted
	}{
		{"a kind", nullable.Of(message.Smiled), ""},
		{"null clears", nullable.Null[string](), ""},
		{"not sent", nullable.Field[string]{}, "parametersMissingException"},
		{"no kind", nullable.Of("angry"), "validationFailed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := message.CheckReaction(c.field)
			if c.code == "" {
				if err != nil {
					t.Errorf("CheckReaction = %v, want nil", err)
				}
				return
			}
			e, ok := apperr.As(err)
			if !ok || e.Code != c.code || e.Kind != apperr.BadInput {
				t.Errorf("CheckReaction = %v, want %s (bad input)", err, c.code)
			}
		})
	}
}

// TestReactionKindsMatchTheSchema: the reactions tables (a post's or
// comment's, a private message's) refuse any kind but ReactionKinds, so
// a kind added to one and not the other fails here, not in a request.
func TestReactionKindsMatchTheSchema(t *testing.T) {
	all, err := db.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	check := regexp.MustCompile(`CHECK \((kind|reaction) IN \(([^)]*'liked'[^)]*)\)\)`)
	found := 0
	for _, m := range all {
		for _, c := range check.FindAllStringSubmatch(m.SQL, -1) {
			found++
			var kinds []string
			for _, k := range strings.Split(c[2], ",") {
				kinds = append(kinds, strings.Trim(strings.TrimSpace(k), "'"))
			}
			if !slices.Equal(kinds, message.ReactionKinds) {
				t.Errorf("%s allows %v, ReactionKinds are %v", m.Version, kinds, message.ReactionKinds)
			}
		}
	}
	if found < 2 {
		t.Errorf("found %d reaction checks in the migrations, want the posts' and the private messages'", found)
	}
}
