// Package access answers who may do what in a forum or a community, from
// the memberships in Postgres. Commands and queries of every area ask it, so
// that one rule is written once: a forum's readers are its active members,
// its admins (and the admins of its community, and super users) manage it.
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

// Forum is what a user may do in one forum.
type Forum struct {
	SeriesID    uuid.UUID
	CommunityID uuid.UUID
	// ProfileID is the user's profile holding the membership (uuid.Nil
	// when the user is not a member).
	ProfileID uuid.UUID
	// Member is an active membership of the forum with access to it: the
	// forum and its community are each free, complimentary or paid for
	// (billing.go).
	Member bool
	// Unpaid is an active membership of a paid forum (or of a forum of a
	// paid community) without access: the member is shown the forum, to
	// subscribe (spec 000 §4), but not its content.
	Unpaid bool
	// Admin is a forum admin, an admin of its community or organization,
	// or a super user.
	Admin bool
	// Expert is the forum's expert flag of the membership.
	Expert bool
}

// Read reports whether the user may read the forum.
func (f Forum) Read() bool { return f.Member || f.Admin }

// ErrForumNotFound is an unknown forum, and a forum, channel, post or
// comment the caller may not read: both answer the one 404 of any unknown
// id (apperr.ErrNotFound), so that a private forum's ids cannot be told
// from random ones. A 403 is kept for what the caller may read but not do.
var ErrForumNotFound = apperr.ErrNotFound

// InForum resolves the user's rights in a forum. An unknown forum is
// ErrForumNotFound; a forum the user cannot read is not an error here
// (mentions ask about other people); ReadForum refuses it.
func InForum(ctx context.Context, q db.Querier, userID uuid.UUID, role auth.Role, seriesID uuid.UUID) (Forum, error) {
	r := db.QueryRow(ctx, q, forumStmt(userID, seriesID))
	var row struct {
		SeriesID, CommunityID uuid.UUID
		ProfileID             *uuid.UUID
		Role, Status          *string
		IsExpert              *bool
		Manager, PaidUp       bool
	}
	err := r.Scan(&row.SeriesID, &row.CommunityID, &row.ProfileID, &row.Role, &row.Status, &row.IsExpert, &row.Manager, &row.PaidUp)
	if errors.Is(err, pgx.ErrNoRows) {
		return Forum{}, ErrForumNotFound
	}
	if err != nil {
		return Forum{}, fmt.Errorf("access: forum: %w", err)
	}
	f := Forum{SeriesID: row.SeriesID, CommunityID: row.CommunityID}
	if row.ProfileID != nil && row.Status != nil && *row.Status == "active" {
		f.ProfileID, f.Member = *row.ProfileID, true
		f.Admin = row.Role != nil && *row.Role == "admin"
		f.Expert = row.IsExpert != nil && *row.IsExpert
	}
	if role == auth.RoleSuper || row.Manager {
		f.Admin = true
	}
	if f.Member && !f.Admin && !row.PaidUp {
		// Admins never pay; a member who has not paid sees the forum only.
		f.Member, f.Unpaid, f.ProfileID = false, true, uuid.Nil
	}
	return f, nil
}

// ViewForum is InForum for a forum the user must see, its reader or a
// member who has not paid for it (GET /series/{id}, with isSubscribed
// false: the subscribe prompt); any other is ErrForumNotFound.
func ViewForum(ctx context.Context, q db.Querier, userID uuid.UUID, role auth.Role, seriesID uuid.UUID) (Forum, error) {
	f, err := InForum(ctx, q, userID, role, seriesID)
	if err == nil && !f.Read() && !f.Unpaid {
		return Forum{}, ErrForumNotFound
	}
	return f, err
}

// ReadForum is InForum for a forum the user must read: one they may not
// is ErrForumNotFound, as an unknown one is.
func ReadForum(ctx context.Context, q db.Querier, userID uuid.UUID, role auth.Role, seriesID uuid.UUID) (Forum, error) {
	f, err := InForum(ctx, q, userID, role, seriesID)
	if err == nil && !f.Read() {
		return Forum{}, ErrForumNotFound
	}
	return f, err
}

// AdminForum is ReadForum for what only a forum's admins may do (a forum
// admin, an admin of its community or organization, or a super user):
// a reader who does not administer it is apperr.ErrForbidden, one who may
// not read it is ErrForumNotFound. The Insights panel's reports and its
// content gaps are behind it.
func AdminForum(ctx context.Context, q db.Querier, userID uuid.UUID, role auth.Role, seriesID uuid.UUID) (Forum, error) {
	f, err := ReadForum(ctx, q, userID, role, seriesID)
	if err == nil && !f.Admin {
		return Forum{}, apperr.ErrForbidden
	}
	return f, err
}

// forumStmt reads the user's membership of the forum and whether they
// manage its community (CommunityRules).
func forumStmt(userID, seriesID uuid.UUID) SelectStatement {
	me := UUID(userID)
	sm, p := table.SeriesMemberships, table.Profiles
	_, manager := CommunityRules(table.Series.CommunityID, me, Bool(false))
	return SELECT(
		table.Series.ID.AS("series_id"),
		table.Series.CommunityID.AS("community_id"),
		sm.ProfileID.AS("profile_id"),
		sm.Role.AS("role"),
		sm.Status.AS("status"),
		sm.IsExpert.AS("is_expert"),
		manager.AS("manager"),
		// The membership's access, when it has one (billing.go).
		ForumPaidUp(table.Series.ID, me, BoolExp(COALESCE(sm.IsSubscribed, Bool(false)))).
			AND(CommunityPaidUpOf(table.Series.CommunityID, me)).AS("paid_up"),
	).FROM(table.Series.
		LEFT_JOIN(p, p.UserID.EQ(me)).
		LEFT_JOIN(sm, sm.SeriesID.EQ(table.Series.ID).AND(sm.ProfileID.EQ(p.ID)))).
		WHERE(table.Series.ID.EQ(UUID(seriesID))).
		ORDER_BY(sm.ProfileID.IS_NULL()). // a profile holding a membership first
		LIMIT(1)
}

// MayUpload reports whether the user may post in at least one forum, write
// a private message, edit a community or show a picture to peers: an
// active member of a forum or of a community (whose peers see their avatar
// and may receive their private messages), an active admin of a community
// (who administers its forums), an admin of an organization (who manages
// its communities, their images included), or a super user. Uploads are
// for posts, private messages, community pages and avatars, so an account
// with none of these has nothing to upload for.
func MayUpload(ctx context.Context, q db.Querier, userID uuid.UUID, role auth.Role) (bool, error) {
	if role == auth.RoleSuper {
		return true, nil
	}
	me := UUID(userID)
	sm, cm, p := table.SeriesMemberships, table.CommunityMemberships, table.Profiles
	var ok bool
	err := db.QueryRow(ctx, q, SELECT(
		EXISTS(SELECT(sm.ProfileID).FROM(sm.INNER_JOIN(p, p.ID.EQ(sm.ProfileID))).
			WHERE(p.UserID.EQ(me).AND(sm.Status.EQ(String("active"))))).
			OR(EXISTS(SELECT(cm.ProfileID).FROM(cm.INNER_JOIN(p, p.ID.EQ(cm.ProfileID))).
				WHERE(p.UserID.EQ(me).AND(cm.Status.EQ(String("active")))))).
			OR(EXISTS(SELECT(p.ID).FROM(p).WHERE(p.UserID.EQ(me).AND(p.Role.EQ(String("admin")))))),
	)).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("access: some forum: %w", err)
	}
	return ok, nil
}
