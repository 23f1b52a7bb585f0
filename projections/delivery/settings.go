package delivery

import (
	"encoding/json"
	"time"

	"agora/internal/rules/personalization"
)

// Frequencies of the digests.
const (
	Off    = "off"
	Daily  = "daily"
	Weekly = "weekly"
)

// settings are a member's notification settings, read from their
// personalization (contract of issue 17), with the server's defaults for
// the keys they never set.
type settings struct {
	EmailMentions, EmailPrivateChats             bool
	PushMentions, PushPrivateChats, PushComments bool
	Digest, Insights                             string
	Hour                                         int
	Weekday                                      time.Weekday
	Zone                                         *time.Location
	Read, Dismissed                              []string
	LastSeenAt                                   time.Time
}

// readSettings reads the personalization's flat object. A key absent, or
// of the wrong kind (the PATCH checks kinds; this only reads), holds its
// default: both come from internal/rules/personalization, the one list of keys.
func readSettings(data []byte) settings {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(data, &m)
	get := func(key string, dst any) {
		v, ok := m[key]
		if !ok || personalization.Check(key, v) != "" {
			v, _ = json.Marshal(personalization.Defaults[key])
		}
		_ = json.Unmarshal(v, dst)
	}
	var s settings
	get(personalization.EmailMentions, &s.EmailMentions)
	get(personalization.EmailPrivateChats, &s.EmailPrivateChats)
	get(personalization.PushMentions, &s.PushMentions)
	get(personalization.PushPrivateChats, &s.PushPrivateChats)
	get(personalization.PushComments, &s.PushComments)
	get(personalization.DigestFrequency, &s.Digest)
	get(personalization.InsightsFrequency, &s.Insights)
	get(personalization.DigestHour, &s.Hour)
	var weekday int
	get(personalization.DigestWeekday, &weekday)
	s.Weekday = time.Weekday(weekday)
	var zone, seen string
	get(personalization.TimeZone, &zone)
	if s.Zone, _ = time.LoadLocation(zone); s.Zone == nil {
		s.Zone = time.UTC
	}
	get(personalization.PostsLastSeenAt, &seen)
	s.LastSeenAt, _ = time.Parse(time.RFC3339Nano, seen)
	get(personalization.PostsRead, &s.Read)
	get(personalization.PostsDismissed, &s.Dismissed)
	return s
}

// on is the boolean setting key (a notice.Kind's Email or Push); "", or a
// key that is no switch, is off.
func (s settings) on(key string) bool {
	switch key {
	case personalization.EmailMentions:
		return s.EmailMentions
	case personalization.EmailPrivateChats:
		return s.EmailPrivateChats
	case personalization.PushMentions:
		return s.PushMentions
	case personalization.PushPrivateChats:
		return s.PushPrivateChats
	case personalization.PushComments:
		return s.PushComments
	}
	return false
}

// period is the digest period of frequency f that ended last at or before
// now: it ends at the member's hour (on their weekday, for weekly) in their
// zone, and lasts a day or a week. due says it ended within the last hour:
// a digest is mailed in the hour it is due, never late after a long stop.
func (s settings) period(f string, now time.Time) (start, end time.Time, due bool) {
	local := now.In(s.Zone)
	end = time.Date(local.Year(), local.Month(), local.Day(), s.Hour, 0, 0, 0, s.Zone)
	if end.After(local) {
		end = end.AddDate(0, 0, -1)
	}
	days := 1
	if f == Weekly {
		days = 7
		for end.Weekday() != s.Weekday {
			end = end.AddDate(0, 0, -1)
		}
	}
	start = end.AddDate(0, 0, -days)
	return start, end, now.Sub(end) < time.Hour
}
