package realtime

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	pg "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
	"agora/projections/change"
	qfeed "agora/query/feed"
	qmeetup "agora/query/meetup"
)

// The Meet Ups' live events (spec 002 §7 "Real-time events"), with the
// context key "meeting:<roomId>".
const (
	MeetingCreated    = "meeting.created"
	MeetingUpdated    = "meeting.updated"
	MeetingEnded      = "meeting.ended"
	MeetingDeleted    = "meeting.deleted"
	InviteesAdded     = "meeting.invitees.added"
	InviteesRemoved   = "meeting.invitees.removed"
	InviteesResponded = "meeting.invitees.responded"
	BreakoutsUpdated  = "meeting.breakouts.updated"
	MinutesUpdated    = "meeting.minutes.updated"
)

func meetingKey(id uuid.UUID) string { return "meeting:" + id.String() }

// MeetingPayload is the payload of meeting.created, meeting.updated and
// meeting.ended: the Meet Up read at delivery (query/meetup), as each
// receiver would read it (their myRole, the minutes' text for the creator
// and invitees alone).
type MeetingPayload struct {
	RoomID uuid.UUID
	m      *qmeetup.Meeting
}

// forReceiver is the payload as user reads it.
func (p *MeetingPayload) forReceiver(user uuid.UUID) any { return p.m.For(user) }

// MeetingRef is the payload of meeting.deleted.
type MeetingRef struct {
	RoomID   uuid.UUID `json:"roomId"`
	PostID   uuid.UUID `json:"postId"`
	SeriesID uuid.UUID `json:"seriesId"`
}

// InviteesPayload is the payload of the invitee events: who, and their
// answer now (for removed, the one they had).
type InviteesPayload struct {
	RoomID   uuid.UUID   `json:"roomId"`
	UserIDs  []uuid.UUID `json:"userIds"`
	Response *string     `json:"response"`
}

// BreakoutsPayload is the payload of meeting.breakouts.updated: the
// breakout rooms opened or closed.
type BreakoutsPayload struct {
	RoomID uuid.UUID `json:"roomId"`
	Open   bool      `json:"open"`
}

// MinutesPayload is the payload of meeting.minutes.updated. Its state is
// read at delivery, as the Meet Up payloads are: the row's own state may
// be older than a meeting.ended read just before it (which already held
// the written minutes), and would take the post back from Ended to
// transcribing.
type MinutesPayload struct {
	RoomID uuid.UUID `json:"roomId"`
	PostID uuid.UUID `json:"postId"`
	State  *string   `json:"state"`
}

// MeetingPost is a thread.created or thread.updated of a Meet Up's post:
// the post, read at delivery when only its id is known, whose meeting is
// the Meet Up as each receiver reads it.
type MeetingPost struct {
	ThreadID uuid.UUID
	post     *qfeed.Post
	m        *qmeetup.Meeting
}

func (p *MeetingPost) forReceiver(user uuid.UUID) any {
	c := *p.post
	if p.m != nil {
		c.Meeting, _ = json.Marshal(p.m.For(user)) // a Meeting always marshals
	}
	return &c
}

// perReceiver is a payload that each receiver reads their own way.
type perReceiver interface{ forReceiver(user uuid.UUID) any }

// meetingRow is what the events need of a meetings row.
type meetingRow struct {
	ID            uuid.UUID
	ThreadID      uuid.UUID
	SeriesID      uuid.UUID
	Open          bool
	BreakoutsOpen bool
	EndedOn       *time.Time
	MinutesState  *string
	UpdatedOn     time.Time
}

// meetingEvents: a Meet Up scheduled, changed, ended or deleted. Its post's
// thread.created (threadEvents) already carries it when it is scheduled;
// a change also sends the post's thread.updated with the new meeting, so
// that the feed updates in place.
func meetingEvents(c change.Change) ([]Event, error) {
	before, after, err := scanRows[meetingRow](c, "meetings")
	if err != nil {
		return nil, err
	}
	switch c.Op {
	case change.Create:
		if after == nil {
			return nil, fmt.Errorf("realtime: meetings: a create without its row")
		}
		return []Event{{Type: MeetingCreated, ContextKey: meetingKey(after.ID), Payload: &MeetingPayload{RoomID: after.ID},
			To: []Audience{{MeetingAudience, after.ID}}}}, nil
	case change.Update:
		if after == nil {
			return nil, fmt.Errorf("realtime: meetings: an update without its row")
		}
		to := []Audience{{MeetingAudience, after.ID}}
		typ := MeetingUpdated
		if after.EndedOn != nil && (before == nil || before.EndedOn == nil) {
			typ = MeetingEnded
		}
		evs := []Event{{Type: typ, ContextKey: meetingKey(after.ID), Payload: &MeetingPayload{RoomID: after.ID}, To: to}}
		if before != nil && before.BreakoutsOpen != after.BreakoutsOpen {
			evs = append(evs, Event{Type: BreakoutsUpdated, ContextKey: meetingKey(after.ID),
				Payload: &BreakoutsPayload{RoomID: after.ID, Open: after.BreakoutsOpen}, To: to})
		}
		if before != nil && str(before.MinutesState) != str(after.MinutesState) {
			evs = append(evs, Event{Type: MinutesUpdated, ContextKey: meetingKey(after.ID),
				Payload: &MinutesPayload{RoomID: after.ID, PostID: after.ThreadID, State: after.MinutesState}, To: to})
		}
		return append(evs, Event{Type: ThreadUpdated, ContextKey: threadKey(after.ThreadID), Payload: &MeetingPost{ThreadID: after.ThreadID},
			To: []Audience{{ThreadReaders, after.ThreadID}}}), nil
	case change.Delete:
		if before == nil {
			return nil, fmt.Errorf("realtime: meetings: a delete without its before-image")
		}
		// The Meet Up and its post are gone: who read the forum hears it.
		return []Event{{Type: MeetingDeleted, ContextKey: meetingKey(before.ID),
			Payload: MeetingRef{RoomID: before.ID, PostID: before.ThreadID, SeriesID: before.SeriesID},
			To:      []Audience{{ForumReaders, before.SeriesID}}}}, nil
	}
	return nil, nil
}

// inviteeRow is what the events need of a meeting_invitees row.
type inviteeRow struct {
	MeetingID uuid.UUID
	UserID    uuid.UUID
	Role      string
	Response  *string
}

// inviteeEvents: someone invited, registered or waitlisted (added),
// removed or unregistered (removed), or answering or promoted to a seat
// (responded); each is also a meeting.updated, whose seats and lists
// changed. Rows deleted with their Meet Up reach nobody: the Meet Up is
// gone, and meeting.deleted says it.
func inviteeEvents(c change.Change) ([]Event, error) {
	before, after, err := scanRows[inviteeRow](c, "meeting_invitees")
	if err != nil {
		return nil, err
	}
	var row *inviteeRow
	var typ string
	switch c.Op {
	case change.Create:
		row, typ = after, InviteesAdded
	case change.Update:
		row, typ = after, InviteesResponded
		if after != nil && before != nil && str(before.Response) == str(after.Response) {
			typ = "" // a role changed: the Meet Up changed
		}
	case change.Delete:
		row, typ = before, InviteesRemoved
	}
	if row == nil {
		return nil, nil
	}
	to := []Audience{{MeetingAudience, row.MeetingID}}
	evs := []Event{{Type: MeetingUpdated, ContextKey: meetingKey(row.MeetingID), Payload: &MeetingPayload{RoomID: row.MeetingID}, To: to}}
	if typ != "" {
		evs = append([]Event{{Type: typ, ContextKey: meetingKey(row.MeetingID),
			Payload: &InviteesPayload{RoomID: row.MeetingID, UserIDs: []uuid.UUID{row.UserID}, Response: row.Response}, To: to}}, evs...)
	}
	return evs, nil
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// completeMeeting reads a Meet Up payload's Meet Up (or its minutes'
// state), and a post's when it is a Meet Up's post (then e's payload
// becomes a MeetingPost).
func completeMeeting(ctx context.Context, q DB, f Feed, e *Event) error {
	switch p := e.Payload.(type) {
	case *MeetingPayload:
		all, err := qmeetup.LoadRooms(ctx, q, []uuid.UUID{p.RoomID})
		if err != nil {
			return err
		}
		if p.m = all[p.RoomID]; p.m == nil {
			return errGone
		}
	case *MinutesPayload:
		m := table.Meetings
		row, err := db.One[model.Meetings](ctx, q, pg.SELECT(m.MinutesState).FROM(m).WHERE(m.ID.EQ(pg.UUID(p.RoomID))))
		if err != nil {
			return err
		}
		p.State = row.MinutesState
	case *MeetingPost:
		t := table.Threads
		row, err := db.One[model.Threads](ctx, q, pg.SELECT(t.AllColumns).FROM(t).WHERE(t.ID.EQ(pg.UUID(p.ThreadID))))
		if err != nil {
			return err
		}
		p.post = threadRowOf(row).post()
		if err := completePost(ctx, f, e.Type, p.post); err != nil {
			return err
		}
		all, err := qmeetup.LoadAll(ctx, q, []uuid.UUID{p.ThreadID})
		if err != nil {
			return err
		}
		p.m = all[p.ThreadID]
	case *qfeed.Post:
		if p.Type != "post" {
			return nil
		}
		all, err := qmeetup.LoadAll(ctx, q, []uuid.UUID{p.ID})
		if err != nil {
			return err
		}
		if m := all[p.ID]; m != nil {
			e.Payload = &MeetingPost{ThreadID: p.ID, post: p, m: m}
		}
	}
	return nil
}

// threadRowOf is a threads row read from Postgres, as a change has it.
func threadRowOf(t model.Threads) threadRow {
	raw := func(s *string) json.RawMessage {
		if s == nil {
			return nil
		}
		return json.RawMessage(*s)
	}
	return threadRow{ID: t.ID, ChannelID: t.ChannelID, SeriesID: t.SeriesID, CreatorID: t.CreatorID, CreatorAs: t.CreatorAs,
		Type: t.Type, Raw: t.Raw, Image: raw(t.Image), File: raw(t.File), Link: raw(t.Link), Meeting: raw(t.Meeting), Chat: raw(t.Chat),
		Mentions: t.Mentions, Hashtags: t.Hashtags, CreatedOn: t.CreatedOn, UpdatedOn: t.UpdatedOn}
}

// meetingAudience selects, among the candidates, who hears Meet Up
// about's events: for an open Meet Up its forum's readers; for a private
// one its creator and invitees who still read the forum, and those who
// administer the forum.
func meetingAudience(about pg.StringExpression, candidates []uuid.UUID) pg.SelectStatement {
	v, m, mi, ms := table.Users.AS("v"), table.Meetings.AS("m"), table.MeetingInvitees.AS("mi"), table.Meetings.AS("ms")
	// The forum as a value read once, not the joined row's column: see
	// channelReaders.
	series := pg.StringExp(pg.SELECT(ms.SeriesID).FROM(ms).WHERE(ms.ID.EQ(about)))
	member, admin := access.ForumRulesAmong(series, communityOf(series), v.ID, v.Role.EQ(pg.String("super")))
	invited := pg.EXISTS(pg.SELECT(mi.UserID).FROM(mi).WHERE(mi.MeetingID.EQ(m.ID).AND(mi.UserID.EQ(v.ID))))
	return pg.SELECT(v.ID).FROM(v.CROSS_JOIN(m)).
		WHERE(m.ID.EQ(about).AND(db.Any(v.ID, candidates)).
			AND(admin.OR(member.AND(m.Open.OR(m.CreatorID.EQ(v.ID)).OR(invited)))))
}

// forumReaders selects, among the candidates, the readers of forum about.
func forumReaders(about pg.StringExpression, candidates []uuid.UUID) pg.SelectStatement {
	v := table.Users.AS("v")
	member, admin := access.ForumRulesAmong(about, communityOf(about), v.ID, v.Role.EQ(pg.String("super")))
	return pg.SELECT(v.ID).FROM(v).
		WHERE(db.Any(v.ID, candidates).AND(communityOf(about).IS_NOT_NULL()).AND(member.OR(admin)))
}
