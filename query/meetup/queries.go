// Package meetup is the read side of Meet Ups (spec 002 §3 "Meeting",
// §7 "Meet Ups"): a Meet Up as its readers see it, composed from its rows
// (meetings and meeting_invitees), the upcoming list, breakouts, the
// caller's permissions and the calendar file. The feed composes each
// post's meeting with Load, one read per page.
package meetup

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
	"agora/internal/rules/access"
)

// Queries reads Meet Ups from Postgres.
type Queries struct {
	pool *pgxpool.Pool
	now  func() time.Time
}

// New builds the queries.
func New(d *db.DB) (*Queries, error) {
	if d == nil || d.Pool == nil {
		return nil, errors.New("meeting.New: nil dependency")
	}
	return &Queries{pool: d.Pool, now: time.Now}, nil
}

// reminderBefore is how long before its start a Meet Up's reminder shows
// (spec 002 §4 "Reminders").
const reminderBefore = 15 * time.Minute

// Meeting is a Meet Up as one reader sees it (the OpenAPI's Meeting).
type Meeting struct {
	RoomID     uuid.UUID          `json:"roomId"`
	PostID     uuid.UUID          `json:"postId"`
	SeriesID   uuid.UUID          `json:"seriesId"`
	CreatorID  uuid.UUID          `json:"creatorId"`
	Name       string             `json:"name"`
	Agenda     string             `json:"agenda"`
	StartTime  jsontime.Time      `json:"startTime"`
	EndTime    jsontime.Time      `json:"endTime"`
	CreatedOn  jsontime.Time      `json:"createdOn"`
	UpdatedOn  jsontime.Time      `json:"updatedOn"`
	Duration   int                `json:"duration"`
	Open       bool               `json:"open"`
	SeatCount  *int               `json:"seatCount"`
	SeatsLeft  *int               `json:"seatsLeft"`
	Invitees   map[string]*string `json:"invitees"`
	Roles      map[string]string  `json:"roles"`
	Waitlist   []uuid.UUID        `json:"waitlist"`
	Breakouts  BreakoutRooms      `json:"breakouts"`
	Minutes    Minutes            `json:"minutes"`
	Ended      bool               `json:"ended"`
	EndedOn    *jsontime.Time     `json:"endedOn"`
	Tag        string             `json:"tag"`
	ReminderAt jsontime.Time      `json:"reminderAt"`
	Context    Context            `json:"context"`
	TopicRoute string             `json:"topicRoute"`
	PostRoute  string             `json:"postRoute"`
	// MyRole is what the reader would join as (access.MeetingRole), null
	// when they may not join.
	MyRole *string `json:"myRole"`

	// content is the minutes' text, shown to the creator and invitees only.
	content *string
	seats   map[uuid.UUID]access.MeetingSeat
	ended   bool
}

// BreakoutRooms are a Meet Up's breakout rooms: each name's index, and
// whether they are open.
type BreakoutRooms struct {
	Open  bool           `json:"open"`
	Rooms map[string]int `json:"rooms"`
}

// Minutes are the AI notes' state and text.
type Minutes struct {
	State     *string        `json:"state"`
	Content   *string        `json:"content"`
	UpdatedOn *jsontime.Time `json:"updatedOn"`
}

// Context is the forum a Meet Up belongs to.
type Context struct {
	CommunityID uuid.UUID `json:"communityId"`
	SeriesID    uuid.UUID `json:"seriesId"`
	SeriesName  string    `json:"seriesName"`
}

// For is m as reader sees it: their role, and the minutes' text when they
// are the creator or an invitee. m itself is left as it was, so that one
// composed Meet Up serves every receiver of a live event.
func (m *Meeting) For(reader uuid.UUID) *Meeting {
	c := *m
	c.MyRole, c.Minutes.Content = nil, nil
	if r := c.RoleOf(reader); r != "" && !m.ended {
		c.MyRole = &r
	}
	if m.SeesMinutes(reader) {
		c.Minutes.Content = m.content
	}
	return &c
}

// RoleOf is what user would join the Meet Up as ("" when they may not).
func (m *Meeting) RoleOf(user uuid.UUID) string {
	var seat *access.MeetingSeat
	if s, ok := m.seats[user]; ok {
		seat = &s
	}
	return access.MeetingRole(m.CreatorID, user, seat)
}

// SeesMinutes reports whether user may read the minutes: the creator and
// the Meet Up's invitees (spec: minutes are visible to invitees only).
func (m *Meeting) SeesMinutes(user uuid.UUID) bool {
	_, invited := m.seats[user]
	return user == m.CreatorID || invited
}

// HasEnded reports whether the Meet Up has ended.
func (m *Meeting) HasEnded() bool { return m.ended }

// Audience lists who hears a private Meet Up's events besides those who
// administer its forum: its creator and invitees.
func (m *Meeting) Audience() []uuid.UUID {
	return append([]uuid.UUID{m.CreatorID}, sortedKeys(m.seats)...)
}

// meetingRow is a meetings row with its forum's community and name.
type meetingRow struct {
	model.Meetings
	CommunityID uuid.UUID
	SeriesName  string
}

// Load composes the Meet Ups of the posts threadIDs for reader, by post:
// one read of the meetings and one of their invitees, whatever the number
// of posts. Posts without a Meet Up are not in the map. The reader's
// rights in the forum are the caller's to check.
func Load(ctx context.Context, q db.Querier, reader uuid.UUID, threadIDs []uuid.UUID) (map[uuid.UUID]*Meeting, error) {
	all, err := load(ctx, q, table.Meetings.ThreadID, threadIDs, time.Now())
	if err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID]*Meeting, len(all))
	for _, m := range all {
		out[m.PostID] = m.For(reader)
	}
	return out, nil
}

// LoadAll is Load of every reader at once: the Meet Ups of the posts
// threadIDs as nobody in particular sees them, each to be told apart for
// its receivers with For (the live events).
func LoadAll(ctx context.Context, q db.Querier, threadIDs []uuid.UUID) (map[uuid.UUID]*Meeting, error) {
	all, err := load(ctx, q, table.Meetings.ThreadID, threadIDs, time.Now())
	if err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID]*Meeting, len(all))
	for _, m := range all {
		out[m.PostID] = m
	}
	return out, nil
}

// LoadRooms is LoadAll of the Meet Ups roomIDs, by roomId.
func LoadRooms(ctx context.Context, q db.Querier, roomIDs []uuid.UUID) (map[uuid.UUID]*Meeting, error) {
	all, err := load(ctx, q, table.Meetings.ID, roomIDs, time.Now())
	if err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID]*Meeting, len(all))
	for _, m := range all {
		out[m.RoomID] = m
	}
	return out, nil
}

// load reads the Meet Ups whose column by is one of ids, in the order of
// their start, as they are at now.
func load(ctx context.Context, q db.Querier, by ColumnString, ids []uuid.UUID, now time.Time) ([]*Meeting, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	m, s := table.Meetings, table.Series
	rows, err := db.All[meetingRow](ctx, q, SELECT(m.AllColumns, s.CommunityID.AS("community_id"), s.Name.AS("series_name")).
		FROM(m.INNER_JOIN(s, s.ID.EQ(m.SeriesID))).
		WHERE(db.Any(by, ids)).
		ORDER_BY(m.StartTime, m.ID))
	if err != nil {
		return nil, fmt.Errorf("meeting: meetings: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	byID := make(map[uuid.UUID]*Meeting, len(rows))
	roomIDs := make([]uuid.UUID, len(rows))
	out := make([]*Meeting, len(rows))
	for i, r := range rows {
		out[i] = compose(r, now)
		byID[r.ID] = out[i]
		roomIDs[i] = r.ID
	}
	mi := table.MeetingInvitees
	invitees, err := db.All[model.MeetingInvitees](ctx, q, SELECT(mi.AllColumns).FROM(mi).
		WHERE(db.Any(mi.MeetingID, roomIDs)).
		ORDER_BY(mi.MeetingID, mi.RespondedOn.ASC().NULLS_LAST(), mi.UserID))
	if err != nil {
		return nil, fmt.Errorf("meeting: invitees: %w", err)
	}
	registered := map[uuid.UUID]int{}
	for _, in := range invitees {
		mt := byID[in.MeetingID]
		key := in.UserID.String()
		mt.Invitees[key] = in.Response
		mt.seats[in.UserID] = access.MeetingSeat{Role: in.Role, Response: in.Response}
		switch {
		case in.Response != nil && *in.Response == "registered":
			registered[in.MeetingID]++
		case in.Response != nil && *in.Response == "waitlisted":
			mt.Waitlist = append(mt.Waitlist, in.UserID)
		default:
			// Registered and waitlisted members are not invitees: they
			// have no role to show (spec 002 §3: roles of invitees).
			mt.Roles[key] = in.Role
		}
	}
	for _, mt := range out {
		if mt.SeatCount != nil {
			left := max(*mt.SeatCount-registered[mt.RoomID], 0)
			mt.SeatsLeft = &left
		}
	}
	return out, nil
}

// compose is the Meet Up of row r at now. It has ended once it was ended
// for all or its scheduled end has come (access.MeetingEndedOn), whether
// or not the sweep has written it yet: endedOn is then the moment it
// ended, as the sweep will write it.
func compose(r meetingRow, now time.Time) *Meeting {
	start := r.StartTime
	endedOn := access.MeetingEndedOn(r.EndedOn, start, int(r.Duration), now)
	m := &Meeting{
		RoomID: r.ID, PostID: r.ThreadID, SeriesID: r.SeriesID, CreatorID: r.CreatorID,
		Name: r.Name, Agenda: r.Agenda,
		StartTime: jsontime.Of(start), EndTime: jsontime.Of(access.MeetingEnd(start, int(r.Duration))),
		CreatedOn: jsontime.Of(r.CreatedOn), UpdatedOn: jsontime.Of(r.UpdatedOn),
		Duration: int(r.Duration), Open: r.Open,
		Invitees: map[string]*string{}, Roles: map[string]string{}, Waitlist: []uuid.UUID{},
		Breakouts: BreakoutRooms{Open: r.BreakoutsOpen, Rooms: map[string]int{}},
		Minutes:   Minutes{State: r.MinutesState, UpdatedOn: jsontime.Ptr(r.MinutesOn)},
		Ended:     endedOn != nil, EndedOn: jsontime.Ptr(endedOn),
		Tag:        r.ID.String(),
		ReminderAt: jsontime.Of(start.Add(-reminderBefore)),
		Context:    Context{CommunityID: r.CommunityID, SeriesID: r.SeriesID, SeriesName: r.SeriesName},
		content:    r.MinutesContent,
		seats:      map[uuid.UUID]access.MeetingSeat{},
		ended:      endedOn != nil,
	}
	if r.SeatCount != nil {
		n := int(*r.SeatCount)
		m.SeatCount = &n
	}
	for i, name := range r.Breakouts {
		m.Breakouts.Rooms[name] = i
	}
	m.TopicRoute = "/communities/" + r.CommunityID.String() + "/series/" + r.SeriesID.String()
	m.PostRoute = m.TopicRoute + "/posts/" + r.ThreadID.String()
	return m
}

// read finds the Meet Up roomID for reader v, who must read its forum; an
// unknown Meet Up and one the reader may not read are both 404.
func (q *Queries) read(ctx context.Context, v auth.Caller, roomID uuid.UUID) (*Meeting, access.Forum, error) {
	all, err := load(ctx, q.pool, table.Meetings.ID, []uuid.UUID{roomID}, q.now())
	if err != nil {
		return nil, access.Forum{}, err
	}
	if len(all) == 0 {
		return nil, access.Forum{}, apperr.ErrNotFound
	}
	f, err := access.ReadForum(ctx, q.pool, v.UserID, v.Role, all[0].SeriesID)
	if err != nil {
		return nil, f, err
	}
	return all[0], f, nil
}

// Get is GET /meetings/{roomId}.
func (q *Queries) Get(ctx context.Context, v auth.Caller, roomID uuid.UUID) (*Meeting, error) {
	m, _, err := q.read(ctx, v, roomID)
	if err != nil {
		return nil, err
	}
	return m.For(v.UserID), nil
}

// OfPost is the Meet Up of post threadID (PUT /threads/{id}/meeting/response
// answers it).
func (q *Queries) OfPost(ctx context.Context, v auth.Caller, threadID uuid.UUID) (*Meeting, error) {
	all, err := load(ctx, q.pool, table.Meetings.ThreadID, []uuid.UUID{threadID}, q.now())
	if err != nil {
		return nil, err
	}
	if len(all) == 0 {
		return nil, apperr.ErrNotFound
	}
	return q.Get(ctx, v, all[0].RoomID)
}

// sortedKeys is m's keys in order, for output that does not vary.
func sortedKeys[V any](m map[uuid.UUID]V) []uuid.UUID {
	out := make([]uuid.UUID, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}
