package account

import (
	"strings"
	"unicode/utf8"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/nullable"
	"agora/internal/rules/picture"
	"agora/internal/rules/plaintext"
)

// Person is the person's own fields, as registration and PATCH /users/me
// take them. Nil means "not given".
type Person struct {
	FirstName *string
	LastName  *string
	// Avatar and GraduationYear may be sent as null to clear them.
	Avatar         nullable.Field[string]
	JobTitle       *string
	Company        *string
	Bio            *string
	InterestTags   []string
	School         *string
	Degree         *string
	FieldOfStudy   *string
	GraduationYear nullable.Field[int32]
}

// Limits of the person fields (names: plaintext.NameMax, spec 000 §5); these are
// ours, sized for what the profile dialog shows.
const (
	textMax = 100
	bioMax  = 1000
	tagsMax = 30
	tagMax  = 40
)

// normalize trims the text fields and records what breaks the rules.
func (p *Person) normalize(f apperr.Fields) {
	name := func(field string, v *string) {
		if v != nil {
			*v = plaintext.Name(f, field, *v)
		}
	}
	line := func(field string, v *string) {
		if v != nil {
			*v = plaintext.Line(f, field, *v, textMax)
		}
	}
	name("firstName", p.FirstName)
	name("lastName", p.LastName)
	line("jobTitle", p.JobTitle)
	line("company", p.Company)
	line("school", p.School)
	line("degree", p.Degree)
	line("fieldOfStudy", p.FieldOfStudy)
	// The bio has paragraphs: it is the one multi-line field.
	if p.Bio != nil {
		*p.Bio = plaintext.Text(f, "bio", *p.Bio, 0, bioMax)
	}
	// Only an upload of the member's own (issue 31, G9).
	picture.CheckUploaded(f, "avatar", p.Avatar.Value)
	if y := p.GraduationYear.Value; y != nil && (*y < 1900 || *y > 2100) {
		f.Add("graduationYear", "must be a year between 1900 and 2100")
	}
	if p.InterestTags != nil {
		if len(p.InterestTags) > tagsMax {
			f.Add("interestTags", "must have at most 30 tags")
		}
		seen := map[string]bool{}
		tags := p.InterestTags[:0]
		for _, t := range p.InterestTags {
			t = plaintext.Trim(t)
			if t == "" || utf8.RuneCountInString(t) > tagMax {
				f.Add("interestTags", "each tag must be 1 to 40 characters")
				continue
			}
			if !plaintext.Clean(t) {
				f.Add("interestTags", plaintext.Unclean)
				continue
			}
			if k := strings.ToLower(t); !seen[k] {
				seen[k] = true
				tags = append(tags, t)
			}
		}
		p.InterestTags = tags
	}
}
