package httpapi_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/uuid"

	"agora/app/testenv"
)

// oracleIDs are the ids a route may name beyond a forum's: a community
// {C}, a profile in it {P}, an organization {O} and a profile of it {Q}, a
// Meet Up {M} and its post {MT}, a private channel {PC} and a message of it
// {PT}, a user {U}; {X} is always unknown, {ME} the caller.
type oracleIDs struct{ C, P, O, Q, M, MT, PC, PT, U string }

func (ids oracleIDs) fill(s, me string) string {
	return strings.NewReplacer("{C}", ids.C, "{P}", ids.P, "{O}", ids.O, "{Q}", ids.Q, "{MT}", ids.MT, "{M}", ids.M,
		"{PC}", ids.PC, "{PT}", ids.PT, "{U}", ids.U, "{ME}", me, "{X}", uuid.NewString()).Replace(s)
}

func randomOracleIDs() oracleIDs {
	n := uuid.NewString
	return oracleIDs{n(), n(), n(), n(), n(), n(), n(), n(), n()}
}

// oracleRoutes are the routes naming a community, an organization, a
// profile, a Meet Up, a private conversation or a user (the forum's, posts'
// and comments' are hiddenRoutes), each with a body one allowed to make the
// call would send.
var oracleRoutes = []hiddenRoute{
	{"GET", "/api/communities/{C}", ""},
	{"PATCH", "/api/communities/{C}", `{"description":"edited"}`},
	{"DELETE", "/api/communities/{C}", ""},
	{"GET", "/api/communities/{C}/members", ""},
	{"GET", "/api/communities/{C}/member-search?q=a", ""},
	{"POST", "/api/communities/{C}/profiles", `{"firstName":"Ann","lastName":"Lee","email":"ann.oracle@example.test"}`},
	{"POST", "/api/communities/{C}/series", `{"name":"A forum","description":"About"}`},
	{"GET", "/api/communities/{C}/roles", ""},
	{"GET", "/api/communities/{C}/assignables", ""},
	{"POST", "/api/communities/{C}/assignments", `[{"roleId":"member","assigneeIds":["{X}"]}]`},
	{"POST", "/api/communities/{C}/invitations", `{"profileIds":["{X}"]}`},
	{"PUT", "/api/communities/{C}/profiles/{P}/complimentary", ""},
	{"DELETE", "/api/communities/{C}/profiles/{P}/complimentary", ""},
	{"GET", "/api/profiles/{P}", ""},
	{"PATCH", "/api/profiles/{P}", `{"firstName":"Probe"}`},
	{"GET", "/api/profiles/{Q}", ""},
	{"PATCH", "/api/profiles/{Q}", `{"firstName":"Probe"}`},
	{"GET", "/api/organizations/{O}", ""},
	{"PATCH", "/api/organizations/{O}", `{"name":"Renamed"}`},
	{"DELETE", "/api/organizations/{O}", ""},
	{"GET", "/api/organizations/{O}/profiles", ""},
	{"POST", "/api/organizations/{O}/profiles", `{"firstName":"Ann","lastName":"Lee","email":"ann.oracle@example.test"}`},
	{"POST", "/api/organizations/{O}/invitations", `{"profileIds":["{X}"]}`},
	{"POST", "/api/organizations/{O}/communities", `{"name":"Made","description":"d"}`},
	{"DELETE", "/api/organizations/{O}/identity-client", ""},
	{"GET", "/api/meetings/{M}", ""},
	{"GET", "/api/meetings/{M}/permissions", ""},
	{"GET", "/api/meetings/{M}/breakouts", ""},
	{"GET", "/api/meetings/{M}/calendar.ics", ""},
	{"PUT", "/api/meetings/{M}/registration", ""},
	{"DELETE", "/api/meetings/{M}/registration", ""},
	{"PATCH", "/api/meetings/{M}/invite", `{"invitees":{"{ME}":"member"}}`},
	{"POST", "/api/meetings/{M}/open-breakouts", ""},
	{"POST", "/api/meetings/{M}/close-breakouts", ""},
	{"POST", "/api/meetings/{M}/end", ""},
	{"POST", "/api/meetings/join-token", `{"roomId":"{M}","userId":"{ME}"}`},
	{"PUT", "/api/threads/{MT}/meeting/response", `{"response":"yes"}`},
	{"GET", "/api/channels/private/{PC}/threads", ""},
	{"POST", "/api/channels/private/{PC}/seen", ""},
	{"PATCH", "/api/threads/private/{PT}", `{"raw":"edited"}`},
	{"DELETE", "/api/threads/private/{PT}", ""},
	{"PUT", "/api/threads/private/{PT}/reaction", `{"reaction":"liked"}`},
	{"GET", "/api/users/{U}/personalization", ""},
	{"PATCH", "/api/users/{U}/personalization", `{"feed.webLink.dontConfirmNavigation":true}`},
}

// TestHiddenIsNotFound (issue 31, G7): a community, organization, profile,
// Meet Up, private conversation or user the caller may not read answers
// exactly as a random id does (the same status, the same body) on every
// route that names one, and the refused call writes nothing; what the
// caller may read answers them.
func TestHiddenIsNotFound(t *testing.T) {
	env := testenv.New(t)
	m := newMatrixForum(t, env)
	// A profile in the community that the outsider shares nothing with.
	inCommunity := fresh(t, env, m.community, "Hidden")
	// An organization the outsider has no profile in, with a profile.
	org := queryString(t, env, "INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), $1) RETURNING id::text", testenv.Unique("Org"))
	orgProfile := queryString(t, env, `INSERT INTO profiles (id, organization_id, email, email_key, first_name, last_name)
		VALUES (gen_random_uuid(), $1, 'q@example.test', 'q@example.test', 'Q', 'Person') RETURNING id::text`, org)
	meet := schedule(t, m.creator.Client, m.forum.ID, meetingForm(map[string]string{m.reader.UserID: "member"}))
	msg := send(t, m.creator.Client, m.reader.UserID, "between the two of us")
	ids := oracleIDs{C: m.community, P: inCommunity.ProfileID, O: org, Q: orgProfile, M: meet.RoomID, MT: meet.PostID,
		PC: msg.ChannelID, PT: msg.ID, U: m.creator.UserID}

	digest := func(t *testing.T) string {
		return m.digest(t) + queryString(t, env, `SELECT md5(concat_ws('|',
			(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM communities x WHERE x.id = $1),
			(SELECT string_agg(x::text, ',' ORDER BY x.profile_id) FROM community_memberships x WHERE x.community_id = $1),
			(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM organizations x WHERE x.id = $2),
			(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM profiles x WHERE x.organization_id = $2 OR x.id = $3),
			(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM meetings x WHERE x.id = $4),
			(SELECT string_agg(x::text, ',' ORDER BY x.user_id) FROM meeting_invitees x WHERE x.meeting_id = $4),
			(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM threads x WHERE x.channel_id = $5),
			(SELECT string_agg(x::text, ',' ORDER BY x.user_id) FROM user_personalization x WHERE x.user_id = $6)))`,
			m.community, org, inCommunity.ProfileID, meet.RoomID, msg.ChannelID, m.creator.UserID)
	}
	outsiderID := userID(t, env, outsiderEmail)
	cases := []struct {
		who  string
		c    *testenv.Client
		me   string
		only string // the placeholders this caller may not read, when not all
	}{
		{"an outsider", m.outsider, outsiderID, ""},
		// The community's member outside the forum reads the community
		// and its members, not the forum's Meet Ups or others' chats.
		{"a community member outside the forum", m.nonMember.Client, m.nonMember.UserID, "{M}{MT}{PC}{PT}{U}{O}{Q}"},
	}
	for _, tc := range cases {
		for _, rt := range oracleRoutes {
			if tc.only != "" && !hasAny(rt.path+rt.body, tc.only) {
				continue
			}
			t.Run(tc.who+"/"+rt.method+" "+rt.path, func(t *testing.T) {
				call := func(ids oracleIDs) *testenv.Response {
					var body any
					if rt.body != "" {
						body = ids.fill(rt.body, tc.me)
					}
					return tc.c.Do(rt.method, ids.fill(rt.path, tc.me), body)
				}
				before := digest(t)
				hidden, missing := call(ids), call(randomOracleIDs())
				if hidden.Status != missing.Status || !bytes.Equal(hidden.Body, missing.Body) {
					t.Errorf("hidden:    %d %s\nrandom id: %d %s", hidden.Status, hidden.Body, missing.Status, missing.Body)
				}
				if hidden.Status != 404 && !(hidden.Status == 400 && strings.Contains(rt.body, "{M}")) {
					t.Errorf("hidden: %d %s, want 404", hidden.Status, hidden.Body)
				}
				if digest(t) != before {
					t.Error("a refused call wrote")
				}
			})
		}
	}

	// The allowed column: those who may read each answer it.
	for _, ok := range []struct {
		c    *testenv.Client
		path string
	}{
		{m.reader.Client, "/api/communities/" + m.community + "/member-search?q=Hidden"},
		{m.nonMember.Client, "/api/communities/" + m.community + "/member-search?q=Hidden"},
		{m.reader.Client, "/api/profiles/" + inCommunity.ProfileID},
		{m.reader.Client, "/api/meetings/" + meet.RoomID},
		{m.reader.Client, "/api/channels/private/" + msg.ChannelID + "/threads"},
	} {
		wantStatus(t, ok.c.Do("GET", ok.path, nil), 200)
	}
	// What the caller may read but not do stays a 403: it tells nothing
	// they do not know.
	wantError(t, m.reader.Client.Do("PATCH", "/api/profiles/"+inCommunity.ProfileID, map[string]any{"firstName": "Probe"}), 403, "forbidden")
}

// hasAny reports whether s holds one of the placeholders listed in set.
func hasAny(s, set string) bool {
	for _, p := range strings.SplitAfter(set, "}") {
		if p != "" && strings.Contains(s, p) {
			return true
		}
	}
	return false
}
