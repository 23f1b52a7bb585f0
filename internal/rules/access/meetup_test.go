package access_test

import (
	"testing"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// TestMeetingEndedOn: a Meet Up has ended once it was ended for all or its
// scheduled end (start plus duration) has come, whichever is first, and not
// a moment later; the SQL of the sweep and the lists answers as the Go of
// the reads and the commands, row by row.
func TestMeetingEndedOn(t *testing.T) {
	now := time.Now().UTC().Truncate(time.Millisecond)
	ago := func(d time.Duration) *time.Time { v := now.Add(-d); return &v }
	cases := []struct {
		name    string
		start   time.Time
		minutes int
		endedOn *time.Time
		want    *time.Time // nil: not ended
	}{
		{"upcoming", now.Add(time.Hour), 30, nil, nil},
		{"in progress", now.Add(-10 * time.Minute), 30, nil, nil},
		{"a second before its end", now.Add(-15*time.Minute + time.Second), 15, nil, nil},
		{"at its end", now.Add(-15 * time.Minute), 15, nil, ago(0)},
		{"past its end, nobody ended it", now.Add(-2 * time.Hour), 60, nil, ago(time.Hour)},
		{"ended for all before its end", now.Add(-10 * time.Minute), 30, ago(5 * time.Minute), ago(5 * time.Minute)},
		{"its room finished after its end", now.Add(-3 * time.Hour), 60, ago(time.Hour), ago(2 * time.Hour)},
	}
	env := testenv.New(t)
	ctx := t.Context()
	var channel, series, creator uuid.UUID
	if err := env.DB.Pool.QueryRow(ctx, `SELECT c.id, c.series_id, p.user_id FROM channels c
		JOIN series_memberships sm ON sm.series_id = c.series_id AND sm.status = 'active'
		JOIN profiles p ON p.id = sm.profile_id ORDER BY c.id, p.user_id LIMIT 1`).Scan(&channel, &series, &creator); err != nil {
		t.Fatal(err)
	}
	ids := make([]uuid.UUID, len(cases))
	for i, c := range cases {
		// An API node's sweep may end the overdue rows meanwhile: it
		// writes the end this rule reads, so the answers do not change.
		ids[i] = uuid.New()
		thread := uuid.New()
		if _, err := env.DB.Pool.Exec(ctx, `INSERT INTO threads (id, channel_id, series_id, creator_id, raw) VALUES ($1, $2, $3, $4, '')`,
			thread, channel, series, creator); err != nil {
			t.Fatal(err)
		}
		if _, err := env.DB.Pool.Exec(ctx, `INSERT INTO meetings (id, thread_id, series_id, creator_id, name, start_time, duration, open, ended_on)
			VALUES ($1, $2, $3, $4, 'End rule', $5, $6, false, $7)`, ids[i], thread, series, creator, c.start, c.minutes, c.endedOn); err != nil {
			t.Fatal(err)
		}
	}
	m := table.Meetings
	byNow, err := db.Values[uuid.UUID](ctx, env.DB.Pool, SELECT(m.ID).FROM(m).WHERE(db.Any(m.ID, ids).AND(access.MeetingEndedBy(m, now))))
	if err != nil {
		t.Fatal(err)
	}
	notByNow, err := db.Values[uuid.UUID](ctx, env.DB.Pool, SELECT(m.ID).FROM(m).WHERE(db.Any(m.ID, ids).AND(NOT(access.MeetingEndedBy(m, now)))))
	if err != nil {
		t.Fatal(err)
	}
	inSQL := map[uuid.UUID]bool{}
	for _, id := range byNow {
		inSQL[id] = true
	}
	for i, c := range cases {
		got := access.MeetingEndedOn(c.endedOn, c.start, c.minutes, now)
		switch {
		case (got == nil) != (c.want == nil), got != nil && !got.Equal(*c.want):
			t.Errorf("%s: ended on %v, want %v", c.name, got, c.want)
		}
		if inSQL[ids[i]] != (got != nil) {
			t.Errorf("%s: the SQL says ended %v, the Go %v", c.name, inSQL[ids[i]], got != nil)
		}
	}
	if len(byNow)+len(notByNow) != len(cases) {
		t.Errorf("%d ended and %d not of %d: the SQL rule is null for some", len(byNow), len(notByNow), len(cases))
	}
}
