package httpapi_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"agora/app/testenv"
	"agora/internal/plumbing/auth"
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
	wantInvalid(t, m.reader.Client.Do("PUT", "/api/threads/"+mt.PostID+"/meeting/response", map[string]any{"response": "maybe"}), "response")
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
	wantInvalid(t, m.creator.Client.Do("PUT", "/api/meetings/"+mt.RoomID, form), "open")
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

// TestMeetingFormLimits: every rule of the Meet Up form (spec 002 §5,
// §9) is a 400 validationFailed, as every other form's, naming its field
// alone with a message, and nothing is written.
func TestMeetingFormLimits(t *testing.T) {
	env := testenv.Meetups(t)
	m := newMatrixForum(t, env)
	invitee := map[string]string{m.reader.UserID: "member"}
	with := func(base map[string]any, changes map[string]any) map[string]any {
		f := map[string]any{}
		for k, v := range base {
			f[k] = v
		}
		for k, v := range changes {
			f[k] = v
		}
		return f
	}
	private, open := meetingForm(invitee), openForm(10)
	eleven := make([]string, 11)
	for i := range eleven {
		eleven[i] = "Room " + string(rune('A'+i))
	}
	cases := []struct {
		name, field string
		form        map[string]any
	}{
		{"no name", "name", with(private, map[string]any{"name": ""})},
		{"a blank name", "name", with(private, map[string]any{"name": "   "})},
		{"a name of 76", "name", with(private, map[string]any{"name": strings.Repeat("n", 76)})},
		{"an agenda of 251", "agenda", with(private, map[string]any{"agenda": strings.Repeat("a", 251)})},
		{"a name with CR/LF", "name", with(private, map[string]any{"name": "Sync\r\nBcc: all@evil.test"})},
		{"an agenda with a BEL", "agenda", with(private, map[string]any{"agenda": "Ring\a"})},
		{"an agenda with a right-to-left override", "agenda", with(private, map[string]any{"agenda": "Plans \u202Esnalp"})},
		{"open without seats", "seatCount", with(open, map[string]any{"seatCount": nil})},
		{"no seat", "seatCount", with(open, map[string]any{"seatCount": 0})},
		{"51 seats", "seatCount", with(open, map[string]any{"seatCount": 51})},
		{"seats of a private one", "seatCount", with(private, map[string]any{"seatCount": 5})},
		{"private without invitees", "invitees", with(private, map[string]any{"invitees": map[string]string{}})},
		{"an invitee who is not in the forum", "invitees", with(private, map[string]any{"invitees": map[string]string{m.nonMember.UserID: "member"}})},
		{"the creator invited", "invitees", with(private, map[string]any{"invitees": map[string]string{m.creator.UserID: "member"}})},
		{"an unknown role", "invitees", with(private, map[string]any{"invitees": map[string]string{m.reader.UserID: "host"}})},
		{"a key that is no id", "invitees", with(private, map[string]any{"invitees": map[string]string{"someone": "member"}})},
		{"a start in the past", "startTime", with(private, map[string]any{"startTime": time.Now().Add(-2 * time.Minute).UTC().Format(time.RFC3339)})},
		{"no start", "startTime", with(private, map[string]any{"startTime": ""})},
		{"a duration of 20", "duration", with(private, map[string]any{"duration": 20})},
		{"no duration", "duration", with(private, map[string]any{"duration": 0})},
		{"11 breakout rooms", "breakouts", with(private, map[string]any{"breakouts": eleven})},
		{"a breakout name of 51", "breakouts", with(private, map[string]any{"breakouts": []string{strings.Repeat("b", 51)}})},
		{"an empty breakout name", "breakouts", with(private, map[string]any{"breakouts": []string{" "}})},
		{"twice the same room", "breakouts", with(private, map[string]any{"breakouts": []string{"Red", "Red"}})},
	}
	// Each form is also sent as the edit of a Meet Up of its kind, by its creator.
	edited := map[bool]meetingView{false: schedule(t, m.creator.Client, m.forum.ID, private), true: schedule(t, m.forumAdmin.Client, m.forum.ID, open)}
	before, rows := m.digest(t), meetingsDigest(t, env, m.forum.ID)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			isOpen := c.form["open"] == true
			who := m.creator.Client
			if isOpen {
				who = m.forumAdmin.Client
			}
			wantInvalid(t, who.Do("POST", "/api/series/"+m.forum.ID+"/meetings", c.form), c.field)
			wantInvalid(t, who.Do("PUT", "/api/meetings/"+edited[isOpen].RoomID, c.form), c.field)
		})
	}
	if m.digest(t) != before || meetingsDigest(t, env, m.forum.ID) != rows {
		t.Error("a refused form wrote")
	}
	// The limits themselves pass: 75, 250, 1 and 50 seats, 10 rooms of 50.
	ten := eleven[:10]
	ten[0] = strings.Repeat("b", 50)
	schedule(t, m.creator.Client, m.forum.ID, with(private, map[string]any{"name": strings.Repeat("n", 75), "agenda": strings.Repeat("a", 250), "breakouts": ten, "duration": 120}))
	schedule(t, m.forumAdmin.Client, m.forum.ID, with(open, map[string]any{"seatCount": 1}))
	schedule(t, m.forumAdmin.Client, m.forum.ID, with(open, map[string]any{"seatCount": 50, "startTime": time.Now().Add(-30 * time.Second).UTC().Format(time.RFC3339)}))
	// An edit keeps the same rules, and the seats never go below the registered.
	mt := schedule(t, m.forumAdmin.Client, m.forum.ID, openForm(3))
	wantStatus(t, m.creator.Client.Do("PUT", "/api/meetings/"+mt.RoomID+"/registration", nil), 200)
	wantStatus(t, m.reader.Client.Do("PUT", "/api/meetings/"+mt.RoomID+"/registration", nil), 200)
	wantInvalid(t, m.forumAdmin.Client.Do("PUT", "/api/meetings/"+mt.RoomID, with(openForm(1), nil)), "seatCount")
	wantInvalid(t, m.forumAdmin.Client.Do("PUT", "/api/meetings/"+mt.RoomID, with(openForm(3), map[string]any{"name": ""})), "name")
	if got := getMeeting(t, m.forumAdmin.Client, mt.RoomID); *got.SeatCount != 3 || *got.SeatsLeft != 1 {
		t.Errorf("after refused edits: seats %d, left %d; want 3 and 1", *got.SeatCount, *got.SeatsLeft)
	}
	wantStatus(t, m.forumAdmin.Client.Do("PUT", "/api/meetings/"+mt.RoomID, openForm(2)), 200)
}

// meetingsDigest is a fingerprint of the Meet Ups of forum and their
// invitees, to show that a refused call wrote nothing.
func meetingsDigest(t *testing.T, env *testenv.Env, forum string) string {
	t.Helper()
	return queryString(t, env, `SELECT md5(concat_ws('|',
		(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM meetings x WHERE x.series_id = $1),
		(SELECT string_agg(x::text, ',' ORDER BY x.meeting_id, x.user_id) FROM meeting_invitees x JOIN meetings mt ON mt.id = x.meeting_id WHERE mt.series_id = $1)))`, forum)
}

// forumMembers makes n people, active members of forum (of community),
// each with a session, written straight into the database: signing up
// hundreds through the API would time the password hash, not the test.
func forumMembers(t *testing.T, env *testenv.Env, community, forum string, n int) []member {
	t.Helper()
	prefix := testenv.Unique("crowd")
	rows, err := env.DB.Pool.Query(context.Background(), `WITH u AS (
			INSERT INTO users (id, email, email_key, first_name, last_name, password_hash)
			SELECT gen_random_uuid(), e, lower(e), 'Crowd', 'Member' || i, 'x'
			FROM generate_series(1, $1::int) i, LATERAL (SELECT $2 || '-' || i || '@example.test' AS e) a RETURNING id, email),
		p AS (
			INSERT INTO profiles (id, organization_id, user_id, email, email_key, first_name, last_name)
			SELECT gen_random_uuid(), c.organization_id, u.id, u.email, lower(u.email), 'Crowd', 'Member'
			FROM u, communities c WHERE c.id = $3 RETURNING id, user_id),
		cm AS (INSERT INTO community_memberships (community_id, profile_id, role, status) SELECT $3, p.id, 'member', 'active' FROM p),
		sm AS (INSERT INTO series_memberships (series_id, profile_id, role, status) SELECT $4, p.id, 'member', 'active' FROM p)
		SELECT user_id::text, id::text FROM p`, n, prefix, community, forum)
	if err != nil {
		t.Fatal(err)
	}
	var out []member
	for rows.Next() {
		var m member
		if err := rows.Scan(&m.UserID, &m.ProfileID); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for i := range out {
		token, hash := auth.NewToken()
		exec(t, env, `INSERT INTO sessions (id, user_id, token_hash, created_on, expires_on)
			VALUES (gen_random_uuid(), $1, $2, now(), now() + interval '1 day')`, out[i].UserID, hash)
		out[i].Client = withToken(t, env, token)
	}
	return out
}

// TestMeetingRegistrationRace: 200 members register at once for an open
// Meet Up of 50 seats: exactly 50 are registered and 150 waitlisted, no
// one twice, the waitlist in the order the registrations committed (every
// registered member's registration committed before every waitlisted
// one's, and the waitlist is in responded_on order); a member who gives up
// their seat hands it to the first waitlisted.
func TestMeetingRegistrationRace(t *testing.T) {
	env := testenv.Meetups(t)
	m := newMatrixForum(t, env)
	mt := schedule(t, m.forumAdmin.Client, m.forum.ID, openForm(50))
	crowd := forumMembers(t, env, m.community, m.forum.ID, 200)
	var wg sync.WaitGroup
	answers := make([]string, len(crowd))
	start := make(chan struct{})
	for i, c := range crowd {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r := c.Client.Do("PUT", "/api/meetings/"+mt.RoomID+"/registration", nil)
			if r.Status != 200 {
				answers[i] = fmt.Sprintf("status %d: %s", r.Status, r.Body)
				return
			}
			var v meetingView
			r.JSON(t, &v)
			answers[i] = str(v.Invitees[c.UserID])
		}()
	}
	close(start)
	wg.Wait()
	count := map[string]int{}
	for _, a := range answers {
		count[a]++
	}
	if count["registered"] != 50 || count["waitlisted"] != 150 {
		t.Fatalf("answers: %v; want 50 registered and 150 waitlisted", count)
	}
	if n := env.Count(t, "meeting_invitees", "meeting_id = $1", mt.RoomID); n != 200 {
		t.Fatalf("%d rows, want 200 (no one twice)", n)
	}
	// Every registered member committed before every waitlisted one.
	if late := queryString(t, env, `SELECT count(*)::text FROM meeting_invitees r, meeting_invitees w
		WHERE r.meeting_id = $1 AND w.meeting_id = $1 AND r.response = 'registered' AND w.response = 'waitlisted'
		AND r.responded_on >= w.responded_on`, mt.RoomID); late != "0" {
		t.Errorf("%s registered members responded after a waitlisted one", late)
	}
	got := getMeeting(t, m.forumAdmin.Client, mt.RoomID)
	order := strings.Split(queryString(t, env, `SELECT string_agg(user_id::text, ',' ORDER BY responded_on)
		FROM meeting_invitees WHERE meeting_id = $1 AND response = 'waitlisted'`, mt.RoomID), ",")
	if !slices.Equal(got.Waitlist, order) || len(order) != 150 || *got.SeatsLeft != 0 {
		t.Fatalf("waitlist of %d, seats left %d; want the 150 in responded_on order", len(got.Waitlist), *got.SeatsLeft)
	}
	// Asking again changes nothing.
	byID := map[string]member{}
	for _, c := range crowd {
		byID[c.UserID] = c
	}
	wantStatus(t, byID[order[3]].Client.Do("PUT", "/api/meetings/"+mt.RoomID+"/registration", nil), 200)
	if again := getMeeting(t, m.forumAdmin.Client, mt.RoomID); !slices.Equal(again.Waitlist, order) {
		t.Error("registering again moved a waitlisted member")
	}
	// A registered member leaves: the first waitlisted takes the seat.
	var leaver string
	for id, r := range got.Invitees {
		if str(r) == "registered" {
			leaver = id
			break
		}
	}
	r := byID[leaver].Client.Do("DELETE", "/api/meetings/"+mt.RoomID+"/registration", nil)
	wantStatus(t, r, 200)
	var after meetingView
	r.JSON(t, &after)
	if str(after.Invitees[order[0]]) != "registered" || !slices.Equal(after.Waitlist, order[1:]) || *after.SeatsLeft != 0 {
		t.Errorf("after a seat freed: first waitlisted %s, waitlist of %d", str(after.Invitees[order[0]]), len(after.Waitlist))
	}
	if _, ok := after.Invitees[leaver]; ok {
		t.Error("the member who left is still listed")
	}
	// A waitlisted member leaves the queue.
	wantStatus(t, byID[order[1]].Client.Do("DELETE", "/api/meetings/"+mt.RoomID+"/registration", nil), 200)
	if final := getMeeting(t, m.forumAdmin.Client, mt.RoomID); !slices.Equal(final.Waitlist, order[2:]) {
		t.Errorf("after the second left the queue: waitlist of %d", len(final.Waitlist))
	}
	// More seats promote the waitlist in order.
	small := schedule(t, m.forumAdmin.Client, m.forum.ID, openForm(1))
	for _, c := range crowd[:4] {
		wantStatus(t, c.Client.Do("PUT", "/api/meetings/"+small.RoomID+"/registration", nil), 200)
	}
	wantStatus(t, m.forumAdmin.Client.Do("PUT", "/api/meetings/"+small.RoomID, openForm(3)), 200)
	if s := getMeeting(t, m.forumAdmin.Client, small.RoomID); str(s.Invitees[crowd[2].UserID]) != "registered" ||
		!slices.Equal(s.Waitlist, []string{crowd[3].UserID}) || *s.SeatsLeft != 0 {
		t.Errorf("two more seats: %v, waitlist %v", s.Invitees, s.Waitlist)
	}
	// Someone with no place is refused.
	wantError(t, m.reader.Client.Do("DELETE", "/api/meetings/"+mt.RoomID+"/registration", nil), 403, "forbidden")
}

// TestMeetingNotifications: invitees of a private Meet Up are told
// (meetup-invite), every member of the forum of an open one (meetup-open),
// and a waitlisted member given a seat (meetup-seat); each lists with the
// Meet Up's post, and a removed invitee's invitation goes.
func TestMeetingNotifications(t *testing.T) {
	n := testenv.NewNotifications(t)
	m := newMatrixForum(t, n.Env)
	private := schedule(t, m.creator.Client, m.forum.ID, meetingForm(map[string]string{m.reader.UserID: "member"}))
	open := schedule(t, m.forumAdmin.Client, m.forum.ID, openForm(1))
	wantStatus(t, m.creator.Client.Do("PUT", "/api/meetings/"+open.RoomID+"/registration", nil), 200)
	wantStatus(t, m.reader.Client.Do("PUT", "/api/meetings/"+open.RoomID+"/registration", nil), 200)
	wantStatus(t, m.creator.Client.Do("DELETE", "/api/meetings/"+open.RoomID+"/registration", nil), 200)
	settle(t, n)
	kinds := func(c *testenv.Client) map[string]string {
		out := map[string]string{}
		for _, it := range listNotifications(t, c, "").Results {
			if strings.HasPrefix(it.Type, "meetup-") {
				out[it.Type] = it.PostID
			}
		}
		return out
	}
	if got := kinds(m.reader.Client); got["meetup-invite"] != private.PostID || got["meetup-open"] != open.PostID || got["meetup-seat"] != open.PostID {
		t.Errorf("the invitee, waitlisted then seated: %v", got)
	}
	if got := kinds(m.creator.Client); len(got) != 1 || got["meetup-open"] != open.PostID {
		t.Errorf("a forum member: %v; want the open Meet Up only (not their own invitation list)", got)
	}
	if got := kinds(m.forumAdmin.Client); len(got) != 0 {
		t.Errorf("the open Meet Up's creator: %v; want nothing", got)
	}
	if got := kinds(m.nonMember.Client); len(got) != 0 {
		t.Errorf("not in the forum: %v", got)
	}
	// A removed invitee's invitation goes.
	wantStatus(t, m.creator.Client.Do("PATCH", "/api/meetings/"+private.RoomID+"/invite",
		map[string]any{"invitees": map[string]any{m.reader.UserID: nil, m.forumAdmin.UserID: "member"}}), 200)
	settle(t, n)
	if got := kinds(m.reader.Client); got["meetup-invite"] != "" {
		t.Errorf("removed, still invited: %v", got)
	}
	if got := kinds(m.forumAdmin.Client); got["meetup-invite"] != private.PostID {
		t.Errorf("added: %v", got)
	}
}

// TestMeetingCommentMentions: on the post of a private Meet Up a comment,
// a reply or an edit may mention only the Meet Up's creator and invitees
// (spec 001 §5); a forum member who is not invited is left as plain words
// and told nothing. On an open Meet Up's post anyone who reads the forum
// may be mentioned.
func TestMeetingCommentMentions(t *testing.T) {
	n := testenv.NewNotifications(t)
	m := newMatrixForum(t, n.Env)
	bystander := fresh(t, n.Env, m.community, "Bystander")
	wantStatus(t, assign(t, m.root, m.forum.ID, "member", bystander.ProfileID), 204)
	private := schedule(t, m.creator.Client, m.forum.ID, meetingForm(map[string]string{m.reader.UserID: "member"}))
	open := schedule(t, m.forumAdmin.Client, m.forum.ID, openForm(5))
	mention := func(id string) string { return "[Someone](" + id + ")" }
	named := func(id string) string { return "[Fresh Member](" + id + ")" }
	type written struct {
		ID       string   `json:"id"`
		Raw      string   `json:"raw"`
		Mentions []string `json:"mentions"`
	}
	write := func(c *testenv.Client, method, path string, body map[string]any) written {
		t.Helper()
		r := c.Do(method, path, body)
		if r.Status != 200 && r.Status != 201 {
			t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
		}
		var w written
		r.JSON(t, &w)
		return w
	}
	check := func(what string, got written, raw string, mentions ...string) {
		t.Helper()
		if got.Raw != raw || strings.Join(got.Mentions, ",") != strings.Join(mentions, ",") {
			t.Errorf("%s: raw %q, mentions %v; want %q, %v", what, got.Raw, got.Mentions, raw, mentions)
		}
	}

	replies := "/api/threads/" + private.PostID + "/replies"
	c := write(m.reader.Client, "POST", replies, map[string]any{"raw": "ask " + mention(bystander.UserID) + " and " + mention(m.creator.UserID)})
	check("a comment on a private Meet Up's post", c, "ask Someone and "+named(m.creator.UserID), m.creator.UserID)
	r := write(m.creator.Client, "POST", replies, map[string]any{"raw": "thanks " + mention(m.reader.UserID) + ", not " + mention(bystander.UserID), "parentId": c.ID})
	check("a reply mentioning an invitee", r, "thanks "+named(m.reader.UserID)+", not Someone", m.reader.UserID)
	e := write(m.reader.Client, "PATCH", replies+"/"+c.ID, map[string]any{"raw": "ask " + mention(bystander.UserID)})
	check("an edited comment", e, "ask Someone")
	if got := queryString(t, n.Env, "SELECT raw FROM replies WHERE id = $1", c.ID); got != "ask Someone" {
		t.Errorf("stored comment %q", got)
	}
	o := write(m.reader.Client, "POST", "/api/threads/"+open.PostID+"/replies", map[string]any{"raw": "ask " + mention(bystander.UserID)})
	check("a comment on an open Meet Up's post", o, "ask "+named(bystander.UserID), bystander.UserID)

	settle(t, n)
	mentions := func(c *testenv.Client) []string {
		var out []string
		for _, it := range listNotifications(t, c, "").Results {
			if it.Type == "mention" {
				out = append(out, it.PostID)
			}
		}
		return out
	}
	if got := mentions(bystander.Client); len(got) != 1 || got[0] != open.PostID {
		t.Errorf("the member not invited is told of mentions on %v; want the open Meet Up's post alone", got)
	}
	if got := mentions(m.reader.Client); len(got) != 1 || got[0] != private.PostID {
		t.Errorf("the invitee is told of mentions on %v; want the private Meet Up's post", got)
	}
}
