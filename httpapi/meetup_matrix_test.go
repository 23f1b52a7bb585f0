package httpapi_test

import (
	"testing"
	"time"

	"agora/app/testenv"
)

// TestMatrixMeetings: every Meet Up call by each role of spec 002 §6 — a
// super user, the organization's admin, an admin of the community, a forum
// admin, the Meet Up's creator (a forum member), a moderator invitee, a
// member invitee, another member of the forum, an outsider and a guest —
// with the documented status and code, and nothing written on a refusal.
func TestMatrixMeetings(t *testing.T) {
	env := testenv.Meetups(t)
	m := newMatrixForum(t, env)
	moderator, invitee := fresh(t, env, m.community, "Moderator"), fresh(t, env, m.community, "Invitee")
	bystander := fresh(t, env, m.community, "Bystander") // invited by the forms, never a caller
	wantStatus(t, assign(t, m.root, m.forum.ID, "member", moderator.ProfileID, invitee.ProfileID, bystander.ProfileID), 204)
	super := env.As(t, superEmail)
	roles := []matrixRole{
		{"super", super},
		{"org admin", m.root},
		{"community admin", m.commAdmin.Client},
		{"forum admin", m.forumAdmin.Client},
		{"creator", m.creator.Client},
		{"moderator", moderator.Client},
		{"invitee", invitee.Client},
		{"member", m.reader.Client},
		{"outsider", m.outsider},
		{"guest", m.guest},
	}
	invitees := map[string]string{moderator.UserID: "moderator", invitee.UserID: "member"}
	// Within the grace window, so that tokens and breakouts are given.
	soon := func() map[string]any {
		f := meetingForm(invitees)
		f["startTime"] = time.Now().Add(5 * time.Minute).UTC().Format(time.RFC3339)
		return f
	}
	private := schedule(t, m.creator.Client, m.forum.ID, soon())
	open := schedule(t, m.forumAdmin.Client, m.forum.ID, openForm(20))
	fresh := func(t *testing.T) meetingView { return schedule(t, m.creator.Client, m.forum.ID, soon()) }
	p, o := "/api/meetings/"+private.RoomID, "/api/meetings/"+open.RoomID

	digest := func(t *testing.T) string {
		return m.digest(t) + queryString(t, env, `SELECT md5(concat_ws('|',
			(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM meetings x WHERE x.series_id = $1),
			(SELECT string_agg(x::text, ',' ORDER BY x.meeting_id, x.user_id) FROM meeting_invitees x JOIN meetings y ON y.id = x.meeting_id WHERE y.series_id = $1),
			(SELECT string_agg(x::text, ',' ORDER BY x.meeting_id, x.user_id) FROM meeting_breakout_members x JOIN meetings y ON y.id = x.meeting_id WHERE y.series_id = $1),
			(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM private_messages x JOIN channels c ON c.id = x.channel_id JOIN meetings y ON y.id = c.meeting_id WHERE y.series_id = $1),
			(SELECT string_agg(x::text, ',' ORDER BY x.message_id, x.user_id) FROM private_message_reactions x JOIN private_messages pm ON pm.id = x.message_id
				JOIN channels c ON c.id = pm.channel_id JOIN meetings y ON y.id = c.meeting_id WHERE y.series_id = $1)))`, m.forum.ID)
	}
	// The Meet Up's chat: a message of the host's to edit and react to,
	// and a new one for each delete.
	chatMessage := func(t *testing.T) string {
		return p + "/chat/threads/" + sendMeetupChat(t, m.creator.Client, private.RoomID, testenv.Unique("hello")).ID
	}
	hostMessage := chatMessage(t)
	// outcomes builds a row: ok for the roles named, refusal for the
	// other readers of the forum.
	outcomes := func(ok int, refusal outcome, who ...string) map[string]outcome {
		out := map[string]outcome{"outsider": hidden, "guest": guestRefused}
		for _, r := range roles[:8] {
			out[r.name] = refusal
		}
		for _, w := range who {
			out[w] = allowed(ok)
		}
		return out
	}
	everyReader := []string{"super", "org admin", "community admin", "forum admin", "creator", "moderator", "invitee", "member"}
	admins := []string{"super", "org admin", "community admin", "forum admin"}
	participants := []string{"creator", "moderator", "invitee"}
	runners := []string{"creator", "moderator"}
	notOpenCreator := []string{"super", "org admin", "community admin", "creator", "moderator", "invitee", "member"}
	withBystander := meetingForm(map[string]string{bystander.UserID: "member"})
	// The user id each role sends for a join token: their own (a guest is
	// refused before the body is read).
	ids := map[string]string{"super": userID(t, env, superEmail), "org admin": userID(t, env, adminEmail),
		"community admin": m.commAdmin.UserID, "forum admin": m.forumAdmin.UserID, "creator": m.creator.UserID,
		"moderator": moderator.UserID, "invitee": invitee.UserID, "member": m.reader.UserID,
		"outsider": userID(t, env, outsiderEmail), "guest": m.reader.UserID}

	runMatrix(t, roles, digest, []matrixCall{
		{"schedule a private Meet Up", "POST", fixed("/api/series/" + m.forum.ID + "/meetings"), withBystander, outcomes(201, forbidden, everyReader...)},
		{"schedule an open Meet Up", "POST", fixed("/api/series/" + m.forum.ID + "/meetings"), openForm(10), outcomes(201, forbidden, admins...)},
		{"read", "GET", fixed(p), nil, outcomes(200, forbidden, everyReader...)},
		{"list the forum's", "GET", fixed("/api/meetings?seriesId=" + m.forum.ID), nil, outcomes(200, forbidden, everyReader...)},
		{"list one's own", "GET", fixed("/api/meetings"), nil, map[string]outcome{"super": allowed(200), "org admin": allowed(200),
			"community admin": allowed(200), "forum admin": allowed(200), "creator": allowed(200), "moderator": allowed(200),
			"invitee": allowed(200), "member": allowed(200), "outsider": allowed(200), "guest": guestRefused}},
		{"permissions", "GET", fixed(p + "/permissions"), nil, outcomes(200, forbidden, everyReader...)},
		{"calendar", "GET", fixed(p + "/calendar.ics"), nil, outcomes(200, forbidden, everyReader...)},
		{"read the chat", "GET", fixed(p + "/chat/threads"), nil, outcomes(200, forbidden, participants...)},
		{"write in the chat", "POST", fixed(p + "/chat/threads"), map[string]any{"raw": "Hello all"}, outcomes(201, forbidden, participants...)},
		{"edit a chat message", "PATCH", fixed(hostMessage), map[string]any{"raw": "Hello, edited"}, outcomes(200, forbidden, "creator")},
		{"react to a chat message", "PUT", fixed(hostMessage + "/reaction"), map[string]any{"reaction": "liked"},
			func() map[string]outcome {
				o := outcomes(200, forbidden, "moderator", "invitee")
				o["creator"] = outcome{400, "ownReaction"}
				return o
			}()},
		{"delete a chat message", "DELETE", chatMessage, nil, outcomes(204, forbidden, "creator")},
		{"join", "POST", fixed("/api/meetings/join-token"), bodyOf(func(role string) any {
			return map[string]any{"roomId": private.RoomID, "userId": ids[role]}
		}), outcomes(200, forbidden, participants...)},
		{"edit", "PUT", fixed(p), soon(), outcomes(200, forbidden, "creator")},
		{"invite", "PATCH", fixed(p + "/invite"), map[string]any{"invitees": map[string]any{invitee.UserID: "member"}}, outcomes(200, forbidden, runners...)},
		{"answer", "PUT", fixed("/api/threads/" + private.PostID + "/meeting/response"), map[string]any{"response": "yes"}, outcomes(200, forbidden, "moderator", "invitee")},
		{"breakouts", "GET", fixed(p + "/breakouts"), nil, outcomes(200, forbidden, participants...)},
		{"open the breakouts", "POST", fixed(p + "/open-breakouts"), nil, outcomes(200, forbidden, runners...)},
		{"move into a breakout room", "POST", fixed(p + "/join-breakout-room"), map[string]any{"roomName": "Red", "peerId": invitee.UserID}, outcomes(200, forbidden, participants...)},
		{"back to the main room", "POST", fixed(p + "/leave-breakout-room"), map[string]any{"peerId": invitee.UserID}, outcomes(200, forbidden, participants...)},
		{"close the breakouts", "POST", fixed(p + "/close-breakouts"), nil, outcomes(200, forbidden, runners...)},
		{"register", "PUT", fixed(o + "/registration"), nil, outcomes(200, forbidden, notOpenCreator...)},
		{"unregister", "DELETE", fixed(o + "/registration"), nil, outcomes(200, forbidden, notOpenCreator...)},
		{"register for a private one", "PUT", fixed(p + "/registration"), nil, outcomes(200, forbidden)},
		{"end", "POST", func(t *testing.T) string { return "/api/meetings/" + fresh(t).RoomID + "/end" }, nil, outcomes(200, forbidden, runners...)},
		{"edit its post", "PATCH", fixed("/api/threads/" + private.PostID), map[string]any{"raw": "Bring your numbers"}, outcomes(200, forbidden, "creator")},
		{"delete", "DELETE", func(t *testing.T) string { return "/api/threads/" + fresh(t).PostID }, nil, outcomes(204, forbidden, "creator")},
	})

	// The permissions each role reads (spec 002 §6).
	type perms struct {
		Role                                                                       *string
		CanJoin, CanEdit, CanDelete, CanAddMembers, CanManageBreakouts, CanEndRoom bool
		CanRecord, CanEditMinutes, CanSeeMinutes                                   bool
	}
	for _, r := range roles[:8] {
		var got perms
		res := r.c.Do("GET", p+"/permissions", nil)
		wantStatus(t, res, 200)
		res.JSON(t, &got)
		role := map[string]string{"creator": "host", "moderator": "moderator", "invitee": "member"}[r.name]
		runs := role == "host" || role == "moderator"
		want := perms{CanJoin: role != "", CanEdit: role == "host", CanDelete: role == "host", CanAddMembers: runs,
			CanManageBreakouts: runs, CanEndRoom: runs, CanRecord: runs, CanEditMinutes: runs, CanSeeMinutes: role != ""}
		got.Role, want.Role = nil, nil
		if str(mustRole(t, r.c, p)) != orNull(role) || got != want {
			t.Errorf("%s: permissions %+v, want %+v (role %q)", r.name, got, want, role)
		}
	}
}

func mustRole(t *testing.T, c *testenv.Client, path string) *string {
	t.Helper()
	var v struct {
		Role *string `json:"role"`
	}
	r := c.Do("GET", path+"/permissions", nil)
	wantStatus(t, r, 200)
	r.JSON(t, &v)
	return v.Role
}

func orNull(s string) string {
	if s == "" {
		return "null"
	}
	return s
}
