package realtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/internal/plumbing/db"
	"agora/live"
	"agora/projections/change"
	"agora/projections/realtime"
	qchat "agora/query/chat"
)

// countingChat is query/chat's reads, each statement's ids written down.
type countingChat struct {
	realtime.Chat
	mu    sync.Mutex
	reads [][]uuid.UUID
}

func (c *countingChat) LiveMessages(ctx context.Context, ids []uuid.UUID) ([]qchat.LiveMessage, error) {
	c.mu.Lock()
	c.reads = append(c.reads, slices.Clone(ids))
	c.mu.Unlock()
	return c.Chat.LiveMessages(ctx, ids)
}

// chatBatch is three members' three conversations on a node, with a fourth
// user connected who is in none of them.
type chatBatch struct {
	env      *testenv.Env
	p        *realtime.Projection
	reads    *countingChat
	users    map[string]uuid.UUID // member, expert, outsider, admin
	clients  map[string]*live.Client
	channels map[string]uuid.UUID // "member+expert", "member+outsider", "expert+outsider"
	members  map[string][2]string
}

func newChatBatch(t *testing.T) *chatBatch {
	t.Helper()
	env := testenv.New(t)
	ctx := t.Context()
	b := &chatBatch{env: env, reads: &countingChat{}, users: map[string]uuid.UUID{}, clients: map[string]*live.Client{},
		channels: map[string]uuid.UUID{}, members: map[string][2]string{}}
	hub, p := newNodeWith(t, env, func(c realtime.Chat) realtime.Chat { b.reads.Chat = c; return b.reads })
	b.p = p
	for _, name := range []string{"member", "expert", "outsider", "admin"} {
		var id uuid.UUID
		if err := env.DB.Pool.QueryRow(ctx, `SELECT id FROM users WHERE email = $1`, name+"@demo.agora").Scan(&id); err != nil {
			t.Fatal(err)
		}
		b.users[name] = id
		c, err := hub.Register(id, uuid.New(), time.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		b.clients[name] = c
	}
	for _, pair := range [][2]string{{"member", "expert"}, {"member", "outsider"}, {"expert", "outsider"}} {
		name, id := pair[0]+"+"+pair[1], uuid.New()
		b.channels[name], b.members[name] = id, pair
		if _, err := env.DB.Pool.Exec(ctx, `INSERT INTO channels (id, kind, pair_key) VALUES ($1, 'private', $2)`, id, id.String()); err != nil {
			t.Fatal(err)
		}
		if _, err := env.DB.Pool.Exec(ctx, `INSERT INTO channel_members (channel_id, user_id) VALUES ($1, $2), ($1, $3)`,
			id, b.users[pair[0]], b.users[pair[1]]); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// sent is a message written to a conversation, and its change.
type sent struct {
	id, channel uuid.UUID
	author      string
	change      change.Change
}

// write inserts a message by author into conversation on q (the pool, or
// a transaction not committed yet) and returns it with its change.
func (b *chatBatch) write(t *testing.T, q db.Querier, conversation, author, raw string, at time.Time) sent {
	t.Helper()
	at = at.Truncate(time.Millisecond) // Postgres keeps microseconds
	id, channel := uuid.Must(uuid.NewV7()), b.channels[conversation]
	if _, err := q.Exec(t.Context(), `INSERT INTO private_messages (id, channel_id, creator_id, raw, created_on, updated_on) VALUES ($1, $2, $3, $4, $5, $5)`,
		id, channel, b.users[author], raw, at); err != nil {
		t.Fatal(err)
	}
	when := at.UTC().Format(time.RFC3339Nano)
	js := fmt.Sprintf(`{"id":%q,"channel_id":%q,"creator_id":%q,"raw":%q,"image":null,"link":null,"file":null,"created_on":%q,"updated_on":%q}`,
		id, channel, b.users[author], raw, when, when)
	return sent{id: id, channel: channel, author: author,
		change: change.Change{Op: change.Create, Schema: "public", Table: "private_messages", Source: change.Source{TsMs: time.Now().UnixMilli()}, After: row(t, js)}}
}

// received are the thread.created events a user's connection holds, in the
// order they came: the message ids, and each as the user got it.
func (b *chatBatch) received(t *testing.T, user string) []uuid.UUID {
	t.Helper()
	var ids []uuid.UUID
	for {
		select {
		case raw := <-b.clients[user].Messages():
			var m struct {
				Event      string
				ContextKey string
				Data       struct{ Payload qchat.Message }
			}
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			got := m.Data.Payload
			if m.Event != realtime.ThreadCreated || m.ContextKey != "channel:"+got.ChannelID.String() || got.IsMine != (got.CreatorID == b.users[user]) {
				t.Errorf("%s received %s", user, raw)
			}
			ids = append(ids, got.ID)
		default:
			return ids
		}
	}
}

// expect checks that each connected user received the messages of their
// own conversations alone, in the order they were written.
func (b *chatBatch) expect(t *testing.T, msgs []sent) {
	t.Helper()
	for user, id := range b.users {
		var want []uuid.UUID
		for _, m := range msgs {
			var pair [2]string
			for name, c := range b.channels {
				if c == m.channel {
					pair = b.members[name]
				}
			}
			if pair[0] == user || pair[1] == user {
				want = append(want, m.id)
			}
		}
		if got := b.received(t, user); !reflect.DeepEqual(got, want) {
			t.Errorf("%s (%s) received %v, want %v", user, id, got, want)
		}
	}
}

// TestChatBatchReadsItsMessagesOnce: the projection applies the stream a
// batch at a time, and a batch's private messages are read in one
// statement, not one each (at a few hundred messages a second the node fell
// behind reading them one by one); each still reaches its conversation's
// two members alone, in the order written, with their own isMine.
func TestChatBatchReadsItsMessagesOnce(t *testing.T) {
	b := newChatBatch(t)
	start := time.Now().Add(-time.Minute)
	var msgs []sent
	var cs []change.Change
	conversations := []string{"member+expert", "member+outsider", "expert+outsider"}
	for i := range 12 {
		conv := conversations[i%3]
		m := b.write(t, b.env.DB.Pool, conv, b.members[conv][i/3%2], fmt.Sprintf("message %d", i), start.Add(time.Duration(i)*time.Millisecond))
		msgs, cs = append(msgs, m), append(cs, m.change)
	}
	if err := b.p.ApplyBatch(t.Context(), cs); err != nil {
		t.Fatal(err)
	}
	b.expect(t, msgs)
	if len(b.reads.reads) != 1 || len(b.reads.reads[0]) != len(msgs) {
		t.Errorf("the batch of %d messages was read in %d statements (%d ids in the first), want 1", len(msgs), len(b.reads.reads), len(b.reads.reads[0]))
	}
}

// TestChatBatchWaitsForACommitInOrder: a message of a batch whose
// transaction is not visible yet when the batch is read (here: not yet
// committed) is read again until it is, and the events after it wait for
// it, so that its conversation's messages arrive in the order written.
func TestChatBatchWaitsForACommitInOrder(t *testing.T) {
	b := newChatBatch(t)
	ctx := t.Context()
	start := time.Now().Add(-time.Minute)
	first := b.write(t, b.env.DB.Pool, "member+expert", "member", "first", start)
	tx, err := b.env.DB.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	late := b.write(t, tx, "member+expert", "expert", "late", start.Add(time.Millisecond))
	after := b.write(t, b.env.DB.Pool, "member+expert", "member", "after", start.Add(2*time.Millisecond))
	other := b.write(t, b.env.DB.Pool, "expert+outsider", "outsider", "elsewhere", start.Add(3*time.Millisecond))
	msgs := []sent{first, late, after, other}
	applied := make(chan error, 1)
	go func() {
		applied <- b.p.ApplyBatch(ctx, []change.Change{first.change, late.change, after.change, other.change})
	}()
	time.Sleep(50 * time.Millisecond) // the projection reads the batch before the commit
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-applied; err != nil {
		t.Fatal(err)
	}
	b.expect(t, msgs)
}
