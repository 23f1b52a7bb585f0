package httpapi_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"agora/app/testenv"
	"agora/httpapi/openapi"
	"agora/projections/realtime"
)

// sendMeetupChat writes raw in the Meet Up's chat as c.
func sendMeetupChat(t *testing.T, c *testenv.Client, room, raw string) chatMessage {
	t.Helper()
	r := c.Do("POST", "/api/meetings/"+room+"/chat/threads", map[string]any{"raw": raw})
	wantStatus(t, r, 201)
	var m chatMessage
	r.JSON(t, &m)
	return m
}

// meetupChatPage reads a page of the Meet Up's chat as c; query is the
// query string, "" for the first page.
func meetupChatPage(t *testing.T, c *testenv.Client, room, query string) chatPage {
	t.Helper()
	r := c.Do("GET", "/api/meetings/"+room+"/chat/threads"+query, nil)
	wantStatus(t, r, 200)
	var p chatPage
	r.JSON(t, &p)
	return p
}

// TestMeetupChat: a Meet Up's chat is stored (a participant who comes back
// reads what was said, 20 a page, older pages by createdBefore), holds 800
// characters a message, is written by those who may join the Meet Up
// until it ends and read by them after, and is no private conversation:
// it shows in nobody's private channels.
func TestMeetupChat(t *testing.T) {
	env := testenv.Meetups(t)
	m := newMatrixForum(t, env)
	decliner := fresh(t, env, m.community, "Decliner")
	wantStatus(t, assign(t, m.root, m.forum.ID, "member", decliner.ProfileID), 204)
	mt := schedule(t, m.creator.Client, m.forum.ID, meetingForm(map[string]string{m.reader.UserID: "member", decliner.UserID: "member"}))
	room := mt.RoomID

	if p := meetupChatPage(t, m.reader.Client, room, ""); len(p.Results) != 0 || p.Total != 0 {
		t.Fatalf("a new Meet Up's chat: %+v", p)
	}

	t.Run("history in pages of 20", func(t *testing.T) {
		var sent []chatMessage
		for i := 0; i < 25; i++ {
			c := m.creator.Client
			if i%2 == 1 {
				c = m.reader.Client
			}
			sent = append(sent, sendMeetupChat(t, c, room, "message "+string(rune('a'+i))))
		}
		first := meetupChatPage(t, m.reader.Client, room, "")
		if first.Total != 25 || len(first.Results) != 20 || first.Results[0].ID != sent[24].ID || first.Results[19].ID != sent[5].ID {
			t.Fatalf("first page: total %d, %d results", first.Total, len(first.Results))
		}
		if first.Results[0].IsMine || !first.Results[1].IsMine || first.Results[0].ChannelID != sent[0].ChannelID || str(first.Results[0].RoomID) != room {
			t.Errorf("isMine or channel per reader: %+v", first.Results[:2])
		}
		older := meetupChatPage(t, m.reader.Client, room, "?createdBefore="+first.Results[19].CreatedOn)
		if len(older.Results) != 5 || older.Results[4].ID != sent[0].ID {
			t.Errorf("older page: %+v", older.Results)
		}
		wantError(t, m.reader.Client.Do("GET", "/api/meetings/"+room+"/chat/threads?pageSize=101", nil), 400, "validationFailed")
	})

	t.Run("800 characters", func(t *testing.T) {
		sendMeetupChat(t, m.reader.Client, room, strings.Repeat("é", 800))
		r := m.reader.Client.Do("POST", "/api/meetings/"+room+"/chat/threads", map[string]any{"raw": strings.Repeat("é", 801)})
		if e := wantError(t, r, 400, "validationFailed"); e.Details["fields"] == nil {
			t.Errorf("no field named: %s", r.Body)
		}
		wantError(t, m.reader.Client.Do("POST", "/api/meetings/"+room+"/chat/threads", map[string]any{"raw": "  "}), 400, "validationFailed")
		own := sendMeetupChat(t, m.reader.Client, room, "short")
		wantError(t, m.reader.Client.Do("PATCH", "/api/meetings/"+room+"/chat/threads/"+own.ID,
			map[string]any{"raw": strings.Repeat("x", 801)}), 400, "validationFailed")
	})

	t.Run("only its own messages under its path", func(t *testing.T) {
		other := schedule(t, m.creator.Client, m.forum.ID, meetingForm(map[string]string{m.reader.UserID: "member"}))
		msg := sendMeetupChat(t, m.reader.Client, room, "mine")
		wantError(t, m.reader.Client.Do("PATCH", "/api/meetings/"+other.RoomID+"/chat/threads/"+msg.ID, map[string]any{"raw": "x"}), 404, "notFound")
		wantError(t, m.reader.Client.Do("PATCH", "/api/threads/private/"+msg.ID, map[string]any{"raw": "x"}), 404, "notFound")
		wantError(t, m.reader.Client.Do("DELETE", "/api/threads/private/"+msg.ID, nil), 404, "notFound")
		if l := channels(t, m.reader.Client); len(l.Results) != 0 {
			t.Errorf("the Meet Up's chat is listed as a private channel: %+v", l)
		}
	})

	t.Run("a decliner loses the chat", func(t *testing.T) {
		sendMeetupChat(t, decliner.Client, room, "before declining")
		wantStatus(t, decliner.Client.Do("PUT", "/api/threads/"+mt.PostID+"/meeting/response", map[string]any{"response": "no"}), 200)
		wantError(t, decliner.Client.Do("GET", "/api/meetings/"+room+"/chat/threads", nil), 403, "forbidden")
		wantError(t, decliner.Client.Do("POST", "/api/meetings/"+room+"/chat/threads", map[string]any{"raw": "hi"}), 403, "forbidden")
	})

	t.Run("read after the end, not written", func(t *testing.T) {
		ended := schedule(t, m.creator.Client, m.forum.ID, func() map[string]any {
			f := meetingForm(map[string]string{m.reader.UserID: "member"})
			f["startTime"] = time.Now().Add(5 * time.Minute).UTC().Format(time.RFC3339)
			return f
		}())
		msg := sendMeetupChat(t, m.reader.Client, ended.RoomID, "see you")
		wantStatus(t, m.creator.Client.Do("POST", "/api/meetings/"+ended.RoomID+"/end", nil), 200)
		if p := meetupChatPage(t, m.reader.Client, ended.RoomID, ""); len(p.Results) != 1 || p.Results[0].ID != msg.ID {
			t.Errorf("after the end: %+v", p)
		}
		wantError(t, m.reader.Client.Do("POST", "/api/meetings/"+ended.RoomID+"/chat/threads", map[string]any{"raw": "late"}), 409, "meetingEnded")
		wantError(t, m.reader.Client.Do("DELETE", "/api/meetings/"+ended.RoomID+"/chat/threads/"+msg.ID, nil), 409, "meetingEnded")
	})
}

// TestMeetupChatLive: a message of a Meet Up's chat, its edit, reaction
// and deletion reach through the change stream the others who may join
// the Meet Up (isMine per receiver) and never a forum member who may not.
func TestMeetupChatLive(t *testing.T) {
	pipe := testenv.StartPipeline(t)
	env := testenv.NewLive(t, testenv.Live{Pipeline: pipe})
	m := newMatrixForum(t, env)
	mt := schedule(t, m.creator.Client, m.forum.ID, meetingForm(map[string]string{m.reader.UserID: "member"}))
	host, guest := dial(t, env, "", bearer(m.creator.Client.Token)), dial(t, env, "", bearer(m.reader.Client.Token))
	bystander := fresh(t, env, m.community, "Bystander")
	wantStatus(t, assign(t, m.root, m.forum.ID, "member", bystander.ProfileID), 204)
	other := dial(t, env, "", bearer(bystander.Client.Token))
	for _, h := range []*hubConn{host, guest, other} {
		h.t = t
	}
	valid := func(t *testing.T, msg hubMsg, schema string) {
		t.Helper()
		p, _ := json.Marshal(msg.Data.Payload)
		if err := openapi.ValidateSchema(schema, p); err != nil {
			t.Errorf("%s: %v\n%s", msg.Event, err, msg.Raw)
		}
	}
	base := "/api/meetings/" + mt.RoomID + "/chat/threads"
	msg := sendMeetupChat(t, m.reader.Client, mt.RoomID, "live in the room")
	key := "channel:" + msg.ChannelID

	got := host.waitFor(liveWait, "thread.created at the host", is(realtime.ThreadCreated, key))
	valid(t, got, "ChatMessage")
	if got.Payload["id"] != msg.ID || got.Payload["isMine"] != false || got.Payload["raw"] != "live in the room" || got.Payload["roomId"] != mt.RoomID {
		t.Errorf("at the host: %s", got.Raw)
	}
	if mine := guest.waitFor(liveWait, "thread.created at the author", is(realtime.ThreadCreated, key)); mine.Payload["isMine"] != true {
		t.Errorf("at the author: %s", mine.Raw)
	}
	wantStatus(t, m.reader.Client.Do("PATCH", base+"/"+msg.ID, map[string]any{"raw": "edited in the room"}), 200)
	if got := host.waitFor(liveWait, "thread.updated", is(realtime.ThreadUpdated, key)); got.Payload["raw"] != "edited in the room" {
		t.Errorf("edit: %s", got.Raw)
	}
	wantStatus(t, m.creator.Client.Do("PUT", base+"/"+msg.ID+"/reaction", map[string]any{"reaction": "loved"}), 200)
	if got := guest.waitFor(liveWait, "thread.reacted", is(realtime.Reacted, key)); got.Payload["reactions"].(map[string]any)[m.creator.UserID] != "loved" {
		t.Errorf("reaction: %s", got.Raw)
	}
	wantStatus(t, m.reader.Client.Do("DELETE", base+"/"+msg.ID, nil), 204)
	got = host.waitFor(liveWait, "thread.deleted", is(realtime.ThreadDeleted, key))
	valid(t, got, "LivePrivateMessageRef")
	other.none(0, "a Meet Up chat event at a member who may not join", func(h hubMsg) bool { return h.ContextKey == key })
}
