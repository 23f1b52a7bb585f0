package delivery

import (
	"time"

	"agora/internal/rules/personalization"
)

// settings are a member's notification settings, as
// internal/rules/personalization reads them (with the server's defaults
// for the keys they never set).
type settings struct{ personalization.Settings }

func readSettings(data []byte) settings { return settings{personalization.Read(data)} }

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
	if f == personalization.Weekly {
		days = 7
		for end.Weekday() != s.Weekday {
			end = end.AddDate(0, 0, -1)
		}
	}
	start = end.AddDate(0, 0, -days)
	return start, end, now.Sub(end) < time.Hour
}
