package meetup

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"

	"agora/internal/plumbing/auth"
)

// Calendar is GET /meetings/{roomId}/calendar.ics: the Meet Up as one
// iCalendar (RFC 5545) event; base is the address the post's route is
// appended to.
func (q *Queries) Calendar(ctx context.Context, v auth.Caller, roomID uuid.UUID, base string) (string, error) {
	m, _, err := q.read(ctx, v, roomID)
	if err != nil {
		return "", err
	}
	const stamp = "20060102T150405Z"
	lines := []string{
		"BEGIN:VCALENDAR",
		"VERSION:2.0",
		"PRODID:-//Agora//Meet Ups//EN",
		"CALSCALE:GREGORIAN",
		"METHOD:PUBLISH",
		"BEGIN:VEVENT",
		"UID:" + m.RoomID.String(),
		"DTSTAMP:" + q.now().UTC().Format(stamp),
		"DTSTART:" + time.Time(m.StartTime).UTC().Format(stamp),
		"DTEND:" + time.Time(m.EndTime).UTC().Format(stamp),
		"SUMMARY:" + icsText(m.Name),
		"DESCRIPTION:" + icsText(m.Agenda),
		"URL:" + strings.TrimSuffix(base, "/") + m.PostRoute,
		"END:VEVENT",
		"END:VCALENDAR",
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(fold(l))
		b.WriteString("\r\n")
	}
	return b.String(), nil
}

// icsText escapes a TEXT value (RFC 5545 §3.3.11).
var icsText = strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\r\n", `\n`, "\n", `\n`, "\r", `\n`).Replace

// fold breaks a content line into lines of at most 75 octets, each
// continuation starting with a space (RFC 5545 §3.1), never inside a
// UTF-8 sequence.
func fold(l string) string {
	var b strings.Builder
	n := 0
	for _, r := range l {
		size := len(string(r))
		if n+size > 75 {
			b.WriteString("\r\n ")
			n = 1
		}
		b.WriteRune(r)
		n += size
	}
	return b.String()
}
