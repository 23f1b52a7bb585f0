package notifications

import (
	"context"
	"fmt"
	"time"

	pg "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/notice"
	"agora/projections/change"
)

// joined is a community membership that became active: one made active
// (the person has an account), or a pending one activated when its person
// registered.
type joined struct {
	community, profile uuid.UUID
	// at is when it happened: the transaction's commit.
	at time.Time
}

type communityMembership struct {
	CommunityID uuid.UUID
	ProfileID   uuid.UUID
	Status      string
}

// readMembership records a community membership made active. A snapshot's
// rows (Read) tell nobody: they are old news, as the delivery projection's
// freshness rule also says.
func (b *batch) readMembership(c change.Change) error {
	if c.Op != change.Create && c.Op != change.Update {
		return nil
	}
	var after communityMembership
	if err := c.After.Scan(&after); err != nil {
		return fmt.Errorf("notifications: community_memberships: %w", err)
	}
	if after.Status != "active" {
		return nil
	}
	if c.Op == change.Update {
		var before communityMembership
		if c.Before == nil {
			return nil // without the old row, a role change cannot be told from an activation
		}
		if err := c.Before.Scan(&before); err != nil {
			return fmt.Errorf("notifications: community_memberships: %w", err)
		}
		if before.Status == "active" {
			return nil
		}
	}
	at := time.Now()
	if c.Source.TsMs > 0 {
		at = time.UnixMilli(c.Source.TsMs)
	}
	b.joined = append(b.joined, joined{community: after.CommunityID, profile: after.ProfileID, at: at})
	return nil
}

// joinRows are the community-join notifications of the batch's
// memberships, by id: to the person of each profile that still has an
// active membership, naming the community. The community's creator, whose
// membership is made with the community (same instant), is not told.
func (p *Projection) joinRows(ctx context.Context, js []joined) (map[uuid.UUID]model.Notifications, error) {
	out := map[uuid.UUID]model.Notifications{}
	if len(js) == 0 {
		return out, nil
	}
	var profiles []uuid.UUID
	for _, j := range js {
		profiles = append(profiles, j.profile)
	}
	cm, pr, c := table.CommunityMemberships, table.Profiles, table.Communities
	type row struct {
		CommunityID, ProfileID, UserID uuid.UUID
		Name                           string
		AssignedOn, CreatedOn          time.Time
	}
	rows, err := db.All[row](ctx, p.db, pg.SELECT(cm.CommunityID.AS("community_id"), cm.ProfileID.AS("profile_id"), pr.UserID.AS("user_id"),
		c.Name.AS("name"), cm.AssignedOn.AS("assigned_on"), c.CreatedOn.AS("created_on")).
		FROM(cm.INNER_JOIN(pr, pr.ID.EQ(cm.ProfileID)).INNER_JOIN(c, c.ID.EQ(cm.CommunityID))).
		WHERE(db.Any(cm.ProfileID, profiles).AND(cm.Status.EQ(pg.String("active"))).AND(pr.UserID.IS_NOT_NULL())))
	if err != nil {
		return nil, fmt.Errorf("notifications: community members: %w", err)
	}
	type key struct{ community, profile uuid.UUID }
	asked := map[key]time.Time{}
	for _, j := range js {
		asked[key{j.community, j.profile}] = j.at
	}
	for _, r := range rows {
		at, ok := asked[key{r.CommunityID, r.ProfileID}]
		if !ok || r.AssignedOn.Equal(r.CreatedOn) {
			continue
		}
		community := r.CommunityID
		n := model.Notifications{ID: ID(r.UserID, notice.CommunityJoin, community), UserID: r.UserID, Kind: notice.CommunityJoin,
			SourceID: community, CommunityID: &community, Preview: Preview(r.Name), CreatedOn: at.UTC()}
		out[n.ID] = n
	}
	return out, nil
}
