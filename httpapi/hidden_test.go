package httpapi_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/uuid"

	"agora/app/testenv"
)

// hiddenRoute is a call that names a forum, channel, post or comment by id;
// {S}, {C}, {T} and {R} in its path and body stand for them.
type hiddenRoute struct {
	method, path, body string
}

// hiddenRoutes are every route that takes a forum, channel, post or comment
// id, with a body each would accept from one allowed to make the call.
var hiddenRoutes = []hiddenRoute{
	{"GET", "/api/series/{S}", ""},
	{"PATCH", "/api/series/{S}", `{"description":"edited"}`},
	{"DELETE", "/api/series/{S}", ""},
	{"GET", "/api/series/{S}/members", ""},
	{"GET", "/api/series/{S}/admin-and-experts", ""},
	{"GET", "/api/series/{S}/assignables", ""},
	{"GET", "/api/series/{S}/mention-candidates?q=a", ""},
	{"POST", "/api/series/{S}/admin-count", `{"assignments":[]}`},
	{"POST", "/api/series/{S}/assignments-invitations-preview", `{"assignments":[]}`},
	{"POST", "/api/series/{S}/assignments", `{"assignments":[{"roleId":"member","assigneeIds":["{X}"]}]}`},
	{"POST", "/api/series/{S}/invitations", `{"profileIds":["{X}"]}`},
	{"POST", "/api/series/{S}/threads", `{"channelId":"{C}","raw":"hello"}`},
	{"POST", "/api/series/{S}/visits", ""},
	{"GET", "/api/series/{S}/visits", ""},
	{"GET", "/api/channels/{C}/threads", ""},
	{"GET", "/api/ai/search/{C}?q=what", ""},
	{"POST", "/api/ai-response/share-chat", `{"channelId":"{C}","searchId":"{X}"}`},
	{"GET", "/api/threads/{T}", ""},
	{"PATCH", "/api/threads/{T}", `{"raw":"edited"}`},
	{"DELETE", "/api/threads/{T}", ""},
	{"POST", "/api/threads/{T}/replies", `{"raw":"a comment"}`},
	{"PATCH", "/api/threads/{T}/replies/{R}", `{"raw":"edited"}`},
	{"DELETE", "/api/threads/{T}/replies/{R}", ""},
	{"PUT", "/api/threads/{T}/reaction", `{"reaction":"liked"}`},
	{"PUT", "/api/threads/{T}/replies/{R}/reaction", `{"reaction":"liked"}`},
	{"GET", "/api/thread/{T}/reactions", ""},
	{"GET", "/api/thread/{T}/reactions?replyId={R}", ""},
	{"GET", "/api/threads/{T}/asker", ""},
}

// hiddenIDs fill a route's placeholders.
type hiddenIDs struct{ S, C, T, R string }

func (ids hiddenIDs) fill(s, unknown string) string {
	return strings.NewReplacer("{S}", ids.S, "{C}", ids.C, "{T}", ids.T, "{R}", ids.R, "{X}", unknown).Replace(s)
}

// random is ids the same as the caller's but for random channel, post and
// comment ids, and a random forum id unless forum is given (a forum the
// caller reads, whose hidden parts are asked about).
func random(forum string) hiddenIDs {
	if forum == "" {
		forum = uuid.NewString()
	}
	return hiddenIDs{forum, uuid.NewString(), uuid.NewString(), uuid.NewString()}
}

// TestUnreadableIsNotFound (issue 14, F12): a forum, channel, post or
// comment the caller may not read answers exactly as a random id does (the
// same 404, the same body), on every route that takes one, reads and
// writes alike, so that its existence cannot be probed; and the refused
// writes change nothing.
func TestUnreadableIsNotFound(t *testing.T) {
	env := testenv.New(t)
	m := newMatrixForum(t, env)
	th := post(t, m.creator.Client, m.forum.ID, map[string]any{"channelId": m.main, "raw": "private post", "type": "question", "creatorAs": "anonymous"})
	comment := func(c *testenv.Client, thread string) string {
		r := c.Do("POST", "/api/threads/"+thread+"/replies", map[string]any{"raw": "a comment"})
		wantStatus(t, r, 201)
		var v replyView
		r.JSON(t, &v)
		return v.ID
	}
	adminPost := post(t, m.forumAdmin.Client, m.forum.ID, map[string]any{"channelId": m.admins, "raw": "admins only", "type": "question", "creatorAs": "anonymous"})
	forum := hiddenIDs{S: m.forum.ID, C: m.main, T: th.ID, R: comment(m.creator.Client, th.ID)}
	// The admin channel and its posts are hidden from the forum's members
	// who are not its admins.
	adminChannel := hiddenIDs{S: m.forum.ID, C: m.admins, T: adminPost.ID, R: comment(m.forumAdmin.Client, adminPost.ID)}

	cases := []struct {
		who      string
		c        *testenv.Client
		ids      hiddenIDs
		only     string // a route's path or body must hold it, when set
		readable string // the forum, when the caller reads it
	}{
		{"a community member outside the forum", m.nonMember.Client, forum, "", ""},
		{"an outsider", m.outsider, forum, "", ""},
		{"a member, of the admin channel", m.reader.Client, adminChannel, "{C}", m.forum.ID},
		{"a member, of an admin-channel post", m.reader.Client, adminChannel, "{T}", m.forum.ID},
	}
	for _, tc := range cases {
		for _, rt := range hiddenRoutes {
			if tc.only != "" && !strings.Contains(rt.path+rt.body, tc.only) {
				continue
			}
			t.Run(tc.who+"/"+rt.method+" "+rt.path, func(t *testing.T) {
				unknown := uuid.NewString()
				call := func(ids hiddenIDs) *testenv.Response {
					var body any
					if rt.body != "" {
						body = ids.fill(rt.body, unknown)
					}
					return tc.c.Do(rt.method, ids.fill(rt.path, unknown), body)
				}
				before := m.digest(t)
				hidden, missing := call(tc.ids), call(random(tc.readable))
				if hidden.Status != missing.Status || !bytes.Equal(hidden.Body, missing.Body) {
					t.Errorf("unreadable: %d %s\nrandom id:  %d %s", hidden.Status, hidden.Body, missing.Status, missing.Body)
				}
				// An id in a body is a field like any other: unknown, it is
				// a 400 that names the field.
				inBody := tc.only != "" && strings.Contains(rt.body, tc.only) && hidden.Status == 400
				if (hidden.Status != 404 || hidden.Code() != "notFound") && !inBody {
					t.Errorf("unreadable: %d %s, want 404 notFound", hidden.Status, hidden.Body)
				}
				if m.digest(t) != before {
					t.Error("a refused call wrote")
				}
			})
		}
	}

	// What a member may read but not do stays a 403: it tells nothing they
	// do not know.
	wantError(t, m.reader.Client.Do("PATCH", "/api/threads/"+th.ID, map[string]any{"raw": "not mine"}), 403, "forbidden")
	wantError(t, m.reader.Client.Do("GET", "/api/threads/"+th.ID+"/asker", nil), 403, "forbidden")
	wantError(t, m.reader.Client.Do("PATCH", "/api/series/"+m.forum.ID, map[string]any{"description": "x"}), 403, "forbidden")
}
