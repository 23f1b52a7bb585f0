package httpapi_test

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	lkauth "github.com/livekit/protocol/auth"
	"github.com/livekit/protocol/livekit"
	"google.golang.org/protobuf/encoding/protojson"

	"agora/app/testenv"
	"agora/internal/adapters/sfu/sfutest"
	"agora/projections/realtime"
)

// joinToken asks c's token for the Meet Up roomID.
func joinToken(t *testing.T, c *testenv.Client, roomID, userID string) *testenv.Response {
	t.Helper()
	return c.Do("POST", "/api/meetings/join-token", map[string]any{"roomId": roomID, "userId": userID})
}

// grants verifies a LiveKit token with the test key pair and answers its
// claims.
func grants(t *testing.T, token string) *lkauth.ClaimGrants {
	t.Helper()
	v, err := lkauth.ParseAPIToken(token)
	if err != nil {
		t.Fatalf("token: %v", err)
	}
	if v.APIKey() != testenv.SFUKey {
		t.Errorf("token of key %q", v.APIKey())
	}
	_, g, err := v.Verify(testenv.SFUSecret)
	if err != nil {
		t.Fatalf("token does not verify: %v", err)
	}
	return g
}

// TestMeetingJoinToken: a token is given from ten minutes before the
// start to those who may join, for the Meet Up's room, with their user id
// as identity, and grants by role: everyone publishes, subscribes and
// sends data; the host and moderators also administer the room. Before the
// grace window, after the end, and to those who may not join, none is.
func TestMeetingJoinToken(t *testing.T) {
	env := testenv.Meetups(t)
	m := newMatrixForum(t, env)
	moderator, declined := fresh(t, env, m.community, "Moderator"), fresh(t, env, m.community, "Declined")
	wantStatus(t, assign(t, m.root, m.forum.ID, "member", moderator.ProfileID, declined.ProfileID), 204)
	form := meetingForm(map[string]string{m.reader.UserID: "member", moderator.UserID: "moderator", declined.UserID: "member"})
	form["startTime"] = time.Now().Add(9 * time.Minute).UTC().Format(time.RFC3339)
	mt := schedule(t, m.creator.Client, m.forum.ID, form)
	wantStatus(t, declined.Client.Do("PUT", "/api/threads/"+mt.PostID+"/meeting/response", map[string]any{"response": "no"}), 200)

	for _, c := range []struct {
		name, role string
		who        member
	}{{"host", "host", m.creator}, {"moderator", "moderator", moderator}, {"member", "member", m.reader}} {
		t.Run(c.name, func(t *testing.T) {
			r := joinToken(t, c.who.Client, mt.RoomID, c.who.UserID)
			wantStatus(t, r, 200)
			var jt struct{ Token, URL, Room, Role string }
			r.JSON(t, &jt)
			if jt.Room != mt.RoomID || jt.Role != c.role || !strings.HasPrefix(jt.URL, "ws://") {
				t.Errorf("answer %+v", jt)
			}
			g := grants(t, jt.Token)
			v := g.Video
			if g.Identity != c.who.UserID || v == nil || !v.RoomJoin || v.Room != mt.RoomID {
				t.Fatalf("identity %q, grant %+v", g.Identity, v)
			}
			if !v.GetCanPublish() || !v.GetCanSubscribe() || v.GetCanPublishData() || v.Hidden || v.Recorder {
				t.Errorf("%s grants: %+v", c.name, v)
			}
			if v.RoomAdmin != (c.role != "member") {
				t.Errorf("%s roomAdmin %v", c.name, v.RoomAdmin)
			}
		})
	}
	// Not the caller's own id.
	wantInvalid(t, joinToken(t, m.reader.Client, mt.RoomID, m.creator.UserID), "userId")
	// Those who may not join.
	for name, who := range map[string]member{"declined": declined, "forum admin": m.forumAdmin} {
		wantError(t, joinToken(t, who.Client, mt.RoomID, who.UserID), 403, "forbidden")
		_ = name
	}
	wantError(t, joinToken(t, m.nonMember.Client, mt.RoomID, m.nonMember.UserID), 404, "notFound")
	// Before the grace window: the start and the grace minutes.
	later := schedule(t, m.creator.Client, m.forum.ID, meetingForm(map[string]string{m.reader.UserID: "member"}))
	e := wantError(t, joinToken(t, m.reader.Client, later.RoomID, m.reader.UserID), 409, "meetingNotYetTime")
	if e.Details["graceMinutes"] != float64(10) || e.Details["startTime"] == nil {
		t.Errorf("not yet time details: %v", e.Details)
	}
	// A waitlisted member may not join; a registered one may.
	open := openForm(1)
	open["startTime"] = form["startTime"]
	om := schedule(t, m.forumAdmin.Client, m.forum.ID, open)
	wantStatus(t, m.reader.Client.Do("PUT", "/api/meetings/"+om.RoomID+"/registration", nil), 200)
	wantStatus(t, moderator.Client.Do("PUT", "/api/meetings/"+om.RoomID+"/registration", nil), 200)
	wantStatus(t, joinToken(t, m.reader.Client, om.RoomID, m.reader.UserID), 200)
	wantError(t, joinToken(t, moderator.Client, om.RoomID, moderator.UserID), 403, "forbidden")
	// Breakout rooms: the token is for "<roomId>:<index>".
	wantStatus(t, m.creator.Client.Do("POST", "/api/meetings/"+mt.RoomID+"/open-breakouts", nil), 200)
	r := m.reader.Client.Do("POST", "/api/meetings/"+mt.RoomID+"/join-breakout-room", map[string]any{"roomName": "Blue", "peerId": m.reader.UserID})
	wantStatus(t, r, 200)
	var bt struct{ Token, Room string }
	r.JSON(t, &bt)
	if g := grants(t, bt.Token); bt.Room != mt.RoomID+":1" || g.Video.Room != mt.RoomID+":1" || g.Identity != m.reader.UserID {
		t.Errorf("breakout token for %q (grant room %q)", bt.Room, g.Video.Room)
	}
	var b struct {
		Open    bool              `json:"open"`
		Members map[string]string `json:"members"`
	}
	r = m.reader.Client.Do("GET", "/api/meetings/"+mt.RoomID+"/breakouts", nil)
	wantStatus(t, r, 200)
	r.JSON(t, &b)
	if !b.Open || b.Members[m.reader.UserID] != "Blue" {
		t.Errorf("breakouts: %+v", b)
	}
	wantInvalid(t, m.reader.Client.Do("POST", "/api/meetings/"+mt.RoomID+"/join-breakout-room", map[string]any{"roomName": "Green", "peerId": m.reader.UserID}), "roomName")
	wantStatus(t, m.creator.Client.Do("POST", "/api/meetings/"+mt.RoomID+"/close-breakouts", nil), 200)
	if n := env.Count(t, "meeting_breakout_members", "meeting_id = $1", mt.RoomID); n != 0 {
		t.Errorf("closing kept %d members' rooms", n)
	}
	wantError(t, m.reader.Client.Do("POST", "/api/meetings/"+mt.RoomID+"/join-breakout-room", map[string]any{"roomName": "Blue", "peerId": m.reader.UserID}), 409, "meetingBreakoutsClosed")
	// Ended: no token, and the Meet Up says so.
	r = moderator.Client.Do("POST", "/api/meetings/"+mt.RoomID+"/end", nil)
	wantStatus(t, r, 200)
	var ended meetingView
	r.JSON(t, &ended)
	if !ended.Ended || ended.MyRole != nil {
		t.Errorf("ended: %+v", ended)
	}
	wantError(t, joinToken(t, m.creator.Client, mt.RoomID, m.creator.UserID), 409, "meetingEnded")
	wantError(t, m.creator.Client.Do("PUT", "/api/meetings/"+mt.RoomID, form), 409, "meetingEnded")
}

// webhook posts a LiveKit event signed with key and secret.
func webhook(t *testing.T, env *testenv.Env, secret string, ev *livekit.WebhookEvent) int {
	t.Helper()
	body, err := protojson.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	token, err := lkauth.NewAccessToken(testenv.SFUKey, secret).SetValidFor(time.Minute).
		SetSha256(base64.StdEncoding.EncodeToString(sum[:])).ToJWT()
	if err != nil {
		t.Fatal(err)
	}
	res := rawDo(t, env, "POST", "/api/livekit/webhook", map[string]string{"Authorization": token, "Content-Type": "application/webhook+json"}, string(body))
	return res.StatusCode
}

// TestMeetingWebhook: LiveKit's signed webhooks write attendance, once per
// event however often delivered; a leave closes it; a room that finishes
// after the Meet Up's end ends it, one that finishes before does not; a
// bad signature is 401 and writes nothing.
func TestMeetingWebhook(t *testing.T) {
	env := testenv.Meetups(t)
	m := newMatrixForum(t, env)
	form := meetingForm(map[string]string{m.reader.UserID: "member"})
	form["startTime"] = time.Now().Add(30 * time.Second).UTC().Format(time.RFC3339)
	form["duration"] = 15
	mt := schedule(t, m.creator.Client, m.forum.ID, form)
	start, _ := time.Parse(time.RFC3339, mt.StartTime)
	joined := &livekit.WebhookEvent{Event: "participant_joined", Id: "EV_join1", CreatedAt: start.Unix(),
		Room: &livekit.Room{Name: mt.RoomID}, Participant: &livekit.ParticipantInfo{Identity: m.reader.UserID, Sid: "PA_1"}}
	if s := webhook(t, env, "wrong-secret-of-at-least-thirty-two-chars", joined); s != http.StatusUnauthorized {
		t.Errorf("bad signature: %d", s)
	}
	if n := env.Count(t, "meeting_attendance", "meeting_id = $1", mt.RoomID); n != 0 {
		t.Fatal("a badly signed webhook wrote")
	}
	for range 2 {
		if s := webhook(t, env, testenv.SFUSecret, joined); s != 200 {
			t.Fatalf("joined: %d", s)
		}
	}
	if n := env.Count(t, "meeting_attendance", "meeting_id = $1 AND user_id = $2 AND left_on IS NULL", mt.RoomID, m.reader.UserID); n != 1 {
		t.Fatalf("%d open attendance rows, want 1", n)
	}
	left := &livekit.WebhookEvent{Event: "participant_left", Id: "EV_left1", CreatedAt: start.Add(5 * time.Minute).Unix(),
		Room: &livekit.Room{Name: mt.RoomID}, Participant: &livekit.ParticipantInfo{Identity: m.reader.UserID, Sid: "PA_1"}}
	if s := webhook(t, env, testenv.SFUSecret, left); s != 200 {
		t.Fatalf("left: %d", s)
	}
	if n := env.Count(t, "meeting_attendance", "meeting_id = $1 AND left_on IS NOT NULL", mt.RoomID); n != 1 {
		t.Errorf("leave not recorded")
	}
	finished := func(at time.Time) *livekit.WebhookEvent {
		return &livekit.WebhookEvent{Event: "room_finished", Id: "EV_fin" + at.String(), CreatedAt: at.Unix(), Room: &livekit.Room{Name: mt.RoomID}}
	}
	webhook(t, env, testenv.SFUSecret, finished(start.Add(10*time.Minute)))
	if getMeeting(t, m.creator.Client, mt.RoomID).Ended {
		t.Error("a room empty before the end ended the Meet Up")
	}
	webhook(t, env, testenv.SFUSecret, finished(start.Add(16*time.Minute)))
	if !getMeeting(t, m.creator.Client, mt.RoomID).Ended {
		t.Error("the room finished after the end, and the Meet Up did not end")
	}
	// Unknown rooms and identities are acknowledged.
	if s := webhook(t, env, testenv.SFUSecret, &livekit.WebhookEvent{Event: "participant_joined", Id: "EV_x", Room: &livekit.Room{Name: "lobby"},
		Participant: &livekit.ParticipantInfo{Identity: "recorder:x"}}); s != 200 {
		t.Errorf("unknown room: %d", s)
	}
}

// TestMeetingEndsAtItsScheduledEnd: a Meet Up that nobody ends is over at
// its start plus duration. Reads say so at once (ended, endedOn its end, no
// role) and no token is given, before the API's sweep has written it; the
// sweep then ends it as "end for all" does: ended_on at the scheduled end,
// its LiveKit room closed with whoever is in it, meeting.ended on the hub,
// and the AI notes that were recording compiled.
func TestMeetingEndsAtItsScheduledEnd(t *testing.T) {
	pipe := testenv.StartPipeline(t)
	env := testenv.NewLive(t, testenv.Live{Pipeline: pipe})
	m := newMatrixForum(t, env)
	mt := notesSchedule(t, m, "Plans", 15)
	hub := dial(t, env, "", bearer(m.reader.Client.Token))
	rec := notesAnswer(t, m.creator.Client.Do("POST", "/api/live-streams/record/"+mt.RoomID, nil), 200)
	if rec.state() != "started" {
		t.Fatalf("minutes.state %s after record, want started", rec.state())
	}
	r := joinToken(t, m.reader.Client, mt.RoomID, m.reader.UserID)
	wantStatus(t, r, 200)
	var jt struct{ Token string }
	r.JSON(t, &jt)
	p, err := sfutest.Join(env.SFU(t).URL(), jt.Token, sfutest.JoinOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	// Its end came a minute ago, and nobody ended it.
	exec(t, env, `UPDATE meetings SET start_time = start_time - interval '16 minutes' WHERE id = $1`, mt.RoomID)
	var got struct {
		meetingView
		EndTime string  `json:"endTime"`
		EndedOn *string `json:"endedOn"`
	}
	r = m.reader.Client.Do("GET", "/api/meetings/"+mt.RoomID, nil)
	wantStatus(t, r, 200)
	r.JSON(t, &got)
	if !got.Ended || got.EndedOn == nil || *got.EndedOn != got.EndTime || got.MyRole != nil {
		t.Errorf("past its end: ended %v, endedOn %v, endTime %s, myRole %v", got.Ended, got.EndedOn, got.EndTime, got.MyRole)
	}
	wantError(t, joinToken(t, m.reader.Client, mt.RoomID, m.reader.UserID), 409, "meetingEnded")
	var perms struct{ CanJoin, CanEndRoom, CanRecord bool }
	r = m.reader.Client.Do("GET", "/api/meetings/"+mt.RoomID+"/permissions", nil)
	wantStatus(t, r, 200)
	r.JSON(t, &perms)
	if perms.CanJoin || perms.CanEndRoom || perms.CanRecord {
		t.Errorf("permissions past the end: %+v", perms)
	}

	hub.waitFor(2*meetupSweepWait, "meeting.ended from the sweep", is(realtime.MeetingEnded, "meeting:"+mt.RoomID))
	if s := queryString(t, env, `SELECT (ended_on = start_time + duration * interval '1 minute')::text FROM meetings WHERE id = $1`, mt.RoomID); s != "true" {
		t.Errorf("ended_on is not the scheduled end")
	}
	select {
	case <-p.Disconnected():
	case <-time.After(meetupSweepWait):
		t.Error("the participant is still in the room of the ended Meet Up")
	}
	notesWait(t, time.Minute, "the minutes to be compiled", func() bool {
		return notesGet(t, m.creator.Client, mt.RoomID).state() == "completed"
	})
}

// meetupSweepWait bounds how long a Meet Up past its end waits for an API
// node's sweep (app's meetupSweepEvery, and the live pipeline after it).
const meetupSweepWait = 30 * time.Second

// TestMeetingAttendanceSecondDevice: a member who joins again from another
// device is a second session; LiveKit sends the first device's leave after
// the second's join (the earlier session is made to leave), and that leave
// closes the first session alone. The second stays open until its own
// leave.
func TestMeetingAttendanceSecondDevice(t *testing.T) {
	env := testenv.Meetups(t)
	m := newMatrixForum(t, env)
	form := meetingForm(map[string]string{m.reader.UserID: "member"})
	form["startTime"] = time.Now().Add(30 * time.Second).UTC().Format(time.RFC3339)
	mt := schedule(t, m.creator.Client, m.forum.ID, form)
	start, _ := time.Parse(time.RFC3339, mt.StartTime)
	event := func(kind, id, sid string, at time.Duration) {
		t.Helper()
		ev := &livekit.WebhookEvent{Event: kind, Id: id, CreatedAt: start.Add(at).Unix(), Room: &livekit.Room{Name: mt.RoomID},
			Participant: &livekit.ParticipantInfo{Identity: m.reader.UserID, Sid: sid}}
		if s := webhook(t, env, testenv.SFUSecret, ev); s != 200 {
			t.Fatalf("%s %s: %d", kind, sid, s)
		}
	}
	open := func(sid string) bool {
		return env.Count(t, "meeting_attendance", "id = $1 AND meeting_id = $2 AND left_on IS NULL", sid, mt.RoomID) == 1
	}
	event("participant_joined", "EV_laptop_in", "PA_laptop", time.Minute)
	event("participant_joined", "EV_phone_in", "PA_phone", 5*time.Minute)
	event("participant_left", "EV_laptop_out", "PA_laptop", 5*time.Minute)
	if open("PA_laptop") || !open("PA_phone") {
		t.Errorf("after the laptop's leave: laptop open %v, phone open %v; want only the phone open", open("PA_laptop"), open("PA_phone"))
	}
	// Delivered again, the laptop's leave still leaves the phone alone.
	event("participant_left", "EV_laptop_out", "PA_laptop", 5*time.Minute)
	if !open("PA_phone") {
		t.Error("a repeated leave of the laptop closed the phone's session")
	}
	event("participant_left", "EV_phone_out", "PA_phone", 9*time.Minute)
	if open("PA_phone") {
		t.Error("the phone's leave did not close its session")
	}
	if n := env.Count(t, "meeting_attendance", "meeting_id = $1 AND user_id = $2", mt.RoomID, m.reader.UserID); n != 2 {
		t.Errorf("%d attendance rows, want 2 sessions", n)
	}
}
