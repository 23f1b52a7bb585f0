package httpapi_test

import (
	"encoding/json"
	"testing"

	"agora/app/testenv"
	"agora/httpapi/openapi"
	"agora/projections/realtime"
)

// TestHubMeetingEvents runs the Meet Ups' live events end to end: written
// through the API, they reach through the relay, the broker and the
// realtime projection the sockets of their audience (a private Meet Up's
// creator, invitees and forum admins; an open one's forum readers) as the
// documented payloads, each receiver's Meet Up as they would read it, and
// the post's thread events carry the Meet Up.
func TestHubMeetingEvents(t *testing.T) {
	pipe := testenv.StartPipeline(t)
	env := testenv.NewLive(t, testenv.Live{Pipeline: pipe})
	m := newMatrixForum(t, env)
	creator := dial(t, env, "", bearer(m.creator.Client.Token))
	invitee := dial(t, env, "", bearer(m.reader.Client.Token))
	admin := dial(t, env, "", bearer(m.forumAdmin.Client.Token))
	bystander := fresh(t, env, m.community, "Bystander")
	wantStatus(t, assign(t, m.root, m.forum.ID, "member", bystander.ProfileID), 204)
	other := dial(t, env, "", bearer(bystander.Client.Token))
	outsider := dial(t, env, "", bearer(m.outsider.Token))
	for _, h := range []*hubConn{creator, invitee, admin, other, outsider} {
		h.t = t
	}
	valid := func(t *testing.T, msg hubMsg, schema string) {
		t.Helper()
		p, _ := json.Marshal(msg.Data.Payload)
		if err := openapi.ValidateSchema(schema, p); err != nil {
			t.Errorf("%s: %v\n%s", msg.Event, err, msg.Raw)
		}
	}
	role := func(msg hubMsg) any { return msg.Payload["myRole"] }

	mt := schedule(t, m.creator.Client, m.forum.ID, meetingForm(map[string]string{m.reader.UserID: "member"}))
	key := "meeting:" + mt.RoomID
	for _, c := range []struct {
		name string
		h    *hubConn
		role any
	}{{"creator", creator, "host"}, {"invitee", invitee, "member"}, {"forum admin", admin, nil}} {
		msg := c.h.waitFor(liveWait, "meeting.created at the "+c.name, is(realtime.MeetingCreated, key))
		valid(t, msg, "Meeting")
		if role(msg) != c.role || msg.Payload["name"] != "Weekly sync" {
			t.Errorf("%s: %s", c.name, msg.Raw)
		}
	}
	// The post reaches the forum's readers with its meeting.
	msg := other.waitFor(liveWait, "the Meet Up post's thread.created", is(realtime.ThreadCreated, "thread:"+mt.PostID))
	valid(t, msg, "LiveThread")
	if mm, _ := msg.Payload["meeting"].(map[string]any); mm == nil || mm["roomId"] != mt.RoomID || mm["myRole"] != nil {
		t.Errorf("the post's meeting: %s", msg.Raw)
	}

	wantStatus(t, m.reader.Client.Do("PUT", "/api/threads/"+mt.PostID+"/meeting/response", map[string]any{"response": "yes"}), 200)
	msg = creator.waitFor(liveWait, "meeting.invitees.responded", is(realtime.InviteesResponded, key))
	valid(t, msg, "LiveMeetingInvitees")
	if ids, _ := msg.Payload["userIds"].([]any); len(ids) != 1 || ids[0] != m.reader.UserID || msg.Payload["response"] != "yes" {
		t.Errorf("responded: %s", msg.Raw)
	}

	wantStatus(t, m.creator.Client.Do("POST", "/api/meetings/"+mt.RoomID+"/open-breakouts", nil), 200)
	msg = invitee.waitFor(liveWait, "meeting.breakouts.updated", is(realtime.BreakoutsUpdated, key))
	valid(t, msg, "LiveMeetingBreakouts")
	if msg.Payload["open"] != true {
		t.Errorf("breakouts: %s", msg.Raw)
	}

	form := meetingForm(map[string]string{m.reader.UserID: "member"})
	form["name"] = "Renamed sync"
	wantStatus(t, m.creator.Client.Do("PUT", "/api/meetings/"+mt.RoomID, form), 200)
	msg = other.waitFor(liveWait, "the post's thread.updated with the new meeting", func(h hubMsg) bool {
		mm, _ := h.Payload["meeting"].(map[string]any)
		return is(realtime.ThreadUpdated, "thread:"+mt.PostID)(h) && mm != nil && mm["name"] == "Renamed sync"
	})
	valid(t, msg, "LiveThread")
	msg = invitee.waitFor(liveWait, "meeting.updated with the new name", func(h hubMsg) bool {
		return is(realtime.MeetingUpdated, key)(h) && h.Payload["name"] == "Renamed sync"
	})
	if role(msg) != "member" {
		t.Errorf("the invitee's meeting.updated: %s", msg.Raw)
	}

	// An open Meet Up reaches every reader of the forum.
	open := schedule(t, m.forumAdmin.Client, m.forum.ID, openForm(5))
	msg = other.waitFor(liveWait, "an open Meet Up's meeting.created", is(realtime.MeetingCreated, "meeting:"+open.RoomID))
	valid(t, msg, "Meeting")
	wantStatus(t, bystander.Client.Do("PUT", "/api/meetings/"+open.RoomID+"/registration", nil), 200)
	msg = admin.waitFor(liveWait, "meeting.invitees.added for a registration", is(realtime.InviteesAdded, "meeting:"+open.RoomID))
	if msg.Payload["response"] != "registered" {
		t.Errorf("registration: %s", msg.Raw)
	}

	wantStatus(t, m.creator.Client.Do("DELETE", "/api/threads/"+mt.PostID, nil), 204)
	msg = invitee.waitFor(liveWait, "meeting.deleted", is(realtime.MeetingDeleted, key))
	valid(t, msg, "LiveMeetingRef")
	if msg.Payload["roomId"] != mt.RoomID || msg.Payload["postId"] != mt.PostID {
		t.Errorf("deleted: %s", msg.Raw)
	}
	// The private Meet Up's own events never reached a member who is not
	// invited, nor the outsider anything.
	other.none(0, "a private Meet Up's event at a member not invited", func(h hubMsg) bool {
		return h.ContextKey == key && h.Event != realtime.MeetingDeleted
	})
	outsider.none(0, "a Meet Up event at the outsider", func(h hubMsg) bool { return len(h.ContextKey) > 8 && h.ContextKey[:8] == "meeting:" })
}
