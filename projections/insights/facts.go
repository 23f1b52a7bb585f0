package insights

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"agora/analytics"
	"agora/internal/adapters/linkpreview"
	"agora/internal/rules/richtext"
	"agora/projections/change"
)

// Fact is a row of the facts table: the state of one kind of one object.
type Fact struct {
	SeriesID    uuid.UUID
	Kind        string
	ObjectID    uuid.UUID
	CommunityID uuid.UUID
	ChannelID   uuid.UUID
	PostID      uuid.UUID
	// ActorID is who did it; uuid.Nil for an anonymous question (the
	// warehouse never learns its asker) or when unknown.
	ActorID   uuid.UUID
	Anonymous bool
	// Occurred is when the object was made (UTC, milliseconds); Day is
	// its date.
	Occurred time.Time
	N        uint32
	Detail   string
	Active   bool
	// Version is the change's transaction in commit order
	// (change.Position's Commit): the newest state wins.
	Version uint64
}

// Day is the UTC date of the fact, the third column of the sort key.
func (f Fact) Day() time.Time {
	t := f.Occurred.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// key is what ReplacingMergeTree deduplicates on: the sort key.
type key struct {
	series uuid.UUID
	kind   string
	day    time.Time
	object uuid.UUID
}

func (f Fact) key() key { return key{f.SeriesID, f.Kind, f.Day(), f.ObjectID} }

// place is where an object lives: its forum, community and channel.
type place struct {
	series, community, channel uuid.UUID
}

// threadRow is what the facts need of a threads row.
type threadRow struct {
	ID        uuid.UUID       `cdc:"id"`
	ChannelID uuid.UUID       `cdc:"channel_id"`
	SeriesID  uuid.UUID       `cdc:"series_id"`
	CreatorID uuid.UUID       `cdc:"creator_id"`
	CreatorAs string          `cdc:"creator_as"`
	Type      string          `cdc:"type"`
	Raw       string          `cdc:"raw"`
	Image     json.RawMessage `cdc:"image"`
	File      json.RawMessage `cdc:"file"`
	Link      json.RawMessage `cdc:"link"`
	CreatedOn time.Time       `cdc:"created_on"`
}

func scanThread(r change.Row) (threadRow, error) {
	var t threadRow
	if err := r.Scan(&t); err != nil {
		return t, fmt.Errorf("insights: threads: %w", err)
	}
	return t, nil
}

// anonymous is a question asked anonymously: its facts have no actor.
func (t threadRow) anonymous() bool { return t.CreatorAs == "anonymous" }

func (t threadRow) actor() uuid.UUID {
	if t.anonymous() {
		return uuid.Nil
	}
	return t.CreatorID
}

// threadFacts are the facts of a post: one per kind it has (post, and
// question, image… when it has them), active while the post exists. The
// kinds it does not have are written only with every (inactive): for an
// update that carries no before-image to say which kinds it removed.
func threadFacts(t threadRow, p place, exists, every bool, version uint64) []Fact {
	base := Fact{
		SeriesID: t.SeriesID, CommunityID: p.community, ChannelID: t.ChannelID, ObjectID: t.ID, PostID: t.ID,
		ActorID: t.actor(), Anonymous: t.anonymous(), Occurred: t.CreatedOn, Version: version,
	}
	video := embedded(t.Link)
	has := map[string]bool{
		analytics.KindPost:     true,
		analytics.KindQuestion: t.Type == "question",
		analytics.KindImage:    present(t.Image),
		analytics.KindFile:     present(t.File),
		analytics.KindLink:     present(t.Link) && !video,
		analytics.KindVideo:    present(t.Link) && video,
		analytics.KindAIChat:   t.Type == "shared-ai-chat",
	}
	out := make([]Fact, 0, 2)
	for _, kind := range []string{analytics.KindPost, analytics.KindQuestion, analytics.KindImage, analytics.KindFile, analytics.KindLink, analytics.KindVideo, analytics.KindAIChat} {
		if !has[kind] && !every {
			continue
		}
		f := base
		f.Kind, f.Active = kind, exists && has[kind]
		if kind == analytics.KindQuestion {
			f.Detail = strings.TrimSpace(richtext.Plain(t.Raw))
		}
		out = append(out, f)
	}
	return out
}

// present is a jsonb column holding something other than null.
func present(v json.RawMessage) bool {
	s := strings.TrimSpace(string(v))
	return s != "" && s != "null"
}

// embedded is a link that plays in the post (command/feed keeps the
// client's viewerType; internal/adapters/linkpreview names it).
func embedded(link json.RawMessage) bool {
	if !present(link) {
		return false
	}
	var l struct {
		ViewerType *string `json:"viewerType"`
	}
	return json.Unmarshal(link, &l) == nil && l.ViewerType != nil && *l.ViewerType == linkpreview.ViewerEmbedded
}

// replyRow is what the facts need of a replies row.
type replyRow struct {
	ID        uuid.UUID  `cdc:"id"`
	ThreadID  uuid.UUID  `cdc:"thread_id"`
	ParentID  *uuid.UUID `cdc:"parent_id"`
	CreatorID uuid.UUID  `cdc:"creator_id"`
	Raw       string     `cdc:"raw"`
	CreatedOn time.Time  `cdc:"created_on"`
}

func scanReply(r change.Row) (replyRow, error) {
	var v replyRow
	if err := r.Scan(&v); err != nil {
		return v, fmt.Errorf("insights: replies: %w", err)
	}
	return v, nil
}

// replyFacts are the facts of a comment or a reply to one: comment or
// reply, and inline_question when it asks questions (every: also the
// kinds it does not have, inactive, as threadFacts).
func replyFacts(r replyRow, p place, exists, every bool, version uint64) []Fact {
	base := Fact{
		SeriesID: p.series, CommunityID: p.community, ChannelID: p.channel, ObjectID: r.ID, PostID: r.ThreadID,
		ActorID: r.CreatorID, Occurred: r.CreatedOn, Version: version,
	}
	qs := Questions(r.Raw)
	out := make([]Fact, 0, 3)
	for _, k := range []struct {
		kind string
		has  bool
	}{{analytics.KindComment, r.ParentID == nil}, {analytics.KindReply, r.ParentID != nil}, {analytics.KindInlineQuestion, len(qs) > 0}} {
		if !k.has && !every {
			continue
		}
		f := base
		f.Kind, f.Active = k.kind, exists && k.has
		if k.kind == analytics.KindInlineQuestion && f.Active {
			f.N, f.Detail = uint32(len(qs)), strings.Join(qs, "\n")
		}
		out = append(out, f)
	}
	return out
}

// reactionRow is what the facts need of a reactions row.
type reactionRow struct {
	ID        uuid.UUID `cdc:"id"`
	ThreadID  uuid.UUID `cdc:"thread_id"`
	UserID    uuid.UUID `cdc:"user_id"`
	Kind      string    `cdc:"kind"`
	CreatedOn time.Time `cdc:"created_on"`
}

func scanReaction(r change.Row) (reactionRow, error) {
	var v reactionRow
	if err := r.Scan(&v); err != nil {
		return v, fmt.Errorf("insights: reactions: %w", err)
	}
	return v, nil
}

func reactionFacts(r reactionRow, p place, exists bool, version uint64) []Fact {
	return []Fact{{
		SeriesID: p.series, Kind: analytics.KindReaction, CommunityID: p.community, ChannelID: p.channel, ObjectID: r.ID,
		PostID: r.ThreadID, ActorID: r.UserID, Occurred: r.CreatedOn, Detail: r.Kind, Active: exists, Version: version,
	}}
}

// visitRow is a series_visit_log row.
type visitRow struct {
	ID        uuid.UUID `cdc:"id"`
	SeriesID  uuid.UUID `cdc:"series_id"`
	UserID    uuid.UUID `cdc:"user_id"`
	VisitedOn time.Time `cdc:"visited_on"`
}

func scanVisit(r change.Row) (visitRow, error) {
	var v visitRow
	if err := r.Scan(&v); err != nil {
		return v, fmt.Errorf("insights: series_visit_log: %w", err)
	}
	return v, nil
}

// visitFacts: a visit is to the forum, in no channel.
func visitFacts(v visitRow, community uuid.UUID, exists bool, version uint64) []Fact {
	return []Fact{{
		SeriesID: v.SeriesID, Kind: analytics.KindVisit, CommunityID: community, ObjectID: v.ID,
		ActorID: v.UserID, Occurred: v.VisitedOn, Active: exists, Version: version,
	}}
}

// searchRow is an ai_searches row: a conversation with the AI search.
type searchRow struct {
	ID        uuid.UUID `cdc:"id"`
	ChannelID uuid.UUID `cdc:"channel_id"`
	SeriesID  uuid.UUID `cdc:"series_id"`
	UserID    uuid.UUID `cdc:"user_id"`
}

func scanSearch(r change.Row) (searchRow, error) {
	var v searchRow
	if err := r.Scan(&v); err != nil {
		return v, fmt.Errorf("insights: ai_searches: %w", err)
	}
	return v, nil
}

// turnRow is an ai_search_turns row: one question asked.
type turnRow struct {
	ID        uuid.UUID `cdc:"id"`
	SearchID  uuid.UUID `cdc:"search_id"`
	Question  string    `cdc:"question"`
	CreatedOn time.Time `cdc:"created_on"`
}

func scanTurn(r change.Row) (turnRow, error) {
	var v turnRow
	if err := r.Scan(&v); err != nil {
		return v, fmt.Errorf("insights: ai_search_turns: %w", err)
	}
	return v, nil
}

// turnFacts: the asker is the search's, known from its parent.
func turnFacts(t turnRow, p parent, community uuid.UUID, exists bool, version uint64) []Fact {
	return []Fact{{
		SeriesID: p.series, Kind: analytics.KindAISearch, CommunityID: community, ChannelID: p.channel, ObjectID: t.ID,
		PostID: t.SearchID, ActorID: p.actor, Occurred: t.CreatedOn, Detail: t.Question, Active: exists, Version: version,
	}}
}

// membershipRow is a series_memberships row.
type membershipRow struct {
	SeriesID   uuid.UUID `cdc:"series_id"`
	ProfileID  uuid.UUID `cdc:"profile_id"`
	Role       string    `cdc:"role"`
	IsExpert   bool      `cdc:"is_expert"`
	Status     string    `cdc:"status"`
	AssignedOn time.Time `cdc:"assigned_on"`
}

func scanMembership(r change.Row) (membershipRow, error) {
	var v membershipRow
	if err := r.Scan(&v); err != nil {
		return v, fmt.Errorf("insights: series_memberships: %w", err)
	}
	return v, nil
}

// memberFacts: forum access, active while the membership exists and is
// active (an invited profile without an account is pending).
func memberFacts(m membershipRow, user, community uuid.UUID, exists bool, version uint64) []Fact {
	return []Fact{{
		SeriesID: m.SeriesID, Kind: analytics.KindMember, CommunityID: community, ObjectID: m.ProfileID,
		ActorID: user, Occurred: m.AssignedOn, Detail: m.Role, Active: exists && m.Status == "active", Version: version,
	}}
}

// meetingRow is a meetings row.
type meetingRow struct {
	ID        uuid.UUID `cdc:"id"`
	ThreadID  uuid.UUID `cdc:"thread_id"`
	SeriesID  uuid.UUID `cdc:"series_id"`
	CreatorID uuid.UUID `cdc:"creator_id"`
	Open      bool      `cdc:"open"`
	StartTime time.Time `cdc:"start_time"`
	Duration  int       `cdc:"duration"`
}

func scanMeeting(r change.Row) (meetingRow, error) {
	var v meetingRow
	if err := r.Scan(&v); err != nil {
		return v, fmt.Errorf("insights: meetings: %w", err)
	}
	return v, nil
}

// meetupFacts: a Meet Up counts on the day it starts; moved to another
// day, its old day's fact is written inactive (the before-image's key).
func meetupFacts(m meetingRow, community uuid.UUID, exists bool, version uint64) []Fact {
	detail := "private"
	if m.Open {
		detail = "open"
	}
	return []Fact{{
		SeriesID: m.SeriesID, Kind: analytics.KindMeetup, CommunityID: community, ObjectID: m.ID, PostID: m.ThreadID,
		ActorID: m.CreatorID, Occurred: m.StartTime, N: uint32(max(m.Duration, 0)), Detail: detail, Active: exists, Version: version,
	}}
}

// inviteeRow is a meeting_invitees row.
type inviteeRow struct {
	MeetingID uuid.UUID `cdc:"meeting_id"`
	UserID    uuid.UUID `cdc:"user_id"`
	Response  *string   `cdc:"response"`
	CreatedOn time.Time `cdc:"created_on"`
}

func scanInvitee(r change.Row) (inviteeRow, error) {
	var v inviteeRow
	if err := r.Scan(&v); err != nil {
		return v, fmt.Errorf("insights: meeting_invitees: %w", err)
	}
	return v, nil
}

// inviteeFacts: an invitee counts as invited unless they declined or wait
// for a seat; one fact per Meet Up and person, on the day they were
// invited or registered.
func inviteeFacts(v inviteeRow, p parent, community uuid.UUID, exists bool, version uint64) []Fact {
	invited := v.Response == nil || (*v.Response != "no" && *v.Response != "waitlisted")
	return []Fact{{
		SeriesID: p.series, Kind: analytics.KindMeetupInvited, CommunityID: community, ObjectID: uuid.NewSHA1(v.MeetingID, v.UserID[:]),
		PostID: v.MeetingID, ActorID: v.UserID, Occurred: v.CreatedOn, Active: exists && invited, Version: version,
	}}
}

// attendanceRow is a meeting_attendance row: one session in a room.
type attendanceRow struct {
	ID        string     `cdc:"id"`
	MeetingID uuid.UUID  `cdc:"meeting_id"`
	UserID    uuid.UUID  `cdc:"user_id"`
	JoinedOn  time.Time  `cdc:"joined_on"`
	LeftOn    *time.Time `cdc:"left_on"`
}

func scanAttendance(r change.Row) (attendanceRow, error) {
	var v attendanceRow
	if err := r.Scan(&v); err != nil {
		return v, fmt.Errorf("insights: meeting_attendance: %w", err)
	}
	return v, nil
}

// attendanceFacts: a session, its seconds once it ended. The object is
// the session (a name-based id of LiveKit's participant sid, which the
// facts' UUID column cannot hold as it is).
func attendanceFacts(v attendanceRow, p parent, community uuid.UUID, exists bool, version uint64) []Fact {
	var seconds uint32
	if v.LeftOn != nil && v.LeftOn.After(v.JoinedOn) {
		seconds = uint32(v.LeftOn.Sub(v.JoinedOn) / time.Second)
	}
	return []Fact{{
		SeriesID: p.series, Kind: analytics.KindMeetupAttended, CommunityID: community, ObjectID: uuid.NewSHA1(v.MeetingID, []byte(v.ID)),
		PostID: v.MeetingID, ActorID: v.UserID, Occurred: v.JoinedOn, N: seconds, Active: exists, Version: version,
	}}
}
