package access

import (
	"context"
	"errors"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db"
	"agora/internal/db/gen/table"
)

// Community is what a user may do in one community.
type Community struct {
	CommunityID    uuid.UUID
	OrganizationID uuid.UUID
	// ProfileID is the user's profile in the community's organization
	// (uuid.Nil when the user has none).
	ProfileID uuid.UUID
	// Member is an active membership of the community.
	Member bool
	// Admin is a community admin (admin or cascadingAdmin), an admin of its
	// organization, or a super user: they create, order and manage its
	// forums.
	Admin bool
}

// ErrCommunityNotFound is an unknown community.
var ErrCommunityNotFound = apperr.New(apperr.NotFound, "notFound", "community not found")

// InCommunity resolves the user's rights in a community. An unknown
// community is ErrCommunityNotFound.
func InCommunity(ctx context.Context, q db.Querier, userID uuid.UUID, role auth.Role, communityID uuid.UUID) (Community, error) {
	c, p, cm := table.Communities, table.Profiles, table.CommunityMemberships
	stmt := SELECT(
		c.OrganizationID.AS("organization_id"),
		p.ID.AS("profile_id"),
		COALESCE(p.Role.EQ(String("admin")), Bool(false)).AS("org_admin"),
		cm.Role.AS("role"),
		cm.Status.AS("status"),
	).FROM(c.
		LEFT_JOIN(p, p.OrganizationID.EQ(c.OrganizationID).AND(p.UserID.EQ(UUID(userID)))).
		LEFT_JOIN(cm, cm.CommunityID.EQ(c.ID).AND(cm.ProfileID.EQ(p.ID)))).
		WHERE(c.ID.EQ(UUID(communityID))).
		ORDER_BY(cm.ProfileID.IS_NULL()).
		LIMIT(1)
	r := db.QueryRow(ctx, q, stmt)
	var row struct {
		OrganizationID uuid.UUID
		ProfileID      *uuid.UUID
		OrgAdmin       bool
		Role, Status   *string
	}
	err := r.Scan(&row.OrganizationID, &row.ProfileID, &row.OrgAdmin, &row.Role, &row.Status)
	if errors.Is(err, pgx.ErrNoRows) {
		return Community{}, ErrCommunityNotFound
	}
	if err != nil {
		return Community{}, fmt.Errorf("access: community: %w", err)
	}
	out := Community{CommunityID: communityID, OrganizationID: row.OrganizationID}
	if row.ProfileID != nil {
		out.ProfileID = *row.ProfileID
	}
	active := row.Status != nil && *row.Status == "active"
	out.Member = active
	out.Admin = role == auth.RoleSuper || row.OrgAdmin || (active && row.Role != nil && (*row.Role == "admin" || *row.Role == "cascadingAdmin"))
	return out, nil
}

// ErrCommunityManagersOnly is a community call for those who manage it.
var ErrCommunityManagersOnly = apperr.New(apperr.Forbidden, "forbidden", "only the community's admins may do this")

// ManageCommunity is InCommunity for a call that manages the community
// (share it, invite to it): a member who does not manage it is
// ErrCommunityManagersOnly, and one who may not read it
// ErrCommunityNotFound, as an unknown community is.
func ManageCommunity(ctx context.Context, q db.Querier, userID uuid.UUID, role auth.Role, communityID uuid.UUID) (Community, error) {
	c, err := InCommunity(ctx, q, userID, role, communityID)
	switch {
	case err != nil:
		return Community{}, err
	case c.Admin:
		return c, nil
	case c.Member:
		return Community{}, ErrCommunityManagersOnly
	default:
		return Community{}, ErrCommunityNotFound
	}
}

// ActiveCommunities lists the communities the user is an active member of
// (through any of their profiles), the notion Community.Member and the
// peers index share: the private chat's peers are the other active members
// of these.
func ActiveCommunities(ctx context.Context, q db.Querier, userID uuid.UUID) ([]uuid.UUID, error) {
	cm, p := table.CommunityMemberships, table.Profiles
	stmt := SELECT(cm.CommunityID).DISTINCT().
		FROM(cm.INNER_JOIN(p, p.ID.EQ(cm.ProfileID))).
		WHERE(p.UserID.EQ(UUID(userID)).AND(cm.Status.EQ(String("active"))))
	out, err := db.Values[uuid.UUID](ctx, q, stmt)
	if err != nil {
		return nil, fmt.Errorf("access: active communities: %w", err)
	}
	return out, nil
}

// ForumRules returns two conditions on a forum, given its id and community
// columns and the user, for lists of forums and audiences of users: member
// is true when the user is an active member of it, and admin when they
// administer it (a forum admin, an admin of its community or organization,
// or a super user when super is true). A reader is member OR admin, as
// Forum.Read. They mirror InForum, the rule for one forum; ForumSQL is the
// same rule as text for the feed's statement.
func ForumRules(seriesID, communityID, user StringExpression, super BoolExpression) (member, admin BoolExpression) {
	xsm, xp := table.SeriesMemberships.AS("xsm"), table.Profiles.AS("xp")
	xcm, xc := table.CommunityMemberships.AS("xcm"), table.Communities.AS("xc")
	memberOf := xsm.SeriesID.EQ(seriesID).AND(xp.UserID.EQ(user)).AND(xsm.Status.EQ(String("active")))
	member = EXISTS(SELECT(xsm.ProfileID).FROM(xsm.INNER_JOIN(xp, xp.ID.EQ(xsm.ProfileID))).WHERE(memberOf))
	admin = super.
		OR(EXISTS(SELECT(xsm.ProfileID).FROM(xsm.INNER_JOIN(xp, xp.ID.EQ(xsm.ProfileID))).
			WHERE(memberOf.AND(xsm.Role.EQ(String("admin")))))).
		OR(EXISTS(SELECT(xcm.ProfileID).FROM(xcm.INNER_JOIN(xp, xp.ID.EQ(xcm.ProfileID))).
			WHERE(xcm.CommunityID.EQ(communityID).AND(xp.UserID.EQ(user)).AND(xcm.Status.EQ(String("active"))).
				AND(xcm.Role.IN(String("admin"), String("cascadingAdmin")))))).
		OR(EXISTS(SELECT(xp.ID).FROM(xp.INNER_JOIN(xc, xc.OrganizationID.EQ(xp.OrganizationID))).
			WHERE(xc.ID.EQ(communityID).AND(xp.UserID.EQ(user)).AND(xp.Role.EQ(String("admin"))))))
	return member, admin
}

// ForumSQL is ForumRules as SQL text over a forum aliased s, for the feed's
// thread statement (query/feed), which stays SQL text (internal/db's
// package doc says why): user and super are SQL expressions there, such as
// placeholders ("$2", "$3").
func ForumSQL(user, super string) (member, admin string) {
	s := table.Series.AS("s")
	m, a := ForumRules(s.ID, s.CommunityID, RawString(user), RawBool(super))
	return db.Text(m), db.Text(a)
}
