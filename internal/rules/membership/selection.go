package membership

import (
	"strings"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/paging"
)

// Selection is which of an organization's people a community's share
// dialog lists (GET /communities/{id}/assignables) and a bulk change
// applies to (POST /communities/{id}/assignments/bulk): the one rule, so
// that a bulk change touches exactly the people the dialog shows.
type Selection struct {
	// Keyword matches each of its words in the first name, last name or
	// email, case-insensitively.
	Keyword string
	// PresetFilter is "", "assigned" (active or pending members of the
	// community) or "unassigned".
	PresetFilter string
	// Filters is comma-separated key:value pairs; the one key is role
	// (admin or member; admin includes cascadingAdmin). Several roles are
	// any of them.
	Filters string
}

// The tables of a selection: the organization's profiles p, their
// accounts u, and their membership cm of the community, if any.
var (
	SelProfile    = table.Profiles.AS("p")
	SelUser       = table.Users.AS("u")
	SelMembership = table.CommunityMemberships.AS("cm")
)

// Check adds the selection's problems to f.
func (s Selection) Check(f apperr.Fields) {
	paging.CheckKeyword(f, s.Keyword)
	if strings.ContainsRune(s.Keyword, 0) {
		f.Add("keyword", "must not contain the NUL character")
	}
	switch s.PresetFilter {
	case "", "assigned", "unassigned":
	default:
		f.Add("presetFilter", "must be assigned or unassigned")
	}
	if _, ok := s.roles(); !ok {
		f.Add("filters", "must be role:admin or role:member, comma-separated")
	}
}

// roles are the role filters' membership roles.
func (s Selection) roles() ([]Expression, bool) {
	var out []Expression
	for _, kv := range strings.Split(s.Filters, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		switch kv {
		case "role:admin":
			out = append(out, String("admin"), String("cascadingAdmin"))
		case "role:member":
			out = append(out, String("member"))
		default:
			return nil, false
		}
	}
	return out, true
}

// From is the selection's FROM: the profiles with their account and
// their membership of the community.
func From(communityID uuid.UUID) ReadableTable {
	p, u, cm := SelProfile, SelUser, SelMembership
	return p.LEFT_JOIN(u, u.ID.EQ(p.UserID)).
		LEFT_JOIN(cm, cm.CommunityID.EQ(UUID(communityID)).AND(cm.ProfileID.EQ(p.ID)))
}

// Where is the selection's condition over From, among the profiles of
// the organization; the selection must have passed Check.
func (s Selection) Where(orgID uuid.UUID) BoolExpression {
	p, u, cm := SelProfile, SelUser, SelMembership
	where := p.OrganizationID.EQ(UUID(orgID))
	switch s.PresetFilter {
	case "assigned":
		where = where.AND(cm.ProfileID.IS_NOT_NULL())
	case "unassigned":
		where = where.AND(cm.ProfileID.IS_NULL())
	}
	if roles, _ := s.roles(); len(roles) > 0 {
		where = where.AND(cm.Role.IN(roles...))
	}
	for _, w := range strings.Fields(strings.ToLower(s.Keyword)) {
		pattern := String("%" + db.LikeLiteral(w) + "%")
		where = where.AND(OR(
			LOWER(StringExp(COALESCE(u.FirstName, p.FirstName))).LIKE(pattern),
			LOWER(StringExp(COALESCE(u.LastName, p.LastName))).LIKE(pattern),
			LOWER(StringExp(COALESCE(u.Email, p.Email))).LIKE(pattern),
		))
	}
	return where
}
