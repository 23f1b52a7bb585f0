package notifications

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/richtext"
	"agora/projections"
	"agora/projections/change"
)

var (
	_ projections.BatchHandler = (*Projection)(nil)
	_ projections.Rebuilder    = (*Projection)(nil)
)

// Name is the projection's consumer group name.
const Name = "notifications"

// PreviewMax is the most characters of a source's text a row keeps.
const PreviewMax = 200

// Projection writes the notifications table from the change stream.
type Projection struct {
	db   *pgxpool.Pool
	log  *slog.Logger
	name string
	// n is the table written: notifications, or a scratch copy (Scratch).
	n *table.NotificationsTable
}

// New is the notifications projection over db, which it reads what a change
// does not carry from and writes the notifications to.
func New(db *pgxpool.Pool, log *slog.Logger) (*Projection, error) {
	if db == nil {
		return nil, fmt.Errorf("notifications.New: nil dependency")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Projection{db: db, log: log, name: Name, n: table.Notifications}, nil
}

// Named is the same projection under another consumer group, which reads
// the stream from its beginning: a replay into the same table.
func (p *Projection) Named(name string) *Projection {
	c := *p
	c.name = name
	return &c
}

// Name is the consumer group: "notifications".
func (p *Projection) Name() string { return p.name }

// Tables are the sources of notifications.
func (p *Projection) Tables() []string {
	return []string{"public.threads", "public.replies", "public.private_messages", "public.meetings", "public.meeting_invitees",
		"public.series_memberships", "public.community_memberships"}
}

// Apply applies one change as a batch of one.
func (p *Projection) Apply(ctx context.Context, c change.Change) error {
	return p.ApplyBatch(ctx, []change.Change{c})
}

// ApplyBatch reads the changes' sources, looks up what they do not carry
// in one query per kind of lookup, and writes the batch's rows in one
// transaction.
func (p *Projection) ApplyBatch(ctx context.Context, cs []change.Change) error {
	b := &batch{}
	for _, c := range cs {
		read := b.read
		switch c.Table {
		case "meetings", "meeting_invitees":
			read = b.readMeetup
		case "series_memberships":
			read = b.readAccess
		case "community_memberships":
			read = b.readMembership
		}
		if err := read(c); err != nil {
			// A row this projection cannot read will not read better on a
			// retry: dead-letter it.
			return projections.Permanent(err)
		}
	}
	if len(b.sources) == 0 && len(b.deleted) == 0 && len(b.meetups) == 0 && len(b.meetupsGone) == 0 &&
		len(b.access) == 0 && len(b.accessGone) == 0 && len(b.joined) == 0 {
		return nil
	}
	// Recipients and readers are read from Postgres as it is now, which
	// must include the changes.
	if err := projections.WaitVisible(ctx, p.db, cs); err != nil {
		return err
	}
	return p.write(ctx, b)
}

// Reset removes the rows whose source is gone and keeps the others (see
// the package doc: who could read a forum then is not in the snapshot).
func (p *Projection) Reset(ctx context.Context) error {
	if err := removeOrphans(ctx, p.db, p.n); err != nil {
		return fmt.Errorf("notifications: reset: %w", err)
	}
	return nil
}

// source is a post, comment, reply or private message as a change has it.
type source struct {
	table string
	id    uuid.UUID
	// thread is the post (of a comment or reply); the post itself for a
	// post; nil for a message.
	thread  uuid.UUID
	parent  *uuid.UUID // the comment a reply answers
	channel uuid.UUID
	series  uuid.UUID // the post's forum, when the row carries it
	creator uuid.UUID
	// anonymous: an anonymous question's asker, never named.
	anonymous bool
	raw       string
	mentions  []uuid.UUID
	created   time.Time
	// update: an edit; only the mentions not in before are new.
	update bool
	before []uuid.UUID
}

// batch is what one ApplyBatch gathers, in the order of the changes.
type batch struct {
	sources []source
	// deleted are the sources deleted, threads among them marked.
	deleted       []uuid.UUID
	deletedThread []uuid.UUID
	// meetups are the Meet Up notifications asked for (meetups.go), and
	// meetupsGone the invitees removed.
	meetups     []meetupNote
	meetupsGone []meetupGone
	// access are the forum memberships given (access.go), accessGone
	// those removed.
	access, accessGone []accessNote
	// joined are the community memberships made active (communities.go).
	joined []joined
}

type threadRow struct {
	ID        uuid.UUID
	ChannelID uuid.UUID
	SeriesID  uuid.UUID
	CreatorID uuid.UUID
	CreatorAs string
	Raw       string
	Mentions  []uuid.UUID
	CreatedOn time.Time
}

type replyRow struct {
	ID        uuid.UUID
	ThreadID  uuid.UUID
	ParentID  *uuid.UUID
	CreatorID uuid.UUID
	Raw       string
	Mentions  []uuid.UUID
	CreatedOn time.Time
}

type messageRow struct {
	ID        uuid.UUID
	ChannelID uuid.UUID
	CreatorID uuid.UUID
	Raw       string
	CreatedOn time.Time
}

// read records one change.
func (b *batch) read(c change.Change) error {
	switch c.Op {
	case change.Create, change.Read, change.Update:
	case change.Delete:
		var k struct{ ID uuid.UUID }
		if err := c.Before.Scan(&k); err != nil {
			return fmt.Errorf("notifications: %s: %w", c.Table, err)
		}
		b.deleted = append(b.deleted, k.ID)
		if c.Table == "threads" {
			b.deletedThread = append(b.deletedThread, k.ID)
		}
		return nil
	default:
		return nil // Agora never truncates its tables
	}
	s, err := scanSource(c.Table, c.After)
	if err != nil {
		return err
	}
	if c.Op == change.Update {
		s.update = true
		if c.Before != nil {
			was, err := scanSource(c.Table, c.Before)
			if err != nil {
				return err
			}
			s.before = was.mentions
		}
	}
	b.sources = append(b.sources, s)
	return nil
}

func scanSource(table string, r change.Row) (source, error) {
	switch table {
	case "threads":
		var t threadRow
		if err := r.Scan(&t); err != nil {
			return source{}, fmt.Errorf("notifications: threads: %w", err)
		}
		return source{table: table, id: t.ID, thread: t.ID, channel: t.ChannelID, series: t.SeriesID, creator: t.CreatorID,
			anonymous: t.CreatorAs == "anonymous", raw: t.Raw, mentions: t.Mentions, created: t.CreatedOn}, nil
	case "replies":
		var v replyRow
		if err := r.Scan(&v); err != nil {
			return source{}, fmt.Errorf("notifications: replies: %w", err)
		}
		return source{table: table, id: v.ID, thread: v.ThreadID, parent: v.ParentID, creator: v.CreatorID,
			raw: v.Raw, mentions: v.Mentions, created: v.CreatedOn}, nil
	case "private_messages":
		var m messageRow
		if err := r.Scan(&m); err != nil {
			return source{}, fmt.Errorf("notifications: private_messages: %w", err)
		}
		return source{table: table, id: m.ID, channel: m.ChannelID, creator: m.CreatorID, raw: m.Raw, created: m.CreatedOn}, nil
	}
	return source{}, fmt.Errorf("notifications: no source table %q", table)
}

// newMentions are the people a source mentions that its change makes new:
// all of a new row's, those an edit added.
func (s source) newMentions() []uuid.UUID {
	if !s.update {
		return s.mentions
	}
	var out []uuid.UUID
	for _, m := range s.mentions {
		if !slices.Contains(s.before, m) {
			out = append(out, m)
		}
	}
	return out
}

// namespace makes the rows' ids (uuid v5); it must never change, or a
// replay would write every notification again under new ids.
var namespace = uuid.MustParse("6f1c0f5e-4b8e-5a55-9a43-2d7f3c1b9e10")

// ID is the id of the notification of kind to user about source.
func ID(user uuid.UUID, kind string, source uuid.UUID) uuid.UUID {
	return uuid.NewSHA1(namespace, []byte(user.String()+"/"+kind+"/"+source.String()))
}

// Preview is the plain text of raw, mentions shown as their names, cut to
// PreviewMax characters.
func Preview(raw string) string {
	p := richtext.Plain(raw)
	if utf8.RuneCountInString(p) <= PreviewMax {
		return p
	}
	r := []rune(p)
	return string(r[:PreviewMax-1]) + "…"
}
