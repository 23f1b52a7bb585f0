package httpapi_test

import (
	"strings"
	"testing"
	"time"

	"agora/app/testenv"
)

// The Meet Up calls (spec 002 §7 "Meet Ups"): scheduling, the form's
// limits, reading, editing, registrations and the waitlist, answers,
// invitations, breakouts, ending and the calendar file.

// meetingView is what the tests read of a Meeting.
type meetingView struct {
	RoomID    string             `json:"roomId"`
	PostID    string             `json:"postId"`
	SeriesID  string             `json:"seriesId"`
	CreatorID string             `json:"creatorId"`
	Name      string             `json:"name"`
	Open      bool               `json:"open"`
	SeatCount *int               `json:"seatCount"`
	SeatsLeft *int               `json:"seatsLeft"`
	Invitees  map[string]*string `json:"invitees"`
	Roles     map[string]string  `json:"roles"`
	Waitlist  []string           `json:"waitlist"`
	Breakouts struct {
		Open  bool           `json:"open"`
		Rooms map[string]int `json:"rooms"`
	} `json:"breakouts"`
	Minutes struct {
		State   *string `json:"state"`
		Content *string `json:"content"`
	} `json:"minutes"`
	Ended     bool    `json:"ended"`
	MyRole    *string `json:"myRole"`
	PostRoute string  `json:"postRoute"`
	StartTime string  `json:"startTime"`
}

// meetingForm is a valid private form starting in an hour.
func meetingForm(invitees map[string]string) map[string]any {
	return map[string]any{
		"name": "Weekly sync", "agenda": "Plans; numbers, and questions", "startTime": time.Now().Add(time.Hour).UTC().Format(time.RFC3339),
		"duration": 30, "open": false, "seatCount": nil, "invitees": invitees, "breakouts": []string{"Red", "Blue"},
	}
}

// openForm is a valid open form with seats.
func openForm(seats int) map[string]any {
	f := meetingForm(map[string]string{})
	f["open"], f["seatCount"] = true, seats
	return f
}

// schedule makes a Meet Up in forum as c and answers it.
func schedule(t *testing.T, c *testenv.Client, forum string, form map[string]any) meetingView {
	t.Helper()
	r := c.Do("POST", "/api/series/"+forum+"/meetings", form)
	wantStatus(t, r, 201)
	var post struct {
		ID      string       `json:"id"`
		Type    string       `json:"type"`
		Meeting *meetingView `json:"meeting"`
	}
	r.JSON(t, &post)
	if post.Meeting == nil || post.Meeting.PostID != post.ID || post.Type != "post" {
		t.Fatalf("the new post has no Meet Up of its own: %s", r.Body)
	}
	return *post.Meeting
}

func getMeeting(t *testing.T, c *testenv.Client, roomID string) meetingView {
	t.Helper()
	r := c.Do("GET", "/api/meetings/"+roomID, nil)
	wantStatus(t, r, 200)
	var m meetingView
	r.JSON(t, &m)
	return m
}

func str(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}

// TestMeetingLifecycle: a private Meet Up scheduled by a member with an
// invitee is in the feed as its post's meeting, is read, edited, answered,
// listed, exported as a calendar and deleted with its post.
func TestMeetingLifecycle(t *testing.T) {
	env := testenv.Meetups(t)
	m := newMatrixForum(t, env)
	mt := schedule(t, m.creator.Client, m.forum.ID, meetingForm(map[string]string{m.reader.UserID: "moderator"}))
	if mt.Open || mt.SeatCount != nil || mt.SeatsLeft != nil || mt.Roles[m.reader.UserID] != "moderator" || str(mt.MyRole) != "host" {
		t.Errorf("new Meet Up: %+v", mt)
	}
	if r, ok := mt.Invitees[m.reader.UserID]; !ok || r != nil {
		t.Errorf("invitee's answer: %v, want null", mt.Invitees)
	}
	if mt.Breakouts.Rooms["Red"] != 0 || mt.Breakouts.Rooms["Blue"] != 1 {
		t.Errorf("breakout rooms: %v", mt.Breakouts.Rooms)
	}
	// The feed shows the post with its meeting.
	var page struct {
		Results []struct {
			ID        string       `json:"id"`
			CanManage bool         `json:"canManage"`
			Meeting   *meetingView `json:"meeting"`
		} `json:"results"`
	}
	r := m.forumAdmin.Client.Do("GET", "/api/channels/"+m.main+"/threads", nil)
	wantStatus(t, r, 200)
	r.JSON(t, &page)
	if len(page.Results) == 0 || page.Results[0].Meeting == nil || page.Results[0].Meeting.RoomID != mt.RoomID {
		t.Fatalf("feed: %s", r.Body)
	}
	if page.Results[0].CanManage || page.Results[0].Meeting.MyRole != nil {
		t.Errorf("a forum admin may manage another's Meet Up post or join a private Meet Up: %+v", page.Results[0])
	}
	// The invitee reads it as a moderator and answers.
	if got := getMeeting(t, m.reader.Client, mt.RoomID); str(got.MyRole) != "moderator" {
		t.Errorf("invitee's role: %s", str(got.MyRole))
	}
	r = m.reader.Client.Do("PUT", "/api/threads/"+mt.PostID+"/meeting/response", map[string]any{"response": "yes"})
	wantStatus(t, r, 200)
	var answered meetingView
	r.JSON(t, &answered)
	if str(answered.Invitees[m.reader.UserID]) != "yes" {
		t.Errorf("answer: %v", answered.Invitees)
	}
	wantError(t, m.reader.Client.Do("PUT", "/api/threads/"+mt.PostID+"/meeting/response", map[string]any{"response": "maybe"}), 400, "invalidParameters")
	// The creator edits it; the invitees become the form's.
	form := meetingForm(map[string]string{m.forumAdmin.UserID: "member"})
	form["name"] = "Weekly sync, moved"
	r = m.creator.Client.Do("PUT", "/api/meetings/"+mt.RoomID, form)
	wantStatus(t, r, 200)
	var edited meetingView
	r.JSON(t, &edited)
	if edited.Name != "Weekly sync, moved" || len(edited.Invitees) != 1 || edited.Roles[m.forumAdmin.UserID] != "member" {
		t.Errorf("edited: %+v", edited)
	}
	form["open"], form["seatCount"] = true, 5
	wantInvalidField(t, m.creator.Client.Do("PUT", "/api/meetings/"+mt.RoomID, form), "open")
	// The lists: the forum's, and the invitee's own.
	for name, q := range map[string]string{"forum": "?seriesId=" + m.forum.ID, "own": ""} {
		var l struct {
			Results []meetingView `json:"results"`
			Total   int           `json:"total"`
		}
		r := m.forumAdmin.Client.Do("GET", "/api/meetings"+q, nil)
		wantStatus(t, r, 200)
		r.JSON(t, &l)
		found := false
		for _, x := range l.Results {
			found = found || x.RoomID == mt.RoomID
		}
		if !found {
			t.Errorf("%s list: the Meet Up is missing: %s", name, r.Body)
		}
	}
	// The calendar file.
	r = m.reader.Client.Do("GET", "/api/meetings/"+mt.RoomID+"/calendar.ics", nil)
	wantStatus(t, r, 200)
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/calendar") {
		t.Errorf("calendar Content-Type %q", ct)
	}
	ics := strings.ReplaceAll(string(r.Body), "\r\n ", "") // unfolded (RFC 5545 §3.1)
	for _, want := range []string{"BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:" + mt.RoomID, "SUMMARY:Weekly sync\\, moved",
		"DESCRIPTION:Plans\\; numbers\\, and questions", "URL:" + env.URL + edited.PostRoute, "END:VEVENT"} {
		if !strings.Contains(ics, want+"\r\n") {
			t.Errorf("calendar: no %q line in\n%s", want, ics)
		}
	}
	start, _ := time.Parse(time.RFC3339, edited.StartTime)
	if !strings.Contains(ics, "DTSTART:"+start.UTC().Format("20060102T150405Z")+"\r\n") ||
		!strings.Contains(ics, "DTEND:"+start.Add(30*time.Minute).UTC().Format("20060102T150405Z")+"\r\n") {
		t.Errorf("calendar times: %s", ics)
	}
	// Only the creator deletes a Meet Up's post; its rows go with it.
	wantError(t, m.forumAdmin.Client.Do("DELETE", "/api/threads/"+mt.PostID, nil), 403, "forbidden")
	wantStatus(t, m.creator.Client.Do("DELETE", "/api/threads/"+mt.PostID, nil), 204)
	if n := env.Count(t, "meetings", "id = $1", mt.RoomID); n != 0 {
		t.Error("the Meet Up outlived its post")
	}
	wantError(t, m.creator.Client.Do("GET", "/api/meetings/"+mt.RoomID, nil), 404, "notFound")
}

// wantInvalidField checks a 400 invalidParameters naming field.
func wantInvalidField(t *testing.T, r *testenv.Response, field string) {
	t.Helper()
	e := wantError(t, r, 400, "invalidParameters")
	fields, _ := e.Details["fields"].(map[string]any)
	if _, ok := fields[field]; !ok {
		t.Errorf("400 without the field %q: %s", field, r.Body)
	}
}
