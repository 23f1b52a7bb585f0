package httpapi_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/httpapi/openapi"
	"agora/internal/adapters/sfu"
	"agora/internal/adapters/speech/speechtest"
	"agora/projections/realtime"
)

// A Meet Up's AI notes (spec 002 §4 "AI notes recording", §7): recording
// with a real LiveKit server and recogniser, canceling, and the minutes'
// edit and delete.

// notesMeeting is what these tests read of a Meeting.
type notesMeeting struct {
	RoomID  string `json:"roomId"`
	PostID  string `json:"postId"`
	Minutes struct {
		State   *string `json:"state"`
		Content *string `json:"content"`
	} `json:"minutes"`
}

func (m notesMeeting) state() string {
	if m.Minutes.State == nil {
		return "null"
	}
	return *m.Minutes.State
}

// notesSchedule schedules a private Meet Up starting in a few seconds with
// the forum's reader as its moderator.
func notesSchedule(t *testing.T, m *matrixForum, agenda string, duration int) notesMeeting {
	t.Helper()
	r := m.creator.Client.Do("POST", "/api/series/"+m.forum.ID+"/meetings", map[string]any{
		"name": "Capstone sync", "agenda": agenda, "startTime": time.Now().Add(5 * time.Second).UTC().Format(time.RFC3339),
		"duration": duration, "open": false, "seatCount": nil, "invitees": map[string]string{m.reader.UserID: "moderator"}, "breakouts": []string{},
	})
	wantStatus(t, r, 201)
	var post struct {
		Meeting notesMeeting `json:"meeting"`
	}
	r.JSON(t, &post)
	return post.Meeting
}

func notesAnswer(t *testing.T, r *testenv.Response, status int) notesMeeting {
	t.Helper()
	wantStatus(t, r, status)
	var m notesMeeting
	r.JSON(t, &m)
	return m
}

func notesGet(t *testing.T, c *testenv.Client, roomID string) notesMeeting {
	t.Helper()
	return notesAnswer(t, c.Do("GET", "/api/meetings/"+roomID, nil), 200)
}

// notesWait polls cond until it holds, failing after within: recognition
// on a shared machine has no fixed duration.
func notesWait(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s after %v", what, within)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// The AI notes end to end: the host records, a member speaks in the room
// (a server-side participant publishing flite's voice as Opus), the host
// ends the Meet Up, and the minutes on the post hold the key words for the
// invitees, not for a forum admin who is not invited; the AI search finds
// the Meet Up post by the minutes' words for an invitee only.
func TestMeetupMinutesEndToEnd(t *testing.T) {
	env, _ := testenv.NewSearch(t)
	m := newMatrixForum(t, env)
	mt := notesSchedule(t, m, "Capstone proposal and budget", 30)

	rec := notesAnswer(t, m.creator.Client.Do("POST", "/api/live-streams/record/"+mt.RoomID, nil), 200)
	if rec.state() != "started" {
		t.Fatalf("minutes.state %s after record, want started", rec.state())
	}
	lk := env.SFU(t)
	ps, err := lk.Participants(t.Context(), mt.RoomID)
	if err != nil || len(ps) != 1 || ps[0].Identity != "recorder:"+mt.RoomID {
		t.Fatalf("room participants %+v (%v), want the recorder alone", ps, err)
	}

	token, err := lk.Token(sfu.Grant{Room: mt.RoomID, Identity: m.reader.UserID, Name: "Reader", CanPublish: true, CanSubscribe: true})
	if err != nil {
		t.Fatal(err)
	}
	var pcm []int16
	pcm = append(pcm, speechtest.Speak(t, "The capstone proposal is due on March fourteenth.")...)
	pcm = append(pcm, speechtest.Silence(1000)...)
	pcm = append(pcm, speechtest.Speak(t, "The budget review happens next week.")...)
	speechtest.Say(t, lk.URL(), token, pcm)
	notesWait(t, 2*time.Minute, "the transcript", func() bool {
		return env.Count(t, "meeting_transcripts", "meeting_id = $1 AND speaker_id = $2", mt.RoomID, m.reader.UserID) >= 2
	})

	wantStatus(t, m.creator.Client.Do("POST", "/api/meetings/"+mt.RoomID+"/end", nil), 200)
	notesWait(t, time.Minute, "the minutes", func() bool { return notesGet(t, m.reader.Client, mt.RoomID).state() == "completed" })
	got := notesGet(t, m.reader.Client, mt.RoomID)
	if got.Minutes.Content == nil {
		t.Fatal("an invitee does not read the minutes")
	}
	text := strings.ToLower(*got.Minutes.Content)
	for _, w := range []string{"capstone proposal and budget", "capstone", "march", "budget", "review"} {
		if !strings.Contains(text, w) {
			t.Errorf("minutes miss %q:\n%s", w, *got.Minutes.Content)
		}
	}
	if c := notesGet(t, m.forumAdmin.Client, mt.RoomID).Minutes.Content; c != nil {
		t.Errorf("a forum admin who is not invited reads the minutes: %q", *c)
	}

	// The AI search finds the Meet Up post by the minutes' words, for an
	// invitee; not for a reader of the forum who is not invited.
	var found []string
	notesWait(t, 30*time.Second, "the minutes in search", func() bool {
		found = nil
		for _, p := range aiAsk(t, m.reader.Client, m.main, "", "capstone proposal")[0].Posts {
			found = append(found, p.ID+" "+p.Kind+" "+p.ChannelID)
		}
		return len(found) > 0
	})
	if want := mt.PostID + " post " + m.main; len(found) != 1 || found[0] != want {
		t.Errorf("the invitee's search found %v, want [%s]", found, want)
	}
	for _, p := range aiAsk(t, m.forumAdmin.Client, m.main, "", "capstone proposal")[0].Posts {
		if p.ID == mt.PostID {
			t.Errorf("a forum admin who is not invited finds the Meet Up by its minutes: %+v", p)
		}
	}
}

// notesDigest is a fingerprint of a Meet Up's minutes and transcript, to
// check that a refused call changed nothing.
func notesDigest(t *testing.T, env *testenv.Env, roomID string) string {
	t.Helper()
	return queryString(t, env, `SELECT md5(concat_ws('|',
		(SELECT concat_ws(',', minutes_state, minutes_content, minutes_on, updated_on) FROM meetings WHERE id = $1),
		(SELECT string_agg(x::text, ',' ORDER BY x.seq) FROM meeting_transcripts x WHERE x.meeting_id = $1)))`, roomID)
}

// Each AI notes call by every role: the host and the Meet Up's moderator
// may (spec 002 §6: the AI notes control is the creator's or a Meet Up
// moderator's; §4: moderators edit the notes); a member invitee, a super
// user, the organization's admin and a forum or community admin who is not
// the host or a moderator are refused (403), someone who does not read the
// forum finds nothing (404) and a guest must sign in (401). A refusal
// changes nothing.
func TestMinutesRoleMatrix(t *testing.T) {
	env := testenv.New(t)
	m := newMatrixForum(t, env)
	mt := notesSchedule(t, m, "Plans", 30)
	invitee := fresh(t, env, m.community, "Invitee")
	wantStatus(t, assign(t, m.root, m.forum.ID, "member", invitee.ProfileID), 204)
	wantStatus(t, m.creator.Client.Do("PATCH", "/api/meetings/"+mt.RoomID+"/invite",
		map[string]any{"invitees": map[string]any{invitee.UserID: "member"}}), 200)
	refused := map[string]int{"invitee": 403, "super": 403, "org admin": 403, "forum admin": 403, "community admin": 403,
		"non-member": 404, "outsider": 404, "guest": 401}
	calls := []struct {
		name, method, path string
		body               any
		allowed            []string // in this order, each after the refusals
		status             int
		state              string
	}{
		{"record", "POST", "/api/live-streams/record/" + mt.RoomID, nil, []string{"creator", "member"}, 200, "started"},
		{"cancel", "POST", "/api/meetings/" + mt.RoomID + "/minutes/cancel", nil, []string{"member", "creator"}, 200, "canceled"},
		{"edit", "PATCH", "/api/threads/" + mt.PostID + "/meeting/minutes", map[string]any{"content": "Decided: ship it."}, []string{"creator", "member"}, 200, "completed"},
		{"delete", "DELETE", "/api/threads/" + mt.PostID + "/meeting/minutes", nil, []string{"member", "creator"}, 204, "null"},
	}
	// The forum's reader is the Meet Up's moderator (notesSchedule).
	roles := map[string]*testenv.Client{"invitee": invitee.Client, "super": env.As(t, superEmail), "org admin": m.root}
	for _, r := range m.roles() {
		roles[r.name] = r.c
	}
	for _, call := range calls {
		before := notesDigest(t, env, mt.RoomID)
		for name, status := range refused {
			r := roles[name].Do(call.method, call.path, call.body)
			if r.Status != status {
				t.Errorf("%s by %s: %d, want %d: %s", call.name, name, r.Status, status, r.Body)
			}
		}
		if after := notesDigest(t, env, mt.RoomID); after != before {
			t.Errorf("a refused %s changed the minutes", call.name)
		}
		for _, name := range call.allowed {
			r := roles[name].Do(call.method, call.path, call.body)
			if r.Status != call.status {
				t.Errorf("%s by %s: %d, want %d: %s", call.name, name, r.Status, call.status, r.Body)
			}
			if got := notesGet(t, m.creator.Client, mt.RoomID).state(); got != call.state {
				t.Errorf("after %s by %s: minutes.state %s, want %s", call.name, name, got, call.state)
			}
		}
	}
	// A recorder canceled or deleted has left the room.
	notesWait(t, 10*time.Second, "the recorder to leave", func() bool {
		ps, err := env.SFU(t).Participants(t.Context(), mt.RoomID)
		return err == nil && len(ps) == 0
	})
}

// The limits of the AI notes calls, each refusal changing nothing.
func TestMinutesLimits(t *testing.T) {
	env := testenv.New(t)
	m := newMatrixForum(t, env)
	long := notesSchedule(t, m, "", 120)
	before := notesDigest(t, env, long.RoomID)
	wantError(t, m.creator.Client.Do("POST", "/api/live-streams/record/"+long.RoomID, nil), 409, "minutesUnavailable")
	wantError(t, m.creator.Client.Do("POST", "/api/meetings/"+long.RoomID+"/minutes/cancel", nil), 409, "minutesNotRecording")
	wantError(t, m.creator.Client.Do("PATCH", "/api/threads/"+long.PostID+"/meeting/minutes", map[string]any{"content": "  "}), 400, "validationFailed")
	wantError(t, m.creator.Client.Do("PATCH", "/api/threads/"+long.PostID+"/meeting/minutes", map[string]any{"content": strings.Repeat("a", 20001)}), 400, "validationFailed")
	wantError(t, m.creator.Client.Do("PATCH", "/api/threads/"+long.PostID+"/meeting/minutes", map[string]any{"text": "x"}), 400, "invalidBody")
	wantError(t, m.creator.Client.Do("POST", "/api/live-streams/record/"+uuid.NewString(), nil), 404, "notFound")
	wantError(t, m.creator.Client.Do("POST", "/api/live-streams/record/not-a-uuid", nil), 400, "validationFailed")
	if after := notesDigest(t, env, long.RoomID); after != before {
		t.Error("a refused call changed the minutes")
	}

	later := m.creator.Client.Do("POST", "/api/series/"+m.forum.ID+"/meetings", map[string]any{
		"name": "Later", "agenda": "", "startTime": time.Now().Add(time.Hour).UTC().Format(time.RFC3339),
		"duration": 30, "open": false, "seatCount": nil, "invitees": map[string]string{m.reader.UserID: "member"}, "breakouts": []string{},
	})
	wantStatus(t, later, 201)
	var post struct {
		Meeting notesMeeting `json:"meeting"`
	}
	later.JSON(t, &post)
	e := wantError(t, m.creator.Client.Do("POST", "/api/live-streams/record/"+post.Meeting.RoomID, nil), 409, "meetingNotYetTime")
	if e.Details["graceMinutes"] != float64(10) {
		t.Errorf("details %v", e.Details)
	}
	wantStatus(t, m.creator.Client.Do("POST", "/api/meetings/"+post.Meeting.RoomID+"/end", nil), 200)
	wantError(t, m.creator.Client.Do("POST", "/api/live-streams/record/"+post.Meeting.RoomID, nil), 409, "meetingEnded")
}

// Consent (issue 31): when the host turns the AI notes on, every
// participant is told, not the host alone. A participant's hub socket
// hears meeting.minutes.updated with the state started, and its Meet Up
// says so; someone who joins later reads it from GET /meetings/{roomId}
// before taking a join token; turning them off reaches the participant as
// canceled. A member of the forum who is not invited to the private Meet
// Up hears none of it.
func TestMinutesStateReachesParticipants(t *testing.T) {
	pipe := testenv.StartPipeline(t)
	env := testenv.NewLive(t, testenv.Live{Pipeline: pipe})
	m := newMatrixForum(t, env)
	late := fresh(t, env, m.community, "Latecomer")
	wantStatus(t, assign(t, m.root, m.forum.ID, "member", late.ProfileID), 204)
	bystander := fresh(t, env, m.community, "Bystander")
	wantStatus(t, assign(t, m.root, m.forum.ID, "member", bystander.ProfileID), 204)
	r := m.creator.Client.Do("POST", "/api/series/"+m.forum.ID+"/meetings", map[string]any{
		"name": "Consent sync", "agenda": "", "startTime": time.Now().Add(5 * time.Second).UTC().Format(time.RFC3339),
		"duration": 30, "open": false, "seatCount": nil, "breakouts": []string{},
		"invitees": map[string]string{m.reader.UserID: "member", late.UserID: "member"},
	})
	wantStatus(t, r, 201)
	var post struct {
		Meeting notesMeeting `json:"meeting"`
	}
	r.JSON(t, &post)
	mt, key := post.Meeting, "meeting:"+post.Meeting.RoomID
	participant := dial(t, env, "", bearer(m.reader.Client.Token))
	other := dial(t, env, "", bearer(bystander.Client.Token))
	participant.t, other.t = t, t
	wantStatus(t, joinToken(t, m.reader.Client, mt.RoomID, m.reader.UserID), 200)

	notesAnswer(t, m.creator.Client.Do("POST", "/api/live-streams/record/"+mt.RoomID, nil), 200)
	minutes := func(state string) func(hubMsg) bool {
		return func(h hubMsg) bool { return is(realtime.MinutesUpdated, key)(h) && h.Payload["state"] == state }
	}
	// The row's change sends both the Meet Up and the minutes' event.
	var updated, told bool
	participant.waitFor(liveWait, "meeting.updated and meeting.minutes.updated with the notes on at a participant", func(h hubMsg) bool {
		mm, _ := h.Payload["minutes"].(map[string]any)
		switch {
		case is(realtime.MeetingUpdated, key)(h) && mm != nil && mm["state"] == "started":
			updated = true
		case minutes("started")(h):
			told = true
			if p, _ := json.Marshal(h.Data.Payload); openapi.ValidateSchema("LiveMeetingMinutes", p) != nil || h.Payload["roomId"] != mt.RoomID {
				t.Errorf("minutes event: %s", h.Raw)
			}
		}
		return updated && told
	})

	// One who joins later reads that the notes are on, as they join.
	if got := notesGet(t, late.Client, mt.RoomID); got.state() != "started" {
		t.Errorf("the latecomer reads minutes.state %s, want started", got.state())
	}
	wantStatus(t, joinToken(t, late.Client, mt.RoomID, late.UserID), 200)

	notesAnswer(t, m.creator.Client.Do("POST", "/api/meetings/"+mt.RoomID+"/minutes/cancel", nil), 200)
	participant.waitFor(liveWait, "meeting.minutes.updated canceled at a participant", minutes("canceled"))
	if got := notesGet(t, late.Client, mt.RoomID); got.state() != "canceled" {
		t.Errorf("after the cancel the latecomer reads minutes.state %s", got.state())
	}
	other.none(0, "a private Meet Up's notes at a member not invited", func(h hubMsg) bool { return h.ContextKey == key })
}
