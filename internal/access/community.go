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
// columns, for lists of forums: member is true when the user is an active
// member of it, and admin when they administer it (a forum admin, an admin
// of its community or organization, or a super user when super is true).
// A reader is member OR admin, as Forum.Read. They mirror InForum, the rule
// for one forum.
func ForumRules(seriesID, communityID StringExpression, userID uuid.UUID, super BoolExpression) (member, admin BoolExpression) {
	me := UUID(userID)
	xsm, xp := table.SeriesMemberships.AS("xsm"), table.Profiles.AS("xp")
	xcm, xc := table.CommunityMemberships.AS("xcm"), table.Communities.AS("xc")
	memberOf := xsm.SeriesID.EQ(seriesID).AND(xp.UserID.EQ(me)).AND(xsm.Status.EQ(String("active")))
	member = EXISTS(SELECT(xsm.ProfileID).FROM(xsm.INNER_JOIN(xp, xp.ID.EQ(xsm.ProfileID))).WHERE(memberOf))
	admin = super.
		OR(EXISTS(SELECT(xsm.ProfileID).FROM(xsm.INNER_JOIN(xp, xp.ID.EQ(xsm.ProfileID))).
			WHERE(memberOf.AND(xsm.Role.EQ(String("admin")))))).
		OR(EXISTS(SELECT(xcm.ProfileID).FROM(xcm.INNER_JOIN(xp, xp.ID.EQ(xcm.ProfileID))).
			WHERE(xcm.CommunityID.EQ(communityID).AND(xp.UserID.EQ(me)).AND(xcm.Status.EQ(String("active"))).
				AND(xcm.Role.IN(String("admin"), String("cascadingAdmin")))))).
		OR(EXISTS(SELECT(xp.ID).FROM(xp.INNER_JOIN(xc, xc.OrganizationID.EQ(xp.OrganizationID))).
			WHERE(xc.ID.EQ(communityID).AND(xp.UserID.EQ(me)).AND(xp.Role.EQ(String("admin"))))))
	return member, admin
}

// ForumSQL is ForumRules as SQL text over a forum aliased s, with the user
// and super flag given as placeholders or expressions (e.g. "$1", "$2").
// Temporary: query/feed and projections/realtime still write their SQL by
// hand and are converted separately; delete it when they use ForumRules.
func ForumSQL(user, super string) (member, admin string) {
	member = `EXISTS (SELECT 1 FROM series_memberships xsm JOIN profiles xp ON xp.id = xsm.profile_id
		WHERE xsm.series_id = s.id AND xp.user_id = ` + user + ` AND xsm.status = 'active')`
	admin = `(` + super + ` OR EXISTS (SELECT 1 FROM series_memberships xsm JOIN profiles xp ON xp.id = xsm.profile_id
		WHERE xsm.series_id = s.id AND xp.user_id = ` + user + ` AND xsm.status = 'active' AND xsm.role = 'admin')
	OR EXISTS (SELECT 1 FROM community_memberships xcm JOIN profiles xp ON xp.id = xcm.profile_id
		WHERE xcm.community_id = s.community_id AND xp.user_id = ` + user + ` AND xcm.status = 'active'
		  AND xcm.role IN ('admin', 'cascadingAdmin'))
	OR EXISTS (SELECT 1 FROM profiles xp JOIN communities xc ON xc.organization_id = xp.organization_id
		WHERE xc.id = s.community_id AND xp.user_id = ` + user + ` AND xp.role = 'admin'))`
	return member, admin
}
