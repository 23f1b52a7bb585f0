package realtime

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"time"

	"github.com/google/uuid"

	"agora/internal/plumbing/jsontime"
	"agora/projections/change"
	qchat "agora/query/chat"
)

// The private chat's live events (contract of issue 16): a message's
// thread.created, thread.updated, thread.deleted and thread.reacted carry
// the context key "channel:<channelId>" and reach the channel's two members
// alone; a member's look at a conversation (private.channel.seen) and a
// change of their personalization (user.personalization.updated) reach
// that member alone, every tab.
const (
	PrivateChannelSeen      = "private.channel.seen"
	PersonalizationUpdated  = "user.personalization.updated"
	privateMessagesTable    = "private_messages"
	privateReactionsTable   = "private_message_reactions"
	channelMembersTable     = "channel_members"
	userPersonalizationName = "user_personalization"
)

// Chat is what the private chat's events read when they are delivered:
// query/chat's messages, as GET /channels/private/{id}/threads shows them,
// and their channels' members, who alone receive them; a message gone or
// not visible yet is missing.
type Chat interface {
	LiveMessages(ctx context.Context, ids []uuid.UUID) ([]qchat.LiveMessage, error)
}

// ChatPayload is the payload of a private message's created, updated and
// reacted events: the message, read at delivery, isMine set per receiver.
type ChatPayload struct {
	ID      uuid.UUID
	message qchat.Message
	members []uuid.UUID
	// shows tells whether a message read shows the change: a change is on
	// the stream once its commit is in the write-ahead log, a moment before
	// the transaction is visible to other sessions (see deliverChat).
	shows func(qchat.Message) bool
	// created is a new message's: only it may be not found yet; any other
	// message not found is gone.
	created bool
}

// visibleWait bounds how long deliverChat waits for a change's transaction
// to become visible: the gap is the committing backend's own few steps, a
// millisecond or so on a busy machine.
const visibleWait = time.Second

// MarshalJSON is the message without a receiver (isMine false).
func (p *ChatPayload) MarshalJSON() ([]byte, error) { return json.Marshal(p.message) }

// readMessages reads the messages of a batch's private chat events in one
// statement, or nil when there is nothing to read ahead: no message, nobody
// connected here, or the read failed (each event then reads its own).
func (p *Projection) readMessages(ctx context.Context, ids []uuid.UUID) map[uuid.UUID]qchat.LiveMessage {
	if len(ids) == 0 || len(p.hub.Users()) == 0 {
		return nil
	}
	ms, err := p.chat.LiveMessages(ctx, ids)
	if err != nil {
		if ctx.Err() == nil {
			p.log.Warn("realtime: private messages not read ahead", "messages", len(ids), "err", err)
		}
		return nil
	}
	read := make(map[uuid.UUID]qchat.LiveMessage, len(ms))
	for _, m := range ms {
		read[m.ID] = m
	}
	return read
}

// liveMessage reads one private message: found false when it is gone or
// not visible yet.
func (p *Projection) liveMessage(ctx context.Context, id uuid.UUID) (qchat.LiveMessage, bool, error) {
	ms, err := p.chat.LiveMessages(ctx, []uuid.UUID{id})
	if err != nil || len(ms) == 0 {
		return qchat.LiveMessage{}, false, err
	}
	return ms[0], true, nil
}

// deliverChat delivers a private message's event: its payload, read with
// the channel's members (ahead, with the rest of its batch, when read is
// not nil), names the receivers, so no audience is asked. Each receiver
// gets the message with their own isMine.
//
// The message is read after the change reached the stream, which can be
// before its transaction is visible here: a new message is then not found
// yet, an edit or a reaction not shown yet. It is read again, waiting a
// little longer each time, until it shows the change or visibleWait has
// passed; the events after it wait, so that a conversation's events keep
// their order. A message not found that is not new is gone (a reaction
// deleted with it): its deletion's event says it.
func (p *Projection) deliverChat(ctx context.Context, e Event, cp *ChatPayload, candidates []uuid.UUID, read map[uuid.UUID]qchat.LiveMessage) error {
	m, found := read[cp.ID]
	var err error
	if read == nil {
		m, found, err = p.liveMessage(ctx, cp.ID)
	}
	for wait, waited := time.Millisecond, time.Duration(0); ; wait *= 2 {
		if err != nil {
			return err
		}
		if found && (cp.shows == nil || cp.shows(m.Message)) {
			break
		}
		if !found && !cp.created {
			return nil // gone: its own event follows
		}
		if waited >= visibleWait {
			if !found {
				return nil // gone: its own event follows
			}
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		waited += wait
		m, found, err = p.liveMessage(ctx, cp.ID)
	}
	cp.message, cp.members = m.Message, m.Members
	// A reaction's row does not name the channel.
	e.ContextKey = channelKey(m.ChannelID)
	for _, u := range cp.members {
		if !slices.Contains(candidates, u) {
			continue
		}
		one := e
		one.Payload = cp.message.For(u)
		msg, err := one.Encode()
		if err != nil {
			return err
		}
		p.hub.Deliver(msg, []uuid.UUID{u})
	}
	return nil
}

// PrivateMessageRef is the payload of a private message's thread.deleted.
type PrivateMessageRef struct {
	ID        uuid.UUID `json:"id"`
	ChannelID uuid.UUID `json:"channelId"`
}

// ChannelSeen is the payload of private.channel.seen.
type ChannelSeen struct {
	ChannelID  uuid.UUID     `json:"channelId"`
	LastSeenOn jsontime.Time `json:"lastSeenOn"`
}

// PersonalizationKeys is the payload of user.personalization.updated: the
// dotted keys set, changed or removed.
type PersonalizationKeys struct {
	UserID uuid.UUID `json:"userId"`
	Keys   []string  `json:"keys"`
}

func channelKey(id uuid.UUID) string { return "channel:" + id.String() }

type privateMessageRow struct {
	ID        uuid.UUID
	ChannelID uuid.UUID
	CreatorID uuid.UUID
	Raw       string
	Image     json.RawMessage
	Link      json.RawMessage
	File      json.RawMessage
	CreatedOn time.Time
	UpdatedOn time.Time
}

// privateMessageEvents: a message written, edited or deleted, told to the
// channel's members. An update that changes only updated_on is not an event.
func privateMessageEvents(c change.Change) ([]Event, error) {
	before, after, err := scanRows[privateMessageRow](c, privateMessagesTable)
	if err != nil {
		return nil, err
	}
	switch c.Op {
	case change.Create, change.Update:
		if after == nil {
			return nil, fmt.Errorf("realtime: %s: a change without its row", privateMessagesTable)
		}
		typ := ThreadCreated
		if c.Op == change.Update {
			typ = ThreadUpdated
			if before != nil {
				b := *before
				b.UpdatedOn = after.UpdatedOn
				if reflect.DeepEqual(b, *after) {
					return nil, nil
				}
			}
		}
		updated := after.UpdatedOn
		shows := func(m qchat.Message) bool { return !time.Time(m.UpdatedOn).Before(updated) }
		return []Event{{Type: typ, ContextKey: channelKey(after.ChannelID), Payload: &ChatPayload{ID: after.ID, shows: shows, created: c.Op == change.Create},
			To: []Audience{{PrivateChannelMembers, after.ChannelID}}}}, nil
	case change.Delete:
		if before == nil {
			return nil, fmt.Errorf("realtime: %s: a delete without its before-image", privateMessagesTable)
		}
		return []Event{{Type: ThreadDeleted, ContextKey: channelKey(before.ChannelID),
			Payload: PrivateMessageRef{ID: before.ID, ChannelID: before.ChannelID},
			To:      []Audience{{PrivateChannelMembers, before.ChannelID}}}}, nil
	}
	return nil, nil
}

type privateReactionRow struct {
	MessageID uuid.UUID
	UserID    uuid.UUID
	Reaction  string
}

// privateReactionEvents: a reaction set, changed or cleared makes the
// message's thread.reacted, with the message as it is then. One deleted
// with its message makes none (the message is gone at delivery).
func privateReactionEvents(c change.Change) ([]Event, error) {
	before, after, err := scanRows[privateReactionRow](c, privateReactionsTable)
	if err != nil {
		return nil, err
	}
	r := after
	if c.Op == change.Delete {
		r = before
	}
	if r == nil {
		return nil, fmt.Errorf("realtime: %s: a change without its row", privateReactionsTable)
	}
	if before != nil && after != nil && before.Reaction == after.Reaction {
		return nil, nil
	}
	// The context key needs the channel, which the row does not carry: it
	// is read with the message at delivery (see complete).
	user, kind := r.UserID.String(), ""
	if c.Op != change.Delete {
		kind = r.Reaction
	}
	shows := func(m qchat.Message) bool { return m.Reactions[user] == kind }
	return []Event{{Type: Reacted, Payload: &ChatPayload{ID: r.MessageID, shows: shows},
		To: []Audience{{PrivateMessageMembers, r.MessageID}}}}, nil
}

type channelMemberRow struct {
	ChannelID  uuid.UUID
	UserID     uuid.UUID
	LastSeenOn *time.Time
}

// channelMemberEvents: a member's lastSeenOn set is told to that member's
// tabs, so that the other tabs clear the channel's unread dot.
func channelMemberEvents(c change.Change) ([]Event, error) {
	if c.Op != change.Update {
		return nil, nil
	}
	before, after, err := scanRows[channelMemberRow](c, channelMembersTable)
	if err != nil {
		return nil, err
	}
	if after == nil || after.LastSeenOn == nil || before != nil && reflect.DeepEqual(before.LastSeenOn, after.LastSeenOn) {
		return nil, nil
	}
	return []Event{{Type: PrivateChannelSeen, ContextKey: channelKey(after.ChannelID),
		Payload: ChannelSeen{ChannelID: after.ChannelID, LastSeenOn: jsontime.Of(*after.LastSeenOn)},
		To:      []Audience{{TheUser, after.UserID}}}}, nil
}

type personalizationRow struct {
	UserID uuid.UUID
	Data   json.RawMessage
}

// personalizationEvents: the keys of a user's personalization that a change
// set, changed or removed, told to that user.
func personalizationEvents(c change.Change) ([]Event, error) {
	before, after, err := scanRows[personalizationRow](c, userPersonalizationName)
	if err != nil {
		return nil, err
	}
	var was, is map[string]json.RawMessage
	var user uuid.UUID
	for _, side := range []struct {
		row *personalizationRow
		dst *map[string]json.RawMessage
	}{{before, &was}, {after, &is}} {
		if side.row == nil {
			continue
		}
		user = side.row.UserID
		if len(side.row.Data) > 0 {
			if err := json.Unmarshal(side.row.Data, side.dst); err != nil {
				return nil, fmt.Errorf("realtime: %s: %w", userPersonalizationName, err)
			}
		}
	}
	keys := []string{}
	for k, v := range is {
		if w, ok := was[k]; !ok || !jsonEqual(w, v) {
			keys = append(keys, k)
		}
	}
	for k := range was {
		if _, ok := is[k]; !ok {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil, nil
	}
	sort.Strings(keys)
	return []Event{{Type: PersonalizationUpdated, ContextKey: "user:" + user.String(),
		Payload: PersonalizationKeys{UserID: user, Keys: keys}, To: []Audience{{TheUser, user}}}}, nil
}

// jsonEqual compares two JSON values by meaning, not spelling.
func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return string(a) == string(b)
	}
	return reflect.DeepEqual(x, y)
}
