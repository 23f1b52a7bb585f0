package httpapi_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"agora/app/testenv"
	"agora/httpapi/openapi"
)

type notificationView struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	CreatedOn string `json:"createdOn"`
	Author    *struct {
		UserID    string `json:"userId"`
		FirstName string `json:"firstName"`
	} `json:"author"`
	Raw     string `json:"raw"`
	Context struct {
		CommunityID string `json:"communityId"`
		SeriesID    string `json:"seriesId"`
		SeriesName  string `json:"seriesName"`
	} `json:"context"`
	PostID   string  `json:"postId"`
	ReplyID  *string `json:"replyId"`
	IsRead   bool    `json:"isRead"`
	IsUnread bool    `json:"isUnread"`
}

type notificationList struct {
	Results []notificationView `json:"results"`
	Total   int                `json:"total"`
	Unread  int                `json:"unread"`
}

func listNotifications(t *testing.T, c *testenv.Client, query string) notificationList {
	t.Helper()
	r := c.Do("GET", "/api/notifications"+query, nil)
	if r.Status != 200 {
		t.Fatalf("GET /api/notifications%s: %d %s", query, r.Status, r.Body)
	}
	if err := openapi.ValidateSchema("NotificationList", []byte(r.Body)); err != nil {
		t.Errorf("the list is not as documented: %v\n%s", err, r.Body)
	}
	var l notificationList
	r.JSON(t, &l)
	return l
}

// settle waits until the notifications projection has applied every
// change committed so far.
func settle(t *testing.T, n *testenv.Notifications) {
	t.Helper()
	n.WaitRelayed(t, time.Minute)
	n.WaitCaughtUp(t, n.Projection, time.Minute)
}

func comment(t *testing.T, c *testenv.Client, thread string, parent *string, raw string) string {
	t.Helper()
	body := map[string]any{"raw": raw}
	if parent != nil {
		body["parentId"] = *parent
	}
	r := c.Do("POST", "/api/threads/"+thread+"/replies", body)
	if r.Status != 201 {
		t.Fatalf("comment: %d %s", r.Status, r.Body)
	}
	var v struct {
		ID string `json:"id"`
	}
	r.JSON(t, &v)
	return v.ID
}

// TestNotificationsList: the bell's list of a member, from the posts and
// comments written through the API: comments on their post and mentions,
// newest first, 20 a page; replies to their comments left out; what they
// dismissed left out; isRead, isUnread and unread from their
// personalization; an anonymous asker not named; a forum they can no
// longer read left out; a bad page refused.
func TestNotificationsList(t *testing.T) {
	n := testenv.NewNotifications(t)
	m := newMatrixForum(t, n.Env)
	me, other := m.creator, m.reader
	p := post(t, me.Client, m.forum.ID, map[string]any{"channelId": m.main, "raw": "my post"})
	comments := map[string]bool{}
	for i := range 24 {
		comments[comment(t, other.Client, p.ID, nil, fmt.Sprintf("comment %d", i))] = true
	}
	mine := comment(t, me.Client, p.ID, nil, "my own comment")
	comment(t, other.Client, p.ID, &mine, "a reply to my comment")
	q := post(t, other.Client, m.forum.ID, map[string]any{"channelId": m.main, "type": "question", "creatorAs": "anonymous",
		"raw": fmt.Sprintf("what does [Me](%s) think?", me.UserID)})
	settle(t, n)
	// The member was told of the two communities they joined (the first,
	// by registering, and the forum's), then of the access newMatrixForum
	// gave, before any post: the oldest three.
	const joined = 2
	const told = joined + 1

	// 24 comments, the mention, and the three notices.
	first := listNotifications(t, me.Client, "")
	if first.Total != 25+told || len(first.Results) != 20 || first.Unread != 25+told {
		t.Fatalf("first page: total %d, %d results, unread %d; want 28, 20, 28", first.Total, len(first.Results), first.Unread)
	}
	top := first.Results[0]
	if top.Type != "mention" || top.PostID != q.ID || top.Author != nil || top.Raw != "what does Fresh Member think?" ||
		top.Context.SeriesID != m.forum.ID || top.Context.CommunityID != m.community || top.Context.SeriesName != m.forum.Name {
		t.Errorf("the newest, the anonymous question's mention: %+v", top)
	}
	if top.ReplyID != nil {
		t.Errorf("a mention in a post points at comment %s", *top.ReplyID)
	}
	second := listNotifications(t, me.Client, "?page=2")
	if second.Total != 25+told || len(second.Results) != 5+told || second.Results[5].Type != "forum-access" {
		t.Fatalf("second page: total %d, %d results", second.Total, len(second.Results))
	}
	all := append(first.Results, second.Results...)
	for _, it := range all[26:] {
		if it.Type != "community-join" {
			t.Errorf("the oldest are the communities joined: %+v", it)
		}
	}
	for i, it := range all {
		if it.Type == "reply" || it.Raw == "a reply to my comment" {
			t.Errorf("a reply is listed: %+v", it)
		}
		if i > 0 && it.Type == "comment" && (it.Author == nil || it.Author.UserID != other.UserID || it.PostID != p.ID) {
			t.Errorf("comment %d: %+v", i, it)
		}
		// A comment's notification points at the comment, which View
		// scrolls to; the notices about no post at nothing.
		if it.Type == "comment" && (it.ReplyID == nil || !comments[*it.ReplyID]) || it.Type != "comment" && it.Type != "mention" && it.ReplyID != nil {
			t.Errorf("%s %d points at comment %v", it.Type, i, it.ReplyID)
		}
		if i > 0 && it.CreatedOn > all[i-1].CreatedOn {
			t.Errorf("not newest first at %d", i)
		}
	}

	// Dismiss the newest comment, read the next, and look at the list
	// once the tenth was written.
	dismissed, read, seenAt := all[1], all[2], all[9]
	if r := me.Client.Do("PATCH", "/api/users/"+me.UserID+"/personalization", map[string]any{
		"notifications.posts.dismissed": []string{dismissed.ID}, "notifications.posts.read": []string{read.ID},
		"notifications.posts.lastSeenAt": seenAt.CreatedOn,
	}); r.Status != 200 {
		t.Fatalf("personalize: %d %s", r.Status, r.Body)
	}
	after := listNotifications(t, me.Client, "?pageSize=100")
	if after.Total != 24+told || len(after.Results) != 24+told {
		t.Fatalf("after dismissing one: total %d, %d results", after.Total, len(after.Results))
	}
	// Newer than seenAt: all[0..8] less the dismissed and the read one.
	if after.Unread != 7 {
		t.Errorf("unread %d, want 7", after.Unread)
	}
	for _, it := range after.Results {
		if it.ID == dismissed.ID {
			t.Errorf("the dismissed one is listed")
		}
		if it.IsRead != (it.ID == read.ID) {
			t.Errorf("%s: isRead %v", it.Raw, it.IsRead)
		}
		if want := it.ID != read.ID && it.CreatedOn > seenAt.CreatedOn; it.IsUnread != want {
			t.Errorf("%s: isUnread %v, want %v", it.Raw, it.IsUnread, want)
		}
	}

	for _, bad := range []string{"?page=0", "?page=x", "?pageSize=101", "?pageSize=0"} {
		wantInvalid(t, me.Client.Do("GET", "/api/notifications"+bad, nil), map[string]string{"?page=0": "page", "?page=x": "page", "?pageSize=101": "pageSize", "?pageSize=0": "pageSize"}[bad])
	}

	t.Run("a forum the member can no longer read is left out", func(t *testing.T) {
		exec(t, n.Env, "DELETE FROM series_memberships WHERE series_id = $1 AND profile_id = $2", m.forum.ID, me.ProfileID)
		// What is left: the communities joined, older than seenAt.
		if l := listNotifications(t, me.Client, ""); l.Total != joined || l.Unread != 0 || len(l.Results) != joined {
			t.Errorf("after leaving the forum: %+v", l)
		}
	})
}

// TestNotificationsMatrix: every signed-in role reads its own list; a
// guest is refused; nobody writes anything.
func TestNotificationsMatrix(t *testing.T) {
	env := testenv.New(t)
	m := newMatrixForum(t, env)
	ok := map[string]outcome{
		"creator": allowed(200), "member": allowed(200), "forum admin": allowed(200), "community admin": allowed(200),
		"non-member": allowed(200), "outsider": allowed(200), "guest": guestRefused,
	}
	roles := append(m.roles(), matrixRole{"super", env.As(t, superEmail)})
	ok["super"] = allowed(200)
	digest := func(t *testing.T) string {
		return m.digest(t) + queryString(t, env, "SELECT count(*)::text || md5(COALESCE(string_agg(data::text, ',' ORDER BY user_id), '')) FROM user_personalization")
	}
	runMatrix(t, roles, digest, []matrixCall{
		{name: "list", method: "GET", path: fixed("/api/notifications"), want: ok},
	})
}

// TestForumAccessNotice: Manage Access's preview says how many people new
// to the forum receive its notice (spec 001 §3), and applying the change
// sends it to each of them who has an account (forum-access: in the
// giver's name, the preview's text, about the forum, no post), live; not
// to one who already had access, nor to one whose role only changes; a
// removal takes it back.
func TestForumAccessNotice(t *testing.T) {
	n := testenv.NewNotifications(t)
	admin := n.As(t, adminEmail)
	adminID := queryString(t, n.Env, "SELECT id::text FROM users WHERE email_key = $1", adminEmail)
	community := newCommunity(t, n.Env)
	forum := createForum(t, admin, community)
	had, newcomer := fresh(t, n.Env, community, "Had"), fresh(t, n.Env, community, "Newcomer")
	// had has been a member since before anyone was told.
	exec(t, n.Env, `INSERT INTO series_memberships (series_id, profile_id, role) VALUES ($1, $2, 'member')`, forum.ID, had.ProfileID)
	settle(t, n)
	told := func(c *testenv.Client) []notificationView {
		var out []notificationView
		for _, it := range listNotifications(t, c, "").Results {
			if it.Type == "forum-access" {
				out = append(out, it)
			}
		}
		return out
	}
	state := map[string]any{"assignments": []map[string]any{{"roleId": "admin", "assigneeIds": []string{had.ProfileID, newcomer.ProfileID}}}}
	r := admin.Do("POST", "/api/series/"+forum.ID+"/assignments-invitations-preview", state)
	wantStatus(t, r, 200)
	var preview struct {
		Subject, Description  string
		NumExpectedRecipients int
	}
	r.JSON(t, &preview)
	if preview.NumExpectedRecipients != 1 {
		t.Fatalf("preview %+v, want 1 person new to the forum", preview)
	}
	hub := dial(t, n.Env, "", bearer(newcomer.Client.Token))
	wantStatus(t, admin.Do("POST", "/api/series/"+forum.ID+"/assignments", state), 204)
	settle(t, n)

	got := told(newcomer.Client)
	if len(got) != 1 {
		t.Fatalf("the newcomer was told %+v, want one forum-access", got)
	}
	it := got[0]
	if it.Author == nil || it.Author.UserID != adminID || it.Raw != preview.Description || it.PostID != "" ||
		it.Context.SeriesID != forum.ID || it.Context.CommunityID != community || !it.IsUnread {
		t.Errorf("the notice %+v, want the preview's %q from the admin about the forum", it, preview.Description)
	}
	live := hub.waitFor(liveWait, "user.notified", func(m hubMsg) bool {
		return m.Event == "user.notified" && m.Payload["type"] == "forum-access" && m.Payload["id"] == it.ID
	})
	if b, _ := json.Marshal(live.Data.Payload); openapi.ValidateSchema("Notification", b) != nil {
		t.Errorf("user.notified carries %s, not a Notification", b)
	}
	if got := told(had.Client); len(got) != 0 {
		t.Errorf("one who had access was told %+v", got)
	}
	if got := told(admin); len(got) != 0 {
		t.Errorf("the admin who gave it was told %+v", got)
	}
	// A role changed again tells nobody; removed, the notice goes.
	wantStatus(t, assign(t, admin, forum.ID, "member", newcomer.ProfileID), 204)
	settle(t, n)
	if got := told(newcomer.Client); len(got) != 1 || got[0].ID != it.ID {
		t.Errorf("after a role change: %+v, want the one notice", got)
	}
	wantStatus(t, admin.Do("POST", "/api/series/"+forum.ID+"/assignments", map[string]any{"assignments": []map[string]any{
		{"roleId": nil, "assigneeIds": []string{newcomer.ProfileID}}}}), 204)
	settle(t, n)
	if c := n.Count(t, "notifications", "kind = 'forum-access' AND source_id = $1", forum.ID); c != 0 {
		t.Errorf("%d forum-access notices left after the removal", c)
	}
}
