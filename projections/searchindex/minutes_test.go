package searchindex_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/seed"
	"agora/projections/searchindex"
	"agora/search"
)

// A Meet Up's minutes are found by their words, leading to the Meet Up
// post, by its creator and invitees only: not by another reader of the
// forum, who finds the post itself. Invitees added or removed and minutes
// deleted follow.
func TestMinutesAreFoundByTheCreatorAndInviteesOnly(t *testing.T) {
	w := newWorld(t)
	ctx := t.Context()
	invitee := w.id(t, "SELECT id FROM users WHERE email_key = $1", seed.ExpertEmail)
	reader := w.id(t, "SELECT id FROM users WHERE email_key = $1", seed.AdminEmail)
	thread, room := uuid.New(), uuid.New()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := w.env.DB.Pool.Exec(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`INSERT INTO threads (id, channel_id, series_id, creator_id, raw) VALUES ($1, $2, $3, $4, '')`, thread, w.main, w.series, w.memberUser)
	exec(`INSERT INTO meetings (id, thread_id, series_id, creator_id, name, start_time, duration, open)
		VALUES ($1, $2, $3, $4, 'Sync', now(), 30, false)`, room, thread, w.series, w.memberUser)
	exec(`INSERT INTO meeting_invitees (meeting_id, user_id) VALUES ($1, $2)`, room, invitee)
	exec(`UPDATE meetings SET minutes_state = 'completed', minutes_on = now(),
		minutes_content = 'Agenda: Sync. Notes: the zeppelin hangar lease is renewed' WHERE id = $1`, room)

	find := func(user string) []search.Post {
		t.Helper()
		r, err := w.store.Posts().Search(ctx, search.Query{Text: "zeppelin hangar",
			Filter: search.Filter{search.In("forumId", w.series), search.ReadableBy(user, w.main, w.admin)}})
		if err != nil {
			t.Fatal(err)
		}
		return r.Hits
	}
	waitFor(t, 10*time.Second, func() bool { return len(find(w.memberUser)) == 1 })
	got := find(w.memberUser)[0]
	if got.Kind != search.KindMinutes || got.ThreadID != thread.String() || got.ID != searchindex.MinutesDocID(thread).String() {
		t.Fatalf("creator found %+v, want the minutes of post %s", got, thread)
	}
	if n := len(find(invitee)); n != 1 {
		t.Errorf("the invitee found %d documents, want the minutes", n)
	}
	if n := len(find(reader)); n != 0 {
		t.Errorf("a reader of the forum who is not invited found %d documents", n)
	}

	exec(`INSERT INTO meeting_invitees (meeting_id, user_id) VALUES ($1, $2)`, room, reader)
	waitFor(t, 10*time.Second, func() bool { return len(find(reader)) == 1 })
	exec(`DELETE FROM meeting_invitees WHERE meeting_id = $1 AND user_id = $2`, room, reader)
	waitFor(t, 10*time.Second, func() bool { return len(find(reader)) == 0 })

	exec(`UPDATE meetings SET minutes_state = NULL, minutes_content = NULL WHERE id = $1`, room)
	waitFor(t, 10*time.Second, func() bool { return len(find(w.memberUser)) == 0 })
	if n := len(find(invitee)); n != 0 {
		t.Errorf("deleted minutes still found by the invitee (%d)", n)
	}
}
