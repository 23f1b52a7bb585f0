package auth

import (
	"net/mail"
	"strings"

	"agora/internal/plumbing/apperr"
)

// One-time token failures, the same on the read and the write side.
var (
	// ErrOneTimeTokenInvalid is an unknown or already used one-time token.
	ErrOneTimeTokenInvalid = apperr.New(apperr.NotFound, "oneTimeTokenInvalid", "the link is not valid or was already used")
	// ErrOneTimeTokenExpired is a one-time token past its expiry.
	ErrOneTimeTokenExpired = apperr.New(apperr.Gone, "oneTimeTokenExpired", "the link has expired")
	// ErrInvitation is an invitation that cannot be used (spec 002 §8).
	ErrInvitation = apperr.New(apperr.NotFound, "invitationValidating", "the invitation is not valid, was used, or has expired")
	// ErrConfirmation is a confirmation that cannot be used, or whose address does not match (spec 002 §8).
	ErrConfirmation = apperr.New(apperr.NotFound, "confirmationValidating", "the confirmation is not valid, was used, or has expired")
)

// EmailKey is the normalised address accounts are unique by: sign-in and
// invitations match addresses case-insensitively.
func EmailKey(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// ValidEmail reports whether s is a bare address (no display name) with a
// dotted domain.
func ValidEmail(s string) bool {
	if len(s) > 254 || strings.ContainsAny(s, " \t\r\n<>") {
		return false
	}
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && strings.Contains(s[strings.LastIndex(s, "@"):], ".")
}
