package forum

import (
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"agora/internal/apperr"
	"agora/internal/plaintext"
)

// Exclusivities are the forum's access kinds; inviteOnly may become open,
// never the reverse (spec 001 §4).
const (
	InviteOnly = "inviteOnly"
	Open       = "open"
)

// ErrExclusivityLocked is an open forum made invite-only again.
var ErrExclusivityLocked = apperr.New(apperr.BadInput, "exclusivityLocked", "an open forum cannot become invite-only again")

// text trims s and checks its length in characters.
func text(f apperr.Fields, field string, s *string, max int) string {
	if s == nil {
		return ""
	}
	v := plaintext.Trim(*s)
	if v == "" || utf8.RuneCountInString(v) > max {
		f.Add(field, "must be 1 to "+strconv.Itoa(max)+" characters, not only spaces")
	}
	return v
}

// image trims an image URL; empty means none.
func image(f apperr.Fields, s *string) *string {
	if s == nil {
		return nil
	}
	v := strings.TrimSpace(*s)
	if v == "" {
		return nil
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(v) > 2048 {
		f.Add("image", "must be an http(s) URL of at most 2048 characters")
	}
	return &v
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
