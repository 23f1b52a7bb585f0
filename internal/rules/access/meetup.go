package access

import (
	"context"
	"errors"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// Meet Up roles (spec 002 §6): what a person joins a Meet Up's room as.
const (
	MeetingHost      = "host"
	MeetingModerator = "moderator"
	MeetingMember    = "member"
)

// MeetingGrace is how long before its start a Meet Up's room may be joined
// (spec 002 §4 "Meet Up lifecycle").
const MeetingGrace = 10 * time.Minute

// MeetingEnd is a Meet Up's scheduled end: its start plus its duration in
// minutes (spec 002 §4: "the end (start plus duration)").
func MeetingEnd(start time.Time, minutes int) time.Time {
	return start.Add(time.Duration(minutes) * time.Minute)
}

// MeetingEndedOn is when the Meet Up ended, as of now: when it was ended
// for all (endedOn), or its scheduled end once that has come, whichever
// is first; nil while it has not ended. The scheduled end ends a Meet Up
// whether or not anyone ended it or the sweep has written it (command
// meeting's EndOverdue), so that reads, join tokens and the commands
// agree to the second.
//
// The end is not held open for a Meet Up in progress: the spec puts it at
// start plus duration and warns everyone 5 minutes before it, and a room
// that outlived its end would make that warning, the Meet Up's endTime
// and the reads disagree. A host who needs longer schedules a longer Meet
// Up.
func MeetingEndedOn(endedOn *time.Time, start time.Time, minutes int, now time.Time) *time.Time {
	end := MeetingEnd(start, minutes)
	if endedOn != nil && endedOn.Before(end) {
		return endedOn
	}
	if endedOn != nil || !now.Before(end) {
		return &end
	}
	return nil
}

// The refusals of a Meet Up's room outside its time window, shared by the
// join token and the AI notes recording.
var (
	// ErrMeetingEnded is a change to, or a join of, a Meet Up that has
	// ended (for all, or at its scheduled end).
	ErrMeetingEnded = apperr.New(apperr.Conflict, "meetingEnded", "the Meet Up has ended")
	// ErrMeetingNotYetTime is a join before the grace window opens; its
	// details give the start and the grace minutes the client shows.
	ErrMeetingNotYetTime = apperr.New(apperr.Conflict, "meetingNotYetTime", "it is not time to join the Meet Up yet")
)

// MeetingRoomOpen is nil when a Meet Up's room may be entered at now: from
// MeetingGrace before its start until it ends (MeetingEndedOn); otherwise
// ErrMeetingEnded or ErrMeetingNotYetTime with the start and grace.
func MeetingRoomOpen(endedOn *time.Time, start time.Time, minutes int, now time.Time) error {
	if MeetingEndedOn(endedOn, start, minutes, now) != nil {
		return ErrMeetingEnded
	}
	if now.Before(start.Add(-MeetingGrace)) {
		return ErrMeetingNotYetTime.With("startTime", start.UTC().Format(time.RFC3339Nano)).
			With("graceMinutes", int(MeetingGrace/time.Minute))
	}
	return nil
}

// MeetingEndSQL is MeetingEnd of the Meet Up m in SQL.
func MeetingEndSQL(m *table.MeetingsTable) TimestampzExpression {
	return m.StartTime.ADD(INTERVALd(time.Minute).MUL(m.Duration))
}

// MeetingEndedBy is MeetingEndedOn in SQL: whether the Meet Up m had
// ended by at. It is never null (LEAST passes over a null ended_on), so it
// may be negated.
func MeetingEndedBy(m *table.MeetingsTable, at time.Time) BoolExpression {
	return TimestampzExp(LEAST(m.EndedOn, MeetingEndSQL(m))).LT_EQ(TimestampzT(at))
}

// MeetingSeat is a person's row of a Meet Up (meeting_invitees): an
// invitee's role and answer, or a registration of an open Meet Up.
type MeetingSeat struct {
	Role     string
	Response *string
}

// MeetingRole is what user would join the Meet Up as: the creator is its
// host; an invitee who did not decline, and a registered member, join with
// their role; anyone else, a declined invitee and a waitlisted member
// included, may not join (""). seat is nil for someone without a row.
// Commands and reads both ask it, so that a token is given exactly to
// those the Meet Up shows may join.
func MeetingRole(creator, user uuid.UUID, seat *MeetingSeat) string {
	if user == creator {
		return MeetingHost
	}
	if seat == nil {
		return ""
	}
	if r := seat.Response; r != nil && (*r == "no" || *r == "waitlisted") {
		return ""
	}
	if seat.Role == MeetingModerator {
		return MeetingModerator
	}
	return MeetingMember
}

// MeetingRuns reports whether role may run the Meet Up (end it, add
// members, open breakouts, AI notes): its host and moderators.
func MeetingRuns(role string) bool { return role == MeetingHost || role == MeetingModerator }

// MeetingChat is a Meet Up's chat as a user who may read it finds it.
type MeetingChat struct {
	MeetingID uuid.UUID
	// ChannelID is the chat's channel, nil until its first message.
	ChannelID *uuid.UUID
	// Ended is whether the Meet Up has ended (MeetingEndedOn): its chat
	// is read, no longer written.
	Ended bool
}

// ReadMeetingChat is the chat of the Meet Up roomID for a, who must be
// able to join it (MeetingRole) in a forum they read. A Meet Up unknown
// or in a forum they may not read is not found; one they read but may
// not join is apperr.ErrForbidden, as its join token is.
func ReadMeetingChat(ctx context.Context, q db.Querier, a auth.Caller, roomID uuid.UUID, now time.Time) (MeetingChat, error) {
	m, mi, c := table.Meetings, table.MeetingInvitees, table.Channels
	var row struct {
		SeriesID, CreatorID uuid.UUID
		EndedOn             *time.Time
		StartTime           time.Time
		Duration            int32
		SeatRole            *string
		Response            *string
		ChannelID           *uuid.UUID
	}
	err := db.QueryRow(ctx, q, SELECT(m.SeriesID, m.CreatorID, m.EndedOn, m.StartTime, m.Duration, mi.Role, mi.Response, c.ID).
		FROM(m.LEFT_JOIN(mi, mi.MeetingID.EQ(m.ID).AND(mi.UserID.EQ(UUID(a.UserID)))).
			LEFT_JOIN(c, c.MeetingID.EQ(m.ID))).
		WHERE(m.ID.EQ(UUID(roomID)))).
		Scan(&row.SeriesID, &row.CreatorID, &row.EndedOn, &row.StartTime, &row.Duration, &row.SeatRole, &row.Response, &row.ChannelID)
	if errors.Is(err, pgx.ErrNoRows) {
		return MeetingChat{}, apperr.ErrNotFound
	}
	if err != nil {
		return MeetingChat{}, fmt.Errorf("access: meeting chat: %w", err)
	}
	if _, err := ReadForum(ctx, q, a.UserID, a.Role, row.SeriesID); err != nil {
		return MeetingChat{}, err
	}
	var seat *MeetingSeat
	if row.SeatRole != nil {
		seat = &MeetingSeat{Role: *row.SeatRole, Response: row.Response}
	}
	if MeetingRole(row.CreatorID, a.UserID, seat) == "" {
		return MeetingChat{}, apperr.ErrForbidden
	}
	ended := MeetingEndedOn(row.EndedOn, row.StartTime, int(row.Duration), now) != nil
	return MeetingChat{MeetingID: roomID, ChannelID: row.ChannelID, Ended: ended}, nil
}

// ChannelReaders selects (one column, user ids) who receive a chat
// channel's messages: a private channel's two members (channel_members),
// or those whose MeetingRole in a Meet Up's channel's Meet Up is not ""
// (its creator; an invitee or registered member who neither declined nor
// waits for a seat), the same rule in SQL. The live events are addressed
// with it.
func ChannelReaders(channel StringExpression) Expression {
	cm, c := table.ChannelMembers.AS("rcm"), table.Channels.AS("rc")
	m, mi := table.Meetings.AS("rm"), table.MeetingInvitees.AS("rmi")
	return SELECT(cm.UserID).FROM(cm).WHERE(cm.ChannelID.EQ(channel)).
		UNION(SELECT(m.CreatorID).FROM(c.INNER_JOIN(m, m.ID.EQ(c.MeetingID))).WHERE(c.ID.EQ(channel))).
		UNION(SELECT(mi.UserID).FROM(c.INNER_JOIN(mi, mi.MeetingID.EQ(c.MeetingID))).
			WHERE(c.ID.EQ(channel).AND(mi.Response.IS_NULL().OR(mi.Response.NOT_IN(String("no"), String("waitlisted"))))))
}
