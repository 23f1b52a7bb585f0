package access

import (
	. "github.com/go-jet/jet/v2/postgres"

	"agora/internal/plumbing/db/gen/table"
)

// Who pays (spec 000 §2.6, §4 "Subscription", §6): a community or a forum
// is paid when it is not free and its price is above 0. Its members reach
// its content only with access, which is
//
//   - administering it (ForumRules' and CommunityRules' admin): admins
//     never pay;
//   - complimentary access: the membership's is_subscribed, which every
//     membership made before payments existed has (migration 0022);
//   - a subscription that gives access now (its access_until, which the
//     webhook handler computes from Stripe's status, the period paid for
//     and the grace period, is still to come).
//
// A forum's content needs access to the forum and to its community: a
// paid community closes its forums to a member who has not paid for it.

// ForumPaidUp is the condition that a member of the forum seriesID has
// access to the forum itself (not counting its community): it is free,
// their membership is complimentary (complimentary: its is_subscribed),
// or user's subscription to it gives access.
func ForumPaidUp(seriesID, user StringExpression, complimentary BoolExpression) BoolExpression {
	bs := table.Series.AS("bs")
	free := EXISTS(SELECT(bs.ID).FROM(bs).WHERE(bs.ID.EQ(seriesID).AND(bs.IsFree.OR(bs.PriceCents.EQ(Int(0))))))
	return free.OR(complimentary).OR(Subscribed(user, seriesID))
}

// CommunityPaidUp is the condition that user, whose membership of the
// community is complimentary or not (complimentary), has access to the
// community: it is free, the membership is complimentary, or their
// subscription to it gives access.
func CommunityPaidUp(communityID, user StringExpression, complimentary BoolExpression) BoolExpression {
	bc := table.Communities.AS("bc")
	free := EXISTS(SELECT(bc.ID).FROM(bc).WHERE(bc.ID.EQ(communityID).AND(bc.IsFree.OR(bc.PriceCents.EQ(Int(0))))))
	return free.OR(complimentary).OR(Subscribed(user, communityID))
}

// CommunityPaidUpOf is CommunityPaidUp for user's own active membership
// of the community, if any, as the complimentary one.
func CommunityPaidUpOf(communityID, user StringExpression) BoolExpression {
	bcm, bp := table.CommunityMemberships.AS("bcm"), table.Profiles.AS("bp")
	complimentary := EXISTS(SELECT(bcm.ProfileID).FROM(bcm.INNER_JOIN(bp, bp.ID.EQ(bcm.ProfileID))).
		WHERE(bcm.CommunityID.EQ(communityID).AND(bp.UserID.EQ(user)).AND(bcm.Status.EQ(String("active"))).AND(bcm.IsSubscribed)))
	return CommunityPaidUp(communityID, user, complimentary)
}

// Subscribed is the condition that user has a subscription to product (a
// community or forum id) that gives access now.
func Subscribed(user, product StringExpression) BoolExpression {
	bsub := table.Subscriptions.AS("bsub")
	return EXISTS(SELECT(bsub.ID).FROM(bsub).
		WHERE(bsub.UserID.EQ(user).AND(bsub.ProductID.EQ(product)).AND(bsub.AccessUntil.GT(NOW()))))
}

// CommunityAccess is the condition that user has access to the community
// (its isSubscribed): they manage it (CommunityRules' admin, super users
// when super is true), or they are an active member with access.
func CommunityAccess(communityID, user StringExpression, super BoolExpression) BoolExpression {
	member, admin := CommunityRules(communityID, user, super)
	return admin.OR(member.AND(CommunityPaidUpOf(communityID, user)))
}

// ForumMembership is the condition that user has an active membership of
// the forum, with access or not: the forum lists show such a forum (its
// isSubscribed false, the subscribe prompt's case) where ForumRules'
// member, the reader, does not.
func ForumMembership(seriesID, user StringExpression) BoolExpression {
	lsm, lp := table.SeriesMemberships.AS("lsm"), table.Profiles.AS("lp")
	return EXISTS(SELECT(lsm.ProfileID).FROM(lsm.INNER_JOIN(lp, lp.ID.EQ(lsm.ProfileID))).
		WHERE(lsm.SeriesID.EQ(seriesID).AND(lp.UserID.EQ(user)).AND(lsm.Status.EQ(String("active")))))
}

// ForumPaidUpOf is ForumPaidUp for user's own active membership of the
// forum, if any, as the complimentary one.
func ForumPaidUpOf(seriesID, user StringExpression) BoolExpression {
	lsm, lp := table.SeriesMemberships.AS("lsm"), table.Profiles.AS("lp")
	complimentary := EXISTS(SELECT(lsm.ProfileID).FROM(lsm.INNER_JOIN(lp, lp.ID.EQ(lsm.ProfileID))).
		WHERE(lsm.SeriesID.EQ(seriesID).AND(lp.UserID.EQ(user)).AND(lsm.Status.EQ(String("active"))).AND(lsm.IsSubscribed)))
	return ForumPaidUp(seriesID, user, complimentary)
}
