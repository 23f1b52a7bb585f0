package httpapi_test

import (
	"bytes"
	"net"
	"strings"
	"testing"

	"github.com/google/uuid"

	"agora/app/testenv"
)

// The permission matrix of issue 5: every forum and feed call, asked by each
// role of spec 001 §6 (the creator, another member, a forum admin, an admin
// of the community who is not in the forum, a member of the community who is
// not in the forum, an outsider and a guest), with the documented status and
// code, and nothing written on refusal.

// matrixForum is a forum of a fresh community with one person per role.
type matrixForum struct {
	env                  *testenv.Env
	root                 *testenv.Client // the demo admin (organization admin), who made the forum
	community            string
	forum                forumBody
	main, admins         string // channel ids
	creator, reader      member // forum members
	forumAdmin           member // a forum admin, not a community admin
	commAdmin, nonMember member // in the community, not in the forum
	outsider, guest      *testenv.Client
}

func newMatrixForum(t *testing.T, env *testenv.Env) *matrixForum {
	t.Helper()
	m := &matrixForum{env: env, root: env.As(t, adminEmail)}
	m.community = newCommunity(t, env)
	m.forum = createForum(t, m.root, m.community)
	m.main = m.forum.MainChannelID
	m.admins = *m.forum.AdminChannelID
	m.creator, m.reader = fresh(t, env, m.community, "Creator"), fresh(t, env, m.community, "Reader")
	m.forumAdmin, m.nonMember = fresh(t, env, m.community, "ForumAdmin"), fresh(t, env, m.community, "NonMember")
	m.commAdmin = communityAdmin(t, env, m.community)
	wantStatus(t, assign(t, m.root, m.forum.ID, "member", m.creator.ProfileID, m.reader.ProfileID), 204)
	wantStatus(t, assign(t, m.root, m.forum.ID, "admin", m.forumAdmin.ProfileID), 204)
	m.outsider, m.guest = env.As(t, outsiderEmail), env.Client(t)
	return m
}

// matrixRole is one column of the matrix.
type matrixRole struct {
	name string
	c    *testenv.Client
}

func (m *matrixForum) roles() []matrixRole {
	return []matrixRole{
		{"creator", m.creator.Client},
		{"member", m.reader.Client},
		{"forum admin", m.forumAdmin.Client},
		{"community admin", m.commAdmin.Client},
		{"non-member", m.nonMember.Client},
		{"outsider", m.outsider},
		{"guest", m.guest},
	}
}

// digest is a fingerprint of every row of the forum and what hangs off it
// (the forum, its channels, memberships, posts, comments, reactions,
// visits and asker looks), for checking that a refused call wrote nothing.
func (m *matrixForum) digest(t *testing.T) string {
	t.Helper()
	return queryString(t, m.env, `SELECT md5(concat_ws('|',
		(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM series x WHERE x.id = $1),
		(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM channels x WHERE x.series_id = $1),
		(SELECT string_agg(x::text, ',' ORDER BY x.profile_id) FROM series_memberships x WHERE x.series_id = $1),
		(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM threads x WHERE x.series_id = $1),
		(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM replies x JOIN threads t ON t.id = x.thread_id WHERE t.series_id = $1),
		(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM reactions x JOIN threads t ON t.id = x.thread_id WHERE t.series_id = $1),
		(SELECT string_agg(x::text, ',' ORDER BY x.user_id) FROM series_visits x WHERE x.series_id = $1),
		(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM anonymous_asker_looks x JOIN threads t ON t.id = x.thread_id WHERE t.series_id = $1),
		(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM activities x WHERE x.series_id = $1),
		(SELECT count(*)::text FROM series WHERE community_id = $2),
		(SELECT count(*)::text FROM tokens), (SELECT count(*)::text FROM dev_mail)))`, m.forum.ID, m.community)
}

// outcome is what a role gets: a status, and for a refusal its code.
type outcome struct {
	status int
	code   string
}

func allowed(status int) outcome { return outcome{status: status} }

var (
	guestRefused = outcome{401, "authenticationRequired"}
	forbidden    = outcome{403, "forbidden"}
	// hidden is what one who may not read a forum, channel or post gets:
	// the 404 of an unknown id (issue 14, F12).
	hidden = outcome{404, "notFound"}
)

// matrixCall is one row of the matrix: a call, and what each role gets.
type matrixCall struct {
	name, method string
	// path is called once per role, so that a call that consumes its
	// target (a delete) gets a fresh one each time.
	path func(t *testing.T) string
	// body is sent as it is, or when a bodyOf, as what it answers for
	// the role (a body that names the caller).
	body any
	want map[string]outcome
}

// bodyOf is a call's body that differs by role.
type bodyOf func(role string) any

// run asks the call as every role; refusals must leave the forum's rows
// as they were.
func (m *matrixForum) run(t *testing.T, calls []matrixCall) {
	t.Helper()
	runMatrix(t, m.roles(), m.digest, calls)
}

// runMatrix asks each call as every role; refusals must leave digest as
// it was.
func runMatrix(t *testing.T, roles []matrixRole, digest func(*testing.T) string, calls []matrixCall) {
	t.Helper()
	for _, c := range calls {
		for _, role := range roles {
			w, ok := c.want[role.name]
			if !ok {
				t.Fatalf("%s: no outcome for %s", c.name, role.name)
			}
			t.Run(c.name+"/"+role.name, func(t *testing.T) {
				path, body := c.path(t), c.body
				if of, ok := body.(bodyOf); ok {
					body = of(role.name)
				}
				before := digest(t)
				r := role.c.Do(c.method, path, body)
				if w.code == "" {
					if r.Status != w.status {
						t.Fatalf("%s %s: %d %s, want %d", c.method, path, r.Status, r.Body, w.status)
					}
					return
				}
				wantError(t, r, w.status, w.code)
				if after := digest(t); after != before {
					t.Errorf("%s %s was refused but wrote", c.method, path)
				}
			})
		}
	}
}

func fixed(p string) func(*testing.T) string { return func(*testing.T) string { return p } }

// readers is the usual outcome of a call any reader of the forum may make.
func readers(ok int, refusal outcome) map[string]outcome {
	return map[string]outcome{
		"creator": allowed(ok), "member": allowed(ok), "forum admin": allowed(ok), "community admin": allowed(ok),
		"non-member": refusal, "outsider": refusal, "guest": guestRefused,
	}
}

// managers is the outcome of a call for the creator and the forum's admins.
func managers(ok int) map[string]outcome {
	return map[string]outcome{
		"creator": allowed(ok), "member": forbidden, "forum admin": allowed(ok), "community admin": allowed(ok),
		"non-member": hidden, "outsider": hidden, "guest": guestRefused,
	}
}

// adminsOnly is the outcome of a call for the forum's admins; refusal is
// what its other readers get.
func adminsOnly(ok int, refusal outcome) map[string]outcome {
	return map[string]outcome{
		"creator": refusal, "member": refusal, "forum admin": allowed(ok), "community admin": allowed(ok),
		"non-member": hidden, "outsider": hidden, "guest": guestRefused,
	}
}

// TestMatrixFeed: posts, comments, reactions, the reactions list, visits
// and the asker look, by role; the admin channel is for forum admins.
func TestMatrixFeed(t *testing.T) {
	env, _ := testenv.NewSearch(t) // the hashtag suggestions need the search projection
	m := newMatrixForum(t, env)
	th := post(t, m.creator.Client, m.forum.ID, map[string]any{"channelId": m.main, "raw": "the matrix post #MatrixTag"})
	adminPost := post(t, m.forumAdmin.Client, m.forum.ID, map[string]any{"channelId": m.admins, "raw": "admins only"})
	q := post(t, m.creator.Client, m.forum.ID, map[string]any{"channelId": m.main, "raw": "who decides?", "type": "question", "creatorAs": "anonymous"})
	comment := func(t *testing.T, thread string) string {
		t.Helper()
		r := m.creator.Client.Do("POST", "/api/threads/"+thread+"/replies", map[string]any{"raw": "a comment"})
		wantStatus(t, r, 201)
		var v replyView
		r.JSON(t, &v)
		return v.ID
	}
	c := comment(t, th.ID)
	adminComment := func() string {
		r := m.forumAdmin.Client.Do("POST", "/api/threads/"+adminPost.ID+"/replies", map[string]any{"raw": "an admin's comment"})
		wantStatus(t, r, 201)
		var v replyView
		r.JSON(t, &v)
		return v.ID
	}()
	newPost := func(t *testing.T) string {
		return "/api/threads/" + post(t, m.creator.Client, m.forum.ID, map[string]any{"channelId": m.main, "raw": "to delete"}).ID
	}
	thread, admin := "/api/threads/"+th.ID, "/api/threads/"+adminPost.ID
	// The admin channel and its posts are hidden from the forum's other
	// readers; naming it in a new post is naming an unknown channel.
	adminChannel := func(ok int) map[string]outcome { return adminsOnly(ok, hidden) }

	m.run(t, []matrixCall{
		{"post", "POST", fixed("/api/series/" + m.forum.ID + "/threads"), map[string]any{"channelId": m.main, "raw": "hello"}, readers(201, hidden)},
		{"question", "POST", fixed("/api/series/" + m.forum.ID + "/threads"), map[string]any{"channelId": m.main, "raw": "why?", "type": "question", "creatorAs": "anonymous"}, readers(201, hidden)},
		{"post in the admin channel", "POST", fixed("/api/series/" + m.forum.ID + "/threads"), map[string]any{"channelId": m.admins, "raw": "hello"}, adminsOnly(201, outcome{400, "feedPostCreating"})},
		{"feed", "GET", fixed("/api/channels/" + m.main + "/threads"), nil, readers(200, hidden)},
		{"admin channel feed", "GET", fixed("/api/channels/" + m.admins + "/threads"), nil, adminChannel(200)},
		{"read a post", "GET", fixed(thread), nil, readers(200, hidden)},
		{"read an admin-channel post", "GET", fixed(admin), nil, adminChannel(200)},
		{"edit a post", "PATCH", fixed(thread), map[string]any{"raw": "edited #MatrixTag"}, managers(200)},
		{"delete a post", "DELETE", newPost, nil, managers(204)},
		{"comment", "POST", fixed(thread + "/replies"), map[string]any{"raw": "a comment"}, readers(201, hidden)},
		{"reply", "POST", fixed(thread + "/replies"), map[string]any{"raw": "a reply", "parentId": c}, readers(201, hidden)},
		{"comment in the admin channel", "POST", fixed(admin + "/replies"), map[string]any{"raw": "x"}, adminChannel(201)},
		{"edit a comment", "PATCH", fixed(thread + "/replies/" + c), map[string]any{"raw": "edited"}, managers(200)},
		{"delete a comment", "DELETE", func(t *testing.T) string { return thread + "/replies/" + comment(t, th.ID) }, nil, managers(204)},
		{"react to a post", "PUT", fixed(thread + "/reaction"), map[string]any{"reaction": "liked"}, readers(200, hidden)},
		{"clear a reaction", "PUT", fixed(thread + "/reaction"), map[string]any{"reaction": nil}, readers(200, hidden)},
		{"react to a comment", "PUT", fixed(thread + "/replies/" + c + "/reaction"), map[string]any{"reaction": "loved"}, readers(200, hidden)},
		{"react in the admin channel", "PUT", fixed(admin + "/reaction"), map[string]any{"reaction": "liked"}, adminChannel(200)},
		{"react to an admin-channel comment", "PUT", fixed(admin + "/replies/" + adminComment + "/reaction"), map[string]any{"reaction": "liked"}, adminChannel(200)},
		{"reactions list", "GET", fixed("/api/thread/" + th.ID + "/reactions"), nil, readers(200, hidden)},
		{"a comment's reactions", "GET", fixed("/api/thread/" + th.ID + "/reactions?replyId=" + c), nil, readers(200, hidden)},
		{"admin-channel reactions", "GET", fixed("/api/thread/" + adminPost.ID + "/reactions"), nil, adminChannel(200)},
		{"visit", "POST", fixed("/api/series/" + m.forum.ID + "/visits"), nil, readers(200, hidden)},
		{"last visit", "GET", fixed("/api/series/" + m.forum.ID + "/visits"), nil, readers(200, hidden)},
		{"who asked", "GET", fixed("/api/threads/" + q.ID + "/asker"), nil, adminsOnly(200, forbidden)},
		{"hashtags", "GET", fixed("/api/hashtags?q=matrixtag"), nil, readers(200, allowed(200))},
		{"record an activity", "POST", fixed("/api/activities"), map[string]any{"contextKey": "thread:" + th.ID, "objectType": "link", "verbType": "opened"}, readers(201, hidden)},
		{"record an activity in the forum", "POST", fixed("/api/activities"), map[string]any{"contextKey": "series:" + m.forum.ID, "objectType": "video", "verbType": "played"}, readers(201, hidden)},
		{"record an activity in the admin channel", "POST", fixed("/api/activities"), map[string]any{"contextKey": "thread:" + adminPost.ID, "objectType": "thread", "verbType": "viewed"}, adminChannel(201)},
		// Everyone has a list of their own, empty when they read no forum.
		{"new shared posts", "GET", fixed("/api/sharedposts/new"), nil, readers(200, allowed(200))},
	})

	// The manage flag follows the same rule as the calls.
	for _, role := range m.roles()[:4] {
		var v threadView
		r := role.c.Do("GET", thread, nil)
		wantStatus(t, r, 200)
		r.JSON(t, &v)
		if want := role.name != "member"; v.CanManage != want {
			t.Errorf("%s: canManage %v, want %v", role.name, v.CanManage, want)
		}
	}
	// Hashtag suggestions come only from forums one reads, once the search
	// projection has indexed the tag.
	tags := func(c *testenv.Client) []string {
		var l struct {
			Tags []struct {
				Name string `json:"name"`
			} `json:"tags"`
		}
		r := c.Do("GET", "/api/hashtags?q=matrixtag", nil)
		wantStatus(t, r, 200)
		r.JSON(t, &l)
		var names []string
		for _, tag := range l.Tags {
			names = append(names, tag.Name)
		}
		return names
	}
	eventually(t, func() bool { return len(tags(m.roles()[0].c)) > 0 })
	for _, role := range m.roles()[:6] {
		l := struct{ Tags []string }{tags(role.c)}
		reads := role.name != "non-member" && role.name != "outsider"
		if found := len(l.Tags) > 0; found != reads {
			t.Errorf("%s: hashtags %+v, want them: %v", role.name, l.Tags, reads)
		}
	}
	// Each allowed look at the asker was recorded, and only those.
	if n := env.Count(t, "anonymous_asker_looks", "thread_id = $1", q.ID); n != 2 {
		t.Errorf("%d asker looks recorded, want 2 (forum admin, community admin)", n)
	}
}

// TestMatrixFeedBadInput: unknown and malformed ids, ids of the wrong post,
// wrong kinds and types, and over-long text on the calls whose refusals the
// older tests leave out; each with its code and nothing written.
func TestMatrixFeedBadInput(t *testing.T) {
	env := testenv.New(t)
	m := newMatrixForum(t, env)
	cl := m.creator.Client
	th := post(t, cl, m.forum.ID, map[string]any{"channelId": m.main, "raw": "a post"})
	other := post(t, cl, m.forum.ID, map[string]any{"channelId": m.main, "raw": "another post"})
	var c, otherC replyView
	cl.Do("POST", "/api/threads/"+th.ID+"/replies", map[string]any{"raw": "a comment"}).JSON(t, &c)
	cl.Do("POST", "/api/threads/"+other.ID+"/replies", map[string]any{"raw": "elsewhere"}).JSON(t, &otherC)
	thread, unknown := "/api/threads/"+th.ID, uuid.NewString()
	long := strings.Repeat("é", 4001)

	cases := []struct {
		name, method, path string
		body               any
		status             int
		code               string
	}{
		// Posts.
		{"edit an unknown post", "PATCH", "/api/threads/" + unknown, map[string]any{"raw": "x"}, 404, "notFound"},
		{"edit a non-UUID post", "PATCH", "/api/threads/x", map[string]any{"raw": "x"}, 400, "validationFailed"},
		{"delete an unknown post", "DELETE", "/api/threads/" + unknown, nil, 404, "notFound"},
		{"delete a non-UUID post", "DELETE", "/api/threads/x", nil, 400, "validationFailed"},
		{"turn a post into a question", "PATCH", thread, map[string]any{"type": "question"}, 400, "invalidBody"},
		{"make a post anonymous", "PATCH", thread, map[string]any{"creatorAs": "anonymous"}, 400, "invalidBody"},
		{"move a post", "PATCH", thread, map[string]any{"channelId": m.admins}, 400, "invalidBody"},
		{"edit with text of the wrong type", "PATCH", thread, map[string]any{"raw": 5}, 400, "invalidBody"},
		{"edit with 4001 characters", "PATCH", thread, map[string]any{"raw": long}, 400, "feedPostUpdating"},
		{"edit to nothing", "PATCH", thread, map[string]any{"raw": ""}, 400, "feedPostUpdating"},
		{"an image of the wrong type", "PATCH", thread, map[string]any{"image": "https://img.test/a.png"}, 400, "invalidBody"},
		{"a file that is not one", "PATCH", thread, map[string]any{"file": map[string]any{"name": "a.pdf", "url": "file:///etc/passwd", "mediaType": "application/pdf"}}, 400, "feedPostUpdating"},
		{"a question of an unknown author kind", "POST", "/api/series/" + m.forum.ID + "/threads",
			map[string]any{"channelId": m.main, "raw": "x", "type": "question", "creatorAs": "ghost"}, 400, "feedPostCreating"},
		{"a post of the wrong type", "POST", "/api/series/" + m.forum.ID + "/threads", map[string]any{"channelId": m.main, "raw": "x", "type": 1}, 400, "invalidBody"},
		{"a post to a channel of the wrong type", "POST", "/api/series/" + m.forum.ID + "/threads", map[string]any{"channelId": 7, "raw": "x"}, 400, "invalidBody"},
		{"a post with a NUL character", "POST", "/api/series/" + m.forum.ID + "/threads", map[string]any{"channelId": m.main, "raw": "a\x00b"}, 400, "invalidBody"},
		{"an edit with a NUL character", "PATCH", thread, map[string]any{"raw": "a\x00b"}, 400, "invalidBody"},
		{"a link preview with a NUL character", "POST", "/api/series/" + m.forum.ID + "/threads",
			map[string]any{"channelId": m.main, "raw": "x", "link": map[string]any{"url": "https://x.test/", "preview": map[string]any{"title": "a\x00"}}}, 400, "invalidBody"},
		{"a file name with a NUL character", "POST", "/api/series/" + m.forum.ID + "/threads",
			map[string]any{"channelId": m.main, "raw": "x", "file": map[string]any{"name": "a\x00", "url": "https://x.test/a", "mediaType": "a/b"}}, 400, "invalidBody"},
		{"hashtags of a NUL character", "GET", "/api/hashtags?q=a%00b", nil, 400, "validationFailed"},
		// Comments.
		{"a comment with a NUL character", "POST", thread + "/replies", map[string]any{"raw": "a\x00b"}, 400, "invalidBody"},
		{"a comment edit with a NUL character", "PATCH", thread + "/replies/" + c.ID, map[string]any{"raw": "a\x00b"}, 400, "invalidBody"},
		{"edit with 4001 characters", "PATCH", thread + "/replies/" + c.ID, map[string]any{"raw": long}, 400, "validationFailed"},
		{"edit without text", "PATCH", thread + "/replies/" + c.ID, map[string]any{}, 400, "parametersMissingException"},
		{"edit with text of the wrong type", "PATCH", thread + "/replies/" + c.ID, map[string]any{"raw": []string{"x"}}, 400, "invalidBody"},
		{"edit a comment with an unknown field", "PATCH", thread + "/replies/" + c.ID, map[string]any{"raw": "x", "parentId": otherC.ID}, 400, "invalidBody"},
		{"edit another post's comment", "PATCH", thread + "/replies/" + otherC.ID, map[string]any{"raw": "x"}, 404, "notFound"},
		{"edit a non-UUID comment", "PATCH", thread + "/replies/x", map[string]any{"raw": "x"}, 400, "validationFailed"},
		{"edit a comment of an unknown post", "PATCH", "/api/threads/" + unknown + "/replies/" + c.ID, map[string]any{"raw": "x"}, 404, "notFound"},
		{"delete an unknown comment", "DELETE", thread + "/replies/" + unknown, nil, 404, "notFound"},
		{"delete another post's comment", "DELETE", thread + "/replies/" + otherC.ID, nil, 404, "notFound"},
		{"delete a non-UUID comment", "DELETE", thread + "/replies/x", nil, 400, "validationFailed"},
		{"comment with text of the wrong type", "POST", thread + "/replies", map[string]any{"raw": "x", "parentId": 5}, 400, "invalidBody"},
		// Reactions.
		{"react to another post's comment", "PUT", thread + "/replies/" + otherC.ID + "/reaction", map[string]any{"reaction": "liked"}, 404, "notFound"},
		{"react to a non-UUID comment", "PUT", thread + "/replies/x/reaction", map[string]any{"reaction": "liked"}, 400, "validationFailed"},
		{"react with the total", "PUT", thread + "/reaction", map[string]any{"reaction": "totalCount"}, 400, "validationFailed"},
		{"react in capitals", "PUT", thread + "/reaction", map[string]any{"reaction": "LIKED"}, 400, "validationFailed"},
		{"react with an empty kind", "PUT", thread + "/reaction", map[string]any{"reaction": ""}, 400, "validationFailed"},
		{"react with a list", "PUT", thread + "/reaction", map[string]any{"reaction": []string{"liked"}}, 400, "invalidBody"},
		{"react with an unknown field", "PUT", thread + "/reaction", map[string]any{"reaction": "liked", "replyId": c.ID}, 400, "invalidBody"},
		{"react to an unknown comment's post", "PUT", "/api/threads/" + unknown + "/replies/" + c.ID + "/reaction", map[string]any{"reaction": "liked"}, 404, "notFound"},
		{"reactions of an unknown comment", "GET", "/api/thread/" + th.ID + "/reactions?replyId=" + unknown, nil, 404, "notFound"},
		{"reactions of another post's comment", "GET", "/api/thread/" + th.ID + "/reactions?replyId=" + otherC.ID, nil, 404, "notFound"},
		{"reactions of a non-UUID post", "GET", "/api/thread/x/reactions", nil, 400, "validationFailed"},
		// Visits and the asker.
		{"last visit of an unknown forum", "GET", "/api/series/" + unknown + "/visits", nil, 404, "notFound"},
		{"last visit of a non-UUID forum", "GET", "/api/series/x/visits", nil, 400, "validationFailed"},
		{"who asked a post", "GET", thread + "/asker", nil, 403, "forbidden"},
	}
	before := m.digest(t)
	for _, tc := range cases {
		t.Run(tc.method+" "+tc.name, func(t *testing.T) {
			wantError(t, cl.Do(tc.method, tc.path, tc.body), tc.status, tc.code)
		})
	}
	if after := m.digest(t); after != before {
		t.Error("refused calls wrote")
	}
	// The forum admin at a signed post: not anonymous, nothing recorded.
	wantError(t, m.forumAdmin.Client.Do("GET", thread+"/asker", nil), 400, "threadNotAnonymous")
	// The text limit itself is accepted for a comment edit.
	wantStatus(t, cl.Do("PATCH", thread+"/replies/"+c.ID, map[string]any{"raw": strings.Repeat("é", 4000)}), 200)
	if after := m.digest(t); after == before {
		t.Error("the edit at the limit was not stored")
	}
	// An escaped backslash before u0000 is text, not a NUL character.
	wantStatus(t, cl.Do("PATCH", thread, map[string]any{"raw": `C:\u0000`}), 200)
	if n := env.Count(t, "threads", "id = $1 AND raw = $2", th.ID, `C:\u0000`); n != 1 {
		t.Error("the text with a backslash is not stored as sent")
	}
}

// TestMatrixLinkPreviewLoopback: every spelling of a loopback, private or
// unspecified address is refused before anything is fetched.
func TestMatrixLinkPreviewLoopback(t *testing.T) {
	site, hits := linkSite(t)
	env := testenv.New(t)
	member := env.As(t, memberEmail)
	_, port, _ := net.SplitHostPort(site.Listener.Addr().String())
	for _, host := range []string{
		"127.0.0.1", "127.0.0.2", "[::1]", "[::ffff:127.0.0.1]", "[0:0:0:0:0:0:0:1]", "0.0.0.0", "[::]",
		"localhost", "LOCALHOST", "10.0.0.1", "192.168.1.1", "172.16.0.1", "[fe80::1]", "[fc00::1]",
	} {
		t.Run(host, func(t *testing.T) {
			r := member.Do("GET", previewPath("http://"+host+":"+port+"/article"), nil)
			wantError(t, r, 400, "linkPreviewRefused")
		})
	}
	// Spellings that are not addresses (127.1, decimal, hex) and the
	// fully qualified name are looked up as names: where they resolve, the
	// dial-time check refuses the address; where they do not, the fetch
	// fails. Either way the site is never reached.
	for _, host := range []string{"127.1", "2130706433", "0x7f000001", "017700000001", "localhost."} {
		t.Run(host, func(t *testing.T) {
			r := member.Do("GET", previewPath("http://"+host+":"+port+"/article"), nil)
			if r.Status != 400 && r.Status != 422 {
				t.Errorf("%s: %d %s, want a refusal", host, r.Status, r.Body)
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback site got %d requests", n)
	}
	if n := env.Count(t, "threads", "link::text LIKE $1", "%:"+port+"/%"); n != 0 {
		t.Errorf("%d posts hold the refused link", n)
	}
}

// TestMatrixUploadsThatLie: bytes that are not what their name and type say.
func TestMatrixUploadsThatLie(t *testing.T) {
	e := newUploadEnv(t)
	member := e.As(t, memberEmail)
	put := func(tk ticket, body []byte) *testenv.Response { return e.Client(t).Do("PUT", e.local(t, tk.URL), body) }
	pending := func(t *testing.T, id string) {
		t.Helper()
		if n := e.Count(t, "uploads", "id = $1 AND state = 'pending' AND media_type IS NULL", id); n != 1 {
			t.Errorf("upload %s is not left pending", id)
		}
		for _, f := range e.files(t, "objects") {
			if f == id {
				t.Errorf("objects/%s stored", id)
			}
		}
	}
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>`)
	for name, c := range map[string]struct {
		file, mediaType string
		body            []byte
	}{
		"SVG with script as a PNG": {"a.png", "image/png", svg},
		"PDF as a JPEG":            {"a.jpg", "image/jpeg", pdfBytes},
		"HTML as a GIF":            {"a.gif", "image/gif", []byte("<!doctype html><script>alert(1)</script>")},
		"text as a WebP":           {"a.webp", "image/webp", []byte("RIFF but not really an image")},
	} {
		t.Run(name, func(t *testing.T) {
			tk := sas(t, member, "image", c.file, c.mediaType, len(c.body))
			wantError(t, put(tk, c.body), 400, "uploadRejected")
			pending(t, tk.ID)
		})
	}
	// An SVG declared as such is refused before any URL is given.
	before := e.Count(t, "uploads", "")
	wantError(t, member.Do("POST", "/api/sas", map[string]any{"kind": "image", "name": "a.svg", "mediaType": "image/svg+xml", "size": len(svg)}), 400, "uploadRejected")
	if after := e.Count(t, "uploads", ""); after != before {
		t.Errorf("refused declaration wrote %d rows", after-before)
	}
	// A file that says PDF but is an SVG page is stored as bytes and served
	// as a download, never as a page.
	u := e.upload(t, member, "file", "report.pdf", "application/pdf", svg)
	if u.MediaType == "image/svg+xml" || strings.Contains(u.MediaType, "html") {
		t.Errorf("an SVG file is served as %q", u.MediaType)
	}
	r := e.Client(t).Do("GET", e.local(t, u.URL), nil)
	if r.Status != 200 || !bytes.Equal(r.Body, svg) || r.Header.Get("X-Content-Type-Options") != "nosniff" ||
		!strings.HasPrefix(r.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("GET the SVG file: %d %v", r.Status, r.Header)
	}
	// A real image declared as another image type is served as what it is.
	png := pngBytes(t, 2, 2)
	img := e.upload(t, member, "image", "photo.jpg", "image/jpeg", png)
	if img.MediaType != "image/png" {
		t.Errorf("a PNG declared as a JPEG is served as %q", img.MediaType)
	}
	// Upload ids and names that are not ones.
	wantInvalid(t, e.Client(t).Do("PUT", "/api/blobs/nope/x?exp=1&sig=x", png), "id")
	wantError(t, e.Client(t).Do("PUT", "/api/blobs/"+uuid.NewString()+"/x?exp=1&sig=x", png), 403, "blobSignatureInvalid")
}
