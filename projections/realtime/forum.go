package realtime

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/jsontime"
	"agora/projections/change"
	qfeed "agora/query/feed"
)

// The forum's live events (spec 001 §4 "Live thread events applied to the
// local view", §7 "Live events consumed for forums"). They all have the
// context key "thread:<threadId>" of the post they change.
const (
	ThreadCreated = "thread.created"
	ThreadUpdated = "thread.updated"
	ThreadDeleted = "thread.deleted"
	ReplyCreated  = "thread.reply.created"
	ReplyUpdated  = "thread.reply.updated"
	ReplyDeleted  = "thread.reply.deleted"
	// Reacted is a reaction set, changed or cleared, on a post or a comment.
	Reacted = "thread.reacted"
)

// Creator is the author of a post or comment in a forum event: the feed's
// own type, read when the event is delivered.
type Creator = qfeed.Creator

// Reactions are the reaction counts of a post or comment, the feed's Stats:
// read when the event is delivered, so that the browser sets them rather
// than adding to counts it may have missed a change of.
type Reactions = qfeed.Stats

// Feed is what the live events read of the feed when they are delivered:
// query/feed's lookups, so that an event shows a post, a creator and the
// counts as the feed page does.
type Feed interface {
	Creator(ctx context.Context, userID, seriesID uuid.UUID) (qfeed.Creator, error)
	Counts(ctx context.Context, threadID uuid.UUID, replyID *uuid.UUID) (qfeed.Stats, error)
	Place(ctx context.Context, threadID uuid.UUID) (channelID, seriesID uuid.UUID, err error)
	// SignAttachments gives a post's image and file the short-lived URLs
	// the feed page would: a change carries the upload's id only.
	SignAttachments(p *qfeed.Post) error
}

// complete reads what e's payload takes from the read model: once for all
// its recipients on the node, and only when there are some. The payload
// of thread.created and thread.updated is the feed's Post, without the
// caller's own fields (myReaction, canManage: the browser keeps them); an
// anonymous question's has creatorId and creator null, as in the feed.
func complete(ctx context.Context, q DB, f Feed, notes Notifications, e *Event) error {
	var err error
	switch p := e.Payload.(type) {
	case *MentionPayload:
		p.n, err = notes.Live(ctx, p.row)
	case *ReplyNotice:
		err = p.complete(ctx, notes)
	case *qfeed.Post:
		if err := completePost(ctx, f, e.Type, p); err != nil {
			return err
		}
		err = completeMeeting(ctx, q, f, e)
	case *MeetingPayload, *MeetingPost, *MinutesPayload:
		err = completeMeeting(ctx, q, f, e)
	case *ReplyPayload:
		err = p.complete(ctx, f)
	case *ReactedPayload:
		if p.ChannelID, p.SeriesID, err = f.Place(ctx, p.ThreadID); err != nil {
			return err
		}
		var r Reactions
		r, err = f.Counts(ctx, p.ThreadID, p.ReplyID)
		p.Reactions = &r
	}
	return err
}

// completePost signs a post's attachments and reads its creator and, but
// for a new post (which has none), its reaction counts.
func completePost(ctx context.Context, f Feed, typ string, p *qfeed.Post) error {
	if err := f.SignAttachments(p); err != nil {
		return err
	}
	if p.CreatorID != nil {
		c, err := f.Creator(ctx, *p.CreatorID, p.SeriesID)
		if err != nil {
			return err
		}
		p.Creator = &c
	}
	if typ == ThreadCreated {
		return nil
	}
	var err error
	p.Reactions, err = f.Counts(ctx, p.ID, nil)
	return err
}

// errGone is what an event is about, gone before it was delivered: its own
// event follows.
var errGone = fmt.Errorf("realtime: gone: %w", pgx.ErrNoRows)

// ThreadRef is the payload of thread.deleted: which post is gone, and
// where it was.
type ThreadRef struct {
	ID        uuid.UUID `json:"id"`
	ChannelID uuid.UUID `json:"channelId"`
	SeriesID  uuid.UUID `json:"seriesId"`
}

// ReplyPayload is the payload of the reply events: a comment (parentId
// null) or a reply to one, named as in the feed's Reply. channelId and
// seriesId, the post's, are read at delivery. thread.reply.deleted
// carries the same fields as they were before the deletion, without
// creator and reactions.
type ReplyPayload struct {
	ID        uuid.UUID  `json:"id"`
	ThreadID  uuid.UUID  `json:"threadId"`
	ParentID  *uuid.UUID `json:"parentId"`
	ChannelID uuid.UUID  `json:"channelId"`
	SeriesID  uuid.UUID  `json:"seriesId"`
	CreatorID uuid.UUID  `json:"creatorId"`
	// Creator is read at delivery, but for a deletion.
	Creator  *Creator `json:"creator,omitempty"`
	Raw      string   `json:"raw"`
	Mentions []string `json:"mentions"`
	Hashtags []string `json:"hashtags"`
	// Reactions are read at delivery when nil, but for a deletion (a new
	// comment has none).
	Reactions *Reactions    `json:"reactions,omitempty"`
	CreatedOn jsontime.Time `json:"createdOn"`
	UpdatedOn jsontime.Time `json:"updatedOn"`

	deleted bool
}

func (p *ReplyPayload) complete(ctx context.Context, f Feed) error {
	var err error
	if p.ChannelID, p.SeriesID, err = f.Place(ctx, p.ThreadID); err != nil {
		return err
	}
	if p.deleted {
		return nil
	}
	c, err := f.Creator(ctx, p.CreatorID, p.SeriesID)
	if err != nil {
		return err
	}
	p.Creator = &c
	if p.Reactions == nil {
		r, err := f.Counts(ctx, p.ThreadID, &p.ID)
		if err != nil {
			return err
		}
		p.Reactions = &r
	}
	return nil
}

// ReactedPayload is the payload of thread.reacted: userId set reaction on
// the post threadId, or on its comment or reply replyId, or cleared it
// (reaction null); reactions are the counts of that post or comment once
// the change is made, read at delivery, as are channelId and seriesId.
type ReactedPayload struct {
	ThreadID  uuid.UUID  `json:"threadId"`
	ReplyID   *uuid.UUID `json:"replyId"`
	ChannelID uuid.UUID  `json:"channelId"`
	SeriesID  uuid.UUID  `json:"seriesId"`
	UserID    uuid.UUID  `json:"userId"`
	Reaction  *string    `json:"reaction"`
	Reactions *Reactions `json:"reactions"`
}

// threadRow is a threads row. The creator's id is read here, never copied
// into a payload of an anonymous question.
type threadRow struct {
	ID        uuid.UUID
	ChannelID uuid.UUID
	SeriesID  uuid.UUID
	CreatorID uuid.UUID
	CreatorAs string
	Type      string
	Raw       string
	Image     json.RawMessage
	File      json.RawMessage
	Link      json.RawMessage
	Meeting   json.RawMessage
	Chat      json.RawMessage
	Mentions  []string
	Hashtags  []string
	CreatedOn time.Time
	UpdatedOn time.Time
}

func (r threadRow) post() *qfeed.Post {
	p := &qfeed.Post{
		ID: r.ID, ChannelID: r.ChannelID, SeriesID: r.SeriesID, Type: r.Type, CreatorAs: r.CreatorAs,
		Raw: r.Raw, Image: r.Image, File: r.File, Link: r.Link, Meeting: r.Meeting, Chat: r.Chat,
		Mentions: orEmpty(r.Mentions), Hashtags: orEmpty(r.Hashtags),
		CreatedOn: jsontime.Of(r.CreatedOn), UpdatedOn: jsontime.Of(r.UpdatedOn),
	}
	// The creator is read at delivery.
	p.SignedBy(r.CreatorID, nil)
	return p
}

func orEmpty(a []string) []string {
	if a == nil {
		return []string{}
	}
	return a
}

// scanRows scans the before and after images of a change; an image the
// change does not have stays nil.
func scanRows[T any](c change.Change, table string) (before, after *T, err error) {
	for _, side := range []struct {
		row change.Row
		dst **T
	}{{c.Before, &before}, {c.After, &after}} {
		if side.row == nil {
			continue
		}
		v := new(T)
		if err := side.row.Scan(v); err != nil {
			return nil, nil, fmt.Errorf("realtime: %s: %w", table, err)
		}
		*side.dst = v
	}
	return before, after, nil
}

func threadKey(id uuid.UUID) string { return "thread:" + id.String() }

// threadEvents: a post or question written, edited or deleted, told to
// the readers of its channel. An update that changes nothing a reader sees
// (only updated_on) is not an event.
func threadEvents(c change.Change) ([]Event, error) {
	before, after, err := scanRows[threadRow](c, "threads")
	if err != nil {
		return nil, err
	}
	switch c.Op {
	case change.Create:
		if after == nil {
			return nil, fmt.Errorf("realtime: threads: a create without its row")
		}
		return []Event{{Type: ThreadCreated, ContextKey: threadKey(after.ID), Payload: after.post(),
			To: []Audience{{ChannelReaders, after.ChannelID}}}}, nil
	case change.Update:
		if after == nil {
			return nil, fmt.Errorf("realtime: threads: an update without its row")
		}
		if before != nil {
			b := *before
			b.UpdatedOn = after.UpdatedOn
			if reflect.DeepEqual(b, *after) {
				return nil, nil
			}
		}
		return []Event{{Type: ThreadUpdated, ContextKey: threadKey(after.ID), Payload: after.post(),
			To: []Audience{{ChannelReaders, after.ChannelID}}}}, nil
	case change.Delete:
		if before == nil {
			return nil, fmt.Errorf("realtime: threads: a delete without its before-image")
		}
		return []Event{{Type: ThreadDeleted, ContextKey: threadKey(before.ID),
			Payload: ThreadRef{ID: before.ID, ChannelID: before.ChannelID, SeriesID: before.SeriesID},
			To:      []Audience{{ChannelReaders, before.ChannelID}}}}, nil
	}
	return nil, nil
}

type replyRow struct {
	ID        uuid.UUID
	ThreadID  uuid.UUID
	ParentID  *uuid.UUID
	CreatorID uuid.UUID
	Raw       string
	Mentions  []string
	Hashtags  []string
	CreatedOn time.Time
	UpdatedOn time.Time
}

func (r replyRow) payload() *ReplyPayload {
	return &ReplyPayload{
		ID: r.ID, ThreadID: r.ThreadID, ParentID: r.ParentID, CreatorID: r.CreatorID, Raw: r.Raw,
		Mentions: orEmpty(r.Mentions), Hashtags: orEmpty(r.Hashtags),
		CreatedOn: jsontime.Of(r.CreatedOn), UpdatedOn: jsontime.Of(r.UpdatedOn),
	}
}

// replyEvents: a comment or reply written, edited or deleted, told to the
// readers of its post's channel. Once the post is gone (deleted with its
// comments) nobody reads it, so the comments deleted with it make no
// events: thread.deleted says it all.
func replyEvents(c change.Change) ([]Event, error) {
	before, after, err := scanRows[replyRow](c, "replies")
	if err != nil {
		return nil, err
	}
	var typ string
	var p *ReplyPayload
	switch c.Op {
	case change.Create:
		if after == nil {
			return nil, fmt.Errorf("realtime: replies: a create without its row")
		}
		typ, p = ReplyCreated, after.payload()
		p.Reactions = &Reactions{}
	case change.Update:
		if after == nil {
			return nil, fmt.Errorf("realtime: replies: an update without its row")
		}
		if before != nil {
			b := *before
			b.UpdatedOn = after.UpdatedOn
			if reflect.DeepEqual(b, *after) {
				return nil, nil
			}
		}
		typ, p = ReplyUpdated, after.payload()
	case change.Delete:
		if before == nil {
			return nil, fmt.Errorf("realtime: replies: a delete without its before-image")
		}
		typ, p = ReplyDeleted, before.payload()
		p.deleted = true
	default:
		return nil, nil
	}
	return []Event{{Type: typ, ContextKey: threadKey(p.ThreadID), Payload: p,
		To: []Audience{{ThreadReaders, p.ThreadID}}}}, nil
}

type reactionRow struct {
	ThreadID uuid.UUID
	ReplyID  *uuid.UUID
	UserID   uuid.UUID
	Kind     string
}

// reactionEvents: a reaction set (a row made), changed (its kind updated)
// or cleared (deleted). A reaction deleted with its comment makes no event
// (the condition that the comment exists), nor one deleted with its post
// (nobody reads a post that is gone).
func reactionEvents(c change.Change) ([]Event, error) {
	before, after, err := scanRows[reactionRow](c, "reactions")
	if err != nil {
		return nil, err
	}
	var r reactionRow
	var kind *string
	switch c.Op {
	case change.Create, change.Update:
		if after == nil {
			return nil, fmt.Errorf("realtime: reactions: a change without its row")
		}
		if before != nil && before.Kind == after.Kind {
			return nil, nil // the same reaction chosen again
		}
		r = *after
		k := after.Kind
		kind = &k
	case change.Delete:
		if before == nil {
			return nil, fmt.Errorf("realtime: reactions: a delete without its before-image")
		}
		r = *before
	default:
		return nil, nil
	}
	e := Event{Type: Reacted, ContextKey: threadKey(r.ThreadID),
		Payload: &ReactedPayload{ThreadID: r.ThreadID, ReplyID: r.ReplyID, UserID: r.UserID, Reaction: kind},
		To:      []Audience{{ThreadReaders, r.ThreadID}}}
	if c.Op == change.Delete && r.ReplyID != nil {
		e.If = &Condition{Table: "replies", ID: *r.ReplyID, Exists: true}
	}
	return []Event{e}, nil
}
