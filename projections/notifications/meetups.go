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
	"agora/internal/rules/notice"
	"agora/projections/change"
)

// meetupNote is a Meet Up notification a change asks for: to user (nil:
// every member of the forum, for meetup-open) about Meet Up meeting.
type meetupNote struct {
	kind    string
	meeting uuid.UUID
	user    *uuid.UUID
}

// meetupGone is an invitee removed: their invitation goes.
type meetupGone struct{ meeting, user uuid.UUID }

type meetingChange struct {
	ID   uuid.UUID
	Open bool
}

type inviteeChange struct {
	MeetingID uuid.UUID
	UserID    uuid.UUID
	Response  *string
}

// readMeetup records a change of meetings or meeting_invitees: an open
// Meet Up scheduled, someone invited (a row without an answer, which a
// registration never is), removed, or moved from the waitlist to a seat.
// A Meet Up deleted takes its notifications (source) with it.
func (b *batch) readMeetup(c change.Change) error {
	switch c.Table {
	case "meetings":
		switch c.Op {
		case change.Create, change.Read:
			var m meetingChange
			if err := c.After.Scan(&m); err != nil {
				return fmt.Errorf("notifications: meetings: %w", err)
			}
			if m.Open {
				b.meetups = append(b.meetups, meetupNote{kind: notice.MeetupOpen, meeting: m.ID})
			}
		case change.Delete:
			var m meetingChange
			if err := c.Before.Scan(&m); err != nil {
				return fmt.Errorf("notifications: meetings: %w", err)
			}
			b.deleted = append(b.deleted, m.ID)
		}
	case "meeting_invitees":
		var before, after inviteeChange
		if c.Before != nil {
			if err := c.Before.Scan(&before); err != nil {
				return fmt.Errorf("notifications: meeting_invitees: %w", err)
			}
		}
		if c.After != nil {
			if err := c.After.Scan(&after); err != nil {
				return fmt.Errorf("notifications: meeting_invitees: %w", err)
			}
		}
		switch {
		case (c.Op == change.Create || c.Op == change.Read) && after.Response == nil:
			b.meetups = append(b.meetups, meetupNote{kind: notice.MeetupInvite, meeting: after.MeetingID, user: &after.UserID})
		case c.Op == change.Update && str(before.Response) == "waitlisted" && str(after.Response) == "registered":
			b.meetups = append(b.meetups, meetupNote{kind: notice.MeetupSeat, meeting: after.MeetingID, user: &after.UserID})
		case c.Op == change.Delete:
			b.meetupsGone = append(b.meetupsGone, meetupGone{meeting: before.MeetingID, user: before.UserID})
		}
	}
	return nil
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// meetupRow is what a Meet Up notification needs of its Meet Up.
type meetupRow struct {
	ID, ThreadID, SeriesID, CreatorID, ChannelID, CommunityID uuid.UUID
	Name                                                      string
	Open                                                      bool
	CreatedOn                                                 time.Time
}

// meetupRows are the notifications of the batch's Meet Up changes, by id;
// readers (the forum's, now) are checked by the caller. An invitation
// to an open Meet Up (a panelist) is none: its forum heard of it.
func (p *Projection) meetupRows(ctx context.Context, notes []meetupNote) (map[uuid.UUID]model.Notifications, error) {
	out := map[uuid.UUID]model.Notifications{}
	if len(notes) == 0 {
		return out, nil
	}
	ids := make([]uuid.UUID, 0, len(notes))
	for _, n := range notes {
		ids = append(ids, n.meeting)
	}
	m, t, f := table.Meetings, table.Threads, table.Series
	rows, err := db.All[meetupRow](ctx, p.db, pg.SELECT(m.ID.AS("id"), m.ThreadID.AS("thread_id"), m.SeriesID.AS("series_id"),
		m.CreatorID.AS("creator_id"), t.ChannelID.AS("channel_id"), f.CommunityID.AS("community_id"), m.Name.AS("name"),
		m.Open.AS("open"), m.CreatedOn.AS("created_on")).
		FROM(m.INNER_JOIN(t, t.ID.EQ(m.ThreadID)).INNER_JOIN(f, f.ID.EQ(m.SeriesID))).WHERE(db.Any(m.ID, ids)))
	if err != nil {
		return nil, fmt.Errorf("notifications: meetups: %w", err)
	}
	byID := map[uuid.UUID]meetupRow{}
	for _, r := range rows {
		byID[r.ID] = r
	}
	for _, n := range notes {
		r, ok := byID[n.meeting]
		if !ok {
			continue // deleted since: nothing to tell
		}
		if n.kind == notice.MeetupInvite && r.Open {
			continue
		}
		to := []uuid.UUID{}
		if n.user != nil {
			to = append(to, *n.user)
		} else if to, err = forumMembers(ctx, p.db, r.SeriesID); err != nil {
			return nil, err
		}
		created := r.CreatedOn
		if n.kind != notice.MeetupOpen {
			created = time.Now() // when it happened, not when the Meet Up was made
		}
		for _, u := range to {
			if u == r.CreatorID {
				continue
			}
			post, series, channel, community, author := r.ThreadID, r.SeriesID, r.ChannelID, r.CommunityID, r.CreatorID
			row := model.Notifications{ID: ID(u, n.kind, r.ID), UserID: u, Kind: n.kind, SourceID: r.ID,
				PostID: &post, SeriesID: &series, ChannelID: &channel, CommunityID: &community, AuthorID: &author,
				Preview: Preview(r.Name), CreatedOn: created.UTC()}
			out[row.ID] = row
		}
	}
	return out, nil
}

// forumMembers are the active members of a forum (spec 002 §5: "members
// of this Forum will be notified").
func forumMembers(ctx context.Context, q db.Querier, series uuid.UUID) ([]uuid.UUID, error) {
	sm, pr := table.SeriesMemberships, table.Profiles
	ids, err := db.Values[uuid.UUID](ctx, q, pg.SELECT(pr.UserID).DISTINCT().FROM(sm.INNER_JOIN(pr, pr.ID.EQ(sm.ProfileID))).
		WHERE(sm.SeriesID.EQ(pg.UUID(series)).AND(sm.Status.EQ(pg.String("active"))).AND(pr.UserID.IS_NOT_NULL())))
	if err != nil {
		return nil, fmt.Errorf("notifications: forum members: %w", err)
	}
	return ids, nil
}

// removeInvitations deletes the invitations of invitees removed from n.
func removeInvitations(ctx context.Context, tx pgx.Tx, n *table.NotificationsTable, gone []meetupGone) error {
	for _, g := range gone {
		if _, err := db.Exec(ctx, tx, n.DELETE().WHERE(n.SourceID.EQ(pg.UUID(g.meeting)).AND(n.UserID.EQ(pg.UUID(g.user))).
			AND(n.Kind.EQ(pg.String(notice.MeetupInvite))))); err != nil {
			return fmt.Errorf("notifications: invitation removed: %w", err)
		}
	}
	return nil
}
