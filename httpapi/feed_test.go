package httpapi_test

import (
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/google/uuid"

	"agora/app/seed"
	"agora/app/testenv"
)

// feedFixture names the demo forums, their channels and users.
type feedFixture struct {
	env                                     *testenv.Env
	welcome, roadmaps, roundtable           string // series ids
	welcomeMain, welcomeAdmin, roadmapsMain string // channel ids
	roundtableMain                          string
}

func newFeedFixture(t *testing.T) *feedFixture {
	t.Helper()
	return feedFixtureOn(t, testenv.New(t))
}

// feedFixtureOn names the demo forums for a server already started (one
// with a search store the search projection fills: testenv.NewSearch).
func feedFixtureOn(t *testing.T, env *testenv.Env) *feedFixture {
	t.Helper()
	f := &feedFixture{env: env}
	f.welcome, f.roadmaps, f.roundtable = f.id(t, "SELECT id FROM series WHERE name = 'Welcome & Introductions'"),
		f.id(t, "SELECT id FROM series WHERE name = 'Roadmaps & Prioritization'"), f.id(t, "SELECT id FROM series WHERE name = 'Leadership Roundtable'")
	f.welcomeMain = f.id(t, "SELECT id FROM channels WHERE series_id = $1 AND kind = 'main'", f.welcome)
	f.welcomeAdmin = f.id(t, "SELECT id FROM channels WHERE series_id = $1 AND kind = 'admin'", f.welcome)
	f.roadmapsMain = f.id(t, "SELECT id FROM channels WHERE series_id = $1 AND kind = 'main'", f.roadmaps)
	f.roundtableMain = f.id(t, "SELECT id FROM channels WHERE series_id = $1 AND kind = 'main'", f.roundtable)
	return f
}

func (f *feedFixture) id(t *testing.T, q string, args ...any) string {
	t.Helper()
	var v uuid.UUID
	if err := f.env.DB.Pool.QueryRow(t.Context(), q, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v.String()
}

func (f *feedFixture) user(t *testing.T, email string) string {
	return f.id(t, "SELECT id FROM users WHERE email_key = $1", email)
}

type threadView struct {
	ID        string  `json:"id"`
	ChannelID string  `json:"channelId"`
	Type      string  `json:"type"`
	CreatorAs string  `json:"creatorAs"`
	CreatorID *string `json:"creatorId"`
	Creator   *struct {
		UserID    string `json:"userId"`
		FirstName string `json:"firstName"`
		IsExpert  bool   `json:"isExpert"`
	} `json:"creator"`
	Raw          string         `json:"raw"`
	Mentions     []string       `json:"mentions"`
	Hashtags     []string       `json:"hashtags"`
	Reactions    map[string]int `json:"reactions"`
	MyReaction   *string        `json:"myReaction"`
	CanManage    bool           `json:"canManage"`
	IsMine       bool           `json:"isMine"`
	RepliesCount int            `json:"repliesCount"`
	Comments     int            `json:"commentsCount"`
	Replies      []replyView    `json:"replies"`
	CreatedOn    string         `json:"createdOn"`
}

type replyView struct {
	ID           string         `json:"id"`
	ParentID     *string        `json:"parentId"`
	CreatorID    string         `json:"creatorId"`
	Raw          string         `json:"raw"`
	Hashtags     []string       `json:"hashtags"`
	Reactions    map[string]int `json:"reactions"`
	MyReaction   *string        `json:"myReaction"`
	RepliesCount int            `json:"repliesCount"`
	Replies      []replyView    `json:"replies"`
}

func post(t *testing.T, c *testenv.Client, series string, body map[string]any) threadView {
	t.Helper()
	r := c.Do("POST", "/api/series/"+series+"/threads", body)
	if r.Status != http.StatusCreated {
		t.Fatalf("post: %d %s", r.Status, r.Body)
	}
	var v threadView
	r.JSON(t, &v)
	return v
}

// TestFeedThreadLifecycle: a reader posts with mentions and hashtags read by
// the server; readers see it; the creator and a forum admin edit and
// delete; others may not.
func TestFeedThreadLifecycle(t *testing.T) {
	f := newFeedFixture(t)
	env := f.env
	member, expert, admin, outsider := env.As(t, seed.MemberEmail), env.As(t, seed.ExpertEmail), env.As(t, seed.AdminEmail), env.As(t, seed.OutsiderEmail)
	expertID, outsiderID, memberID := f.user(t, seed.ExpertEmail), f.user(t, seed.OutsiderEmail), f.user(t, seed.MemberEmail)

	raw := fmt.Sprintf("  Hello [Exp](%s) and [Out](%s) #Kickoff #q3_plan #kickoff  ", expertID, outsiderID)
	v := post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": raw, "hashtags": []string{"ignored"},
		"mentions": []string{outsiderID}, "meeting": nil,
		"image": map[string]any{"url": (&uploadEnv{Env: env}).upload(t, member, "image", "a.png", "image/png", pngBytes(t, 2, 2)).URL}})
	expertName := f.name(t, expertID)
	if want := fmt.Sprintf("Hello [%s](%s) and Out #Kickoff #q3_plan #kickoff", expertName, expertID); v.Raw != want {
		t.Errorf("raw = %q, want %q (trimmed, the mentions named by the server)", v.Raw, want)
	}
	if len(v.Mentions) != 1 || v.Mentions[0] != expertID {
		t.Errorf("mentions = %v, want only the expert (the outsider cannot read the forum)", v.Mentions)
	}
	if strings.Join(v.Hashtags, ",") != "Kickoff,q3_plan" {
		t.Errorf("hashtags = %v", v.Hashtags)
	}
	if v.Creator == nil || v.Creator.UserID != memberID || v.CreatorAs != "author" || v.Type != "post" || !v.CanManage {
		t.Errorf("creator: %+v", v)
	}

	path := "/api/threads/" + v.ID
	if r := expert.Do("GET", path, nil); r.Status != 200 {
		t.Errorf("expert reads: %d %s", r.Status, r.Body)
	} else {
		var got threadView
		r.JSON(t, &got)
		if got.CanManage {
			t.Error("the expert may not manage the member's post")
		}
	}
	if r := outsider.Do("GET", path, nil); r.Status != 404 || r.Code() != "notFound" {
		t.Errorf("outsider reads: %d %s", r.Status, r.Body)
	}
	if r := member.Do("GET", "/api/threads/"+uuid.NewString(), nil); r.Status != 404 || r.Code() != "notFound" {
		t.Errorf("unknown thread: %d %s", r.Status, r.Body)
	}
	if r := member.Do("GET", "/api/threads/nope", nil); r.Status != 400 || r.Code() != "validationFailed" {
		t.Errorf("non-UUID thread: %d %s", r.Status, r.Body)
	}

	// Edits: the creator and a forum admin; not another reader or an outsider.
	r := member.Do("PATCH", path, map[string]any{"raw": "edited #Edited", "image": nil})
	if r.Status != 200 {
		t.Fatalf("creator edits: %d %s", r.Status, r.Body)
	}
	var edited threadView
	r.JSON(t, &edited)
	if edited.Raw != "edited #Edited" || len(edited.Hashtags) != 1 || len(edited.Mentions) != 0 {
		t.Errorf("edited: %+v", edited)
	}
	// A reader is refused; to one who may not read, the post is unknown.
	for name, c := range map[string]struct {
		c      *testenv.Client
		status int
		code   string
	}{"expert": {expert, 403, "forbidden"}, "outsider": {outsider, 404, "notFound"}} {
		if r := c.c.Do("PATCH", path, map[string]any{"raw": "hijack"}); r.Status != c.status || r.Code() != c.code {
			t.Errorf("%s edits: %d %s", name, r.Status, r.Body)
		}
	}
	if r := admin.Do("PATCH", path, map[string]any{"raw": "moderated"}); r.Status != 200 {
		t.Errorf("admin edits: %d %s", r.Status, r.Body)
	}
	if n := env.Count(t, "threads", "id = $1 AND raw = 'moderated'", v.ID); n != 1 {
		t.Errorf("the admin's edit is not stored")
	}
	// Edits that break the rules write nothing.
	for name, body := range map[string]any{
		"empty":    map[string]any{"raw": "   "},
		"too long": map[string]any{"raw": strings.Repeat("x", 4001)},
		"meeting":  map[string]any{"meeting": map[string]any{"name": "x"}},
		"bad link": map[string]any{"link": map[string]any{"url": "javascript:alert(1)"}},
	} {
		if r := member.Do("PATCH", path, body); r.Status != 400 || r.Code() != "feedPostUpdating" {
			t.Errorf("%s edit: %d %s", name, r.Status, r.Body)
		}
	}
	if r := member.Do("PATCH", path, map[string]any{"bogus": 1}); r.Status != 400 || r.Code() != "invalidBody" {
		t.Errorf("unknown field: %d %s", r.Status, r.Body)
	}
	if n := env.Count(t, "threads", "id = $1 AND raw = 'moderated'", v.ID); n != 1 {
		t.Errorf("a refused edit changed the post")
	}

	// Deletes: not another reader, then the admin.
	if r := expert.Do("DELETE", path, nil); r.Status != 403 || r.Code() != "forbidden" {
		t.Errorf("expert deletes: %d %s", r.Status, r.Body)
	}
	if r := outsider.Do("DELETE", path, nil); r.Status != 404 {
		t.Errorf("outsider deletes: %d %s", r.Status, r.Body)
	}
	if r := admin.Do("DELETE", path, nil); r.Status != 204 {
		t.Errorf("admin deletes: %d %s", r.Status, r.Body)
	}
	if r := member.Do("GET", path, nil); r.Status != 404 {
		t.Errorf("deleted post: %d", r.Status)
	}
	own := post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "mine to delete"})
	if r := member.Do("DELETE", "/api/threads/"+own.ID, nil); r.Status != 204 {
		t.Errorf("creator deletes: %d %s", r.Status, r.Body)
	}
	if env.Count(t, "threads", "id = ANY($1::uuid[])", []string{v.ID, own.ID}) != 0 {
		t.Error("deleted posts remain")
	}
}

// TestFeedCreateRefusals: bad posts are refused with the documented status
// and code, and write nothing.
func TestFeedCreateRefusals(t *testing.T) {
	f := newFeedFixture(t)
	env := f.env
	member, outsider := env.As(t, seed.MemberEmail), env.As(t, seed.OutsiderEmail)
	memberID := f.user(t, seed.MemberEmail)
	ok := func(extra map[string]any) map[string]any {
		b := map[string]any{"channelId": f.welcomeMain, "raw": "fine"}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	cases := []struct {
		name   string
		c      *testenv.Client
		series string
		body   any
		status int
		code   string
	}{
		{"empty text, nothing else", member, f.welcome, ok(map[string]any{"raw": "   "}), 400, "feedPostCreating"},
		{"no text at all", member, f.welcome, map[string]any{"channelId": f.welcomeMain}, 400, "feedPostCreating"},
		// What shows nothing is no text (issue 14, F14).
		{"text of spaces and invisible characters", member, f.welcome, ok(map[string]any{"raw": " \u200b\u200c\u200d\u2060\ufeff\n\u00a0\u3000\u2800"}), 400, "feedPostCreating"},
		{"a shared AI chat without its chat", member, f.welcome, ok(map[string]any{"type": "shared-ai-chat"}), 400, "feedPostCreating"},
		{"invalid UTF-8", member, f.welcome, "{\"channelId\":\"" + f.welcomeMain + "\",\"raw\":\"a\xffb\"}", 400, "invalidBody"},
		{"a lone surrogate", member, f.welcome, `{"channelId":"` + f.welcomeMain + `","raw":"a\ud800b"}`, 400, "invalidBody"},
		{"a duplicate key", member, f.welcome, `{"channelId":"` + f.welcomeMain + `","raw":"fine","raw":"   "}`, 400, "invalidBody"},
		{"a duplicate key in the link", member, f.welcome, `{"channelId":"` + f.welcomeMain + `","link":{"url":"https://example.test/a","url":"https://evil.test/"}}`, 400, "invalidBody"},
		{"4001 characters", member, f.welcome, ok(map[string]any{"raw": strings.Repeat("é", 4001)}), 400, "feedPostCreating"},
		{"raw of the wrong type", member, f.welcome, ok(map[string]any{"raw": 5}), 400, "invalidBody"},
		{"unknown field", member, f.welcome, ok(map[string]any{"title": "x"}), 400, "invalidBody"},
		{"not an object", member, f.welcome, `["x"]`, 400, "invalidBody"},
		{"missing channel", member, f.welcome, map[string]any{"raw": "x"}, 400, "parametersMissingException"},
		{"non-UUID channel", member, f.welcome, ok(map[string]any{"channelId": "main"}), 400, "feedPostCreating"},
		{"unknown channel", member, f.welcome, ok(map[string]any{"channelId": uuid.NewString()}), 400, "feedPostCreating"},
		{"a channel of another forum", member, f.welcome, ok(map[string]any{"channelId": f.roadmapsMain}), 400, "feedPostCreating"},
		{"anonymous post (not a question)", member, f.welcome, ok(map[string]any{"creatorAs": "anonymous"}), 400, "feedPostCreating"},
		{"unknown type", member, f.welcome, ok(map[string]any{"type": "poll"}), 400, "feedPostCreating"},
		{"a meeting", member, f.welcome, ok(map[string]any{"meeting": map[string]any{"name": "x"}}), 400, "feedPostCreating"},
		{"image that is not a URL", member, f.welcome, ok(map[string]any{"image": map[string]any{"url": "not a url"}}), 400, "feedPostCreating"},
		{"file without a name", member, f.welcome, ok(map[string]any{"file": map[string]any{"name": "", "url": "https://f.test/a.pdf", "mediaType": "application/pdf"}}), 400, "feedPostCreating"},
		// A link's preview reaches every reader of the feed: only its
		// documented fields, within their bounds (issue 14, F4).
		{"link preview title of 301", member, f.welcome, ok(linkWith(map[string]any{"title": strings.Repeat("t", 301)})), 400, "feedPostCreating"},
		{"link preview description of 1001", member, f.welcome, ok(linkWith(map[string]any{"description": strings.Repeat("d", 1001)})), 400, "feedPostCreating"},
		{"link preview of 900 KB", member, f.welcome, ok(linkWith(map[string]any{"siteName": strings.Repeat("j", 900<<10)})), 400, "feedPostCreating"},
		{"link preview with an unknown field", member, f.welcome, ok(linkWith(map[string]any{"junk": "x"})), 400, "invalidBody"},
		{"link preview nested deep", member, f.welcome, ok(linkWith(map[string]any{"title": deepObject(9990)})), 400, "invalidBody"},
		{"link preview image not http(s)", member, f.welcome, ok(linkWith(map[string]any{"image": "javascript:alert(1)"})), 400, "feedPostCreating"},
		{"link preview of an unknown provider", member, f.welcome, ok(linkWith(map[string]any{"provider": "evil", "videoId": "x"})), 400, "feedPostCreating"},
		{"link preview with a bad video id", member, f.welcome, ok(linkWith(map[string]any{"provider": "youtube", "videoId": "\"><script>"})), 400, "feedPostCreating"},
		{"link of an unknown viewer type", member, f.welcome, ok(map[string]any{"link": map[string]any{"url": "https://example.test/", "viewerType": "iframe"}}), 400, "feedPostCreating"},
		{"non-UUID forum", member, "nope", ok(nil), 400, "validationFailed"},
		{"unknown forum", member, uuid.NewString(), ok(nil), 404, "notFound"},
		// What one may not read is as unknown as a random id (F12).
		{"forum the member does not read", member, f.roundtable, ok(map[string]any{"channelId": f.roundtableMain}), 404, "notFound"},
		{"admin channel, not a forum admin", member, f.welcome, ok(map[string]any{"channelId": f.welcomeAdmin}), 400, "feedPostCreating"},
		{"outsider", outsider, f.welcome, ok(nil), 404, "notFound"},
		{"guest", env.Client(t), f.welcome, ok(nil), 401, "authenticationRequired"},
	}
	before := env.Count(t, "threads", "creator_id = $1", memberID)
	for _, c := range cases {
		r := c.c.Do("POST", "/api/series/"+c.series+"/threads", c.body)
		if r.Status != c.status || r.Code() != c.code {
			t.Errorf("%s: %d %s, want %d %s", c.name, r.Status, r.Body, c.status, c.code)
		}
	}
	if after := env.Count(t, "threads", "creator_id = $1", memberID); after != before {
		t.Errorf("refused posts wrote %d rows", after-before)
	}

	// The limits themselves are accepted: 4000 characters; an image alone;
	// a forum admin in the admin channel.
	post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": strings.Repeat("é", 4000)})
	only := (&uploadEnv{Env: env}).upload(t, member, "image", "only.png", "image/png", pngBytes(t, 2, 2))
	post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "image": map[string]any{"url": only.URL}})
	post(t, env.As(t, seed.AdminEmail), f.welcome, map[string]any{"channelId": f.welcomeAdmin, "raw": "admins only"})
	preview := map[string]any{"title": strings.Repeat("t", 300), "description": strings.Repeat("d", 1000), "siteName": "Example",
		"image": "https://example.test/a.png", "provider": "youtube", "videoId": "dQw4w9WgXcQ"}
	r := member.Do("POST", "/api/series/"+f.welcome+"/threads", map[string]any{"channelId": f.welcomeMain, "link": linkWith(preview)["link"]})
	var created struct {
		Link struct{ Preview map[string]any }
	}
	if r.Status != http.StatusCreated {
		t.Fatalf("a preview within bounds: %d %s", r.Status, r.Body)
	}
	if r.JSON(t, &created); !reflect.DeepEqual(created.Link.Preview, preview) {
		t.Errorf("a preview within bounds is stored as %v", created.Link.Preview)
	}
}

// linkWith is a post's link field with preview.
func linkWith(preview map[string]any) map[string]any {
	return map[string]any{"link": map[string]any{"url": "https://example.test/a", "viewerType": "external", "preview": preview}}
}

// deepObject is an object nested n deep: {"a":{"a":…}}.
func deepObject(n int) any {
	var v any = "x"
	for range n {
		v = map[string]any{"a": v}
	}
	return v
}

// TestFeedReplies: comments and one level of replies; edits and deletes by
// the creator or a forum admin.
// TestFeedMentionNames: a mention shows the name the server knows for its
// id, whatever the text sent claims, in posts, comments and replies, created
// or edited; a mention of someone who cannot read the forum, or of no one,
// is left as plain words that claim no one.
func TestFeedMentionNames(t *testing.T) {
	f := newFeedFixture(t)
	member := f.env.As(t, seed.MemberEmail)
	expertID, outsiderID, nobody := f.user(t, seed.ExpertEmail), f.user(t, seed.OutsiderEmail), uuid.NewString()
	sent := fmt.Sprintf("hi [Anyone I like](%s), [The Boss](%s) and [Ghost](%s)", expertID, outsiderID, nobody)
	want := fmt.Sprintf("hi [%s](%s), The Boss and Ghost", f.name(t, expertID), expertID)
	check := func(what, got string, mentions []string) {
		t.Helper()
		if got != want {
			t.Errorf("%s: raw = %q, want %q", what, got, want)
		}
		if mentions != nil && (len(mentions) != 1 || mentions[0] != expertID) {
			t.Errorf("%s: mentions = %v, want only the expert", what, mentions)
		}
	}

	th := post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": sent})
	check("post", th.Raw, th.Mentions)
	r := member.Do("PATCH", "/api/threads/"+th.ID, map[string]any{"raw": sent})
	var edited threadView
	r.JSON(t, &edited)
	check("edited post", edited.Raw, edited.Mentions)

	base := "/api/threads/" + th.ID + "/replies"
	var comment, reply, editedReply replyView
	member.Do("POST", base, map[string]any{"raw": sent}).JSON(t, &comment)
	check("comment", comment.Raw, nil)
	member.Do("POST", base, map[string]any{"raw": sent, "parentId": comment.ID}).JSON(t, &reply)
	check("reply", reply.Raw, nil)
	member.Do("PATCH", base+"/"+reply.ID, map[string]any{"raw": sent}).JSON(t, &editedReply)
	check("edited reply", editedReply.Raw, nil)
	var stored string
	if err := f.env.DB.Pool.QueryRow(t.Context(), "SELECT raw FROM replies WHERE id = $1", comment.ID).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	check("stored comment", stored, nil)
}

// name is a user's display name, as a mention shows it.
func (f *feedFixture) name(t *testing.T, id string) string {
	t.Helper()
	var first, last string
	if err := f.env.DB.Pool.QueryRow(t.Context(), "SELECT first_name, last_name FROM users WHERE id = $1", id).Scan(&first, &last); err != nil {
		t.Fatal(err)
	}
	return first + " " + last
}

func TestFeedReplies(t *testing.T) {
	f := newFeedFixture(t)
	env := f.env
	member, expert, admin, outsider := env.As(t, seed.MemberEmail), env.As(t, seed.ExpertEmail), env.As(t, seed.AdminEmail), env.As(t, seed.OutsiderEmail)
	th := post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "comment on me"})
	base := "/api/threads/" + th.ID + "/replies"

	r := expert.Do("POST", base, map[string]any{"raw": "  first comment #Thoughts "})
	if r.Status != 201 {
		t.Fatalf("comment: %d %s", r.Status, r.Body)
	}
	var comment replyView
	r.JSON(t, &comment)
	if comment.Raw != "first comment #Thoughts" || comment.ParentID != nil || len(comment.Hashtags) != 1 {
		t.Errorf("comment: %+v", comment)
	}
	r = member.Do("POST", base, map[string]any{"raw": "a reply", "parentId": comment.ID})
	if r.Status != 201 {
		t.Fatalf("reply: %d %s", r.Status, r.Body)
	}
	var reply replyView
	r.JSON(t, &reply)
	if reply.ParentID == nil || *reply.ParentID != comment.ID {
		t.Errorf("reply: %+v", reply)
	}
	if r := admin.Do("POST", base, map[string]any{"raw": "second comment"}); r.Status != 201 {
		t.Errorf("admin comments: %d %s", r.Status, r.Body)
	}

	// Refusals write nothing.
	other := post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "another post"})
	var otherComment replyView
	member.Do("POST", "/api/threads/"+other.ID+"/replies", map[string]any{"raw": "elsewhere"}).JSON(t, &otherComment)
	before := env.Count(t, "replies", "")
	cases := []struct {
		name   string
		c      *testenv.Client
		path   string
		body   any
		status int
		code   string
	}{
		{"reply to a reply", member, base, map[string]any{"raw": "deep", "parentId": reply.ID}, 400, "validationFailed"},
		{"parent of another post", member, base, map[string]any{"raw": "x", "parentId": otherComment.ID}, 400, "validationFailed"},
		{"unknown parent", member, base, map[string]any{"raw": "x", "parentId": uuid.NewString()}, 400, "validationFailed"},
		{"non-UUID parent", member, base, map[string]any{"raw": "x", "parentId": "p"}, 400, "validationFailed"},
		{"empty", member, base, map[string]any{"raw": "  "}, 400, "validationFailed"},
		{"only invisible characters", member, base, map[string]any{"raw": "\u200b \ufeff\u2060\u200d"}, 400, "validationFailed"},
		{"a duplicate key", member, base, `{"raw":"x","raw":"y"}`, 400, "invalidBody"},
		{"4001 characters", member, base, map[string]any{"raw": strings.Repeat("x", 4001)}, 400, "validationFailed"},
		{"missing raw", member, base, map[string]any{}, 400, "parametersMissingException"},
		{"raw of the wrong type", member, base, map[string]any{"raw": true}, 400, "invalidBody"},
		{"unknown field", member, base, map[string]any{"raw": "x", "x": 1}, 400, "invalidBody"},
		{"outsider", outsider, base, map[string]any{"raw": "x"}, 404, "notFound"},
		{"unknown post", member, "/api/threads/" + uuid.NewString() + "/replies", map[string]any{"raw": "x"}, 404, "notFound"},
		{"non-UUID post", member, "/api/threads/x/replies", map[string]any{"raw": "x"}, 400, "validationFailed"},
	}
	for _, c := range cases {
		if r := c.c.Do("POST", c.path, c.body); r.Status != c.status || r.Code() != c.code {
			t.Errorf("%s: %d %s, want %d %s", c.name, r.Status, r.Body, c.status, c.code)
		}
	}
	if after := env.Count(t, "replies", ""); after != before {
		t.Errorf("refused comments wrote %d rows", after-before)
	}

	// The post shows its comments with their replies.
	var full threadView
	member.Do("GET", "/api/threads/"+th.ID, nil).JSON(t, &full)
	if full.RepliesCount != 3 || full.Comments != 2 || len(full.Replies) != 2 || full.Replies[0].ID != comment.ID ||
		len(full.Replies[0].Replies) != 1 || full.Replies[0].RepliesCount != 1 {
		t.Errorf("thread's comments: %+v", full)
	}

	// Edits and deletes of a comment.
	cpath := base + "/" + comment.ID
	if r := member.Do("PATCH", cpath, map[string]any{"raw": "not mine"}); r.Status != 403 || r.Code() != "forbidden" {
		t.Errorf("another reader edits: %d %s", r.Status, r.Body)
	}
	if r := expert.Do("PATCH", cpath, map[string]any{"raw": ""}); r.Status != 400 || r.Code() != "validationFailed" {
		t.Errorf("empty edit: %d %s", r.Status, r.Body)
	}
	if r := expert.Do("PATCH", cpath, map[string]any{"raw": "edited"}); r.Status != 200 {
		t.Errorf("creator edits: %d %s", r.Status, r.Body)
	}
	if r := admin.Do("PATCH", cpath, map[string]any{"raw": "moderated"}); r.Status != 200 {
		t.Errorf("admin edits: %d %s", r.Status, r.Body)
	}
	if r := expert.Do("PATCH", base+"/"+uuid.NewString(), map[string]any{"raw": "x"}); r.Status != 404 {
		t.Errorf("unknown reply: %d %s", r.Status, r.Body)
	}
	if r := member.Do("DELETE", cpath, nil); r.Status != 403 {
		t.Errorf("another reader deletes: %d %s", r.Status, r.Body)
	}
	if r := outsider.Do("DELETE", cpath, nil); r.Status != 404 {
		t.Errorf("outsider deletes: %d %s", r.Status, r.Body)
	}
	if r := member.Do("DELETE", base+"/"+reply.ID, nil); r.Status != 204 {
		t.Errorf("creator deletes own reply: %d %s", r.Status, r.Body)
	}
	if r := admin.Do("DELETE", cpath, nil); r.Status != 204 {
		t.Errorf("admin deletes: %d %s", r.Status, r.Body)
	}
	if n := env.Count(t, "replies", "thread_id = $1", th.ID); n != 1 {
		t.Errorf("%d replies left, want the admin's comment", n)
	}
}

// TestFeedAnonymousQuestion: an anonymous question shows no creator to
// another member, nor to a forum admin, in the feed or alone (admins look
// through the recorded GET /threads/{id}/asker); only the asker is told,
// by isMine, that the question is theirs.
func TestFeedAnonymousQuestion(t *testing.T) {
	f := newFeedFixture(t)
	env := f.env
	member := env.As(t, seed.MemberEmail)
	q := post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "who decides?", "type": "question", "creatorAs": "anonymous"})
	if q.Type != "question" || q.CreatorAs != "anonymous" || q.Creator != nil || q.CreatorID != nil || !q.IsMine {
		t.Errorf("created: %+v", q)
	}
	for _, c := range []struct {
		email string
		mine  bool
	}{{seed.MemberEmail, true}, {seed.ExpertEmail, false}, {seed.AdminEmail, false}} {
		email, client := c.email, env.As(t, c.email)
		r := client.Do("GET", "/api/threads/"+q.ID, nil)
		var one threadView
		r.JSON(t, &one)
		if r.Status != 200 || strings.Contains(string(r.Body), f.user(t, seed.MemberEmail)) || one.IsMine != c.mine {
			t.Errorf("%s reads the question (isMine want %v): %d %s", email, c.mine, r.Status, r.Body)
		}
		r = client.Do("GET", "/api/channels/"+f.welcomeMain+"/threads?pageSize=50", nil)
		var page struct {
			Results []threadView `json:"results"`
		}
		r.JSON(t, &page)
		found := false
		for _, v := range page.Results {
			if v.ID == q.ID {
				found = true
				if v.Creator != nil || v.CreatorID != nil {
					t.Errorf("%s sees the asker in the feed", email)
				}
				if v.IsMine != c.mine {
					t.Errorf("%s: isMine %v in the feed, want %v", email, v.IsMine, c.mine)
				}
			}
		}
		if !found {
			t.Errorf("%s does not see the question in the feed", email)
		}
	}
	author := post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "signed question", "type": "question", "creatorAs": "author"})
	if author.Creator == nil {
		t.Error("a question as author shows its creator")
	}
}

// TestFeedHashtags: suggestions come from the forums the caller reads,
// through the search projection's hashtag index.
func TestFeedHashtags(t *testing.T) {
	env, _ := testenv.NewSearch(t)
	f := feedFixtureOn(t, env)
	member, admin := env.As(t, seed.MemberEmail), env.As(t, seed.AdminEmail)
	tag := strings.ReplaceAll(testenv.Unique("Tag"), "-", "_")
	post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "#" + tag + "_open and #" + tag + "_open"})
	post(t, member, f.roadmaps, map[string]any{"channelId": f.roadmapsMain, "raw": "#" + tag + "_open again"})
	post(t, admin, f.roundtable, map[string]any{"channelId": f.roundtableMain, "raw": "#" + tag + "_closed"})
	// The admin channel's tags are not suggested, not even to admins.
	post(t, admin, f.welcome, map[string]any{"channelId": f.welcomeAdmin, "raw": "#" + tag + "_admins"})
	type list struct {
		Tags []struct {
			Name  string `json:"name"`
			Count int    `json:"count"`
		} `json:"tags"`
	}
	get := func(c *testenv.Client, q string) list {
		t.Helper()
		r := c.Do("GET", "/api/hashtags?q="+q, nil)
		if r.Status != 200 {
			t.Fatalf("hashtags: %d %s", r.Status, r.Body)
		}
		var l list
		r.JSON(t, &l)
		return l
	}
	var l list
	eventually(t, func() bool { l = get(member, strings.ToLower(tag)); return len(l.Tags) == 1 && l.Tags[0].Count == 2 })
	if len(l.Tags) != 1 || l.Tags[0].Name != tag+"_open" || l.Tags[0].Count != 2 {
		t.Errorf("member: %+v", l)
	}
	// One typo in a longer name, and a prefix: "…_opne" is "…_open".
	if l := get(member, strings.ToLower(tag)+"_opne"); len(l.Tags) != 1 || l.Tags[0].Name != tag+"_open" {
		t.Errorf("misspelt: %+v", l)
	}
	eventually(t, func() bool { return len(get(admin, strings.ToUpper(tag)).Tags) == 2 })
	if l := get(admin, strings.ToUpper(tag)); len(l.Tags) != 2 {
		t.Errorf("admin: %+v", l)
	}
	if l := get(env.As(t, seed.OutsiderEmail), tag); len(l.Tags) != 0 {
		t.Errorf("outsider: %+v", l)
	}
	if l := get(member, ""); len(l.Tags) > 10 {
		t.Errorf("more than 10: %d", len(l.Tags))
	}
	if r := member.Do("GET", "/api/hashtags?q="+strings.Repeat("a", 101), nil); r.Status != 400 || r.Code() != "validationFailed" {
		t.Errorf("long q: %d %s", r.Status, r.Body)
	}
	if r := env.Client(t).Do("GET", "/api/hashtags", nil); r.Status != 401 {
		t.Errorf("guest: %d", r.Status)
	}
}

// TestFeedByHashtag: a channel's posts carrying a hashtag, any case, with
// the cursor; a name that is no hashtag is refused.
func TestFeedByHashtag(t *testing.T) {
	env := testenv.New(t)
	f := feedFixtureOn(t, env)
	member := env.As(t, seed.MemberEmail)
	tag := strings.ReplaceAll(testenv.Unique("Tagged"), "-", "_")
	a := post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "first #" + tag})
	post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "no tag here, " + tag + " as a word"})
	b := post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "second #" + strings.ToUpper(tag) + " loud"})
	post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "#" + tag + "_longer is another tag"})
	list := func(q string) []string {
		t.Helper()
		var page struct {
			Results []threadView `json:"results"`
		}
		r := member.Do("GET", "/api/channels/"+f.welcomeMain+"/threads?"+q, nil)
		wantStatus(t, r, 200)
		r.JSON(t, &page)
		ids := []string{}
		for _, th := range page.Results {
			ids = append(ids, th.ID)
		}
		return ids
	}
	if got := list("hashtag=" + strings.ToLower(tag)); !reflect.DeepEqual(got, []string{b.ID, a.ID}) {
		t.Errorf("by hashtag: %v, want %v", got, []string{b.ID, a.ID})
	}
	if got := list("pageSize=1&hashtag=" + tag); !reflect.DeepEqual(got, []string{b.ID}) {
		t.Errorf("first page: %v", got)
	}
	var newest threadView
	member.Do("GET", "/api/threads/"+b.ID, nil).JSON(t, &newest)
	if got := list("pageSize=1&hashtag=" + tag + "&createdBefore=" + url.QueryEscape(newest.CreatedOn)); !reflect.DeepEqual(got, []string{a.ID}) {
		t.Errorf("second page: %v", got)
	}
	for _, bad := range []string{"%23" + tag, "two%20words", "a-b", strings.Repeat("a", 101)} {
		wantError(t, member.Do("GET", "/api/channels/"+f.welcomeMain+"/threads?hashtag="+bad, nil), 400, "validationFailed")
	}
}
