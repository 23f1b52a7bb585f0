package message_test

import (
	"testing"

	"agora/internal/plumbing/apperr"
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
