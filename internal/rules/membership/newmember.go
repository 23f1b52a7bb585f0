// The rules of a person added to an organization or a
// community (spec 000 §3 "Profile / member", §5 "New member"): one by one
// from the new member dialog, or many at once from an imported file, so
// that both refuse the same values.

package membership

import (
	"strings"
	"unicode/utf8"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/rules/plaintext"
)

// The limits of a member's tags.
const (
	MaxTags   = 30
	MaxTagLen = 40
)

// Roles a new member may be given; RoleMember when none is.
const (
	RoleAdmin  = "admin"
	RoleMember = "member"
)

// NewMember is a new member's fields, trimmed.
type NewMember struct {
	FirstName, LastName, Email, Role string
	Tags                             []string
}

// The fields Check reports under, as the bodies of the one-by-one add and
// of the profile calls name them.
const (
	FieldFirstName = "firstName"
	FieldLastName  = "lastName"
	FieldEmail     = "email"
	FieldRole      = "roleId"
	FieldTags      = "tags"
)

// ProfileFields are the fields an admin gives a profile (spec 000 §2.7 and
// §3, the new member dialog): nil is "not given", as an edit sends them.
type ProfileFields struct {
	FirstName *string
	LastName  *string
	Email     *string
	// RoleID is the profile's role: admin or member.
	RoleID *string
	// Tags are free-form labels (the dialog's tags); nil is not given.
	Tags []string
}

// Check trims the given fields and adds to bad what breaks the rules of
// spec 000 §5: names of 1 to 50 characters (plaintext.Name), a valid
// e-mail, a role of admin or member, and tags (at most MaxTags, each at
// most MaxTagLen characters, clean text) without repeats; empty tags are
// dropped.
func (p *ProfileFields) Check(bad apperr.Fields) {
	if p.FirstName != nil {
		*p.FirstName = plaintext.Name(bad, FieldFirstName, *p.FirstName)
	}
	if p.LastName != nil {
		*p.LastName = plaintext.Name(bad, FieldLastName, *p.LastName)
	}
	if p.Email != nil {
		*p.Email = strings.TrimSpace(*p.Email)
		if !auth.ValidEmail(*p.Email) {
			bad.Add(FieldEmail, "This is not a valid email.")
		}
	}
	if p.RoleID != nil && *p.RoleID != RoleAdmin && *p.RoleID != RoleMember {
		bad.Add(FieldRole, "must be member or admin")
	}
	if p.Tags == nil {
		return
	}
	seen := map[string]bool{}
	tags := []string{}
	for _, t := range p.Tags {
		t = plaintext.Trim(t)
		switch {
		case t == "":
			continue
		case utf8.RuneCountInString(t) > MaxTagLen:
			bad.Add(FieldTags, "each tag must be at most 40 characters")
		case !plaintext.Clean(t):
			bad.Add(FieldTags, plaintext.Unclean)
		}
		if k := strings.ToLower(t); !seen[k] {
			seen[k] = true
			tags = append(tags, t)
		}
	}
	if len(tags) > MaxTags {
		bad.Add(FieldTags, "must have at most 30 tags")
	}
	p.Tags = tags
}

// SplitTags reads tags written as one comma-separated text, as the dialog
// and the file import send them.
func SplitTags(s string) []string {
	return strings.Split(s, ",")
}

// CheckNew is Check for a new member whose every field is given, tags as
// one comma-separated text and an empty role meaning member.
func CheckNew(bad apperr.Fields, firstName, lastName, email, role, tags string) NewMember {
	if role == "" {
		role = RoleMember
	}
	p := ProfileFields{FirstName: &firstName, LastName: &lastName, Email: &email, RoleID: &role, Tags: SplitTags(tags)}
	p.Check(bad)
	return NewMember{FirstName: firstName, LastName: lastName, Email: email, Role: role, Tags: p.Tags}
}
