package access

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/apperr"
	"agora/internal/auth"
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

// Querier is what InCommunity reads through (*sql.DB or *sql.Tx).
type Querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// InCommunity resolves the user's rights in a community. An unknown
// community is ErrCommunityNotFound.
func InCommunity(ctx context.Context, q Querier, userID uuid.UUID, role auth.Role, communityID uuid.UUID) (Community, error) {
	c := Community{CommunityID: communityID}
	var profile *uuid.UUID
	var orgAdmin bool
	var cmRole, cmStatus *string
	err := q.QueryRowContext(ctx, `
		SELECT c.organization_id, p.id, coalesce(p.role = 'admin', false), cm.role, cm.status
		FROM communities c
		LEFT JOIN profiles p ON p.organization_id = c.organization_id AND p.user_id = $1
		LEFT JOIN community_memberships cm ON cm.community_id = c.id AND cm.profile_id = p.id
		WHERE c.id = $2
		ORDER BY cm.profile_id IS NULL
		LIMIT 1`, userID, communityID).Scan(&c.OrganizationID, &profile, &orgAdmin, &cmRole, &cmStatus)
	if errors.Is(err, sql.ErrNoRows) {
		return Community{}, ErrCommunityNotFound
	}
	if err != nil {
		return Community{}, fmt.Errorf("access: community: %w", err)
	}
	if profile != nil {
		c.ProfileID = *profile
	}
	active := cmStatus != nil && *cmStatus == "active"
	c.Member = active
	c.Admin = role == auth.RoleSuper || orgAdmin || (active && cmRole != nil && (*cmRole == "admin" || *cmRole == "cascadingAdmin"))
	return c, nil
}

// ActiveCommunities lists the communities the user is an active member of
// (through any of their profiles), the notion Community.Member and the
// peers index share: the private chat's peers are the other active members
// of these.
func ActiveCommunities(ctx context.Context, q PgxQuerier, userID uuid.UUID) ([]uuid.UUID, error) {
	rows, err := q.Query(ctx, `
		SELECT DISTINCT cm.community_id FROM community_memberships cm JOIN profiles p ON p.id = cm.profile_id
		WHERE p.user_id = $1 AND cm.status = 'active'`, userID)
	if err != nil {
		return nil, fmt.Errorf("access: active communities: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	if err != nil {
		return nil, fmt.Errorf("access: active communities: %w", err)
	}
	return out, nil
}

// ForumSQL returns two SQL conditions over a forum aliased s, for lists of
// forums: member is true when the user whose id is the placeholder user
// (e.g. "$1") is an active member of s, and admin when they administer it
// (a forum admin, an admin of its community or organization, or a super
// user when the boolean placeholder super is true). A reader is member OR
// admin, as Forum.Read. They mirror InForum, the rule for one forum.
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
