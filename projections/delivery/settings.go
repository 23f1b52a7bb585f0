package delivery

import (
	"encoding/json"
	"slices"
	"time"
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

// readSettings reads the personalization's flat object; a key of the wrong
// type counts as absent (the PATCH checks types; this only reads).
func readSettings(data []byte) settings {
	s := settings{
		EmailMentions: true, EmailPrivateChats: true, PushMentions: true, PushPrivateChats: true, PushComments: true,
		Digest: Daily, Insights: Weekly, Hour: 8, Weekday: time.Monday, Zone: time.UTC,
	}
	var m map[string]json.RawMessage
	if len(data) == 0 || json.Unmarshal(data, &m) != nil {
		return s
	}
	boolean := func(key string, dst *bool) {
		var b bool
		if v, ok := m[key]; ok && json.Unmarshal(v, &b) == nil {
			*dst = b
		}
	}
	frequency := func(key string, dst *string) {
		var f string
		if v, ok := m[key]; ok && json.Unmarshal(v, &f) == nil && slices.Contains([]string{Off, Daily, Weekly}, f) {
			*dst = f
		}
	}
	boolean("notifications.email.mentions", &s.EmailMentions)
	boolean("notifications.email.privateChats", &s.EmailPrivateChats)
	boolean("notifications.push.mentions", &s.PushMentions)
	boolean("notifications.push.privateChats", &s.PushPrivateChats)
	boolean("notifications.push.comments", &s.PushComments)
	frequency("notifications.digest.frequency", &s.Digest)
	frequency("notifications.insights.frequency", &s.Insights)
	var n int
	if v, ok := m["notifications.digest.hour"]; ok && json.Unmarshal(v, &n) == nil && n >= 0 && n <= 23 {
		s.Hour = n
	}
	if v, ok := m["notifications.digest.weekday"]; ok && json.Unmarshal(v, &n) == nil && n >= 0 && n <= 6 {
		s.Weekday = time.Weekday(n)
	}
	var str string
	if v, ok := m["notifications.timezone"]; ok && json.Unmarshal(v, &str) == nil && str != "" {
		if loc, err := time.LoadLocation(str); err == nil {
			s.Zone = loc
		}
	}
	if v, ok := m["notifications.posts.lastSeenAt"]; ok && json.Unmarshal(v, &str) == nil {
		if t, err := time.Parse(time.RFC3339Nano, str); err == nil {
			s.LastSeenAt = t
		}
	}
	_ = json.Unmarshal(m["notifications.posts.read"], &s.Read)
	_ = json.Unmarshal(m["notifications.posts.dismissed"], &s.Dismissed)
	return s
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
