package auth

// Role is a user's application role (spec 000 §6).
type Role string

// The roles of spec 000 §6. Guest is the role of a caller with no session.
const (
	RoleSuper     Role = "super"
	RoleAdmin     Role = "admin"
	RoleModerator Role = "moderator"
	RoleUser      Role = "user"
	RoleMember    Role = "member"
	RoleGuest     Role = "guest"
)

// Group is a named set of roles that a route admits.
type Group string

// The role groups of spec 000 §6.
const (
	GroupSuper         Group = "super"
	GroupAdmin         Group = "admin"
	GroupUser          Group = "user"
	GroupModerator     Group = "moderator"
	GroupGuest         Group = "guest"
	GroupAuthenticated Group = "authenticated"
	GroupEveryone      Group = "everyone"
)

var groups = map[Group][]Role{
	GroupSuper:         {RoleSuper},
	GroupAdmin:         {RoleAdmin},
	GroupUser:          {RoleUser, RoleAdmin, RoleSuper},
	GroupModerator:     {RoleAdmin, RoleModerator},
	GroupGuest:         {RoleGuest},
	GroupAuthenticated: {RoleAdmin, RoleUser, RoleSuper, RoleModerator},
}

// Allows reports whether role belongs to group. An empty role is a guest.
func (g Group) Allows(role Role) bool {
	if role == "" {
		role = RoleGuest
	}
	if g == GroupEveryone {
		return true
	}
	for _, r := range groups[g] {
		if r == role {
			return true
		}
	}
	return false
}
