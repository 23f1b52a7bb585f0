package notifications

import (
	"context"
	"fmt"
	"time"

	pg "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/membership"
	"agora/internal/rules/notice"
	"agora/projections/change"
)

// accessNote is a membership given by someone (series_memberships'
// assigned_by), active: its person, if they have an account, is told.
type accessNote struct {
	series, profile, by uuid.UUID
	on                  time.Time
}

type forumMembership struct {
	SeriesID   uuid.UUID
	ProfileID  uuid.UUID
	Status     string
	AssignedBy *uuid.UUID
	AssignedOn time.Time
}

// readAccess records a change of series_memberships: a new active
// membership that someone gave (not a forum's creator, nor a pending
// person, who is mailed an invitation instead), or a membership gone,
// whose notice goes with it (given again, it is sent again). A change of
// role or a pending member joining tells nobody.
func (b *batch) readAccess(c change.Change) error {
	var m forumMembership
	switch c.Op {
	case change.Create, change.Read:
		if err := c.After.Scan(&m); err != nil {
			return fmt.Errorf("notifications: series_memberships: %w", err)
		}
		if m.AssignedBy != nil && m.Status == "active" {
			b.access = append(b.access, accessNote{series: m.SeriesID, profile: m.ProfileID, by: *m.AssignedBy, on: m.AssignedOn})
		}
	case change.Delete:
		if err := c.Before.Scan(&m); err != nil {
			return fmt.Errorf("notifications: series_memberships: %w", err)
		}
		b.accessGone = append(b.accessGone, accessNote{series: m.SeriesID, profile: m.ProfileID})
	}
	return nil
}

// accessRow is what a forum-access notification needs of its membership.
type accessRow struct {
	SeriesID, ProfileID, UserID, ChannelID, CommunityID uuid.UUID
	Forum, Community                                    string
}

// accessRows are the notifications of the batch's memberships given, by
// id; readers are checked by the caller. One given to themselves (a forum
// admin adding their own profile) is none.
func (p *Projection) accessRows(ctx context.Context, notes []accessNote) (map[uuid.UUID]model.Notifications, error) {
	out := map[uuid.UUID]model.Notifications{}
	if len(notes) == 0 {
		return out, nil
	}
	profiles, forums := make([]uuid.UUID, 0, len(notes)), make([]uuid.UUID, 0, len(notes))
	for _, n := range notes {
		profiles, forums = append(profiles, n.profile), append(forums, n.series)
	}
	pr, s, c, ch := table.Profiles, table.Series, table.Communities, table.Channels
	rows, err := db.All[accessRow](ctx, p.db, pg.SELECT(s.ID.AS("series_id"), pr.ID.AS("profile_id"), pr.UserID.AS("user_id"),
		ch.ID.AS("channel_id"), c.ID.AS("community_id"), s.Name.AS("forum"), c.Name.AS("community")).
		FROM(pr.INNER_JOIN(c, c.OrganizationID.EQ(pr.OrganizationID)).
			INNER_JOIN(s, s.CommunityID.EQ(c.ID)).
			INNER_JOIN(ch, ch.SeriesID.EQ(s.ID).AND(ch.Kind.EQ(pg.String("main"))))).
		WHERE(db.Any(pr.ID, profiles).AND(db.Any(s.ID, forums)).AND(pr.UserID.IS_NOT_NULL())))
	if err != nil {
		return nil, fmt.Errorf("notifications: forum access: %w", err)
	}
	type key struct{ series, profile uuid.UUID }
	byKey := map[key]accessRow{}
	for _, r := range rows {
		byKey[key{r.SeriesID, r.ProfileID}] = r
	}
	for _, n := range notes {
		r, ok := byKey[key{n.series, n.profile}]
		if !ok || r.UserID == n.by {
			continue // no account (invited instead), or gone since
		}
		series, channel, community, by := r.SeriesID, r.ChannelID, r.CommunityID, n.by
		row := model.Notifications{ID: ID(r.UserID, notice.ForumAccess, r.SeriesID), UserID: r.UserID, Kind: notice.ForumAccess,
			SourceID: r.SeriesID, SeriesID: &series, ChannelID: &channel, CommunityID: &community, AuthorID: &by,
			Preview: Preview(membership.AccessDescription(r.Forum, r.Community)), CreatedOn: n.on.UTC()}
		out[row.ID] = row
	}
	return out, nil
}

// removeAccess deletes the forum-access notices of the memberships gone.
func removeAccess(ctx context.Context, tx pgx.Tx, n *table.NotificationsTable, gone []accessNote) error {
	pr := table.Profiles
	for _, g := range gone {
		if _, err := db.Exec(ctx, tx, n.DELETE().WHERE(n.SourceID.EQ(pg.UUID(g.series)).AND(n.Kind.EQ(pg.String(notice.ForumAccess))).
			AND(n.UserID.IN(pg.SELECT(pr.UserID).FROM(pr).WHERE(pr.ID.EQ(pg.UUID(g.profile))))))); err != nil {
			return fmt.Errorf("notifications: access removed: %w", err)
		}
	}
	return nil
}
