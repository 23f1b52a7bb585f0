package organization

import (
	"strings"
	"unicode/utf8"

	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/plaintext"
)

// Person is the fields an admin gives a profile (spec 000 §2.7 and §3, the
// new member dialog): nil is "not given".
type Person struct {
	FirstName *string
	LastName  *string
	Email     *string
	// RoleID is the profile's role in the organization: admin or member.
	RoleID *string
	// Tags are free-form labels (the dialog's tags); nil is not given.
	Tags []string
}

// Limits of the tags, ours: what the dialog shows.
const (
	TagsMax = 30
	TagMax  = 40
)

// Roles of a profile in its organization.
const (
	RoleAdmin  = "admin"
	RoleMember = "member"
)

// Check trims the given fields and records what breaks the rules of
// spec 000 §5 in f: names of 1 to 50 characters, a valid e-mail, a known
// role, and tags (at most 30, each 1 to 40 characters) without repeats.
func (p *Person) Check(f apperr.Fields) {
	if p.FirstName != nil {
		*p.FirstName = plaintext.Name(f, "firstName", *p.FirstName)
	}
	if p.LastName != nil {
		*p.LastName = plaintext.Name(f, "lastName", *p.LastName)
	}
	if p.Email != nil {
		*p.Email = strings.TrimSpace(*p.Email)
		if !auth.ValidEmail(*p.Email) {
			f.Add("email", "This is not a valid email.")
		}
	}
	if p.RoleID != nil && *p.RoleID != RoleAdmin && *p.RoleID != RoleMember {
		f.Add("roleId", "must be member or admin")
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
		case utf8.RuneCountInString(t) > TagMax:
			f.Add("tags", "each tag must be at most 40 characters")
		case !plaintext.Clean(t):
			f.Add("tags", plaintext.Unclean)
		}
		if k := strings.ToLower(t); !seen[k] {
			seen[k] = true
			tags = append(tags, t)
		}
	}
	if len(tags) > TagsMax {
		f.Add("tags", "must have at most 30 tags")
	}
	p.Tags = tags
}

// SplitTags reads tags written as one comma-separated string, as the
// dialog and the CSV import send them.
func SplitTags(s string) []string {
	return strings.Split(s, ",")
}
