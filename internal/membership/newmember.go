// The rules of a person added to an organization or a
// community (spec 000 §3 "Profile / member", §5 "New member"): one by one
// from the new member dialog, or many at once from an imported file, so
// that both refuse the same values.

package membership

import (
	"strings"
	"unicode/utf8"

	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/plaintext"
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

// The fields CheckNew reports under, as the body of the one-by-one add names
// them.
const (
	FieldFirstName = "firstName"
	FieldLastName  = "lastName"
	FieldEmail     = "email"
	FieldRole      = "roleId"
	FieldTags      = "tags"
)

// CheckNew trims a new member's fields and adds to bad what breaks their rules:
// names 1 to 50 characters (plaintext.Name), a valid e-mail address, a role
// of admin or member (empty is member), and tags given as one
// comma-separated text, at most MaxTags of at most MaxTagLen characters
// (empty ones are dropped).
func CheckNew(bad apperr.Fields, firstName, lastName, email, role, tags string) NewMember {
	n := NewMember{
		FirstName: plaintext.Name(bad, FieldFirstName, firstName),
		LastName:  plaintext.Name(bad, FieldLastName, lastName),
		Email:     strings.TrimSpace(email),
		Role:      role,
		Tags:      []string{},
	}
	if !auth.ValidEmail(n.Email) {
		bad.Add(FieldEmail, "This is not a valid email.")
	}
	if n.Role == "" {
		n.Role = RoleMember
	}
	if n.Role != RoleMember && n.Role != RoleAdmin {
		bad.Add(FieldRole, "must be member or admin")
	}
	for _, t := range strings.Split(tags, ",") {
		if t = plaintext.Trim(t); t != "" {
			if utf8.RuneCountInString(t) > MaxTagLen {
				bad.Add(FieldTags, "each tag must be at most 40 characters")
			}
			n.Tags = append(n.Tags, t)
		}
	}
	if len(n.Tags) > MaxTags {
		bad.Add(FieldTags, "must have at most 30 tags")
	}
	return n
}
