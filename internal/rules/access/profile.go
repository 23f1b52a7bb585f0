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
// person's profiles (ProfileReader's rule). The live events about a person
// (a changed name, their presence) reach these, asked of every connected
// member at once: so the rule is written as the two sets of readers the
// person's profiles have (the active members of a community one of them
// belongs to, whatever its status, and the admins of an organization one
// of them is in), each selected once for the person, rather than as
// ProfileReader's EXISTS for each reader, which read the person's
// communities again per reader (a second for a thousand of them).
// TestProfileReaders holds the two shapes to the same answers.
func PersonReader(person, reader StringExpression, super BoolExpression) BoolExpression {
	pp, theirs := table.Profiles.AS("person_profile"), table.CommunityMemberships.AS("person_membership")
	mine, ours := table.Profiles.AS("reader_profile"), table.CommunityMemberships.AS("reader_membership")
	sharers := SELECT(mine.UserID).
		FROM(ours.INNER_JOIN(mine, mine.ID.EQ(ours.ProfileID))).
		WHERE(ours.Status.EQ(String("active")).AND(mine.UserID.IS_NOT_NULL()).AND(ours.CommunityID.IN(
			SELECT(theirs.CommunityID).FROM(theirs.INNER_JOIN(pp, pp.ID.EQ(theirs.ProfileID))).WHERE(pp.UserID.EQ(person)))))
	po, admins := table.Profiles.AS("person_org"), table.Profiles.AS("org_admin")
	orgAdmins := SELECT(admins.UserID).FROM(admins).
		WHERE(admins.Role.EQ(String("admin")).AND(admins.UserID.IS_NOT_NULL()).AND(admins.OrganizationID.IN(
			SELECT(po.OrganizationID).FROM(po).WHERE(po.UserID.EQ(person)))))
	return reader.EQ(person).OR(super).OR(reader.IN(sharers)).OR(reader.IN(orgAdmins))
}
