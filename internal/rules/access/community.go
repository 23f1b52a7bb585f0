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

// Read reports whether the user may read the community (GET
// /communities/{id}, its members): its active members and its managers.
func (c Community) Read() bool { return c.Member || c.Admin }

// Permissions is the community's permissions object (spec 000 §6): canShare
// allows manual invites, canUploadMembers CSV imports; the managers have
// all three, others none.
type Permissions struct {
	CanManage        bool `json:"canManage"`
	CanShare         bool `json:"canShare"`
	CanUploadMembers bool `json:"canUploadMembers"`
}

// PermissionsOf is the permissions object of one who manages the community
// (admin true) or not.
func PermissionsOf(admin bool) Permissions { return Permissions{admin, admin, admin} }

// ErrCommunityNotFound is an unknown community, and one the caller may not
// read: both answer the same 404.
var ErrCommunityNotFound = apperr.New(apperr.NotFound, "notFound", "community not found")

// InCommunity resolves the user's rights in a community. An unknown
// community is ErrCommunityNotFound; one the user may not read is not an
// error here (ReadCommunity refuses it).
func InCommunity(ctx context.Context, q db.Querier, userID uuid.UUID, role auth.Role, communityID uuid.UUID) (Community, error) {
	c, p, cm := table.Communities, table.Profiles, table.CommunityMemberships
	member, admin := CommunityRules(c.ID, UUID(userID), Bool(role == auth.RoleSuper))
	stmt := SELECT(
		c.OrganizationID.AS("organization_id"),
		p.ID.AS("profile_id"),
		member.AS("member"),
		admin.AS("admin"),
	).FROM(c.
		LEFT_JOIN(p, p.OrganizationID.EQ(c.OrganizationID).AND(p.UserID.EQ(UUID(userID)))).
		LEFT_JOIN(cm, cm.CommunityID.EQ(c.ID).AND(cm.ProfileID.EQ(p.ID)))).
		WHERE(c.ID.EQ(UUID(communityID))).
		ORDER_BY(cm.ProfileID.IS_NULL()). // a profile holding a membership first
		LIMIT(1)
	var profileID *uuid.UUID
	out := Community{CommunityID: communityID}
	err := db.QueryRow(ctx, q, stmt).Scan(&out.OrganizationID, &profileID, &out.Member, &out.Admin)
	if errors.Is(err, pgx.ErrNoRows) {
		return Community{}, ErrCommunityNotFound
	}
	if err != nil {
		return Community{}, fmt.Errorf("access: community: %w", err)
	}
	if profileID != nil {
		out.ProfileID = *profileID
	}
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

// ReadCommunity is InCommunity for a community the user must read: one
// they may not is ErrCommunityNotFound, as an unknown one is.
func ReadCommunity(ctx context.Context, q db.Querier, userID uuid.UUID, role auth.Role, communityID uuid.UUID) (Community, error) {
	c, err := InCommunity(ctx, q, userID, role, communityID)
	if err == nil && !c.Read() {
		return Community{}, ErrCommunityNotFound
	}
	return c, err
}

// CommunityRules returns two conditions on a community, given its id
// column and the user, for lists of communities and audiences of users:
// member is true when the user has an active membership of it, and admin
// when they manage it (an active admin or cascadingAdmin of it, an admin
// of its organization, or a super user when super is true). InCommunity
// asks them of one community; ForumRules builds on admin.
func CommunityRules(communityID, user StringExpression, super BoolExpression) (member, admin BoolExpression) {
	ycm, yp, yc := table.CommunityMemberships.AS("ycm"), table.Profiles.AS("yp"), table.Communities.AS("yc")
	mine := ycm.CommunityID.EQ(communityID).AND(yp.UserID.EQ(user)).AND(ycm.Status.EQ(String("active")))
	member = EXISTS(SELECT(ycm.ProfileID).FROM(ycm.INNER_JOIN(yp, yp.ID.EQ(ycm.ProfileID))).WHERE(mine))
	admin = super.
		OR(EXISTS(SELECT(ycm.ProfileID).FROM(ycm.INNER_JOIN(yp, yp.ID.EQ(ycm.ProfileID))).
			WHERE(mine.AND(ycm.Role.IN(String("admin"), String("cascadingAdmin")))))).
		OR(EXISTS(SELECT(yc.ID).FROM(yc).WHERE(yc.ID.EQ(communityID).AND(OrganizationAdmin(yc.OrganizationID, user, Bool(false))))))
	return member, admin
}

// ActiveCommunities lists the communities the user is an active member of
// (through any of their profiles), the notion Community.Member and the
// peers index share: the private chat's peers are the other active members
// of these.
func ActiveCommunities(ctx context.Context, q db.Querier, userID uuid.UUID) ([]uuid.UUID, error) {
	out, err := db.Values[uuid.UUID](ctx, q, activeCommunitiesOf(UUID(userID)).DISTINCT())
	if err != nil {
		return nil, fmt.Errorf("access: active communities: %w", err)
	}
	return out, nil
}

// activeCommunitiesOf selects the communities user is an active member of.
func activeCommunitiesOf(user StringExpression) SelectStatement {
	cm, p := table.CommunityMemberships.AS("acm"), table.Profiles.AS("ap")
	return SELECT(cm.CommunityID).FROM(cm.INNER_JOIN(p, p.ID.EQ(cm.ProfileID))).
		WHERE(p.UserID.EQ(user).AND(cm.Status.EQ(String("active"))))
}

// ActiveMembersOf selects the user ids with an active membership of a
// community that inCommunities accepts (given the membership's community
// column). With a member's ActiveCommunities, less the member, it is the
// peers rule (spec 002 §4: the people one may chat with and whose presence
// one sees), which GET /peers lists by; PeersOf is the same for a user
// column, for audiences.
func ActiveMembersOf(inCommunities func(community ColumnString) BoolExpression) SelectStatement {
	cm, p := table.CommunityMemberships.AS("pcm"), table.Profiles.AS("pp")
	return SELECT(p.UserID).FROM(cm.INNER_JOIN(p, p.ID.EQ(cm.ProfileID))).
		WHERE(inCommunities(cm.CommunityID).AND(cm.Status.EQ(String("active"))))
}

// PeersOf selects the peers of user, and user when they are an active
// member of a community: callers leave them out.
func PeersOf(user StringExpression) SelectStatement {
	return ActiveMembersOf(func(c ColumnString) BoolExpression { return c.IN(activeCommunitiesOf(user)) })
}

// ActiveMemberOfAny is the condition that user (a users.id column or a
// value) has an active membership of one of communities. Given the
// viewer's ActiveCommunities it is the peers rule (ActiveMembersOf): the
// people the viewer may chat with privately (GET /peers) and whose profile
// they may read (GET /users/{id}/profile).
func ActiveMemberOfAny(user StringExpression, communities []uuid.UUID) BoolExpression {
	return user.IN(ActiveMembersOf(func(c ColumnString) BoolExpression { return db.Any(c, communities) }))
}

// ForumRules returns two conditions on a forum, given its id and community
// columns and the user, for lists of forums and audiences of users: member
// is true when the user is an active member of it with access to it (a
// member of a paid forum or community who has not paid is not, see
// billing.go), and admin when they
// administer it (a forum admin, an admin of its community or organization,
// or a super user when super is true). A reader is member OR admin, as
// Forum.Read. They mirror InForum, the rule for one forum; ForumSQL is the
// same rule as text for the feed's statement.
func ForumRules(seriesID, communityID, user StringExpression, super BoolExpression) (member, admin BoolExpression) {
	xsm, xp := table.SeriesMemberships.AS("xsm"), table.Profiles.AS("xp")
	memberOf := xsm.SeriesID.EQ(seriesID).AND(xp.UserID.EQ(user)).AND(xsm.Status.EQ(String("active")))
	// A member reads a paid forum, or one of a paid community, only with
	// access to both (billing.go); ForumMembership is the membership alone.
	member = EXISTS(SELECT(xsm.ProfileID).FROM(xsm.INNER_JOIN(xp, xp.ID.EQ(xsm.ProfileID))).
		WHERE(memberOf.AND(ForumPaidUp(seriesID, user, xsm.IsSubscribed)))).
		AND(CommunityPaidUpOf(communityID, user))
	_, manager := CommunityRules(communityID, user, super)
	admin = manager.
		OR(EXISTS(SELECT(xsm.ProfileID).FROM(xsm.INNER_JOIN(xp, xp.ID.EQ(xsm.ProfileID))).
			WHERE(memberOf.AND(xsm.Role.EQ(String("admin"))))))
	return member, admin
}

// ChannelRead is the condition that user may read the posts of channel
// kind of the forum (seriesID, communityID): for the main channel its
// readers (ForumRules' member or admin), for the admin channel those who
// administer it alone; a channel of another kind has no forum readers.
// The live events' audiences and the notifications ask it.
func ChannelRead(kind, seriesID, communityID, user StringExpression, super BoolExpression) BoolExpression {
	member, admin := ForumRules(seriesID, communityID, user, super)
	return channelRule(kind, member, admin)
}

// channelRule is who reads a channel of kind, given the forum's rules.
func channelRule(kind StringExpression, member, admin BoolExpression) BoolExpression {
	return kind.EQ(String("main")).AND(member.OR(admin)).OR(kind.EQ(String("admin")).AND(admin))
}

// ForumRulesAmong is ForumRules asked of many readers at once (a live
// event's audience among the connected members): the same two conditions
// on reader (a users.id column), written as the sets of the forum's
// readers, each selected once for the forum: its active members with
// access, its admins, the community's admins and the organization's.
// ForumRules' EXISTS for each reader read the forum's rows again per
// reader. TestForumRulesAmongAgreeWithForumRules holds the two shapes to
// the same answers.
func ForumRulesAmong(seriesID, communityID, reader StringExpression, super BoolExpression) (member, admin BoolExpression) {
	rsm, rsp := table.SeriesMemberships.AS("rsm"), table.Profiles.AS("rsp")
	forum := rsm.SeriesID.EQ(seriesID).AND(rsm.Status.EQ(String("active"))).AND(rsp.UserID.IS_NOT_NULL())
	inForum := rsm.INNER_JOIN(rsp, rsp.ID.EQ(rsm.ProfileID))
	members := SELECT(rsp.UserID).FROM(inForum).
		WHERE(forum.AND(ForumPaidUp(seriesID, rsp.UserID, rsm.IsSubscribed)).AND(CommunityPaidUpOf(communityID, rsp.UserID)))
	forumAdmins := SELECT(rsp.UserID).FROM(inForum).WHERE(forum.AND(rsm.Role.EQ(String("admin"))))
	rcm, rcp := table.CommunityMemberships.AS("rcm"), table.Profiles.AS("rcp")
	communityAdmins := SELECT(rcp.UserID).FROM(rcm.INNER_JOIN(rcp, rcp.ID.EQ(rcm.ProfileID))).
		WHERE(rcm.CommunityID.EQ(communityID).AND(rcm.Status.EQ(String("active"))).
			AND(rcm.Role.IN(String("admin"), String("cascadingAdmin"))).AND(rcp.UserID.IS_NOT_NULL()))
	rc, rop := table.Communities.AS("rc"), table.Profiles.AS("rop")
	orgAdmins := SELECT(rop.UserID).FROM(rc.INNER_JOIN(rop, rop.OrganizationID.EQ(rc.OrganizationID))).
		WHERE(rc.ID.EQ(communityID).AND(rop.Role.EQ(String("admin"))).AND(rop.UserID.IS_NOT_NULL()))
	member = reader.IN(members)
	admin = super.OR(reader.IN(forumAdmins)).OR(reader.IN(communityAdmins)).OR(reader.IN(orgAdmins))
	return member, admin
}

// ChannelReaderAmong is ChannelRead in ForumRulesAmong's shape.
func ChannelReaderAmong(kind, seriesID, communityID, reader StringExpression, super BoolExpression) BoolExpression {
	member, admin := ForumRulesAmong(seriesID, communityID, reader, super)
	return channelRule(kind, member, admin)
}

// ForumSQL is ForumRules as SQL text over a forum aliased s, for the feed's
// thread statement (query/feed), which stays SQL text (internal/plumbing/db's
// package doc says why): user and super are SQL expressions there, such as
// placeholders ("$2", "$3").
func ForumSQL(user, super string) (member, admin string) {
	s := table.Series.AS("s")
	m, a := ForumRules(s.ID, s.CommunityID, RawString(user), RawBool(super))
	return db.Text(m), db.Text(a)
}

// MayChat tells whether users a and b, two different people, are peers
// (PeersOf), who may chat privately (spec 002 §4).
func MayChat(ctx context.Context, q db.Querier, a, b uuid.UUID) (bool, error) {
	if a == b {
		return false, nil
	}
	var ok bool
	if err := db.QueryRow(ctx, q, SELECT(UUID(b).IN(PeersOf(UUID(a))))).Scan(&ok); err != nil {
		return false, fmt.Errorf("access: peers: %w", err)
	}
	return ok, nil
}
