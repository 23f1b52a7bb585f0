package realtime

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/live"
	"agora/projections"
	"agora/projections/change"
	qchat "agora/query/chat"
)

var (
	_ projections.BatchHandler = (*Projection)(nil)
	_ projections.FromTime     = (*Projection)(nil)
)

// DefaultReplayMargin is how far before the node started a change may have
// been committed and still be delivered: room for the clocks of Postgres
// and of the node to disagree.
const DefaultReplayMargin = 2 * time.Second

// Projection delivers the live events of row changes to the connections of
// one hub. It implements projections.Handler.
type Projection struct {
	hub   *live.Hub
	store store
	feed  Feed
	chat  Chat
	notes Notifications
	since int64 // commit time (ms) before which changes are skipped
	sent  *delivered
	log   *slog.Logger
}

// NewProjection is the realtime projection of hub over db, whose events
// show posts and comments as feed reads them, private messages as chat
// does and notifications as notes do. replayMargin < 0 means
// DefaultReplayMargin.
func NewProjection(hub *live.Hub, db DB, feed Feed, chat Chat, notes Notifications, replayMargin time.Duration, log *slog.Logger) (*Projection, error) {
	if hub == nil || db == nil || feed == nil || chat == nil || notes == nil {
		return nil, errors.New("realtime.NewProjection: nil dependency")
	}
	if replayMargin < 0 {
		replayMargin = DefaultReplayMargin
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Projection{hub: hub, store: store{db}, feed: feed, chat: chat, notes: notes, since: hub.Started().Add(-replayMargin).UnixMilli(), sent: newDelivered(deliveredLimit), log: log}, nil
}

// Name is "realtime." and the node id: a consumer group per node, so that
// every node sees every change.
func (p *Projection) Name() string { return "realtime." + p.hub.NodeID() }

// StartAt makes a node's new consumer group start with the changes of a
// moment (the replay margin) before the node started: no browser connected
// to this node waits for what happened before.
func (p *Projection) StartAt() time.Time { return time.UnixMilli(p.since) }

// sessionsTable is where a revocation (sign-out, password change or reset)
// comes from: it closes the session's connections on this node.
const sessionsTable = "public.sessions"

// Tables are the tables with live events, and the sessions.
func (p *Projection) Tables() []string { return append(Tables(), sessionsTable) }

// Apply delivers the events of c to this node's connections that may read
// them, once (see delivered). It fails only while the database is
// unavailable (a restart), so that the runner tries again once it is back
// and no event is lost to a restart; any other failure is logged and the
// change dropped: a live event is a hint for the browser to refetch, not
// worth holding up the stream with retries or a dead letter.
func (p *Projection) Apply(ctx context.Context, c change.Change) error {
	return p.ApplyBatch(ctx, []change.Change{c})
}

// ApplyBatch delivers the events of cs in their order, as Apply would one
// by one, but first reads every private message they show in one
// statement: the projection applies a node's changes one after another,
// and a statement per message left it behind the stream at a few hundred
// messages a second on a busy machine.
func (p *Projection) ApplyBatch(ctx context.Context, cs []change.Change) error {
	type applied struct {
		c   change.Change
		evs []Event
	}
	todo := make([]applied, 0, len(cs))
	var ids []uuid.UUID
	seen := map[uuid.UUID]bool{}
	for _, c := range cs {
		// A node's new consumer group starts from a moment before the node
		// started (StartAt), but a node restarted under its id goes on from
		// where it stopped, and the messages' time is the producer's: no browser
		// connected to this node was waiting for what happened before it
		// started, so those changes are skipped (a reconnecting browser
		// refetches).
		if c.Source.TsMs > 0 && c.Source.TsMs < p.since {
			continue
		}
		if !p.sent.fresh(c) {
			continue
		}
		if c.QualifiedTable() == sessionsTable {
			todo = append(todo, applied{c: c})
			continue
		}
		evs, err := Events(c)
		if err != nil {
			p.log.Warn("realtime: change not understood; skipped", "table", c.QualifiedTable(), "offset", c.Offset, "err", err)
			continue
		}
		for _, e := range evs {
			if cp, ok := e.Payload.(*ChatPayload); ok && !seen[cp.ID] {
				seen[cp.ID] = true
				ids = append(ids, cp.ID)
			}
		}
		todo = append(todo, applied{c, evs})
	}
	read := p.readMessages(ctx, ids)
	// Who is connected, and each audience among them, are read once for
	// the batch: a post's events and its reactions' name the same
	// audience, and the batch is as long as the projection is behind, so
	// that catching up costs a query per audience rather than per event.
	b := &batch{candidates: p.hub.Users(), audiences: map[Audience][]uuid.UUID{}, read: read}
	for _, a := range todo {
		if a.c.QualifiedTable() == sessionsTable {
			p.endRevoked(a.c)
			continue
		}
		for _, e := range a.evs {
			if err := p.deliver(ctx, e, b); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				if projections.IsUnavailable(err) {
					// The changes delivered before this one are recorded
					// as sent, so the runner's retry of the batch delivers
					// only the rest. A change of several events may send
					// its first ones again: rare, and each is only a hint.
					return err
				}
				p.log.Warn("realtime: event not delivered", "event", e.Type, "contextKey", e.ContextKey, "err", err)
			}
		}
		p.sent.done(a.c)
	}
	return nil
}

// batch is what the events of one ApplyBatch share: the members connected
// here when it began, the audiences among them read so far, and the
// private messages read ahead (see readMessages).
type batch struct {
	candidates []uuid.UUID
	audiences  map[Audience][]uuid.UUID
	read       map[uuid.UUID]qchat.LiveMessage
}

// audience is a among the batch's candidates, read once a batch.
func (p *Projection) audience(ctx context.Context, b *batch, a Audience) ([]uuid.UUID, error) {
	if us, ok := b.audiences[a]; ok {
		return us, nil
	}
	us, err := p.store.audience(ctx, a, b.candidates)
	if err != nil {
		return nil, err
	}
	b.audiences[a] = us
	return us, nil
}

// deliver delivers one event of batch b.
func (p *Projection) deliver(ctx context.Context, e Event, b *batch) error {
	// The cheap path: nobody connected here, no query.
	candidates := b.candidates
	if len(candidates) == 0 {
		return nil
	}
	if e.If != nil {
		ok, err := p.store.holds(ctx, *e.If)
		if err != nil || !ok {
			return err
		}
	}
	if cp, ok := e.Payload.(*ChatPayload); ok {
		return p.deliverChat(ctx, e, cp, candidates, b.read)
	}
	to := map[uuid.UUID]bool{}
	for _, a := range e.To {
		us, err := p.audience(ctx, b, a)
		if err != nil {
			return err
		}
		for _, u := range us {
			to[u] = true
		}
	}
	delete(to, e.Except)
	if len(to) == 0 {
		return nil
	}
	if err := complete(ctx, p.store.db, p.feed, p.notes, &e); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil // what the event is about went meanwhile; its own event follows
		}
		return err
	}
	if per, ok := e.Payload.(perReceiver); ok {
		// A Meet Up reads differently for each receiver (their role, the
		// minutes' text).
		for u := range to {
			one := e
			one.Payload = per.forReceiver(u)
			msg, err := one.Encode()
			if err != nil {
				return err
			}
			p.hub.Deliver(msg, []uuid.UUID{u})
		}
		return nil
	}
	msg, err := e.Encode()
	if err != nil {
		return err
	}
	users := make([]uuid.UUID, 0, len(to))
	for u := range to {
		users = append(users, u)
	}
	p.hub.Deliver(msg, users)
	return nil
}

// endRevoked closes the connections of a session the change revoked.
func (p *Projection) endRevoked(c change.Change) {
	var s struct {
		ID        uuid.UUID
		RevokedOn *time.Time
	}
	if c.After == nil || c.Op == change.Read {
		return
	}
	if err := c.After.Scan(&s); err != nil {
		p.log.Warn("realtime: session change not understood; skipped", "offset", c.Offset, "err", err)
		return
	}
	if s.RevokedOn != nil {
		p.hub.EndSession(s.ID)
	}
}
