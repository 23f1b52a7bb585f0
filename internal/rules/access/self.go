package access

import (
	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/db/gen/table"
)

// Self checks that actor is user, for what belongs to a user alone (their
// personalization): no one else may read it, so another user's is not
// found, as an unknown user's is (a 403 once told the one from the other).
func Self(actor, user uuid.UUID) error {
	if actor != user {
		return apperr.ErrNotFound
	}
	return nil
}

// ProfileVisible is the condition under which the user may read a profile
// row (table.Profiles): their own, one sharing an active community with
// them, or any in an organization they administer; super users (super
// true) read every profile. The profile reads and the profile edit ask it,
// so that a profile one may not read is not found wherever it is named.
func ProfileVisible(user uuid.UUID, super bool) BoolExpression {
	if super {
		return Bool(true)
	}
	me := UUID(user)
	mine := table.Profiles.AS("mine")
	theirs := table.CommunityMemberships.AS("theirs")
	ours := table.CommunityMemberships.AS("ours")
	sharesCommunity := EXISTS(
		SELECT(theirs.ProfileID).
			FROM(theirs.
				INNER_JOIN(ours, ours.CommunityID.EQ(theirs.CommunityID)).
				INNER_JOIN(mine, mine.ID.EQ(ours.ProfileID))).
			WHERE(theirs.ProfileID.EQ(table.Profiles.ID).
				AND(mine.UserID.EQ(me)).
				AND(ours.Status.EQ(String("active")))),
	)
	adminMine := table.Profiles.AS("admin_mine")
	administersOrg := EXISTS(
		SELECT(adminMine.ID).FROM(adminMine).
			WHERE(adminMine.UserID.EQ(me).
				AND(adminMine.OrganizationID.EQ(table.Profiles.OrganizationID)).
				AND(adminMine.Role.EQ(String("admin")))),
	)
	return table.Profiles.UserID.EQ(me).OR(sharesCommunity).OR(administersOrg)
}
