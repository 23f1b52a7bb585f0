package personalization

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
)

// Frequencies of the digests (DigestFrequency, InsightsFrequency).
const (
	Off    = "off"
	Daily  = "daily"
	Weekly = "weekly"
)

// Settings are what the server reads of a user's personalization: their
// notification settings, with the defaults for the keys they never set,
// and what they did with the bell's list.
type Settings struct {
	EmailMentions, EmailPrivateChats             bool
	PushMentions, PushPrivateChats, PushComments bool
	// Digest and Insights are Off, Daily or Weekly.
	Digest, Insights string
	Hour             int
	Weekday          time.Weekday
	Zone             *time.Location
	// LastSeenAt is when the member last looked at the bell's list; zero
	// when never.
	LastSeenAt time.Time
	// Read and Dismissed are the notifications opened from the list and
	// those dismissed there; never nil.
	Read, Dismissed []uuid.UUID
}

// Switch is the value of the boolean setting key (a notification kind's
// e-mail or push key); "", or a key that is no switch, is off.
func (s Settings) Switch(key string) bool {
	switch key {
	case EmailMentions:
		return s.EmailMentions
	case EmailPrivateChats:
		return s.EmailPrivateChats
	case PushMentions:
		return s.PushMentions
	case PushPrivateChats:
		return s.PushPrivateChats
	case PushComments:
		return s.PushComments
	}
	return false
}

// Read reads a stored personalization (the flat object of dotted keys;
// empty or not an object reads as {}). A key absent, or holding a value
// of the wrong kind (PATCH checks kinds; what a browser stored before
// that may be of another shape), holds its default, so a reader never
// fails on it. In the lists of ids an entry that is not a UUID is left
// out and the others kept.
func Read(data []byte) Settings {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(data, &m)
	get := func(key string, dst any) {
		v, ok := m[key]
		if !ok || Check(key, v) != "" {
			v, _ = json.Marshal(Defaults[key])
		}
		_ = json.Unmarshal(v, dst)
	}
	ids := func(key string) []uuid.UUID {
		var list []string
		_ = json.Unmarshal(m[key], &list)
		out := []uuid.UUID{}
		for _, e := range list {
			if id, err := uuid.Parse(e); err == nil {
				out = append(out, id)
			}
		}
		return out
	}
	var s Settings
	get(EmailMentions, &s.EmailMentions)
	get(EmailPrivateChats, &s.EmailPrivateChats)
	get(PushMentions, &s.PushMentions)
	get(PushPrivateChats, &s.PushPrivateChats)
	get(PushComments, &s.PushComments)
	get(DigestFrequency, &s.Digest)
	get(InsightsFrequency, &s.Insights)
	get(DigestHour, &s.Hour)
	var weekday int
	get(DigestWeekday, &weekday)
	s.Weekday = time.Weekday(weekday)
	var zone, seen string
	get(TimeZone, &zone)
	if s.Zone, _ = time.LoadLocation(zone); s.Zone == nil {
		s.Zone = time.UTC
	}
	get(PostsLastSeenAt, &seen)
	s.LastSeenAt, _ = time.Parse(time.RFC3339Nano, seen)
	s.Read, s.Dismissed = ids(PostsRead), ids(PostsDismissed)
	return s
}
