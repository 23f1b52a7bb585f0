package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	guuid "github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/analytics"
	"agora/app"
	"agora/internal/auth"
	"agora/internal/chserver"
	"agora/internal/config"
	"agora/projections/change"
	pinsights "agora/projections/insights"
	qinsights "agora/query/insights"
)

// insightsBench measures the insights warehouse on a private ClickHouse
// (internal/chserver) and a private Postgres of its own, in a temporary
// folder (or -insights-dir), on generated activity:
//
//	insights-ingest   activity until the warehouse holds -insights-rows
//	                  distinct fact rows (10,000,000), pushed through the
//	                  analytics projection's
//	                  ApplyBatch, in batches of
//	                  -insights-batch changes, as Debezium-shaped changes of
//	                  the real tables (series, channels, series_memberships,
//	                  threads, replies, reactions, series_visit_log,
//	                  ai_searches, ai_search_turns): the whole projection,
//	                  its look-ups in the warehouse and in Postgres, its
//	                  INSERTs and the visits view. Rows/s, changes/s and
//	                  the CPU a row costs.
//	insights-reports  every report and list of query/insights, called as
//	                  the API calls them (rights and channels from
//	                  Postgres, figures from the warehouse), periods 90
//	                  and 30: -insights-calls sequential calls each after
//	                  -insights-warmup, every third on the biggest forum
//	                  and the others on forums drawn by their activity;
//	                  p50/p95, target p95 <= 100 ms, and the rows one call
//	                  on the biggest forum reads.
//
// The activity is made from a fixed seed: -insights-forums forums (500)
// in 20 communities whose sizes follow Zipf's law (s = 1.3: the biggest
// forum holds about 29% of the activity), 400 days growing towards today,
// reactions > comments > posts > replies > visits > questions > AI
// searches > shared AI chats; a fifth of the questions anonymous; posts,
// comments and reactions edited, deleted or set again a day or more
// later; and one batch in 50 applied twice (a replay after a crash), so
// the reads have versions and duplicates to deduplicate.
var (
	insightsRowsN   = flag.Int("insights-rows", 10_000_000, "distinct fact rows (keys) the insights benchmarks write to the warehouse")
	insightsForumsN = flag.Int("insights-forums", 500, "forums of the insights benchmarks (Zipf-sized)")
	insightsDir     = flag.String("insights-dir", "", "keep the insights benchmarks' Postgres and ClickHouse in this folder; a later run with the same -insights-rows and -insights-forums reuses them and skips the load (not with insights-ingest)")
	insightsCallsN  = flag.Int("insights-calls", 40, "timed calls of each insights report, per period")
	insightsWarmupN = flag.Int("insights-warmup", 5, "untimed warm-up calls of each insights report, per period")
	insightsBatchN  = flag.Int("insights-batch", 500, "changes per ApplyBatch when loading the insights data (the projector's default)")
)

const (
	insightsSeed        = 20260701
	insightsGenerator   = 4 // bumped when the generated data (or what the projection makes of it) changes: a kept folder is then reloaded
	insightsDays        = 400
	insightsZipf        = 1.3
	insightsCommunities = 20
	insightsTarget      = 100 * time.Millisecond
	insightsReplayEvery = 50 // one batch in this many is applied twice
	insightsMarker      = "insights-bench.json"
)

// The activity's kinds, and the share of each among new objects.
const (
	evReaction = iota
	evComment
	evPost
	evReply
	evVisit
	evQuestion
	evAISearch
	evShare
	evFollowUp // an edit or deletion of an earlier object
	evKinds
)

var (
	evShares = [evFollowUp]float64{0.34, 0.22, 0.14, 0.11, 0.09, 0.05, 0.035, 0.015}
	evNames  = [evKinds]string{"reactions", "comments", "posts", "replies", "visits", "questions", "AI search questions", "shared AI chats", "follow-ups"}
)

// keysPerFactGuess is the share of the fact rows written that are
// distinct facts (keys) once merged: edits and deletions write new
// versions of keys already written (94% at 300,000 rows). The load aims
// at -insights-rows / keysPerFactGuess rows, then tops up with today's
// activity until the warehouse holds -insights-rows keys.
const keysPerFactGuess = 0.94

// factsPerEventGuess paces the first day of activity: the facts an event
// makes on average (a post with an image 2, a comment 1, a question in a
// comment 1 more; edits and deletions later). The days after are paced by
// what the projection has written so far.
const factsPerEventGuess = 1.3

func insightsBench(ctx context.Context, selected map[string]bool, log *slog.Logger) (err error) {
	if !selected["insights-ingest"] && !selected["insights-reports"] {
		return nil
	}
	nRows, nForums, batch := *insightsRowsN, *insightsForumsN, *insightsBatchN
	if nRows < 10_000 || nForums < 1 || batch < 1 || *insightsCallsN < 1 || *insightsWarmupN < 0 {
		return fmt.Errorf("insights: -insights-rows must be at least 10000, -insights-forums, -insights-batch and -insights-calls positive, -insights-warmup not negative")
	}
	dir := *insightsDir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "agora-insights-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// The private Postgres runs as the unprivileged postgres user when
	// this runs as root: it must reach the folder.
	if err := os.Chmod(dir, 0o755); err != nil {
		return err
	}
	want := insightsMark{Generator: insightsGenerator, Seed: insightsSeed, Rows: nRows, Forums: nForums}
	mark, marked := readInsightsMark(dir)
	reuse := *insightsDir != "" && !selected["insights-ingest"] && marked && mark.same(want)
	if !reuse {
		// Only what this benchmark made in the folder is removed.
		for _, p := range []string{insightsMarker, "postgres", "clickhouse"} {
			if err := os.RemoveAll(filepath.Join(dir, p)); err != nil {
				return err
			}
		}
	}

	setup := time.Now()
	cfg := config.Default()
	cfg.DataDir = dir
	cfg.DatabaseURL = ""
	d, err := app.OpenDatabase(ctx, cfg, log)
	if err != nil {
		return fmt.Errorf("insights: postgres: %w", err)
	}
	defer func() {
		if cerr := d.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	if err := app.Migrate(ctx, d.DB, log); err != nil {
		return err
	}
	srv, err := chserver.Start(ctx, filepath.Join(dir, "clickhouse"), log)
	if err != nil {
		return fmt.Errorf("insights: %w", err)
	}
	defer func() {
		if serr := srv.Stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	if err := srv.CreateDatabase(ctx, app.WarehouseDatabase); err != nil {
		return fmt.Errorf("insights: %w", err)
	}
	conn, err := analytics.Open(ctx, srv.URL(app.WarehouseDatabase))
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := analytics.Migrate(ctx, conn); err != nil {
		return err
	}
	var chVersion string
	_ = conn.QueryRow(ctx, "SELECT version()").Scan(&chVersion)
	fmt.Printf("insights: private Postgres and ClickHouse %s (max_threads 2) in %s, started and migrated in %.1f s\n",
		chVersion, dir, time.Since(setup).Seconds())

	w := newInsightsWorld(nRows, nForums)
	if !reuse {
		if err := w.fillPostgres(ctx, d.Pool); err != nil {
			return fmt.Errorf("insights: postgres data: %w", err)
		}
	}
	if err := w.readChannels(ctx, d.Pool); err != nil {
		return fmt.Errorf("insights: %w", err)
	}
	fmt.Printf("insights data: %d forums in %d communities, sizes Zipf s=%.1f: the biggest forum %.1f%% of the activity, the 10 biggest %.1f%%; %s members, %s memberships; %d days; seed %d\n",
		nForums, insightsCommunities, insightsZipf, 100*w.share(0, 1), 100*w.share(0, min(10, nForums)),
		thousands(int64(len(w.users))), thousands(int64(w.memberships)), insightsDays, insightsSeed)

	if reuse {
		fmt.Printf("insights data: reused from %s (loaded %s, %s fact rows from %s changes): load not measured\n",
			dir, mark.LoadedOn, thousands(mark.Facts), thousands(mark.Changes))
	} else {
		proj, err := pinsights.New(conn, d.Pool, log)
		if err != nil {
			return err
		}
		st, err := w.ingest(ctx, proj, conn, filepath.Join(dir, "clickhouse"), d.Pool, batch)
		if err != nil {
			return fmt.Errorf("insights-ingest: %w", err)
		}
		st.restarts = srv.Restarts()
		st.print(selected["insights-ingest"], batch)
		mark = want
		mark.LoadedOn, mark.Facts, mark.Changes = time.Now().UTC().Format(time.DateOnly), st.facts, st.changes
		if err := writeInsightsMark(dir, mark); err != nil {
			return err
		}
	}
	if err := settleWarehouse(ctx, conn); err != nil {
		return err
	}
	if !selected["insights-reports"] {
		return nil
	}
	return w.reports(ctx, conn, d)
}

// insightsMark is what a kept folder holds, so that a later run knows
// whether it can reuse it.
type insightsMark struct {
	Generator int    `json:"generator"`
	Seed      int    `json:"seed"`
	Rows      int    `json:"rows"`
	Forums    int    `json:"forums"`
	LoadedOn  string `json:"loadedOn"`
	Facts     int64  `json:"facts"`
	Changes   int64  `json:"changes"`
}

func (m insightsMark) same(o insightsMark) bool {
	return m.Generator == o.Generator && m.Seed == o.Seed && m.Rows == o.Rows && m.Forums == o.Forums && m.Facts > 0
}

func readInsightsMark(dir string) (insightsMark, bool) {
	var m insightsMark
	b, err := os.ReadFile(filepath.Join(dir, insightsMarker))
	if err != nil {
		return m, false
	}
	return m, json.Unmarshal(b, &m) == nil
}

func writeInsightsMark(dir string, m insightsMark) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, insightsMarker), b, 0o644)
}

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
	out        func(c change.Change) error
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

// Debezium's encodings of column values (relay's converter
// settings): strings for text, uuid, jsonb (the document as a string) and
// timestamptz (ISO 8601).
var (
	jNull  = json.RawMessage("null")
	jEmpty = json.RawMessage("[]")
	jTrue  = json.RawMessage("true")
	jFalse = json.RawMessage("false")
	jZero  = json.RawMessage("0")
)

func jStr(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

func jID(id guuid.UUID) json.RawMessage { return json.RawMessage(`"` + id.String() + `"`) }

func jTime(t time.Time) json.RawMessage {
	return json.RawMessage(`"` + t.UTC().Format("2006-01-02T15:04:05.000000Z") + `"`)
}

func jDoc(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return jStr(string(b))
}

func jBool(b bool) json.RawMessage {
	if b {
		return jTrue
	}
	return jFalse
}

// change makes one change event of table, in a transaction of its own
// committed at at.
func (w *insightsWorld) change(op change.Op, table string, key, before, after change.Row, at time.Time) change.Change {
	w.lsn += 40 + uint64(w.rng.IntN(400))
	w.tx++
	ms := at.UnixMilli()
	return change.Change{
		Topic: "agora.public." + table, Op: op, Schema: "public", Table: table, Key: key, Before: before, After: after,
		Source: change.Source{
			Version: "agora", Connector: "postgresql", Name: "agora", TsMs: ms, Snapshot: "false", DB: "agora",
			Sequence: `["` + strconv.FormatUint(w.lsn, 10) + `","` + strconv.FormatUint(w.lsn, 10) + `"]`,
			Schema:   "public", Table: table, TxID: w.tx, LSN: int64(w.lsn),
		},
		TsMs: ms + 30,
	}
}

func idKey(r change.Row) change.Row { return change.Row{"id": r["id"]} }

// emit creates a row; update and remove change or delete it (tables with
// REPLICA IDENTITY FULL: every change carries the whole before-image).
func (w *insightsWorld) emit(table string, row change.Row, at time.Time) error {
	return w.out(w.change(change.Create, table, idKey(row), nil, row, at))
}

func (w *insightsWorld) update(table string, before, after change.Row, at time.Time) error {
	return w.out(w.change(change.Update, table, idKey(after), before, after, at))
}

func (w *insightsWorld) remove(table string, before change.Row, at time.Time) error {
	return w.out(w.change(change.Delete, table, idKey(before), before, nil, at))
}

func clone(r change.Row) change.Row {
	c := make(change.Row, len(r))
	for k, v := range r {
		c[k] = v
	}
	return c
}

// insightsEvent is something that happens at a time: a new object of a
// kind, or a follow-up (an edit or a deletion) of an earlier one.
type insightsEvent struct {
	at     time.Time
	kind   int
	follow func(at time.Time) error
}

// generate streams the forums, the memberships and 400 days of activity
// to w.out, in commit order, until w.goal fact rows are written.
func (w *insightsWorld) generate() error {
	rng := w.rng
	// The forums and their channels, then the memberships, before the
	// period: their facts (members) are dated before it.
	for _, f := range w.forums {
		series := change.Row{
			"id": jID(f.id), "community_id": jID(f.community), "name": jStr(f.name), "description": jStr("A generated forum."),
			"image": jNull, "exclusivity": jStr("inviteOnly"), "share_enabled": jFalse, "position": jZero, "price_cents": jZero,
			"is_free": jTrue, "created_on": jTime(f.created), "updated_on": jTime(f.created),
		}
		if err := w.emit("series", series, f.created); err != nil {
			return err
		}
		for _, ch := range []struct {
			id   guuid.UUID
			kind string
		}{{f.main, "main"}, {f.admin, "admin"}} {
			row := change.Row{"id": jID(ch.id), "series_id": jID(f.id), "kind": jStr(ch.kind), "created_on": jTime(f.created)}
			if err := w.emit("channels", row, f.created); err != nil {
				return err
			}
		}
	}
	type join struct {
		f  *insightsForum
		j  int
		at time.Time
	}
	var joins []join
	for _, f := range w.forums {
		for j := range f.members {
			joins = append(joins, join{f, j, w.assigned(f, j)})
		}
	}
	sort.SliceStable(joins, func(a, b int) bool { return joins[a].at.Before(joins[b].at) })
	for _, m := range joins {
		role := "member"
		if m.j == 0 {
			role = "admin"
		}
		row := change.Row{
			"series_id": jID(m.f.id), "profile_id": jID(w.profiles[m.f.members[m.j]]), "role": jStr(role),
			"is_expert": jBool(m.j%20 == 1), "status": jStr("active"), "is_subscribed": jTrue, "assigned_on": jTime(m.at),
		}
		c := w.change(change.Create, "series_memberships", change.Row{"series_id": row["series_id"], "profile_id": row["profile_id"]}, nil, row, m.at)
		if err := w.out(c); err != nil {
			return err
		}
	}
	if w.facts >= w.goal {
		return nil
	}

	// The activity: a day's share grows from 0.5 to 1.5 over the period,
	// weekends at 60%. Each day gets its share of the facts still to
	// write, in events: at the facts an event has made so far on average
	// (edits and deletions included), the guess until there are enough.
	day := 24 * time.Hour
	weights := make([]float64, insightsDays)
	for d := range weights {
		weights[d] = 0.5 + float64(d)/float64(insightsDays-1)
		if wd := w.start.Add(time.Duration(d) * day).Weekday(); wd == time.Saturday || wd == time.Sunday {
			weights[d] *= 0.6
		}
	}
	left := 0.0 // the weights of the days not generated yet
	for _, x := range weights {
		left += x
	}
	factsBefore, events := w.facts, int64(0)
	pending := make([][]insightsEvent, insightsDays)
	schedule := func(at time.Time, fn func(time.Time) error) {
		// A day to ten days later, never in the same batch as the object.
		at = at.Add(day + time.Duration(rng.Int64N(int64(10*day))))
		if d := int(at.Sub(w.start) / day); d < insightsDays && at.Before(w.now) {
			pending[d] = append(pending[d], insightsEvent{at: at, kind: evFollowUp, follow: fn})
		}
	}
	carry := 0.0
	for d := 0; d < insightsDays; d++ {
		dayStart := w.start.Add(time.Duration(d) * day)
		perEvent := factsPerEventGuess
		if events >= 10_000 {
			perEvent = float64(w.facts-factsBefore) / float64(events)
		}
		x := float64(w.goal-w.facts)/perEvent*weights[d]/left + carry
		left -= weights[d]
		n := int(max(x, 0))
		events += int64(n)
		carry = x - float64(n)
		evs := pending[d]
		pending[d] = nil
		for range n {
			evs = append(evs, insightsEvent{at: dayStart.Add(time.Duration(rng.Int64N(int64(day)))), kind: pickKind(rng)})
		}
		sort.SliceStable(evs, func(a, b int) bool { return evs[a].at.Before(evs[b].at) })
		for _, ev := range evs {
			if err := w.happen(ev, schedule); err != nil {
				return err
			}
			if w.facts >= w.goal {
				return nil
			}
		}
	}
	// The averages fell short by a little: today gets the rest.
	return w.today()
}

// today adds activity in the last hour until w.goal fact rows are written.
func (w *insightsWorld) today() error {
	for w.facts < w.goal {
		at := w.now.Add(-time.Duration(w.rng.Int64N(int64(time.Hour))))
		if err := w.happen(insightsEvent{at: at, kind: pickKind(w.rng)}, func(time.Time, func(time.Time) error) {}); err != nil {
			return err
		}
	}
	return nil
}

func pickKind(rng *rand.Rand) int {
	x := rng.Float64()
	for k, s := range evShares {
		if x < s {
			return k
		}
		x -= s
	}
	return evReaction
}

// actor draws a forum's member, the first ones more often (a few members
// do most of the talking).
func (w *insightsWorld) actor(f *insightsForum) guuid.UUID {
	u := w.rng.Float64()
	return w.users[f.members[int(float64(len(f.members))*u*u)]]
}

func pushRecent[T any](l []T, v T) []T {
	if len(l) == recentKept {
		copy(l, l[1:])
		l = l[:recentKept-1]
	}
	return append(l, v)
}

// recentIndex draws an index of a list kept newest last, newer more often.
func (w *insightsWorld) recentIndex(n int) int {
	u := w.rng.Float64()
	return n - 1 - int(float64(n)*u*u*u)
}

var insightsTopics = aiTopics

func (w *insightsWorld) sentence() string {
	return fmt.Sprintf(aiSentences[w.rng.IntN(len(aiSentences))], insightsTopics[w.rng.IntN(len(insightsTopics))])
}

func (w *insightsWorld) question() string {
	return fmt.Sprintf(aiAsks[w.rng.IntN(len(aiAsks))], insightsTopics[w.rng.IntN(len(insightsTopics))])
}

// happen turns an event into its changes.
func (w *insightsWorld) happen(ev insightsEvent, schedule func(time.Time, func(time.Time) error)) error {
	if ev.kind == evFollowUp {
		w.objects[evFollowUp]++
		return ev.follow(ev.at)
	}
	rng := w.rng
	f := w.forums[w.forumW.pick(rng)]
	at := ev.at.Truncate(time.Microsecond)
	kind := ev.kind
	// Nothing to answer yet: the forum's first activity is a post.
	if (kind == evReaction || kind == evComment) && len(f.posts) == 0 || kind == evReply && len(f.comments) == 0 {
		kind = evPost
	}
	w.objects[kind]++
	switch kind {
	case evPost, evQuestion, evShare:
		return w.post(f, kind, at, schedule)
	case evComment, evReply:
		return w.reply(f, kind, at, schedule)
	case evReaction:
		return w.reaction(f, at, schedule)
	case evVisit:
		row := change.Row{"id": jID(rid(rng, at)), "series_id": jID(f.id), "user_id": jID(w.actor(f)), "visited_on": jTime(at)}
		return w.emit("series_visit_log", row, at)
	case evAISearch:
		// Most questions start a conversation; some follow up on one.
		var s insightsSearch
		if n := len(f.searches); n > 0 && rng.Float64() < 0.3 {
			s = f.searches[w.recentIndex(n)]
		} else {
			s = insightsSearch{id: rid(rng, at), user: w.actor(f)}
			row := change.Row{"id": jID(s.id), "channel_id": jID(f.main), "series_id": jID(f.id), "user_id": jID(s.user), "created_on": jTime(at)}
			if err := w.emit("ai_searches", row, at); err != nil {
				return err
			}
			f.searches = pushRecent(f.searches, s)
			at = at.Add(time.Millisecond)
		}
		row := change.Row{
			"id": jID(rid(rng, at)), "search_id": jID(s.id), "question": jStr(w.question()), "answer": jStr(w.sentence()),
			"cited": jEmpty, "answerer": jStr("extractive"), "created_on": jTime(at),
		}
		return w.emit("ai_search_turns", row, at)
	}
	return nil
}

func (w *insightsWorld) post(f *insightsForum, kind int, at time.Time, schedule func(time.Time, func(time.Time) error)) error {
	rng := w.rng
	id := rid(rng, at)
	typ, as, raw := "post", "author", w.sentence()
	image, file, link, chat := jNull, jNull, jNull, jNull
	switch kind {
	case evQuestion:
		typ, raw = "question", w.question()
		if rng.Float64() < 0.2 {
			as = "anonymous"
		}
	case evShare:
		typ, raw = "shared-ai-chat", ""
		chat = jDoc([]map[string]any{
			{"role": "user", "content": w.question(), "createdOn": at.Format(time.RFC3339)},
			{"role": "other", "content": w.sentence(), "createdOn": at.Format(time.RFC3339)},
		})
	default:
		if rng.Float64() < 0.2 {
			image = jDoc(map[string]any{"url": "/api/blobs/" + rid(rng, at).String()})
		}
		if rng.Float64() < 0.08 {
			file = jDoc(map[string]any{"name": "notes.pdf", "url": "/api/blobs/" + rid(rng, at).String(), "mediaType": "application/pdf"})
		}
		if rng.Float64() < 0.15 {
			viewer := "external"
			url := "https://example.com/article/" + strconv.Itoa(rng.IntN(1e6))
			if rng.Float64() < 0.35 {
				viewer, url = "embedded", "https://www.youtube.com/watch?v="+strconv.Itoa(rng.IntN(1e6))
			}
			link = jDoc(map[string]any{"url": url, "viewerType": viewer})
		}
	}
	row := change.Row{
		"id": jID(id), "channel_id": jID(f.main), "series_id": jID(f.id), "creator_id": jID(w.actor(f)),
		"creator_as": jStr(as), "type": jStr(typ), "raw": jStr(raw), "image": image, "file": file, "link": link,
		"mentions": jEmpty, "hashtags": jEmpty, "meeting": jNull, "chat": chat, "created_on": jTime(at), "updated_on": jTime(at),
	}
	if err := w.emit("threads", row, at); err != nil {
		return err
	}
	f.posts = pushRecent(f.posts, id)
	switch x := rng.Float64(); {
	case x < 0.02:
		schedule(at, func(at time.Time) error {
			w.deleted++
			for i, p := range f.posts {
				if p == id {
					f.posts = append(f.posts[:i], f.posts[i+1:]...)
					break
				}
			}
			return w.remove("threads", row, at)
		})
	case x < 0.06:
		schedule(at, func(at time.Time) error {
			w.edited++
			after := clone(row)
			after["raw"], after["updated_on"] = jStr(raw+" (edited)"), jTime(at)
			if typ == "post" {
				// The edit adds an image, or takes it away.
				if string(row["image"]) == "null" {
					after["image"] = jDoc(map[string]any{"url": "/api/blobs/" + rid(w.rng, at).String()})
				} else {
					after["image"] = jNull
				}
			}
			return w.update("threads", row, after, at)
		})
	}
	return nil
}

func (w *insightsWorld) reply(f *insightsForum, kind int, at time.Time, schedule func(time.Time, func(time.Time) error)) error {
	rng := w.rng
	id := rid(rng, at)
	var thread guuid.UUID
	parent := jNull
	if kind == evReply {
		c := f.comments[w.recentIndex(len(f.comments))]
		thread, parent = c.thread, jID(c.id)
	} else {
		thread = f.posts[w.recentIndex(len(f.posts))]
	}
	raw := w.sentence()
	if rng.Float64() < 0.3 {
		raw += " " + w.question()
	}
	row := change.Row{
		"id": jID(id), "thread_id": jID(thread), "parent_id": parent, "creator_id": jID(w.actor(f)), "raw": jStr(raw),
		"mentions": jEmpty, "hashtags": jEmpty, "created_on": jTime(at), "updated_on": jTime(at),
	}
	if err := w.emit("replies", row, at); err != nil {
		return err
	}
	if kind == evComment {
		f.comments = pushRecent(f.comments, insightsComment{id: id, thread: thread})
	}
	switch x := rng.Float64(); {
	case x < 0.03:
		schedule(at, func(at time.Time) error {
			w.deleted++
			return w.remove("replies", row, at)
		})
	case x < 0.08:
		schedule(at, func(at time.Time) error {
			w.edited++
			after := clone(row)
			// The edit asks a question, or no longer does.
			if strings.HasSuffix(raw, "?") {
				after["raw"] = jStr(w.sentence())
			} else {
				after["raw"] = jStr(raw + " " + w.question())
			}
			after["updated_on"] = jTime(at)
			return w.update("replies", row, after, at)
		})
	}
	return nil
}

var reactionKinds = []string{"liked", "liked", "liked", "loved", "loved", "smiled", "neutral", "disliked"}

func (w *insightsWorld) reaction(f *insightsForum, at time.Time, schedule func(time.Time, func(time.Time) error)) error {
	rng := w.rng
	thread, reply := f.posts[w.recentIndex(len(f.posts))], jNull
	if n := len(f.comments); n > 0 && rng.Float64() < 0.3 {
		c := f.comments[w.recentIndex(n)]
		thread, reply = c.thread, jID(c.id)
	}
	row := change.Row{
		"id": jID(rid(rng, at)), "thread_id": jID(thread), "reply_id": reply, "user_id": jID(w.actor(f)),
		"kind": jStr(reactionKinds[rng.IntN(len(reactionKinds))]), "created_on": jTime(at),
	}
	if err := w.emit("reactions", row, at); err != nil {
		return err
	}
	switch x := rng.Float64(); {
	case x < 0.05:
		schedule(at, func(at time.Time) error {
			w.deleted++
			return w.remove("reactions", row, at)
		})
	case x < 0.08:
		// Set again later, as another kind: a new created_on, on another
		// day, so the old day's fact is undone (2 facts).
		schedule(at, func(at time.Time) error {
			w.reactedAt++
			after := clone(row)
			after["kind"], after["created_on"] = jStr(reactionKinds[w.rng.IntN(len(reactionKinds))]), jTime(at)
			return w.update("reactions", row, after, at)
		})
	}
	return nil
}

// ingestStat is what the load measured.
type ingestStat struct {
	facts, changes   int64
	batches, replays int
	topUps           int // rounds of today's activity added to reach -insights-rows keys
	retried          int // failed attempts at a batch, applied again
	firstErr         error
	restarts         int           // of the warehouse's server after a crash
	apply            time.Duration // in ApplyBatch
	wall             time.Duration // generation included
	cpuSelf          time.Duration // this process, in ApplyBatch
	cpuCH, cpuPG     time.Duration
	objects          [evKinds]int64
	deleted, edited  int64
	reactedAt        int64
	anonymous        int64
}

// ingest generates the stream and applies it through the projection in
// batches, timing ApplyBatch alone; one batch in insightsReplayEvery is
// applied a second time, as after a crash before its offsets were
// committed.
func (w *insightsWorld) ingest(ctx context.Context, proj *pinsights.Projection, conn driver.Conn, chDir string, pool *pgxpool.Pool, size int) (ingestStat, error) {
	var st ingestStat
	chPid := serverPid(chDir)
	pg := newCPUClock(ctx, pool)
	chStart, pgStart := procCPU(chPid), pg.read().postgres
	batch := make([]change.Change, 0, size)
	// apply applies cs and says how many fact rows that inserted.
	apply := func(cs []change.Change) (int64, error) {
		rows := proj.FactRows()
		// A failed batch is applied again, as the projection runner does
		// (the warehouse's server may be starting again after a crash);
		// only the attempt that succeeded is timed.
		for attempt := 1; ; attempt++ {
			c0 := selfCPU()
			t0 := time.Now()
			err := proj.ApplyBatch(ctx, cs)
			if err == nil {
				st.apply += time.Since(t0)
				st.cpuSelf += selfCPU() - c0
				break
			}
			if attempt == 900 || ctx.Err() != nil { // 15 minutes: a restart after a crash loads every part
				return 0, err
			}
			if st.retried == 0 {
				st.firstErr = err
			}
			st.retried++
			time.Sleep(time.Second)
		}
		st.changes += int64(len(cs))
		n := proj.FactRows() - rows
		st.facts += n
		return n, nil
	}
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		n, err := apply(batch)
		if err != nil {
			return err
		}
		w.facts += n
		st.batches++
		if st.batches%insightsReplayEvery == 0 {
			if _, err := apply(batch); err != nil {
				return fmt.Errorf("replay: %w", err)
			}
			st.replays++
		}
		batch = batch[:0]
		return ctx.Err()
	}
	w.out = func(c change.Change) error {
		batch = append(batch, c)
		if c.Table == "threads" && c.After != nil && string(c.After["creator_as"]) == `"anonymous"` && c.Op == change.Create {
			st.anonymous++
		}
		if len(batch) == size {
			return flush()
		}
		return nil
	}
	start := time.Now()
	w.goal = int64(float64(w.rows) / keysPerFactGuess)
	if err := w.generate(); err != nil {
		return st, err
	}
	for {
		if err := flush(); err != nil {
			return st, err
		}
		var keys uint64
		if err := conn.QueryRow(ctx, "SELECT toUInt64(uniqExact(series_id, kind, day, object_id)) FROM facts").Scan(&keys); err != nil {
			return st, fmt.Errorf("insights: keys: %w", err)
		}
		if int64(keys) >= int64(w.rows) {
			break
		}
		w.goal = w.facts + int64(w.rows) - int64(keys)
		st.topUps++
		if err := w.today(); err != nil {
			return st, err
		}
	}
	st.wall = time.Since(start)
	st.cpuCH, st.cpuPG = procCPU(chPid)-chStart, pg.read().postgres-pgStart
	st.objects, st.deleted, st.edited, st.reactedAt = w.objects, w.deleted, w.edited, w.reactedAt
	return st, nil
}

func (st ingestStat) print(measured bool, size int) {
	var kinds []string
	for k := range evFollowUp {
		kinds = append(kinds, fmt.Sprintf("%s %s", thousands(st.objects[k]), evNames[k]))
	}
	fmt.Printf("insights data: %s; %s of the questions anonymous; later %s edits, %s deletions, %s reactions set again on another day; %d of %d batches replayed; %d top-ups of today's activity\n",
		strings.Join(kinds, ", "), thousands(st.anonymous), thousands(st.edited), thousands(st.deleted), thousands(st.reactedAt), st.replays, st.batches, st.topUps)
	rows := float64(st.facts) / st.apply.Seconds()
	changes := float64(st.changes) / st.apply.Seconds()
	label := "insights-ingest (projection ApplyBatch):"
	if !measured {
		label = "insights data load (ApplyBatch, not selected):"
	}
	fmt.Printf("%-48s %8.0f rows/s  %7.0f changes/s  (%s fact rows inserted, replays included, from %s changes in batches of %d: %.1f s in ApplyBatch, %.1f s with generation)\n",
		label, rows, changes, thousands(st.facts), thousands(st.changes), size, st.apply.Seconds(), st.wall.Seconds())
	if st.retried > 0 {
		fmt.Printf("    %d failed attempts at a batch applied again (ClickHouse started again %d times after a crash); the first: %v\n", st.retried, st.restarts, st.firstErr)
	}
	us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) / float64(st.facts) }
	if st.restarts > 0 { // the first server's CPU went with it
		fmt.Printf("    CPU per fact row: projection (this process, in ApplyBatch) %.2f µs, Postgres look-ups %.2f µs; ClickHouse's not known (it was started again)\n",
			us(st.cpuSelf), us(st.cpuPG))
		return
	}
	fmt.Printf("    CPU per fact row: projection (this process, in ApplyBatch) %.2f µs, ClickHouse %.2f µs, Postgres look-ups %.2f µs; %.2f µs in all\n",
		us(st.cpuSelf), us(st.cpuCH), us(st.cpuPG), us(st.cpuSelf+st.cpuCH+st.cpuPG))
}

// settleWarehouse waits for ClickHouse's background merges to finish (at
// most 5 minutes), so that the reports read a steady table, and prints
// what the facts table holds.
func settleWarehouse(ctx context.Context, conn driver.Conn) error {
	start := time.Now()
	quiet := 0
	for quiet < 5 && time.Since(start) < 5*time.Minute {
		var merges uint64
		if err := conn.QueryRow(ctx, "SELECT toUInt64(count()) FROM system.merges WHERE database = currentDatabase()").Scan(&merges); err != nil {
			return fmt.Errorf("insights: merges: %w", err)
		}
		if merges == 0 {
			quiet++
		} else {
			quiet = 0
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	var parts, partitions, rows, bytes uint64
	if err := conn.QueryRow(ctx, `SELECT toUInt64(count()), toUInt64(uniqExact(partition)), toUInt64(sum(rows)), toUInt64(sum(bytes))
		FROM system.parts WHERE database = currentDatabase() AND table = 'facts' AND active`).Scan(&parts, &partitions, &rows, &bytes); err != nil {
		return fmt.Errorf("insights: parts: %w", err)
	}
	// Keys, and those whose newest version is inactive: deleted objects,
	// kinds an edit removed, undone days of reactions set again.
	var keys, inactive uint64
	if err := conn.QueryRow(ctx, `SELECT toUInt64(count()), toUInt64(countIf(a = 0)) FROM (
			SELECT argMax(active, version) AS a FROM facts GROUP BY series_id, kind, day, object_id)`).Scan(&keys, &inactive); err != nil {
		return fmt.Errorf("insights: keys: %w", err)
	}
	var wmParts uint64
	_ = conn.QueryRow(ctx, "SELECT toUInt64(count()) FROM system.parts WHERE database = currentDatabase() AND table = 'watermark' AND active").Scan(&wmParts)
	fmt.Printf("insights warehouse after background merges (%.0f s): facts %s rows in %d active parts over %d monthly partitions (%.0f MiB on disk); watermark %d parts\n",
		time.Since(start).Seconds(), thousands(int64(rows)), parts, partitions, float64(bytes)/(1<<20), wmParts)
	fmt.Printf("    %s keys: %s rows (%.1f%%) are older versions or replays that the reads deduplicate; %s keys (%.1f%%) are inactive now and read only to be dropped\n",
		thousands(int64(keys)), thousands(int64(rows)-int64(keys)), 100*float64(int64(rows)-int64(keys))/float64(max(rows, 1)),
		thousands(int64(inactive)), 100*float64(inactive)/float64(max(keys, 1)))
	return nil
}

// insightsReport is one report or list as the API calls it.
type insightsReport struct {
	name string
	call func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (total int, err error)
}

var insightsReports = []insightsReport{
	{"interactions", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.Interactions(ctx, r)
		return rep.Total, err
	}},
	{"content", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.Content(ctx, r)
		return rep.Total, err
	}},
	{"meetups", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.Meetups(ctx, r)
		return rep.Meetups, err
	}},
	{"members", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.Members(ctx, r)
		return rep.Counts.Visitors, err
	}},
	{"inline-questions", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.InlineQuestions(ctx, r)
		return rep.Total, err
	}},
	{"asked-questions", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.AskedQuestions(ctx, r)
		return rep.Total, err
	}},
	{"ai-searches", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.AISearches(ctx, r)
		return rep.Total, err
	}},
	{"summary", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.Summary(ctx, r)
		return rep.Interactions, err
	}},
	{"list asked-questions", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.ListAskedQuestions(ctx, qinsights.ListRequest{Request: r})
		return rep.Total, err
	}},
	{"list inline-questions", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.ListInlineQuestions(ctx, qinsights.ListRequest{Request: r})
		return rep.Total, err
	}},
	{"list ai-searches", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.ListAISearches(ctx, qinsights.ListRequest{Request: r})
		return rep.Total, err
	}},
}

// reports times every report through query/insights, as the API's
// handlers call it, over the kept warehouse and Postgres.
func (w *insightsWorld) reports(ctx context.Context, conn driver.Conn, d *app.Database) error {
	q, err := qinsights.New(d.SQL, qinsights.NewClickHouse(conn))
	if err != nil {
		return err
	}
	caller := auth.Caller{UserID: w.caller, Role: auth.RoleUser} // an admin of the organization
	biggest := w.forums[0]
	if err := w.describeBiggest(ctx, conn, biggest); err != nil {
		return err
	}
	// Forums drawn by their activity (an admin of a busy forum looks more
	// often), and every third call the biggest, so that its p95 rests on
	// enough calls; the same draws for every report.
	drng := rand.New(rand.NewPCG(insightsSeed, 7))
	n, warm := *insightsCallsN, *insightsWarmupN
	draws := make([]int, warm+n)
	for i := range draws {
		if draws[i] = w.forumW.pick(drng); i%3 == 0 {
			draws[i] = 0
		}
	}
	distinct := map[int]bool{}
	onBiggest := 0
	for _, f := range draws[warm:] {
		distinct[f] = true
		if f == 0 {
			onBiggest++
		}
	}
	var missed []string
	for _, period := range []int{90, 30} {
		var totals []string
		fmt.Printf("insights-reports, period %d days: %d sequential calls of each after %d warm-up, on %d forums drawn by activity (%d calls on the biggest); rows read by one call on the biggest forum\n",
			period, n, warm, len(distinct), onBiggest)
		for _, rep := range insightsReports {
			req := func(f int) qinsights.Request {
				return qinsights.Request{Caller: caller, SeriesID: w.forums[f].id, Period: strconv.Itoa(period)}
			}
			// One untimed call on the biggest forum counts what it reads.
			var readRows, readBytes atomic.Uint64
			pctx := clickhouse.Context(ctx, clickhouse.WithProgress(func(p *clickhouse.Progress) {
				readRows.Add(p.Rows)
				readBytes.Add(p.Bytes)
			}))
			total, err := rep.call(pctx, q, req(0))
			totals = append(totals, fmt.Sprintf("%s %s", rep.name, thousands(int64(total))))
			if err != nil {
				return fmt.Errorf("insights-reports %s: %w", rep.name, err)
			}
			if rep.name == "interactions" && total == 0 {
				return fmt.Errorf("insights-reports: the biggest forum has no interactions in %d days: the data does not match the forums", period)
			}
			var all, big []time.Duration
			for i, f := range draws {
				t0 := time.Now()
				if _, err := rep.call(ctx, q, req(f)); err != nil {
					return fmt.Errorf("insights-reports %s: %w", rep.name, err)
				}
				el := time.Since(t0)
				if i < warm {
					continue
				}
				all = append(all, el)
				if f == 0 {
					big = append(big, el)
				}
			}
			a, b := newResult(all, 0), newResult(big, 0)
			ok := a.p(95) <= insightsTarget
			if !ok {
				missed = append(missed, fmt.Sprintf("%s %dd", rep.name, period))
			}
			fmt.Printf("%-46s p50 %6.1f ms  p95 %6.1f ms; biggest forum p50 %6.1f p95 %6.1f ms, reads %s rows (%.1f MiB); target p95 <= %d ms (%s)\n",
				fmt.Sprintf("insights-reports %s (%dd):", rep.name, period), ms(a.p(50)), ms(a.p(95)), ms(b.p(50)), ms(b.p(95)),
				thousands(int64(readRows.Load())), float64(readBytes.Load())/(1<<20), insightsTarget.Milliseconds(), verdict(ok))
		}
		fmt.Printf("    the biggest forum's figures, %d days: %s\n", period, strings.Join(totals, ", "))
	}
	if len(missed) == 0 {
		fmt.Printf("insights-reports target: p95 <= %d ms for every report and period (met)\n", insightsTarget.Milliseconds())
	} else {
		fmt.Printf("insights-reports target: p95 <= %d ms for every report and period (missed by %d of %d: %s)\n",
			insightsTarget.Milliseconds(), len(missed), 2*len(insightsReports), strings.Join(missed, ", "))
	}
	return nil
}

// describeBiggest prints what the biggest forum holds in each period.
func (w *insightsWorld) describeBiggest(ctx context.Context, conn driver.Conn, f *insightsForum) error {
	var all uint64
	if err := conn.QueryRow(ctx, "SELECT toUInt64(count()) FROM facts WHERE series_id = ?", f.id).Scan(&all); err != nil {
		return fmt.Errorf("insights: biggest forum: %w", err)
	}
	var parts []string
	today := time.Now().UTC().Truncate(24 * time.Hour)
	for _, period := range []int{90, 30} {
		from := today.AddDate(0, 0, -(period - 1)).Format(time.DateOnly)
		var rows, keys uint64
		if err := conn.QueryRow(ctx, `SELECT toUInt64(count()), toUInt64(uniqExact(kind, day, object_id)) FROM facts
			WHERE series_id = ? AND day >= toDate(?)`, f.id, from).Scan(&rows, &keys); err != nil {
			return fmt.Errorf("insights: biggest forum: %w", err)
		}
		var inter uint64
		if err := conn.QueryRow(ctx, `SELECT toUInt64(count()) FROM facts
			WHERE series_id = ? AND day >= toDate(?) AND kind IN ('post', 'comment', 'reply', 'reaction')`, f.id, from).Scan(&inter); err != nil {
			return fmt.Errorf("insights: biggest forum: %w", err)
		}
		parts = append(parts, fmt.Sprintf("%d days %s rows (%s keys; %s of post, comment, reply, reaction)", period, thousands(int64(rows)), thousands(int64(keys)), thousands(int64(inter))))
	}
	fmt.Printf("insights biggest forum %q (%s members): %s fact rows in all; %s\n", f.name, thousands(int64(len(f.members))), thousands(int64(all)), strings.Join(parts, "; "))
	return nil
}

// serverPid is the ClickHouse server's process id, from the pid file
// chserver keeps in its folder (dir); 0 when unknown.
func serverPid(dir string) int {
	b, err := os.ReadFile(filepath.Join(dir, "clickhouse-server.pid"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// procCPU is the CPU time (user + system) a process has used, all its
// threads included; 0 when it cannot be read.
func procCPU(pid int) time.Duration {
	if pid == 0 {
		return 0
	}
	f, err := procStat(pid)
	if err != nil || len(f) < 13 {
		return 0
	}
	var ticks int64
	for _, i := range []int{11, 12} {
		n, _ := strconv.ParseInt(f[i], 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * time.Second / cpuTicks
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
