package searchindex

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/projections"
	"agora/projections/change"
	"agora/search"
)

var (
	_ projections.BatchHandler = (*Projection)(nil)
	_ projections.Rebuilder    = (*Projection)(nil)
)

// Projection fills a search.Store from the change stream.
type Projection struct {
	store    search.Store
	db       *pgxpool.Pool
	log      *slog.Logger
	embedder search.Embedder
	// name is the consumer group; tests that fill a store of their own
	// on a broker others read too run it under another.
	name string
}

// Option sets an optional dependency of the projection.
type Option func(*Projection)

// WithEmbedder gives every post document its vector, computed by e (see
// embed); nil indexes posts without vectors.
func WithEmbedder(e search.Embedder) Option {
	return func(p *Projection) { p.embedder = e }
}

// New is the search projection writing to store, reading documents from db.
func New(store search.Store, db *pgxpool.Pool, log *slog.Logger, opts ...Option) (*Projection, error) {
	if store == nil || db == nil {
		return nil, errors.New("searchindex.New: nil dependency")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p := &Projection{store: store, db: db, log: log, name: Name}
	for _, o := range opts {
		o(p)
	}
	return p, nil
}

// Name is the projection's consumer group name.
const Name = "search"

// Named is the same projection under another consumer group, which reads
// the stream from its beginning into the same store.
func (p *Projection) Named(name string) *Projection {
	c := *p
	c.name = name
	return &c
}

// Name is the consumer group: "search".
func (p *Projection) Name() string { return p.name }

// Tables are the tables whose rows make up search documents.
func (p *Projection) Tables() []string {
	return []string{
		"public.users", "public.profiles", "public.community_memberships", "public.series_memberships",
		"public.series", "public.threads", "public.replies",
		"public.meetings", "public.meeting_invitees",
	}
}

// Apply applies one change as a batch of one.
func (p *Projection) Apply(ctx context.Context, c change.Change) error {
	return p.ApplyBatch(ctx, []change.Change{c})
}

// ApplyBatch gathers the keys of the documents the changes touch, then
// rewrites those documents from Postgres.
func (p *Projection) ApplyBatch(ctx context.Context, cs []change.Change) error {
	k := newKeys()
	for _, c := range cs {
		if err := k.add(c); err != nil {
			// A row this projection cannot read will not read better on a
			// retry: dead-letter it.
			return projections.Permanent(err)
		}
	}
	// The documents are read from Postgres as it is now, which must
	// include the changes.
	if err := projections.WaitVisible(ctx, p.db, cs); err != nil {
		return err
	}
	err := p.refresh(ctx, k)
	if errors.Is(err, search.ErrUnavailable) {
		// Meilisearch down or overloaded, or the embedded engine's disk
		// full: retried until it is back.
		return projections.Unavailable(err)
	}
	return err
}

// Reset empties the four indexes, for a rebuild from a snapshot.
func (p *Projection) Reset(ctx context.Context) error {
	for _, rebuild := range []func(context.Context) error{
		p.store.Members().Rebuild, p.store.Peers().Rebuild, p.store.Posts().Rebuild, p.store.Hashtags().Rebuild,
	} {
		if err := rebuild(ctx); err != nil {
			return err
		}
	}
	return nil
}

// tagKey is a hashtag name, lower-cased, in a forum.
type tagKey struct {
	series uuid.UUID
	tag    string
}

// keys are the documents a batch of changes touches.
type keys struct {
	// profiles and users name member documents (a user's profiles) and
	// peer documents (a profile's user); experts of renamed forums have
	// peer documents that name the forum.
	profiles, users, seriesRenamed ids
	threads, replies               ids
	// minutesThreads are Meet Up posts whose minutes or readers changed
	// (from a meetings row); meetings are Meet Ups whose invitees changed.
	minutesThreads, meetings ids
	// tags are forum hashtags to recount; replyTags the hashtags of
	// comments, whose forum is their post's; forumTags forums whose tags
	// are all recounted (a post deleted with its comments).
	tags      map[tagKey]bool
	replyTags map[uuid.UUID][]string
	forumTags ids
}

type ids map[uuid.UUID]bool

func (s ids) list() []uuid.UUID {
	out := make([]uuid.UUID, 0, len(s))
	for id := range s {
		out = append(out, id)
	}
	return out
}

func newKeys() *keys {
	return &keys{
		profiles: ids{}, users: ids{}, seriesRenamed: ids{}, threads: ids{}, replies: ids{},
		minutesThreads: ids{}, meetings: ids{},
		tags: map[tagKey]bool{}, replyTags: map[uuid.UUID][]string{}, forumTags: ids{},
	}
}

// add records the keys of one change, from its row before and after.
func (k *keys) add(c change.Change) error {
	rows := []change.Row{}
	for _, r := range []change.Row{c.Before, c.After} {
		if r != nil {
			rows = append(rows, r)
		}
	}
	for _, r := range rows {
		var err error
		switch c.Table {
		case "users":
			err = k.id(r, "id", k.users)
		case "profiles":
			if err = k.id(r, "id", k.profiles); err == nil && !r.IsNull("user_id") {
				err = k.id(r, "user_id", k.users)
			}
		case "community_memberships", "series_memberships":
			err = k.id(r, "profile_id", k.profiles)
		case "series":
			if c.Op == change.Update {
				err = k.id(r, "id", k.seriesRenamed)
			}
		case "threads":
			if err = k.id(r, "id", k.threads); err != nil {
				break
			}
			var series uuid.UUID
			if series, err = r.UUID("series_id"); err != nil {
				break
			}
			var tags []string
			if tags, err = r.Strings("hashtags"); err != nil {
				break
			}
			for _, t := range tags {
				k.tags[tagKey{series, strings.ToLower(t)}] = true
			}
			if c.Op == change.Delete {
				// Its comments go with it, and their own deletions may
				// come before this one, when the post can no longer tell
				// their forum: recount the forum's tags.
				k.forumTags[series] = true
			}
		case "meetings":
			err = k.id(r, "thread_id", k.minutesThreads)
		case "meeting_invitees":
			err = k.id(r, "meeting_id", k.meetings)
		case "replies":
			if err = k.id(r, "id", k.replies); err != nil {
				break
			}
			var thread uuid.UUID
			if thread, err = r.UUID("thread_id"); err != nil {
				break
			}
			var tags []string
			if tags, err = r.Strings("hashtags"); err != nil {
				break
			}
			for _, t := range tags {
				k.replyTags[thread] = append(k.replyTags[thread], strings.ToLower(t))
			}
		}
		if err != nil {
			return fmt.Errorf("searchindex: %s: %w", c.QualifiedTable(), err)
		}
	}
	return nil
}

func (k *keys) id(r change.Row, col string, into ids) error {
	id, err := r.UUID(col)
	if err != nil {
		return err
	}
	into[id] = true
	return nil
}

// refresh rewrites every document k names, then waits until the writes are
// searchable, so the runner commits offsets only for what is in the index.
func (p *Projection) refresh(ctx context.Context, k *keys) error {
	steps := []struct {
		name string
		run  func(context.Context, *keys) error
	}{
		{"members", p.members}, {"peers", p.peers}, {"posts", p.posts}, {"hashtags", p.hashtags},
	}
	for _, s := range steps {
		if err := s.run(ctx, k); err != nil {
			return fmt.Errorf("searchindex: %s: %w", s.name, err)
		}
	}
	for _, wait := range []func(context.Context) error{
		p.store.Members().Wait, p.store.Peers().Wait, p.store.Posts().Wait, p.store.Hashtags().Wait,
	} {
		if err := wait(ctx); err != nil {
			return err
		}
	}
	return nil
}

// sync upserts the documents found and deletes the wanted ids that were not.
func sync[D search.Document](ctx context.Context, x search.Index[D], wanted ids, found []D) error {
	if err := x.Upsert(ctx, found...); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, d := range found {
		seen[d.DocID()] = true
	}
	var gone []string
	for id := range wanted {
		if !seen[id.String()] {
			gone = append(gone, id.String())
		}
	}
	return x.Delete(ctx, gone...)
}
