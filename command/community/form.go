package community

import (
	"net/url"
	"strconv"
	"strings"

	. "github.com/go-jet/jet/v2/postgres"

	"agora/internal/adapters/linkpreview"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/nullable"
	"agora/internal/rules/picture"
	"agora/internal/rules/plaintext"
)

// The community form's limits (spec 000 §5, §9).
const (
	NameMax         = 75
	DescriptionMax  = 750
	PriceMax        = 9999900
	DefaultPrice    = 3995
	InvitationOnly  = "invitationOnly"
	videoHostsUsage = "must be a Vimeo or YouTube link"
)

// Form is the community form (spec 000 §2.7): a field left nil is not
// sent. In an edit, image, video and videoCover may be sent as null to
// clear them.
type Form struct {
	Name           *string
	Description    *string
	MembershipType *string
	Image          nullable.Field[string]
	Video          nullable.Field[string]
	VideoCover     nullable.Field[string]
	SSOAccess      *bool
	Price          *int
	IsFree         *bool
}

// form is a checked Form: trimmed texts, URLs.
type form struct {
	name, description string
	image, video      *string
	videoCover        *string
}

// check adds to bad what breaks the form's rules.
func (f Form) check(bad apperr.Fields) form {
	var out form
	if f.Name != nil {
		out.name = plaintext.Required(bad, "name", *f.Name, NameMax)
	}
	if f.Description != nil {
		out.description = plaintext.Text(bad, "description", *f.Description, 1, DescriptionMax)
	}
	if f.MembershipType != nil && *f.MembershipType != InvitationOnly {
		bad.Add("membershipType", "must be invitationOnly")
	}
	if f.Price != nil && (*f.Price < 0 || *f.Price > PriceMax) {
		bad.Add("price", "must be 0 to "+strconv.Itoa(PriceMax)+" cents")
	}
	out.image = picture.Check(bad, "image", f.Image.Value)
	out.video = link(bad, "video", f.Video.Value, videoHost)
	out.videoCover = link(bad, "videoCover", f.VideoCover.Value, nil)
	return out
}

// link trims an http(s) URL (linkpreview.FormLink) that host, when given,
// accepts; empty means none.
func link(bad apperr.Fields, field string, s *string, host func(string) bool) *string {
	v := linkpreview.FormLink(bad, field, s)
	if v == nil || host == nil {
		return v
	}
	if u, err := url.Parse(*v); err == nil && !host(strings.ToLower(u.Hostname())) {
		bad.Add(field, videoHostsUsage)
	}
	return v
}

// videoHost reports whether a video link's host is Vimeo's or YouTube's
// (spec 000 §2.7: the player plays those only).
func videoHost(h string) bool {
	switch strings.TrimPrefix(strings.TrimPrefix(h, "www."), "m.") {
	case "youtube.com", "youtu.be", "youtube-nocookie.com", "vimeo.com", "player.vimeo.com":
		return true
	}
	return false
}

// textOrNull is s as a text literal, or NULL.
func textOrNull(s *string) StringExpression {
	if s == nil {
		return StringExp(NULL)
	}
	return String(*s)
}
