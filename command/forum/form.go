package forum

import (
	"strconv"

	"agora/internal/plumbing/apperr"
	"agora/internal/rules/plaintext"
)

// Exclusivities are the forum's access kinds; inviteOnly may become open,
// never the reverse (spec 001 §4).
const (
	InviteOnly = "inviteOnly"
	Open       = "open"
)

// ErrExclusivityLocked is an open forum made invite-only again.
var ErrExclusivityLocked = apperr.New(apperr.BadInput, "exclusivityLocked", "an open forum cannot become invite-only again")

// text trims a required one-line text of the form (plaintext.Required);
// nil is not sent.
func text(f apperr.Fields, field string, s *string, max int) string {
	if s == nil {
		return ""
	}
	return plaintext.Required(f, field, *s, max)
}

// DescriptionMax is the longest forum description.
const DescriptionMax = 1000

// description trims the forum's description, a required multi-line text
// (plaintext.Text); nil is not sent.
func description(f apperr.Fields, s *string) string {
	if s == nil {
		return ""
	}
	return plaintext.Text(f, "description", *s, 1, DescriptionMax)
}

func exclusivity(f apperr.Fields, s *string) string {
	if s == nil {
		return ""
	}
	if *s != InviteOnly && *s != Open {
		f.Add("exclusivity", "must be inviteOnly or open")
	}
	return *s
}

// PriceMax is the highest price a month, in US cents (spec 000 §5, §9: a
// forum's price follows the community's rule).
const PriceMax = 9999900

// price checks a price in cents; nil is not sent.
func price(f apperr.Fields, p *int) {
	if p != nil && (*p < 0 || *p > PriceMax) {
		f.Add("price", "must be 0 to "+strconv.Itoa(PriceMax)+" cents")
	}
}
