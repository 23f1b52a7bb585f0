package httpapi_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"agora/app/testenv"
	"agora/httpapi/openapi"
	"agora/internal/rules/notice"
)

// TestHubNotificationEvents runs the notifications' live events end to
// end: comments, replies and posts written through the API reach, through
// the relay, the notifications projection, its row's change and the
// realtime projection, the socket of the member they notify alone, as the
// documented payloads; an anonymous question's mention names no author.
func TestHubNotificationEvents(t *testing.T) {
	n := testenv.NewNotifications(t)
	m := newMatrixForum(t, n.Env)
	me, other := m.creator, m.reader
	mine, theirs := dial(t, n.Env, "", bearer(me.Client.Token)), dial(t, n.Env, "", bearer(other.Client.Token))
	admin := dial(t, n.Env, "", bearer(m.forumAdmin.Client.Token))
	key := "user:" + me.UserID
	notified := func(m hubMsg) bool { return m.Event == notice.ReplyNotified || m.Event == notice.UserMentioned }
	valid := func(t *testing.T, msg hubMsg, schema string) {
		t.Helper()
		p, _ := json.Marshal(msg.Data.Payload)
		if err := openapi.ValidateSchema(schema, p); err != nil {
			t.Errorf("%s: %v\n%s", msg.Event, err, msg.Raw)
		}
	}
	p := post(t, me.Client, m.forum.ID, map[string]any{"channelId": m.main, "raw": "my post"})
	// What the other tests wrote is applied before the clock starts.
	settle(t, n)

	t.Run("a comment on my post", func(t *testing.T) {
		mine.t = t
		c := comment(t, other.Client, p.ID, nil, "a comment")
		// The first event waits longer: the node's realtime group is new
		// and reads the topics from their beginning, skipping what came
		// before the node started (projections/realtime), which on a
		// loaded machine took more than liveWait.
		msg := mine.waitFor(3*liveWait, "channel.thread.reply.created", func(h hubMsg) bool { return is(notice.ReplyNotified, key)(h) && h.Payload["id"] == c })
		valid(t, msg, "LiveReplyNotice")
		if msg.Payload["id"] != c || msg.Payload["postId"] != p.ID || msg.Payload["parentId"] != nil ||
			msg.Payload["parentCreatorId"] != me.UserID || msg.Payload["seriesId"] != m.forum.ID {
			t.Errorf("payload %s", msg.Raw)
		}
	})

	t.Run("a reply to my comment", func(t *testing.T) {
		mine.t = t
		c := comment(t, me.Client, p.ID, nil, "my comment")
		r := comment(t, other.Client, p.ID, &c, "a reply")
		msg := mine.waitFor(liveWait, "channel.thread.reply.created for a reply", func(h hubMsg) bool { return is(notice.ReplyNotified, key)(h) && h.Payload["id"] == r })
		valid(t, msg, "LiveReplyNotice")
		if msg.Payload["id"] != r || msg.Payload["parentId"] != c || msg.Payload["parentCreatorId"] != me.UserID {
			t.Errorf("payload %s", msg.Raw)
		}
	})

	t.Run("a mention", func(t *testing.T) {
		mine.t = t
		q := post(t, other.Client, m.forum.ID, map[string]any{"channelId": m.main, "raw": fmt.Sprintf("hello [Me](%s)", me.UserID)})
		msg := mine.waitFor(liveWait, "user.mentioned", is(notice.UserMentioned, key))
		valid(t, msg, "Notification")
		author, _ := msg.Payload["author"].(map[string]any)
		ctx, _ := msg.Payload["context"].(map[string]any)
		if msg.Payload["type"] != "mention" || msg.Payload["postId"] != q.ID || msg.Payload["raw"] != "hello Fresh Member" ||
			author["userId"] != other.UserID || ctx["seriesName"] != m.forum.Name || msg.Payload["isUnread"] != true {
			t.Errorf("payload %s", msg.Raw)
		}
	})

	t.Run("an anonymous question's mention names nobody", func(t *testing.T) {
		mine.t = t
		q := post(t, other.Client, m.forum.ID, map[string]any{"channelId": m.main, "type": "question", "creatorAs": "anonymous",
			"raw": fmt.Sprintf("what does [Me](%s) think?", me.UserID)})
		msg := mine.waitFor(liveWait, "user.mentioned by an anonymous question", func(h hubMsg) bool {
			return h.Event == notice.UserMentioned && h.Payload["postId"] == q.ID
		})
		valid(t, msg, "Notification")
		if msg.Payload["author"] != nil {
			t.Errorf("the asker is named: %s", msg.Raw)
		}
	})

	// Everything above notified me alone: not its authors, not the forum's
	// other readers.
	theirs.t, admin.t = t, t
	theirs.none(time.Second, "a notification event at the author", notified)
	admin.none(time.Second, "a notification event at another reader", notified)
}
