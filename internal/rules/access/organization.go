package access

import (
	"context"
	"errors"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// Organization is what a user may do in one organization (spec 000 §6).
type Organization struct {
	OrganizationID uuid.UUID
	// ProfileID is the user's profile in the organization (uuid.Nil when
	// the user has none).
	ProfileID uuid.UUID
	// Member is a profile in the organization: members see it.
	Member bool
	// Admin is an admin of the organization, or a super user: they edit it,
	// manage its people, and add and manage its communities.
	Admin bool
	// Super is a super user: only they create and delete organizations.
	Super bool
}

// See reports whether the user may see the organization.
func (o Organization) See() bool { return o.Member || o.Admin }

// ErrOrganizationNotFound is an unknown organization, and one the caller may
// not see: both answer the same 404.
var ErrOrganizationNotFound = apperr.ErrNotFound

// InOrganization resolves the user's rights in an organization. An unknown
// organization is ErrOrganizationNotFound; one the user may not see is not
// an error here (SeeOrganization refuses it).
func InOrganization(ctx context.Context, q db.Querier, userID uuid.UUID, role auth.Role, orgID uuid.UUID) (Organization, error) {
	o, p := table.Organizations, table.Profiles
	stmt := SELECT(p.ID.AS("profile_id"), p.Role.AS("role")).
		FROM(o.LEFT_JOIN(p, p.OrganizationID.EQ(o.ID).AND(p.UserID.EQ(UUID(userID))))).
		WHERE(o.ID.EQ(UUID(orgID))).
		ORDER_BY(p.Role.EQ(String("admin")).DESC()). // an admin profile first
		LIMIT(1)
	var profileID *uuid.UUID
	var profileRole *string
	err := db.QueryRow(ctx, q, stmt).Scan(&profileID, &profileRole)
	if errors.Is(err, pgx.ErrNoRows) {
		return Organization{}, ErrOrganizationNotFound
	}
	if err != nil {
		return Organization{}, fmt.Errorf("access: organization: %w", err)
	}
	out := Organization{OrganizationID: orgID, Super: role == auth.RoleSuper}
	if profileID != nil {
		out.ProfileID, out.Member = *profileID, true
	}
	out.Admin = out.Super || (profileRole != nil && *profileRole == "admin")
	return out, nil
}

// SeeOrganization is InOrganization for an organization the user must see:
// one they may not is ErrOrganizationNotFound, as an unknown one is.
func SeeOrganization(ctx context.Context, q db.Querier, userID uuid.UUID, role auth.Role, orgID uuid.UUID) (Organization, error) {
	o, err := InOrganization(ctx, q, userID, role, orgID)
	if err == nil && !o.See() {
		return Organization{}, ErrOrganizationNotFound
	}
	return o, err
}

// OrganizationRules are InOrganization's rule as conditions on an
// organization, given its id column and the user, for lists of
// organizations: member is true when the user has a profile in it, admin
// when they manage it (an admin profile, or super when super is true).
func OrganizationRules(orgID, user StringExpression, super BoolExpression) (member, admin BoolExpression) {
	xp := table.Profiles.AS("xop")
	in := xp.OrganizationID.EQ(orgID).AND(xp.UserID.EQ(user))
	member = EXISTS(SELECT(xp.ID).FROM(xp).WHERE(in))
	admin = super.OR(EXISTS(SELECT(xp.ID).FROM(xp).WHERE(in.AND(xp.Role.EQ(String("admin"))))))
	return member, admin
}

// OrganizationAdmin is OrganizationRules' admin alone, for lists and
// audiences that ask only who administers the organization; CommunityRules
// builds on it.
func OrganizationAdmin(orgID, user StringExpression, super BoolExpression) BoolExpression {
	_, admin := OrganizationRules(orgID, user, super)
	return admin
}
