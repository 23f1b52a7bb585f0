package insights

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/projections"
	"agora/projections/change"
)

var (
	_ projections.BatchHandler = (*Projection)(nil)
	_ projections.Rebuilder    = (*Projection)(nil)
)

// Name is the projection's consumer group name.
const Name = "insights"

// Projection fills the insights warehouse from the change stream.
type Projection struct {
	ch  driver.Conn
	db  *pgxpool.Pool
	log *slog.Logger
	// name is the consumer group; tests replay the stream under another.
	name string
	// recent are the parents seen last (shared by the Named copies).
	recent *recentParents
	// factRows counts the fact rows inserted (shared by the Named copies).
	factRows *atomic.Int64
}

// New is the analytics projection writing to the warehouse ch, reading
// what a change does not carry (a post's forum, a profile's user) from the
// warehouse, else from db.
func New(ch driver.Conn, db *pgxpool.Pool, log *slog.Logger) (*Projection, error) {
	if ch == nil || db == nil {
		return nil, fmt.Errorf("insights.New: nil dependency")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Projection{ch: ch, db: db, log: log, name: Name, recent: newRecentParents(parentsKept), factRows: new(atomic.Int64)}, nil
}

// Named is the same projection under another consumer group, which reads
// the stream from its beginning: a replay of everything into the same
// warehouse (the facts are idempotent, so nothing counts twice).
func (p *Projection) Named(name string) *Projection {
	c := *p
	c.name = name
	return &c
}

// Name is the consumer group: "insights".
func (p *Projection) Name() string { return p.name }

// FactRows is how many fact rows the projection has inserted since New,
// replayed changes included: what a load wrote, for the benchmark.
func (p *Projection) FactRows() int64 { return p.factRows.Load() }

// Tables are the tables whose rows make facts and dimensions.
func (p *Projection) Tables() []string {
	return []string{
		"public.series", "public.channels", "public.series_memberships",
		"public.threads", "public.replies", "public.reactions",
		"public.series_visit_log", "public.ai_searches", "public.ai_search_turns",
		"public.organizations", "public.communities",
		"public.meetings", "public.meeting_invitees", "public.meeting_attendance",
	}
}

// Apply applies one change as a batch of one.
func (p *Projection) Apply(ctx context.Context, c change.Change) error {
	return p.ApplyBatch(ctx, []change.Change{c})
}

// ApplyBatch turns the changes into rows: it reads the row images, looks
// up what they do not say (forums of comments, communities of forums,
// users of profiles) in one query per kind of lookup, and writes each
// table with one INSERT.
func (p *Projection) ApplyBatch(ctx context.Context, cs []change.Change) error {
	b := newBatch()
	for _, c := range cs {
		if err := b.read(c); err != nil {
			// A row this projection cannot read will not read better on a
			// retry: dead-letter it.
			return projections.Permanent(err)
		}
	}
	// What the changes do not carry is read from Postgres as it is now,
	// which must include them.
	if err := projections.WaitVisible(ctx, p.db, cs); err != nil {
		return err
	}
	if err := p.resolve(ctx, b); err != nil {
		return unavailable(err)
	}
	b.build(p.log)
	return unavailable(p.write(ctx, b))
}

// Exception codes of a ClickHouse that is overloaded, shutting down or out
// of space: the batch is fine, the warehouse cannot take it now.
var busyCodes = map[int32]bool{
	75:  true, // CANNOT_WRITE_TO_FILE_DESCRIPTOR (18.16's word for a full disk)
	159: true, // TIMEOUT_EXCEEDED
	202: true, // TOO_MANY_SIMULTANEOUS_QUERIES
	203: true, // NO_FREE_CONNECTION
	209: true, // SOCKET_TIMEOUT
	210: true, // NETWORK_ERROR
	241: true, // MEMORY_LIMIT_EXCEEDED
	242: true, // TABLE_IS_READ_ONLY
	243: true, // NOT_ENOUGH_SPACE
	252: true, // TOO_MANY_PARTS
	394: true, // QUERY_WAS_CANCELLED (by a shutdown)
}

// unavailable marks err for the runner as the warehouse's being down, when
// clickhouse-go or the server says so in words of their own; the network's
// errors (refused, reset) the runner knows already.
func unavailable(err error) error {
	var ex *clickhouse.Exception
	switch {
	case err == nil:
		return nil
	case errors.Is(err, clickhouse.ErrAcquireConnTimeout), errors.Is(err, clickhouse.ErrConnectionClosed), errors.Is(err, io.EOF),
		errors.As(err, &ex) && busyCodes[ex.Code]:
		return projections.Unavailable(err)
	}
	return err
}

// Reset empties the warehouse, for a rebuild from a snapshot: every table
// the projection writes, and those its views fill (facts by day, visits).
func (p *Projection) Reset(ctx context.Context) error {
	p.recent.reset()
	for _, t := range []string{"facts", "facts_by_day", "daily", "parents", "forums", "members", "visits_daily", "watermark", "organizations", "communities"} {
		if err := p.ch.Exec(ctx, "TRUNCATE TABLE "+t); err != nil {
			return fmt.Errorf("insights: reset %s: %w", t, err)
		}
	}
	return nil
}

// parent is where a post or an AI search lives, and who made it.
type parent struct {
	series, channel, actor uuid.UUID
}

// forumState is a forum as Postgres has it.
type forumState struct {
	community, main, admin uuid.UUID
	name                   string
	created                time.Time
}

// image is one row image of a change, with what the facts need.
type image struct {
	table   string
	row     change.Row
	exists  bool   // false: the row is gone (a delete) or is the before-image of an update
	version uint64 // the change's transaction in commit order (Position().Commit)
	seq     int    // the change's place in the batch: later wins a tie
	// moved marks a before-image: only its keys that the after-image does
	// not have are written (inactive).
	moved bool
	// every: write the kinds the row does not have too (inactive), for an
	// update that carries no before-image to say which kinds it removed.
	every bool
}

// batch is what one ApplyBatch gathers, looks up and writes.
type batch struct {
	images []image
	// parents learnt from the batch's own rows, and looked up.
	parents map[uuid.UUID]parent
	// newParents are the parents to write: the batch's own posts and
	// searches, and those found only in Postgres.
	newParents map[uuid.UUID]parent
	wantParent map[uuid.UUID]bool
	// communities of forums: from the batch's series rows, the warehouse
	// or Postgres.
	community     map[uuid.UUID]uuid.UUID
	wantCommunity map[uuid.UUID]bool
	// forums touched by series or channel changes: the newest version and
	// the last series image seen.
	forums      map[uuid.UUID]uint64
	forumImages map[uuid.UUID]change.Row
	forumRows   []forumRow
	// users of profiles, for memberships.
	users    map[uuid.UUID]uuid.UUID
	wantUser map[uuid.UUID]bool
	members  map[[2]uuid.UUID]memberRow
	// dimensions: organizations and communities, the newest image of each.
	dimensions map[uuid.UUID]dimensionRow
	facts      map[key]keyed
	// committed is the newest commit time in the batch (ms).
	committed int64
}

// keyed is a fact and the place in the batch of the change that made it.
type keyed struct {
	Fact
	seq int
}

type forumRow struct {
	series uuid.UUID
	state  forumState
	active bool
	ver    uint64
}

// dimensionRow is an organization or a community as its newest image in
// the batch has it (organization is the community's; nil for an
// organization).
type dimensionRow struct {
	table            string
	id, organization uuid.UUID
	name             string
	created          time.Time
	active           bool
	version          uint64
	seq              int
}

type memberRow struct {
	membershipRow
	user    uuid.UUID
	active  bool
	version uint64
	seq     int
}

func newBatch() *batch {
	return &batch{
		parents: map[uuid.UUID]parent{}, newParents: map[uuid.UUID]parent{}, wantParent: map[uuid.UUID]bool{},
		community: map[uuid.UUID]uuid.UUID{}, wantCommunity: map[uuid.UUID]bool{},
		forums: map[uuid.UUID]uint64{}, forumImages: map[uuid.UUID]change.Row{},
		users: map[uuid.UUID]uuid.UUID{}, wantUser: map[uuid.UUID]bool{},
		members: map[[2]uuid.UUID]memberRow{}, dimensions: map[uuid.UUID]dimensionRow{}, facts: map[key]keyed{},
	}
}

// read records a change's images and what they need looked up.
func (b *batch) read(c change.Change) error {
	if c.Op == change.Truncate {
		return nil // Agora never truncates its tables; nothing to apply
	}
	if ms := c.Source.TsMs; ms > b.committed {
		b.committed = ms
	}
	// Transactions, not rows, order facts: a fact's key gathers several
	// rows. Position's Commit grows from one transaction to the next (and
	// is 0 for a snapshot read); a transaction's changes share it, and
	// seq breaks the tie within a batch. One more than Commit: the daily
	// recount's version is the sum of its facts' versions, which must grow
	// with every fact a recount sees, snapshot reads' too (with 0, a
	// rebuild's recounts of one group all had version 0, and a partial one
	// could win).
	v := c.Position().Commit + 1
	seq := len(b.images)
	switch {
	case c.Op == change.Delete:
		b.images = append(b.images, image{table: c.Table, row: c.Before, version: v, seq: seq})
	default:
		if c.Op == change.Update && c.Before != nil {
			b.images = append(b.images, image{table: c.Table, row: c.Before, version: v, seq: seq, moved: true})
		}
		// Every table here has REPLICA IDENTITY FULL, so an update has its
		// before-image; without one, the kinds it may have removed are
		// unknown, and all are written.
		every := c.Op == change.Update && c.Before == nil
		b.images = append(b.images, image{table: c.Table, row: c.After, exists: true, version: v, seq: seq, every: every})
	}
	for _, im := range b.images[seq:] {
		if err := b.need(c, im); err != nil {
			return err
		}
	}
	return nil
}

// need notes what an image's facts will need.
func (b *batch) need(c change.Change, im image) error {
	r := im.row
	switch c.Table {
	case "series":
		id, err := r.UUID("id")
		if err != nil {
			return fmt.Errorf("insights: series: %w", err)
		}
		community, err := r.UUID("community_id")
		if err != nil {
			return fmt.Errorf("insights: series: %w", err)
		}
		b.community[id] = community
		b.touchForum(id, im.version)
		b.forumImages[id] = r
	case "channels":
		if r.IsNull("series_id") {
			return nil // not a forum's channel
		}
		id, err := r.UUID("series_id")
		if err != nil {
			return fmt.Errorf("insights: channels: %w", err)
		}
		b.touchForum(id, im.version)
	case "threads":
		t, err := scanThread(r)
		if err != nil {
			return err
		}
		b.learnParent(t.ID, parent{series: t.SeriesID, channel: t.ChannelID, actor: t.actor()})
		b.wantCommunity[t.SeriesID] = true
	case "ai_searches":
		s, err := scanSearch(r)
		if err != nil {
			return err
		}
		b.learnParent(s.ID, parent{series: s.SeriesID, channel: s.ChannelID, actor: s.UserID})
	case "replies":
		v, err := scanReply(r)
		if err != nil {
			return err
		}
		b.wantParent[v.ThreadID] = true
	case "reactions":
		v, err := scanReaction(r)
		if err != nil {
			return err
		}
		b.wantParent[v.ThreadID] = true
	case "ai_search_turns":
		v, err := scanTurn(r)
		if err != nil {
			return err
		}
		b.wantParent[v.SearchID] = true
	case "series_visit_log":
		v, err := scanVisit(r)
		if err != nil {
			return err
		}
		b.wantCommunity[v.SeriesID] = true
	case "organizations", "communities":
		if im.moved {
			return nil // the after-image, of the same version, says it
		}
		var d struct {
			ID             uuid.UUID `cdc:"id"`
			OrganizationID uuid.UUID `cdc:"organization_id"`
			Name           string    `cdc:"name"`
			CreatedOn      time.Time `cdc:"created_on"`
		}
		if err := r.Scan(&d); err != nil {
			return fmt.Errorf("insights: %s: %w", c.Table, err)
		}
		if old, ok := b.dimensions[d.ID]; ok && (old.version > im.version || (old.version == im.version && old.seq > im.seq)) {
			return nil
		}
		b.dimensions[d.ID] = dimensionRow{table: c.Table, id: d.ID, organization: d.OrganizationID, name: d.Name, created: d.CreatedOn,
			active: im.exists, version: im.version, seq: im.seq}
	case "series_memberships":
		m, err := scanMembership(r)
		if err != nil {
			return err
		}
		b.wantCommunity[m.SeriesID] = true
		b.wantUser[m.ProfileID] = true
	case "meetings":
		m, err := scanMeeting(r)
		if err != nil {
			return err
		}
		// A Meet Up is the parent of its invitations and sessions; it is
		// in no channel (the forum's).
		b.learnParent(m.ID, parent{series: m.SeriesID, actor: m.CreatorID})
		b.wantCommunity[m.SeriesID] = true
	case "meeting_invitees":
		v, err := scanInvitee(r)
		if err != nil {
			return err
		}
		b.wantParent[v.MeetingID] = true
	case "meeting_attendance":
		v, err := scanAttendance(r)
		if err != nil {
			return err
		}
		b.wantParent[v.MeetingID] = true
	}
	return nil
}

func (b *batch) touchForum(id uuid.UUID, v uint64) {
	if v >= b.forums[id] {
		b.forums[id] = v
	}
	b.wantCommunity[id] = true
}

func (b *batch) learnParent(id uuid.UUID, p parent) {
	b.parents[id] = p
	b.newParents[id] = p
}

// build turns the images into facts and dimension rows, keeping per key
// the newest version (the later change on a tie). An image writes the
// kinds its row has: active for a row that exists, inactive for a deleted
// one; an update's before-image writes, inactive, those of its keys the
// after-image does not have (a kind removed by an edit, a reaction's old
// day). So every key's newest version is the change that last gave or took
// away that kind, and a replay writes the same rows again.
func (b *batch) build(log *slog.Logger) {
	// The keys an update's after-image writes: its before-image writes
	// only the others (a reaction set again moves to its new day).
	after := map[int]map[key]bool{}
	var per [][]Fact
	for _, im := range b.images {
		fs := b.factsOf(im, log)
		per = append(per, fs)
		if im.exists {
			ks := map[key]bool{}
			for _, f := range fs {
				ks[f.key()] = true
			}
			after[im.seq] = ks
		}
	}
	for i, im := range b.images {
		for _, f := range per[i] {
			k := f.key()
			if im.moved && after[im.seq][k] {
				continue
			}
			if old, ok := b.facts[k]; ok && (old.Version > f.Version || (old.Version == f.Version && old.seq > im.seq)) {
				continue
			}
			b.facts[k] = keyed{Fact: f, seq: im.seq}
		}
	}
}

// factsOf are the facts of one image; nil when its forum is unknown.
func (b *batch) factsOf(im image, log *slog.Logger) []Fact {
	r := im.row
	switch im.table {
	case "threads":
		t, _ := scanThread(r) // read once already
		return threadFacts(t, place{series: t.SeriesID, community: b.community[t.SeriesID], channel: t.ChannelID}, im.exists, im.every, im.version)
	case "replies":
		v, _ := scanReply(r)
		p, ok := b.place(v.ThreadID)
		if !ok {
			log.Debug("insights: a comment's post is unknown; skipped", "reply", v.ID, "thread", v.ThreadID)
			return nil
		}
		return replyFacts(v, p, im.exists, im.every, im.version)
	case "reactions":
		v, _ := scanReaction(r)
		p, ok := b.place(v.ThreadID)
		if !ok {
			log.Debug("insights: a reaction's post is unknown; skipped", "reaction", v.ID, "thread", v.ThreadID)
			return nil
		}
		return reactionFacts(v, p, im.exists, im.version)
	case "ai_search_turns":
		v, _ := scanTurn(r)
		p, ok := b.parents[v.SearchID]
		if !ok {
			log.Debug("insights: an AI search is unknown; skipped", "turn", v.ID, "search", v.SearchID)
			return nil
		}
		return turnFacts(v, p, b.community[p.series], im.exists, im.version)
	case "series_visit_log":
		v, _ := scanVisit(r)
		return visitFacts(v, b.community[v.SeriesID], im.exists, im.version)
	case "series_memberships":
		m, _ := scanMembership(r)
		user := b.users[m.ProfileID]
		if !im.moved {
			k := [2]uuid.UUID{m.SeriesID, m.ProfileID}
			if old, ok := b.members[k]; !ok || old.version < im.version || (old.version == im.version && old.seq <= im.seq) {
				b.members[k] = memberRow{membershipRow: m, user: user, active: im.exists, version: im.version, seq: im.seq}
			}
		}
		return memberFacts(m, user, b.community[m.SeriesID], im.exists, im.version)
	case "meetings":
		m, _ := scanMeeting(r)
		return meetupFacts(m, b.community[m.SeriesID], im.exists, im.version)
	case "meeting_invitees":
		v, _ := scanInvitee(r)
		p, ok := b.parents[v.MeetingID]
		if !ok {
			log.Debug("insights: an invitation's Meet Up is unknown; skipped", "meeting", v.MeetingID)
			return nil
		}
		return inviteeFacts(v, p, b.community[p.series], im.exists, im.version)
	case "meeting_attendance":
		v, _ := scanAttendance(r)
		p, ok := b.parents[v.MeetingID]
		if !ok {
			log.Debug("insights: a session's Meet Up is unknown; skipped", "meeting", v.MeetingID, "session", v.ID)
			return nil
		}
		return attendanceFacts(v, p, b.community[p.series], im.exists, im.version)
	}
	return nil
}

// place is the forum, community and channel of a post, if known.
func (b *batch) place(post uuid.UUID) (place, bool) {
	p, ok := b.parents[post]
	if !ok {
		return place{}, false
	}
	return place{series: p.series, community: b.community[p.series], channel: p.channel}, true
}
