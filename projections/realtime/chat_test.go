package realtime_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/projections/change"
	"agora/projections/realtime"
)

// TestChatEvents: which changes of private chat's tables make events, and
// for whom.
func TestChatEvents(t *testing.T) {
	msg := func(raw, updated string) string {
		return `{"id":"` + pid.String() + `","channel_id":"` + cid.String() + `","creator_id":"` + uid.String() + `","raw":"` + raw +
			`","image":null,"link":null,"file":null,"created_on":"2026-11-22T08:27:03.123Z","updated_on":"` + updated + `"}`
	}
	member := func(seen string) string {
		return `{"channel_id":"` + cid.String() + `","user_id":"` + uid.String() + `","last_seen_on":` + seen + `}`
	}
	// jsonb travels as its text, as the relay sends it.
	personal := func(data string) string {
		b, _ := json.Marshal(data)
		return `{"user_id":"` + uid.String() + `","data":` + string(b) + `}`
	}
	reaction := func(kind string) string {
		return `{"message_id":"` + pid.String() + `","user_id":"` + uid.String() + `","reaction":"` + kind + `"}`
	}
	channel := []realtime.Audience{{Kind: realtime.PrivateChannelMembers, ID: cid}}
	cases := []struct {
		name          string
		table         string
		op            change.Op
		before, after string
		// want are the events' types and, for each, its audience; nil: none.
		want []string
		to   []realtime.Audience
		keys []string
	}{
		{"a message", "private_messages", change.Create, "", msg("hi", "2026-11-22T08:27:03.123Z"), []string{realtime.ThreadCreated}, channel, nil},
		{"an edit", "private_messages", change.Update, msg("hi", "2026-11-22T08:27:03.123Z"), msg("hello", "2026-11-22T08:28:00Z"), []string{realtime.ThreadUpdated}, channel, nil},
		{"only updated_on", "private_messages", change.Update, msg("hi", "2026-11-22T08:27:03.123Z"), msg("hi", "2026-11-22T08:28:00Z"), nil, nil, nil},
		{"a deletion", "private_messages", change.Delete, msg("hi", "2026-11-22T08:27:03.123Z"), "", []string{realtime.ThreadDeleted}, channel, nil},
		{"a reaction", "private_message_reactions", change.Create, "", reaction("liked"), []string{realtime.Reacted},
			[]realtime.Audience{{Kind: realtime.PrivateMessageMembers, ID: pid}}, nil},
		{"the same reaction", "private_message_reactions", change.Update, reaction("liked"), reaction("liked"), nil, nil, nil},
		{"seen", "channel_members", change.Update, member("null"), member(`"2026-11-22T08:27:03.123Z"`), []string{realtime.PrivateChannelSeen},
			[]realtime.Audience{{Kind: realtime.TheUser, ID: uid}}, nil},
		{"a member added", "channel_members", change.Create, "", member("null"), nil, nil, nil},
		{"personalization", "user_personalization", change.Update, personal(`{"a.b":1,"a.c":[1],"a.d":true}`), personal(`{"a.b":2,"a.c":[1],"a.e":null}`),
			[]string{realtime.PersonalizationUpdated}, []realtime.Audience{{Kind: realtime.TheUser, ID: uid}}, []string{"a.b", "a.d", "a.e"}},
		{"personalization unchanged", "user_personalization", change.Update, personal(`{"a.b":1}`), personal(`{"a.b": 1}`), nil, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := realtime.Events(change.Change{Op: c.op, Schema: "public", Table: c.table, Before: row(t, c.before), After: row(t, c.after)})
			if err != nil {
				t.Fatal(err)
			}
			var types []string
			for _, e := range got {
				types = append(types, e.Type)
				if !reflect.DeepEqual(e.To, c.to) {
					t.Errorf("%s to %+v, want %+v", e.Type, e.To, c.to)
				}
				if p, ok := e.Payload.(realtime.PersonalizationKeys); ok && !reflect.DeepEqual(p.Keys, c.keys) {
					t.Errorf("keys %v, want %v", p.Keys, c.keys)
				}
			}
			if !reflect.DeepEqual(types, c.want) {
				t.Errorf("events %v, want %v", types, c.want)
			}
		})
	}
}

// TestChatEventWaitsForItsCommit: a change reaches the stream once its
// commit is in the write-ahead log, a moment before its transaction is
// visible to other sessions. A new message whose change is applied in that
// moment (here: before the transaction commits at all) is read once it is
// visible and delivered, not dropped as gone.
func TestChatEventWaitsForItsCommit(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	pool := env.DB.Pool
	var a, b string
	if err := pool.QueryRow(ctx, `SELECT (SELECT id::text FROM users WHERE email = 'member@demo.agora'), (SELECT id::text FROM users WHERE email = 'expert@demo.agora')`).
		Scan(&a, &b); err != nil {
		t.Fatal(err)
	}
	hub, p := newNode(t, env)
	c, err := hub.Register(uuid.MustParse(b), uuid.New(), time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	channel, message := uuid.New(), uuid.Must(uuid.NewV7())
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO channels (id, kind, pair_key) VALUES ($1, 'private', $2)`, []any{channel, channel.String()}},
		{`INSERT INTO channel_members (channel_id, user_id) VALUES ($1, $2), ($1, $3)`, []any{channel, a, b}},
		{`INSERT INTO private_messages (id, channel_id, creator_id, raw, created_on, updated_on) VALUES ($1, $2, $3, 'early', '2026-11-22T08:27:03.123Z', '2026-11-22T08:27:03.123Z')`,
			[]any{message, channel, a}},
	} {
		if _, err := tx.Exec(ctx, q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
	}
	msg := `{"id":"` + message.String() + `","channel_id":"` + channel.String() + `","creator_id":"` + a +
		`","raw":"early","image":null,"link":null,"file":null,"created_on":"2026-11-22T08:27:03.123Z","updated_on":"2026-11-22T08:27:03.123Z"}`
	ch := change.Change{Op: change.Create, Schema: "public", Table: "private_messages", Source: change.Source{TsMs: time.Now().UnixMilli()}, After: row(t, msg)}
	applied := make(chan error, 1)
	go func() { applied <- p.Apply(ctx, ch) }()
	time.Sleep(50 * time.Millisecond) // the projection looks before the commit
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-applied; err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-c.Messages():
		var m struct {
			Event string
			Data  struct{ Payload struct{ ID, Raw string } }
		}
		if err := json.Unmarshal(got, &m); err != nil {
			t.Fatal(err)
		}
		if m.Event != realtime.ThreadCreated || m.Data.Payload.ID != message.String() || m.Data.Payload.Raw != "early" {
			t.Errorf("delivered %s", got)
		}
	default:
		t.Fatal("the new message's event was dropped")
	}
}
