package access

import (
	"time"

	"github.com/google/uuid"
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
