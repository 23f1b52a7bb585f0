package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	guuid "github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/projections/change"
)

// insightsWorld is the generated organization: its forums, members, the
// activity's state while it is generated, and the change stream's
// position.
type insightsWorld struct {
	rng         *rand.Rand
	rows        int   // the distinct facts (keys) the warehouse is to hold
	goal        int64 // the fact rows to write (replays not counted)
	org         guuid.UUID
	caller      guuid.UUID // an admin of the organization: a forum admin of every forum
	communities []guuid.UUID
	forums      []*insightsForum
	forumW      *weighted
	users       []guuid.UUID
	profiles    []guuid.UUID
	memberships int

	// The stream.
	now, start time.Time
	lsn        uint64
	tx         int64
	// xmin is the oldest transaction of the bench's Postgres still running
	// when the load began: the made-up transaction ids cycle below it (see
	// change).
	xmin int64
	out  func(c change.Change) error
	// What was generated: the fact rows the projection wrote (replays not
	// counted), as of the last batch.
	facts     int64
	objects   [evKinds]int64
	deleted   int64
	edited    int64
	reactedAt int64 // reactions set again on a later day
}

type insightsForum struct {
	id, community, main, admin guuid.UUID
	name                       string
	created                    time.Time
	members                    []int // indexes of users; the first is the forum's admin
	// Recent objects that new activity answers, newest last.
	posts    []guuid.UUID
	comments []insightsComment
	searches []insightsSearch
}

type insightsComment struct{ id, thread guuid.UUID }

type insightsSearch struct{ id, user guuid.UUID }

// recentKept bounds each forum's lists of recent objects.
const recentKept = 64

// rid is an id made at t, shaped as Agora's (uuid.NewV7: 48 bits of Unix
// milliseconds, version 7, random rest), from rng.
func rid(rng *rand.Rand, t time.Time) guuid.UUID {
	var u guuid.UUID
	ms := uint64(t.UnixMilli())
	a, b := rng.Uint64(), rng.Uint64()
	for i := range 6 {
		u[i] = byte(ms >> (8 * (5 - i)))
	}
	u[6], u[7] = byte(a), byte(a>>8)
	for i := range 8 {
		u[8+i] = byte(b >> (8 * i))
	}
	u[6] = (u[6] & 0x0f) | 0x70
	u[8] = (u[8] & 0x3f) | 0x80
	return u
}

// insightsEpoch dates the organization's ids: fixed, so that a run on
// another day makes the same ones (-insights-dir).
var insightsEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func newInsightsWorld(rows, nForums int) *insightsWorld {
	rng := rand.New(rand.NewPCG(insightsSeed, 1))
	at := func(i int) time.Time { return insightsEpoch.Add(time.Duration(i) * time.Minute) }
	w := &insightsWorld{rng: rng, rows: rows, org: rid(rng, at(0)), caller: rid(rng, at(1)), forumW: zipfWeights(nForums, insightsZipf)}
	for i := range insightsCommunities {
		w.communities = append(w.communities, rid(rng, at(2+i)))
	}
	nUsers := min(max(rows/1000, 1000), 20_000)
	for i := range nUsers {
		w.users = append(w.users, rid(rng, at(100+i)))
		w.profiles = append(w.profiles, rid(rng, at(100+i)))
	}
	// Members are spread by the forums' activity, two memberships a
	// member on average, at least 8 a forum.
	total := w.forumW.cum[nForums-1]
	w.now = time.Now().UTC()
	w.start = w.now.Add(-insightsDays * 24 * time.Hour)
	for i := range nForums {
		f := &insightsForum{
			id: rid(rng, at(100_000+i)), community: w.communities[i%insightsCommunities],
			name:    fmt.Sprintf("Forum %d", i+1),
			created: w.start.Add(-time.Duration(30+rng.IntN(300)) * 24 * time.Hour),
		}
		weight := w.forumW.cum[i]
		if i > 0 {
			weight -= w.forumW.cum[i-1]
		}
		n := min(max(int(math.Round(weight/total*float64(2*nUsers))), 8), nUsers)
		f.members = rng.Perm(nUsers)[:n]
		w.memberships += n
		w.forums = append(w.forums, f)
	}
	return w
}

// share is the part of the activity that forums [from, to) get.
func (w *insightsWorld) share(from, to int) float64 {
	c := w.forumW.cum
	lo := 0.0
	if from > 0 {
		lo = c[from-1]
	}
	return (c[to-1] - lo) / c[len(c)-1]
}

// fillPostgres writes what the reports read from Postgres (the forums and
// their channels, who is a member now, the caller's rights) and what the
// projection looks up there (a forum's row, a profile's user).
func (w *insightsWorld) fillPostgres(ctx context.Context, pool *pgxpool.Pool) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if _, err := tx.Exec(ctx, `INSERT INTO organizations (id, name) VALUES ($1, 'Bench organization')`, w.org); err != nil {
		return err
	}
	var rows [][]any
	for i, c := range w.communities {
		rows = append(rows, []any{c, w.org, fmt.Sprintf("Community %d", i+1), "A generated community."})
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"communities"}, []string{"id", "organization_id", "name", "description"}, pgx.CopyFromRows(rows)); err != nil {
		return err
	}
	const hash = "$argon2id$v=19$m=19456,t=2,p=1$bm90LWEtcmVhbC1zYWx0$bm90LWEtcmVhbC1oYXNoLWF0LWFsbC1ub3QtYXQtYWxs"
	users, profiles := [][]any{}, [][]any{}
	person := func(id, profile guuid.UUID, i int, role string) {
		email := fmt.Sprintf("member%d@bench.agora", i)
		users = append(users, []any{id, email, email, hash, fmt.Sprintf("Member%d", i), "Bench"})
		profiles = append(profiles, []any{profile, w.org, id, role, email, email, fmt.Sprintf("Member%d", i), "Bench"})
	}
	person(w.caller, rid(rand.New(rand.NewPCG(insightsSeed, 9)), insightsEpoch), 0, "admin")
	for i := range w.users {
		person(w.users[i], w.profiles[i], i+1, "member")
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"users"}, []string{"id", "email", "email_key", "password_hash", "first_name", "last_name"}, pgx.CopyFromRows(users)); err != nil {
		return err
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"profiles"}, []string{"id", "organization_id", "user_id", "role", "email", "email_key", "first_name", "last_name"}, pgx.CopyFromRows(profiles)); err != nil {
		return err
	}
	// Row by row: the trigger that makes each forum's two channels runs
	// for every row either way.
	rows = rows[:0]
	for _, f := range w.forums {
		rows = append(rows, []any{f.id, f.community, f.name, "A generated forum.", f.created})
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"series"}, []string{"id", "community_id", "name", "description", "created_on"}, pgx.CopyFromRows(rows)); err != nil {
		return err
	}
	rows = rows[:0]
	for _, f := range w.forums {
		for j, u := range f.members {
			role := "member"
			if j == 0 {
				role = "admin"
			}
			rows = append(rows, []any{f.id, w.profiles[u], role, j%20 == 1, "active", w.assigned(f, j)})
		}
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"series_memberships"}, []string{"series_id", "profile_id", "role", "is_expert", "status", "assigned_on"}, pgx.CopyFromRows(rows)); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// assigned is when member j joined forum f: after the forum was made,
// before the period the activity covers.
func (w *insightsWorld) assigned(f *insightsForum, j int) time.Time {
	span := w.start.Sub(f.created)
	return f.created.Add(span * time.Duration(j+1) / time.Duration(len(f.members)+1)).Truncate(time.Millisecond)
}

// readChannels reads the channels Postgres made for the forums.
func (w *insightsWorld) readChannels(ctx context.Context, pool *pgxpool.Pool) error {
	byID := map[guuid.UUID]*insightsForum{}
	for _, f := range w.forums {
		byID[f.id] = f
	}
	rows, err := pool.Query(ctx, `SELECT series_id, kind, id FROM channels WHERE series_id = ANY($1)`, keysOf(byID))
	if err != nil {
		return err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var s, id guuid.UUID
		var kind string
		if err := rows.Scan(&s, &kind, &id); err != nil {
			return err
		}
		if kind == "main" {
			byID[s].main = id
		} else {
			byID[s].admin = id
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if n != 2*len(w.forums) {
		return fmt.Errorf("postgres holds %d channels of the %d forums, want %d (a kept -insights-dir from another run?)", n, len(w.forums), 2*len(w.forums))
	}
	return nil
}

func keysOf(m map[guuid.UUID]*insightsForum) []guuid.UUID {
	out := make([]guuid.UUID, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
