package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	guuid "github.com/google/uuid"

	"agora/projections/change"
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

// factsPerEventGuess paces the first day of activity: the facts an event
// makes on average (a post with an image 2, a comment 1, a question in a
// comment 1 more; edits and deletions later). The days after are paced by
// what the projection has written so far.
const factsPerEventGuess = 1.3

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
//
// The transaction id is made up too, but the projection waits until a
// change's transaction is visible in Postgres (projections.WaitVisible):
// a counting id that reached the bench's Postgres's next xid was never
// visible (nothing commits there during the load), and the load stopped
// for good. So the ids cycle over transactions that Postgres has finished
// (below xmin), and a batch still carries hundreds of them, as the
// projector's do.
func (w *insightsWorld) change(op change.Op, table string, key, before, after change.Row, at time.Time) change.Change {
	// source.sequence as Debezium writes it: the previous transaction's
	// commit end (null for the first), then the change's own LSN; the
	// previous commit record is taken to end 40 bytes past its change.
	last := "null"
	if w.lsn > 0 {
		last = `"` + strconv.FormatUint(w.lsn+40, 10) + `"`
	}
	w.lsn += 40 + uint64(w.rng.IntN(400))
	w.tx++
	var xid int64 // none: WaitVisible skips the change
	if w.xmin > 3 {
		xid = 3 + (w.tx-1)%(w.xmin-3) // 3 is the first normal xid
	}
	ms := at.UnixMilli()
	return change.Change{
		Topic: "agora.public." + table, Op: op, Schema: "public", Table: table, Key: key, Before: before, After: after,
		Source: change.Source{
			Version: "agora", Connector: "postgresql", Name: "agora", TsMs: ms, Snapshot: "false", DB: "agora",
			Sequence: `[` + last + `,"` + strconv.FormatUint(w.lsn, 10) + `"]`,
			Schema:   "public", Table: table, TxID: xid, LSN: int64(w.lsn),
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
