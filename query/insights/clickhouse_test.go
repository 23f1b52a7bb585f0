package insights_test

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/query/insights"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// listed is an item as the list must return it.
type listed struct {
	id, post, actor uuid.UUID
	anonymous       bool
	at              time.Time
	detail          string
}

// same compares two items, their times to the millisecond.
func (l listed) same(o listed) bool {
	return l.id == o.id && l.post == o.post && l.actor == o.actor && l.anonymous == o.anonymous && l.at.UnixMilli() == o.at.UnixMilli() && l.detail == o.detail
}

// TestListPages writes question facts over a forum's days (some anonymous,
// some edited, some deleted, some in the admin channel, another forum or
// before the period), the daily counts of them, and pages through the
// list with several page sizes: every page is the matching slice of the
// whole list, newest first, whichever days it spans.
func TestListPages(t *testing.T) {
	conn, _ := testenv.Warehouse(t)
	ctx := t.Context()
	rng := rand.New(rand.NewPCG(7, 7))
	series, main, admin, other := uuid.New(), uuid.New(), uuid.New(), uuid.New()
	today := time.Now().UTC().Truncate(24 * time.Hour)
	scope := insights.Scope{SeriesID: series, MainChannelID: main, From: today.AddDate(0, 0, -29), To: today}

	bt, err := conn.PrepareBatch(ctx, "INSERT INTO facts (series_id, kind, day, object_id, community_id, channel_id, post_id, actor_id, anonymous, occurred_ms, n, detail, active, version)")
	if err != nil {
		t.Fatal(err)
	}
	var want []listed
	version := uint64(1000)
	add := func(s, channel uuid.UUID, at time.Time, lst listed, active bool) {
		t.Helper()
		version += uint64(1 + rng.IntN(5))
		anon := uint8(0)
		if lst.anonymous {
			anon = 1
		}
		on := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC)
		var a uint8
		if active {
			a = 1
		}
		if err := bt.Append(s, "question", on, lst.id, uuid.Nil, channel, lst.post, lst.actor, anon, uint64(at.UnixMilli()), uint32(0), lst.detail, a, version); err != nil {
			t.Fatal(err)
		}
	}
	// Days with 0 to 6 questions, some days empty; the last days of the
	// period (today aside) and some before it.
	for d := -35; d <= -1; d++ {
		for q := range rng.IntN(7) {
			at := today.AddDate(0, 0, d).Add(time.Duration(rng.Int64N(int64(24 * time.Hour)))).Truncate(time.Millisecond)
			id := uuid.Must(uuid.NewV7())
			it := listed{id: id, post: id, actor: uuid.New(), anonymous: rng.IntN(5) == 0, at: at, detail: fmt.Sprintf("Question %d of day %d?", q, d)}
			if it.anonymous {
				it.actor = uuid.Nil
			}
			switch x := rng.IntN(10); {
			case x == 0: // deleted later
				add(series, main, at, it, true)
				add(series, main, at, it, false)
				continue
			case x == 1: // in the admin channel
				add(series, admin, at, it, true)
				continue
			case x == 2: // in another forum
				add(other, main, at, it, true)
				continue
			case x < 5: // edited: the newest text wins
				add(series, main, at, it, true)
				it.detail += " (edited)"
			}
			add(series, main, at, it, true)
			if !at.Before(scope.From) {
				want = append(want, it)
			}
		}
	}
	if err := bt.Send(); err != nil {
		t.Fatal(err)
	}
	// The daily counts, as the projection recounts them.
	if err := conn.Exec(ctx, `INSERT INTO daily (series_id, kind, day, channel_id, objects, n, anonymous, version)
		SELECT series_id, kind, day, channel_id, sum(a), sum(a * n), sum(a * anon), sum(v)
		FROM (SELECT series_id, kind, day, channel_id, object_id, argMax(active, version) AS a, argMax(n, version) AS n,
		             any(anonymous) AS anon, max(version) AS v
		      FROM facts GROUP BY series_id, kind, day, channel_id, object_id)
		GROUP BY series_id, kind, day, channel_id`); err != nil {
		t.Fatal(err)
	}
	sort.Slice(want, func(i, j int) bool {
		if !want[i].at.Equal(want[j].at) {
			return want[i].at.After(want[j].at)
		}
		return want[i].id.String() > want[j].id.String()
	})
	anonymous := 0
	for _, w := range want {
		if w.anonymous {
			anonymous++
		}
	}
	if len(want) < 40 {
		t.Fatalf("only %d questions: the test means to page over many days", len(want))
	}

	store := insights.NewClickHouse(conn)
	for _, size := range []int{1, 2, 3, 7, 20, 100} {
		var got []listed
		for offset := 0; ; offset += size {
			p, err := store.List(ctx, scope, "question", offset, size)
			if err != nil {
				t.Fatal(err)
			}
			if p.Total != len(want) || p.Anonymous != anonymous {
				t.Fatalf("size %d offset %d: total %d (%d anonymous), want %d (%d)", size, offset, p.Total, p.Anonymous, len(want), anonymous)
			}
			if len(p.Items) > size {
				t.Fatalf("size %d offset %d: %d items", size, offset, len(p.Items))
			}
			for _, it := range p.Items {
				got = append(got, listed{id: it.ObjectID, post: it.PostID, actor: it.ActorID, anonymous: it.Anonymous, at: it.Occurred, detail: it.Detail})
			}
			if len(p.Items) < size {
				break
			}
		}
		if len(got) != len(want) {
			t.Fatalf("size %d: %d items, want %d", size, len(got), len(want))
		}
		for i := range want {
			if !got[i].same(want[i]) {
				t.Fatalf("size %d: item %d is %+v, want %+v", size, i, got[i], want[i])
			}
		}
	}

	// A question of today, which the counts have not caught up with yet
	// (its batch's recount is still to come), is on the first page all the
	// same.
	late := today.Add(24*time.Hour - time.Millisecond)
	id := uuid.Must(uuid.NewV7())
	bt, err = conn.PrepareBatch(ctx, "INSERT INTO facts (series_id, kind, day, object_id, community_id, channel_id, post_id, actor_id, anonymous, occurred_ms, n, detail, active, version)")
	if err != nil {
		t.Fatal(err)
	}
	add(series, main, late, listed{id: id, post: id, actor: uuid.New(), at: late, detail: "Late?"}, true)
	if err := bt.Send(); err != nil {
		t.Fatal(err)
	}
	p, err := store.List(ctx, scope, "question", 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 3 || p.Items[0].ObjectID != id || p.Items[1].ObjectID != want[0].id {
		t.Fatalf("the first page without the late question on top: %+v", p.Items)
	}
}

// TestMeetupsFromFacts writes the facts of Meet Ups (one before the
// period, one deleted, one in another forum, a declined invitation turned
// inactive, a session written twice) and reads the period's Meet Ups.
func TestMeetupsFromFacts(t *testing.T) {
	conn, _ := testenv.Warehouse(t)
	ctx := t.Context()
	series, other := uuid.New(), uuid.New()
	today := time.Now().UTC().Truncate(24 * time.Hour)
	scope := insights.Scope{SeriesID: series, MainChannelID: uuid.New(), From: today.AddDate(0, 0, -29), To: today}
	bt, err := conn.PrepareBatch(ctx, "INSERT INTO facts (series_id, kind, day, object_id, community_id, channel_id, post_id, actor_id, anonymous, occurred_ms, n, detail, active, version)")
	if err != nil {
		t.Fatal(err)
	}
	version := uint64(1)
	add := func(s uuid.UUID, kind string, object, post, actor uuid.UUID, at time.Time, n uint32, detail string, active bool) {
		t.Helper()
		version++
		a := uint8(0)
		if active {
			a = 1
		}
		if err := bt.Append(s, kind, at.Truncate(24*time.Hour), object, uuid.Nil, uuid.Nil, post, actor, uint8(0), uint64(at.UnixMilli()), n, detail, a, version); err != nil {
			t.Fatal(err)
		}
	}
	held, private, old, gone, elsewhere := uuid.New(), uuid.New(), uuid.New(), uuid.New(), uuid.New()
	ada, bo := uuid.New(), uuid.New()
	start := today.AddDate(0, 0, -2).Add(15 * time.Hour)
	add(series, "meetup", held, uuid.New(), ada, start, 30, "open", true)
	add(series, "meetup", private, uuid.New(), ada, start, 60, "open", true)
	add(series, "meetup", private, uuid.New(), ada, start, 60, "private", true) // edited: the newest wins
	add(series, "meetup", old, uuid.New(), ada, today.AddDate(0, 0, -40), 30, "open", true)
	add(series, "meetup", gone, uuid.New(), ada, start, 30, "open", true)
	add(series, "meetup", gone, uuid.New(), ada, start, 30, "open", false)
	add(other, "meetup", elsewhere, uuid.New(), ada, start, 30, "open", true)
	add(series, "meetup_invited", uuid.New(), held, ada, start, 0, "", true)
	declined := uuid.New()
	add(series, "meetup_invited", declined, held, bo, start, 0, "", true)
	add(series, "meetup_invited", declined, held, bo, start, 0, "", false)
	add(series, "meetup_invited", uuid.New(), old, bo, start, 0, "", true)
	session := uuid.New()
	add(series, "meetup_attended", session, held, ada, start, 0, "", true)
	add(series, "meetup_attended", session, held, ada, start, 600, "", true)
	add(series, "meetup_attended", uuid.New(), held, bo, start.Add(time.Minute), 300, "", true)
	if err := bt.Send(); err != nil {
		t.Fatal(err)
	}
	ms, err := insights.NewClickHouse(conn).Meetups(ctx, scope)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[uuid.UUID]insights.Meetup{}
	for _, m := range ms {
		byID[m.ID] = m
	}
	if len(ms) != 2 || len(byID) != 2 {
		t.Fatalf("Meet Ups %+v: want the held one and the private one", ms)
	}
	h, p := byID[held], byID[private]
	if h.Private || !p.Private || h.Invited != 1 || p.Invited != 0 {
		t.Errorf("held %+v, private %+v", h, p)
	}
	if len(h.Sessions) != 2 || len(p.Sessions) != 0 {
		t.Fatalf("sessions %+v", h.Sessions)
	}
	for _, s := range h.Sessions {
		if (s.UserID == ada && s.Seconds != 600) || (s.UserID == bo && s.Seconds != 300) {
			t.Errorf("session %+v", s)
		}
	}
}
