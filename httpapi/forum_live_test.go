package httpapi_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"agora/app/seed"
	"agora/app/testenv"
	"agora/httpapi/openapi"
	"agora/projections/realtime"
)

// TestHubForumEvents runs the forum's live events end to end: posts,
// comments and reactions written through the API reach, through the relay,
// the broker and the realtime projection, the sockets of the forum's
// readers as the documented payloads, the admin channel's posts its admins
// only, and an anonymous question reaches them without its asker.
func TestHubForumEvents(t *testing.T) {
	pipe := testenv.StartPipeline(t)
	env := testenv.NewLive(t, testenv.Live{Pipeline: pipe})
	f := &feedFixture{env: env}
	f.welcome, f.roundtable = f.id(t, "SELECT id FROM series WHERE name = 'Welcome & Introductions'"), f.id(t, "SELECT id FROM series WHERE name = 'Leadership Roundtable'")
	f.welcomeMain = f.id(t, "SELECT id FROM channels WHERE series_id = $1 AND kind = 'main'", f.welcome)
	f.welcomeAdmin = f.id(t, "SELECT id FROM channels WHERE series_id = $1 AND kind = 'admin'", f.welcome)
	f.roundtableMain = f.id(t, "SELECT id FROM channels WHERE series_id = $1 AND kind = 'main'", f.roundtable)

	member, expert, admin, outsider := env.As(t, seed.MemberEmail), env.As(t, seed.ExpertEmail), env.As(t, seed.AdminEmail), env.As(t, seed.OutsiderEmail)
	memberID, expertID := f.user(t, seed.MemberEmail), f.user(t, seed.ExpertEmail)
	b, c, a, d := dial(t, env, "", bearer(member.Token)), dial(t, env, "", bearer(expert.Token)), dial(t, env, "", bearer(admin.Token)),
		dial(t, env, "", bearer(outsider.Token))
	forumEvent := func(m hubMsg) bool { return strings.HasPrefix(m.ContextKey, "thread:") }
	// valid checks a message's payload against the schema GET /api/hub
	// documents for it.
	valid := func(t *testing.T, m hubMsg, schema string) {
		t.Helper()
		p, _ := json.Marshal(m.Data.Payload)
		if err := openapi.ValidateSchema(schema, p); err != nil {
			t.Errorf("%s: %v\n%s", m.Event, err, m.Raw)
		}
	}
	for _, h := range []*hubConn{b, c, a, d} {
		h.t = t
	}

	p := post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "live #Hello"})
	key := "thread:" + p.ID
	t.Run("a post reaches the forum's readers", func(t *testing.T) {
		c.t, a.t, b.t = t, t, t
		start := time.Now()
		m := c.waitFor(liveWait, "thread.created at the expert", is(realtime.ThreadCreated, key))
		t.Logf("thread.created reached another member %v after the write", time.Since(start).Round(time.Millisecond))
		valid(t, m, "LiveThread")
		creator, _ := m.Payload["creator"].(map[string]any)
		if m.Payload["creatorId"] != memberID || creator["userId"] != memberID || m.Payload["raw"] != "live #Hello" ||
			m.Payload["channelId"] != f.welcomeMain || m.Payload["seriesId"] != f.welcome {
			t.Errorf("payload %s", m.Raw)
		}
		a.waitFor(liveWait, "thread.created at the forum admin", is(realtime.ThreadCreated, key))
		b.waitFor(liveWait, "thread.created at the author's own tab", is(realtime.ThreadCreated, key))
	})

	t.Run("an anonymous question carries no asker", func(t *testing.T) {
		c.t, a.t = t, t
		q := post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "who decides?", "type": "question", "creatorAs": "anonymous"})
		for _, h := range []*hubConn{c, a} {
			m := h.waitFor(liveWait, "the question's thread.created", is(realtime.ThreadCreated, "thread:"+q.ID))
			valid(t, m, "LiveThread")
			if m.Payload["creatorAs"] != "anonymous" || m.Payload["creatorId"] != nil || m.Payload["creator"] != nil || strings.Contains(m.Raw, memberID) {
				t.Errorf("the event names the asker: %s", m.Raw)
			}
		}
		if r := member.Do("PATCH", "/api/threads/"+q.ID, map[string]any{"raw": "who decides here?"}); r.Status != 200 {
			t.Fatalf("edit: %d %s", r.Status, r.Body)
		}
		m := c.waitFor(liveWait, "the question's thread.updated", is(realtime.ThreadUpdated, "thread:"+q.ID))
		if m.Payload["raw"] != "who decides here?" || strings.Contains(m.Raw, memberID) {
			t.Errorf("the edit's event: %s", m.Raw)
		}
	})

	var comment replyView
	t.Run("comments and replies, created, edited and deleted", func(t *testing.T) {
		b.t, c.t = t, t
		r := expert.Do("POST", "/api/threads/"+p.ID+"/replies", map[string]any{"raw": "welcome!"})
		if r.Status != 201 {
			t.Fatalf("comment: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &comment)
		m := b.waitFor(liveWait, "thread.reply.created", is(realtime.ReplyCreated, key))
		valid(t, m, "LiveReply")
		creator, _ := m.Payload["creator"].(map[string]any)
		if m.Payload["id"] != comment.ID || m.Payload["threadId"] != p.ID || m.Payload["parentId"] != nil || creator["userId"] != expertID ||
			m.Payload["channelId"] != f.welcomeMain || m.Payload["raw"] != "welcome!" {
			t.Errorf("payload %s", m.Raw)
		}

		r = member.Do("POST", "/api/threads/"+p.ID+"/replies", map[string]any{"raw": "thanks", "parentId": comment.ID})
		if r.Status != 201 {
			t.Fatalf("reply: %d %s", r.Status, r.Body)
		}
		// The expert's own tab had the comment too: wait for the reply.
		m = c.waitFor(liveWait, "thread.reply.created for a reply", func(m hubMsg) bool {
			return is(realtime.ReplyCreated, key)(m) && m.Payload["id"] != comment.ID
		})
		if m.Payload["parentId"] != comment.ID || m.Payload["creatorId"] != memberID {
			t.Errorf("payload %s", m.Raw)
		}

		if r := expert.Do("PATCH", "/api/threads/"+p.ID+"/replies/"+comment.ID, map[string]any{"raw": "welcome, all!"}); r.Status != 200 {
			t.Fatalf("edit: %d %s", r.Status, r.Body)
		}
		m = b.waitFor(liveWait, "thread.reply.updated", is(realtime.ReplyUpdated, key))
		valid(t, m, "LiveReply")
		if m.Payload["id"] != comment.ID || m.Payload["raw"] != "welcome, all!" {
			t.Errorf("payload %s", m.Raw)
		}
	})

	t.Run("reactions, and an edit carrying their counts", func(t *testing.T) {
		b.t, c.t = t, t
		if r := member.Do("PUT", "/api/threads/"+p.ID+"/reaction", map[string]any{"reaction": "liked"}); r.Status != 200 {
			t.Fatalf("react: %d %s", r.Status, r.Body)
		}
		m := c.waitFor(liveWait, "thread.reacted", is(realtime.Reacted, key))
		valid(t, m, "LiveReaction")
		counts, _ := m.Payload["reactions"].(map[string]any)
		if m.Payload["userId"] != memberID || m.Payload["reaction"] != "liked" || m.Payload["replyId"] != nil || counts["liked"] != 1.0 {
			t.Errorf("payload %s", m.Raw)
		}
		if r := member.Do("PUT", "/api/threads/"+p.ID+"/replies/"+comment.ID+"/reaction", map[string]any{"reaction": "loved"}); r.Status != 200 {
			t.Fatalf("react to the comment: %d %s", r.Status, r.Body)
		}
		m = c.waitFor(liveWait, "thread.reacted on the comment", is(realtime.Reacted, key))
		if m.Payload["replyId"] != comment.ID || m.Payload["reaction"] != "loved" {
			t.Errorf("payload %s", m.Raw)
		}
		if r := member.Do("PUT", "/api/threads/"+p.ID+"/reaction", map[string]any{"reaction": nil}); r.Status != 200 {
			t.Fatalf("clear: %d %s", r.Status, r.Body)
		}
		m = c.waitFor(liveWait, "thread.reacted, cleared", is(realtime.Reacted, key))
		counts, _ = m.Payload["reactions"].(map[string]any)
		if m.Payload["reaction"] != nil || m.Payload["replyId"] != nil || counts["totalCount"] != 0.0 {
			t.Errorf("payload %s", m.Raw)
		}
		if r := expert.Do("PUT", "/api/threads/"+p.ID+"/reaction", map[string]any{"reaction": "smiled"}); r.Status != 200 {
			t.Fatalf("react: %d %s", r.Status, r.Body)
		}
		b.waitFor(liveWait, "the expert's thread.reacted", is(realtime.Reacted, key))
		if r := member.Do("PATCH", "/api/threads/"+p.ID, map[string]any{"raw": "live, edited"}); r.Status != 200 {
			t.Fatalf("edit: %d %s", r.Status, r.Body)
		}
		m = c.waitFor(liveWait, "thread.updated", is(realtime.ThreadUpdated, key))
		valid(t, m, "LiveThread")
		counts, _ = m.Payload["reactions"].(map[string]any)
		if m.Payload["raw"] != "live, edited" || counts["smiled"] != 1.0 || counts["totalCount"] != 1.0 {
			t.Errorf("payload %s", m.Raw)
		}
	})

	t.Run("the admin channel reaches its admins only", func(t *testing.T) {
		a.t, b.t, c.t = t, t, t
		ap := post(t, admin, f.welcome, map[string]any{"channelId": f.welcomeAdmin, "raw": "admins only"})
		a.waitFor(liveWait, "thread.created in the admin channel", is(realtime.ThreadCreated, "thread:"+ap.ID))
		if r := admin.Do("POST", "/api/threads/"+ap.ID+"/replies", map[string]any{"raw": "noted"}); r.Status != 201 {
			t.Fatalf("comment: %d %s", r.Status, r.Body)
		}
		a.waitFor(liveWait, "thread.reply.created in the admin channel", is(realtime.ReplyCreated, "thread:"+ap.ID))
		// One delivery serves every connection of the node: by now the
		// members would have it.
		b.none(500*time.Millisecond, "an admin-channel event at a member", func(m hubMsg) bool { return m.ContextKey == "thread:"+ap.ID })
		c.none(0, "an admin-channel event at a member", func(m hubMsg) bool { return m.ContextKey == "thread:"+ap.ID })
	})

	t.Run("a forum's events reach nobody outside it", func(t *testing.T) {
		b.t, c.t = t, t
		rp := post(t, expert, f.roundtable, map[string]any{"channelId": f.roundtableMain, "raw": "roundtable only"})
		c.waitFor(liveWait, "thread.created in the roundtable", is(realtime.ThreadCreated, "thread:"+rp.ID))
		b.none(500*time.Millisecond, "a roundtable event at the member, who is not in it", func(m hubMsg) bool { return m.ContextKey == "thread:"+rp.ID })
	})

	t.Run("deletions", func(t *testing.T) {
		b.t, c.t = t, t
		if r := expert.Do("DELETE", "/api/threads/"+p.ID+"/replies/"+comment.ID, nil); r.Status != 204 {
			t.Fatalf("delete the comment: %d %s", r.Status, r.Body)
		}
		m := b.waitFor(liveWait, "thread.reply.deleted", func(m hubMsg) bool { return is(realtime.ReplyDeleted, key)(m) && m.Payload["id"] == comment.ID })
		valid(t, m, "LiveReply")
		if r := member.Do("DELETE", "/api/threads/"+p.ID, nil); r.Status != 204 {
			t.Fatalf("delete the post: %d %s", r.Status, r.Body)
		}
		m = c.waitFor(liveWait, "thread.deleted", is(realtime.ThreadDeleted, key))
		valid(t, m, "LiveThreadRef")
		if m.Payload["id"] != p.ID || m.Payload["channelId"] != f.welcomeMain {
			t.Errorf("payload %s", m.Raw)
		}
		// The post's remaining reactions went with it, and tell nobody.
		c.none(500*time.Millisecond, "an event after the post's deletion", func(m hubMsg) bool { return m.ContextKey == key })
	})

	d.t = t
	d.none(0, "a forum event at the outsider", forumEvent)
}
