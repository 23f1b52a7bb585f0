package access

import (
	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/db/gen/table"
)

// Who may see a profile is one rule, asked in two shapes: of a profile
// row, by the profile reads and edits (ProfileVisible), and of a person,
// by the live events about them (PersonReader). Both are ProfileReader.

// ProfileReader is the condition that reader (a users.id column or a
// value) may read the profile row p (table.Profiles, aliased or not): it
// is theirs, it has a membership (of any status) of a community where the
// reader has an active one, or the reader administers its organization;
// super users (super true) read every profile.
func ProfileReader(p *table.ProfilesTable, reader StringExpression, super BoolExpression) BoolExpression {
	mine := table.Profiles.AS("mine")
	theirs := table.CommunityMemberships.AS("theirs")
	ours := table.CommunityMemberships.AS("ours")
	sharesCommunity := EXISTS(
		SELECT(theirs.ProfileID).
			FROM(theirs.
				INNER_JOIN(ours, ours.CommunityID.EQ(theirs.CommunityID)).
				INNER_JOIN(mine, mine.ID.EQ(ours.ProfileID))).
			WHERE(theirs.ProfileID.EQ(p.ID).
				AND(mine.UserID.EQ(reader)).
				AND(ours.Status.EQ(String("active")))),
	)
	adminMine := table.Profiles.AS("admin_mine")
	administersOrg := EXISTS(
		SELECT(adminMine.ID).FROM(adminMine).
			WHERE(adminMine.UserID.EQ(reader).
				AND(adminMine.OrganizationID.EQ(p.OrganizationID)).
				AND(adminMine.Role.EQ(String("admin")))),
	)
	return super.OR(p.UserID.EQ(reader)).OR(sharesCommunity).OR(administersOrg)
}

// ProfileVisible is ProfileReader for the user over the profiles row
// (table.Profiles) of a statement: their own, one sharing an active
// community with them, or any in an organization they administer; super
// users (super true) read every profile. The profile reads and the profile
// edit ask it, so that a profile one may not read is not found wherever it
// is named.
func ProfileVisible(user uuid.UUID, super bool) BoolExpression {
	if super {
		return Bool(true)
	}
	return ProfileReader(table.Profiles, UUID(user), Bool(false))
}

// PersonReader is the condition that reader (a users.id column or a
// value) may read the profile of person (a user id): the person
// themselves, super users (super), and those who may read one of the
// person's profiles (ProfileReader). The live events about a person (a
// changed name, their presence) reach these.
func PersonReader(person, reader StringExpression, super BoolExpression) BoolExpression {
	theirs := table.Profiles.AS("person_profile")
	return reader.EQ(person).OR(super).
		OR(EXISTS(SELECT(theirs.ID).FROM(theirs).
			WHERE(theirs.UserID.EQ(person).AND(ProfileReader(theirs, reader, Bool(false))))))
}
