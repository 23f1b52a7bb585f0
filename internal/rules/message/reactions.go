package message

import (
	"slices"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/nullable"
)

// The reaction kinds (spec 001 §3), the same on posts, comments and
// private messages.
const (
	Liked    = "liked"
	Loved    = "loved"
	Smiled   = "smiled"
	Disliked = "disliked"
	Neutral  = "neutral"
)

// ReactionKinds are the five reactions, in the order the spec lists them.
var ReactionKinds = []string{Liked, Loved, Smiled, Disliked, Neutral}

// ValidReaction tells whether k is one of ReactionKinds.
func ValidReaction(k string) bool { return slices.Contains(ReactionKinds, k) }

// CheckReaction refuses a reaction field that was not sent (a reaction is
// cleared by sending null, never by leaving it out) or names no kind.
func CheckReaction(r nullable.Field[string]) error {
	if !r.Set {
		return apperr.MissingParameters("reaction")
	}
	if r.Value != nil && !ValidReaction(*r.Value) {
		return apperr.Invalid(map[string]string{"reaction": "must be liked, loved, smiled, disliked, neutral or null"})
	}
	return nil
}
