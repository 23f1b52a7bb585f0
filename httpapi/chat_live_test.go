package httpapi_test

import (
	"encoding/json"
	"testing"
	"time"

	"agora/app/testenv"
	"agora/httpapi/openapi"
	"agora/projections/realtime"
)

// TestChatLive runs the private chat's live events end to end: a message
// written through the API reaches, through the relay, the broker and the
// realtime projection, the other member's socket (isMine false) and the
// author's other tab (isMine true), and never a third member's, a
// community admin's or a super user's; edits, reactions and deletions
// follow; a look at the conversation and a personalization change reach
// the member's own tabs only.
func TestChatLive(t *testing.T) {
	pipe := testenv.StartPipeline(t)
	env := testenv.NewLive(t, testenv.Live{Pipeline: pipe})
	f := newChatFixture(t, env)
	a, b := dial(t, env, "", bearer(f.a.Client.Token)), dial(t, env, "", bearer(f.b.Client.Token))
	third, cadmin, super := dial(t, env, "", bearer(f.third.Client.Token)), dial(t, env, "", bearer(f.cadmin.Client.Token)),
		dial(t, env, "", bearer(f.super.Token))
	valid := func(t *testing.T, m hubMsg, schema string) {
		t.Helper()
		p, _ := json.Marshal(m.Data.Payload)
		if err := openapi.ValidateSchema(schema, p); err != nil {
			t.Errorf("%s: %v\n%s", m.Event, err, m.Raw)
		}
	}
	for _, h := range []*hubConn{a, b, third, cadmin, super} {
		h.t = t
	}

	m := send(t, f.a.Client, f.b.UserID, "live hello")
	key := "channel:" + m.ChannelID
	inChannel := func(h hubMsg) bool { return h.ContextKey == key }

	t.Run("a message reaches the two members", func(t *testing.T) {
		a.t, b.t = t, t
		got := b.waitFor(liveWait, "thread.created at the other member", is(realtime.ThreadCreated, key))
		valid(t, got, "ChatMessage")
		if got.Payload["id"] != m.ID || got.Payload["raw"] != "live hello" || got.Payload["isMine"] != false || got.Payload["creatorId"] != f.a.UserID {
			t.Errorf("payload at the other member %s", got.Raw)
		}
		mine := a.waitFor(liveWait, "thread.created at the author's tab", is(realtime.ThreadCreated, key))
		if mine.Payload["isMine"] != true {
			t.Errorf("payload at the author %s", mine.Raw)
		}
	})

	t.Run("edits, reactions and deletions", func(t *testing.T) {
		b.t, a.t = t, t
		wantStatus(t, f.a.Client.Do("PATCH", "/api/threads/private/"+m.ID, map[string]any{"raw": "live hello, edited"}), 200)
		got := b.waitFor(liveWait, "thread.updated", is(realtime.ThreadUpdated, key))
		valid(t, got, "ChatMessage")
		if got.Payload["raw"] != "live hello, edited" {
			t.Errorf("payload %s", got.Raw)
		}
		wantStatus(t, f.b.Client.Do("PUT", "/api/threads/private/"+m.ID+"/reaction", map[string]any{"reaction": "loved"}), 200)
		got = a.waitFor(liveWait, "thread.reacted", is(realtime.Reacted, key))
		valid(t, got, "ChatMessage")
		if r, _ := got.Payload["reactions"].(map[string]any); r[f.b.UserID] != "loved" || got.Payload["isMine"] != true {
			t.Errorf("payload %s", got.Raw)
		}
		wantStatus(t, f.a.Client.Do("DELETE", "/api/threads/private/"+m.ID, nil), 204)
		got = b.waitFor(liveWait, "thread.deleted", is(realtime.ThreadDeleted, key))
		valid(t, got, "LivePrivateMessageRef")
		if got.Payload["id"] != m.ID || got.Payload["channelId"] != m.ChannelID {
			t.Errorf("payload %s", got.Raw)
		}
	})

	t.Run("seen and personalization reach the member's own tabs", func(t *testing.T) {
		a.t, b.t = t, t
		other := dial(t, env, "", bearer(f.b.Client.Token))
		other.t = t
		wantStatus(t, f.b.Client.Do("POST", "/api/channels/private/"+m.ChannelID+"/seen", nil), 204)
		got := other.waitFor(liveWait, "private.channel.seen at the member's other tab", is(realtime.PrivateChannelSeen, key))
		valid(t, got, "LivePrivateChannelSeen")
		wantStatus(t, f.b.Client.Do("PATCH", "/api/users/"+f.b.UserID+"/personalization",
			map[string]any{"conversations." + m.ChannelID + ".lastActivityOn": "2026-01-02T03:04:05.000Z"}), 200)
		got = other.waitFor(liveWait, "user.personalization.updated", is(realtime.PersonalizationUpdated, "user:"+f.b.UserID))
		valid(t, got, "LivePersonalizationUpdated")
		if keys, _ := got.Payload["keys"].([]any); len(keys) != 1 || keys[0] != "conversations."+m.ChannelID+".lastActivityOn" {
			t.Errorf("payload %s", got.Raw)
		}
		// One delivery serves every connection of the node: by now the
		// other member would have them.
		a.none(500*time.Millisecond, "another member's seen or personalization", func(h hubMsg) bool {
			return h.Event == realtime.PrivateChannelSeen || h.Event == realtime.PersonalizationUpdated
		})
	})

	for name, h := range map[string]*hubConn{"third member": third, "community admin": cadmin, "super user": super} {
		h.t = t
		h.none(0, "a private chat event at the "+name, func(m hubMsg) bool {
			return inChannel(m) || m.Event == realtime.PersonalizationUpdated && m.ContextKey == "user:"+f.b.UserID
		})
	}
}
