package httpapi_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/internal/plumbing/config"
	"agora/search"
)

// chatMessage is a ChatMessage as the tests read it.
type chatMessage struct {
	ID        string            `json:"id"`
	ChannelID string            `json:"channelId"`
	RoomID    *string           `json:"roomId"`
	CreatorID string            `json:"creatorId"`
	Raw       string            `json:"raw"`
	CreatedOn string            `json:"createdOn"`
	Reactions map[string]string `json:"reactions"`
	IsMine    bool              `json:"isMine"`
	Creator   struct {
		UserID    string `json:"userId"`
		FirstName string `json:"firstName"`
	} `json:"creator"`
}

type chatPage struct {
	Results []chatMessage `json:"results"`
	Total   int           `json:"total"`
}

type privateChannel struct {
	ID           string   `json:"id"`
	MemberIDs    []string `json:"memberIds"`
	HasUnread    bool     `json:"hasUnread"`
	LastSeenOn   *string  `json:"lastSeenOn"`
	LastActivity *string  `json:"lastActivityOn"`
	Peer         struct {
		UserID string `json:"userId"`
	} `json:"peer"`
	LatestThread *struct {
		ID        string `json:"id"`
		CreatorID string `json:"creatorId"`
		Raw       string `json:"raw"`
	} `json:"latestThread"`
}

type channelList struct {
	Results []privateChannel `json:"results"`
	Total   int              `json:"total"`
}

// chatFixture is two members of a fresh community who chat, and everyone
// else who must not see it: a third member, an admin of the community, a
// super user and an outsider.
type chatFixture struct {
	env                 *testenv.Env
	community           string
	a, b, third, cadmin member
	super, outsider     *testenv.Client
	guest               *testenv.Client
}

func newChatFixture(t *testing.T, env *testenv.Env) *chatFixture {
	t.Helper()
	f := &chatFixture{env: env, community: newCommunity(t, env)}
	f.a, f.b, f.third = fresh(t, env, f.community, "ChatA"), fresh(t, env, f.community, "ChatB"), fresh(t, env, f.community, "ChatThird")
	f.cadmin = communityAdmin(t, env, f.community)
	f.super, f.outsider, f.guest = env.As(t, superEmail), env.As(t, outsiderEmail), env.Client(t)
	return f
}

// send has c send raw to the user to and returns the message.
func send(t *testing.T, c *testenv.Client, to, raw string) chatMessage {
	t.Helper()
	r := c.Do("POST", "/api/threads/private", map[string]any{"memberIds": []string{to}, "raw": raw})
	wantStatus(t, r, 201)
	var m chatMessage
	r.JSON(t, &m)
	return m
}

func channels(t *testing.T, c *testenv.Client) channelList {
	t.Helper()
	return listChannels(t, c, "")
}

// chatDigest fingerprints every row of private chat and personalization,
// and the uploads, for checking that a refused call wrote nothing.
func chatDigest(t *testing.T, env *testenv.Env) string {
	t.Helper()
	return queryString(t, env, `SELECT md5(concat_ws('|',
		(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM channels x WHERE x.kind = 'private'),
		(SELECT string_agg(x::text, ',' ORDER BY x.channel_id, x.user_id) FROM channel_members x),
		(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM private_messages x),
		(SELECT string_agg(x::text, ',' ORDER BY x.message_id, x.user_id) FROM private_message_reactions x),
		(SELECT string_agg(x::text, ',' ORDER BY x.user_id) FROM user_personalization x),
		(SELECT string_agg(x::text, ',' ORDER BY x.id) FROM uploads x)))`)
}

// TestChatConversation: a message makes the pair's channel, the other
// member sees it unread until they open it, a reply goes to the same
// channel, and the author edits and deletes their message.
func TestChatConversation(t *testing.T) {
	env := testenv.New(t)
	f := newChatFixture(t, env)
	m := send(t, f.a.Client, f.b.UserID, "  hello there  ")
	if m.Raw != "hello there" || !m.IsMine || m.CreatorID != f.a.UserID || m.Creator.UserID != f.a.UserID || m.ChannelID == "" || len(m.Reactions) != 0 {
		t.Fatalf("message %+v", m)
	}
	l := channels(t, f.b.Client)
	if l.Total != 1 || len(l.Results) != 1 {
		t.Fatalf("b's channels %+v", l)
	}
	ch := l.Results[0]
	if ch.ID != m.ChannelID || !ch.HasUnread || ch.LastSeenOn != nil || ch.Peer.UserID != f.a.UserID ||
		ch.LatestThread == nil || ch.LatestThread.ID != m.ID || ch.LatestThread.Raw != "hello there" ||
		len(ch.MemberIDs) != 2 || ch.MemberIDs[0] != f.b.UserID || ch.MemberIDs[1] != f.a.UserID {
		t.Errorf("b's channel %+v", ch)
	}
	if mine := channels(t, f.a.Client).Results[0]; mine.HasUnread {
		t.Error("the author's own message is unread to them")
	}
	r := f.b.Client.Do("GET", "/api/channels/private/"+m.ChannelID+"/threads", nil)
	wantStatus(t, r, 200)
	var p chatPage
	r.JSON(t, &p)
	if p.Total != 1 || len(p.Results) != 1 || p.Results[0].ID != m.ID || p.Results[0].IsMine {
		t.Errorf("b's conversation %+v", p)
	}

	wantStatus(t, f.b.Client.Do("POST", "/api/channels/private/"+m.ChannelID+"/seen", nil), 204)
	if ch := channels(t, f.b.Client).Results[0]; ch.HasUnread || ch.LastSeenOn == nil {
		t.Errorf("after seen: %+v", ch)
	}
	reply := send(t, f.b.Client, f.a.UserID, "hi!")
	if reply.ChannelID != m.ChannelID {
		t.Errorf("the reply made channel %s, not %s", reply.ChannelID, m.ChannelID)
	}
	if ch := channels(t, f.a.Client).Results[0]; !ch.HasUnread || ch.LatestThread.ID != reply.ID {
		t.Errorf("a's channel after the reply: %+v", ch)
	}
	if n := env.Count(t, "channels", "kind = 'private' AND id = $1", m.ChannelID); n != 1 {
		t.Errorf("%d channels", n)
	}

	r = f.a.Client.Do("PATCH", "/api/threads/private/"+m.ID, map[string]any{"raw": "hello, edited"})
	wantStatus(t, r, 200)
	var edited chatMessage
	r.JSON(t, &edited)
	if edited.Raw != "hello, edited" || !edited.IsMine {
		t.Errorf("edited %+v", edited)
	}
	before := chatDigest(t, env)
	wantError(t, f.b.Client.Do("PATCH", "/api/threads/private/"+m.ID, map[string]any{"raw": "not mine"}), 403, "forbidden")
	wantError(t, f.b.Client.Do("DELETE", "/api/threads/private/"+m.ID, nil), 403, "forbidden")
	if chatDigest(t, env) != before {
		t.Error("the other member's refused edit or delete wrote")
	}
	wantStatus(t, f.a.Client.Do("DELETE", "/api/threads/private/"+m.ID, nil), 204)
	if n := env.Count(t, "private_messages", "id = $1", m.ID); n != 0 {
		t.Error("the message stayed")
	}
}

// TestChatReactions: a member reacts to the other's message, the same
// reaction again clears it, and a reaction on one's own message is refused.
func TestChatReactions(t *testing.T) {
	env := testenv.New(t)
	f := newChatFixture(t, env)
	m := send(t, f.a.Client, f.b.UserID, "react to me")
	path := "/api/threads/private/" + m.ID + "/reaction"
	react := func(c *testenv.Client, reaction any) chatMessage {
		t.Helper()
		r := c.Do("PUT", path, map[string]any{"reaction": reaction})
		wantStatus(t, r, 200)
		var got chatMessage
		r.JSON(t, &got)
		return got
	}
	if got := react(f.b.Client, "liked"); got.Reactions[f.b.UserID] != "liked" || got.IsMine {
		t.Errorf("after liked: %+v", got)
	}
	if got := react(f.b.Client, "loved"); got.Reactions[f.b.UserID] != "loved" || len(got.Reactions) != 1 {
		t.Errorf("after loved: %+v", got)
	}
	if got := react(f.b.Client, "loved"); len(got.Reactions) != 0 {
		t.Errorf("the same reaction again did not clear it: %+v", got)
	}
	react(f.b.Client, "smiled")
	if got := react(f.b.Client, nil); len(got.Reactions) != 0 {
		t.Errorf("null did not clear: %+v", got)
	}
	before := chatDigest(t, env)
	wantError(t, f.a.Client.Do("PUT", path, map[string]any{"reaction": "liked"}), 400, "ownReaction")
	wantError(t, f.b.Client.Do("PUT", path, map[string]any{"reaction": "adored"}), 400, "validationFailed")
	wantError(t, f.b.Client.Do("PUT", path, map[string]any{}), 400, "parametersMissingException")
	if chatDigest(t, env) != before {
		t.Error("refused reactions wrote")
	}
}

// TestChatLimits: the text's 800 characters, an empty message, and who the
// message may go to, refused with nothing written.
func TestChatLimits(t *testing.T) {
	env := testenv.New(t)
	f := newChatFixture(t, env)
	m := send(t, f.a.Client, f.b.UserID, strings.Repeat("é", 800))
	if len([]rune(m.Raw)) != 800 {
		t.Errorf("raw of %d characters kept", len([]rune(m.Raw)))
	}
	before := chatDigest(t, env)
	cases := []struct {
		name   string
		body   map[string]any
		status int
		code   string
		field  string
	}{
		{"801 characters", map[string]any{"memberIds": []string{f.b.UserID}, "raw": strings.Repeat("é", 801)}, 400, "validationFailed", "raw"},
		{"no text", map[string]any{"memberIds": []string{f.b.UserID}, "raw": "   "}, 400, "validationFailed", "raw"},
		{"to oneself", map[string]any{"memberIds": []string{f.a.UserID}, "raw": "me"}, 400, "validationFailed", "memberIds"},
		{"to two", map[string]any{"memberIds": []string{f.b.UserID, f.third.UserID}, "raw": "you two"}, 400, "validationFailed", "memberIds"},
		{"to nobody", map[string]any{"memberIds": []string{}, "raw": "anyone"}, 400, "validationFailed", "memberIds"},
		{"to a non-UUID", map[string]any{"memberIds": []string{"x"}, "raw": "x"}, 400, "validationFailed", "memberIds"},
		{"without memberIds", map[string]any{"raw": "x"}, 400, "parametersMissingException", ""},
		{"a foreign image", map[string]any{"memberIds": []string{f.b.UserID}, "image": map[string]any{"url": "https://example.com/a.png"}}, 400, "validationFailed", "image"},
		{"to an outsider", map[string]any{"memberIds": []string{profileUser(t, env, outsiderEmail)}, "raw": "hi"}, 403, "forbidden", ""},
		{"to an unknown user", map[string]any{"memberIds": []string{uuid.NewString()}, "raw": "hi"}, 403, "forbidden", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := wantError(t, f.a.Client.Do("POST", "/api/threads/private", tc.body), tc.status, tc.code)
			if tc.field != "" {
				if fields, _ := e.Details["fields"].(map[string]any); fields[tc.field] == nil {
					t.Errorf("no message for %s: %+v", tc.field, e)
				}
			}
		})
	}
	r := f.a.Client.Do("PATCH", "/api/threads/private/"+m.ID, map[string]any{"raw": strings.Repeat("a", 801)})
	wantError(t, r, 400, "validationFailed")
	if chatDigest(t, env) != before {
		t.Error("refused messages wrote")
	}
}

// profileUser is the user id of a demo login.
func profileUser(t *testing.T, env *testenv.Env, email string) string {
	t.Helper()
	return queryString(t, env, "SELECT id::text FROM users WHERE email = $1", email)
}

// TestChatPaging: a conversation newest first, 20 a page by default, the
// next page before the last createdOn.
func TestChatPaging(t *testing.T) {
	env := testenv.New(t)
	f := newChatFixture(t, env)
	var channel string
	for i := range 25 {
		channel = send(t, f.a.Client, f.b.UserID, fmt.Sprintf("message %d", i)).ChannelID
	}
	var p chatPage
	r := f.b.Client.Do("GET", "/api/channels/private/"+channel+"/threads", nil)
	wantStatus(t, r, 200)
	r.JSON(t, &p)
	if p.Total != 25 || len(p.Results) != 20 || p.Results[0].Raw != "message 24" || p.Results[19].Raw != "message 5" {
		t.Fatalf("first page: total %d, %d results", p.Total, len(p.Results))
	}
	var next chatPage
	r = f.b.Client.Do("GET", "/api/channels/private/"+channel+"/threads?pageSize=20&createdBefore="+p.Results[19].CreatedOn, nil)
	wantStatus(t, r, 200)
	r.JSON(t, &next)
	if len(next.Results) != 5 || next.Results[0].Raw != "message 4" || next.Results[4].Raw != "message 0" {
		t.Errorf("second page: %+v", next.Results)
	}
	wantError(t, f.b.Client.Do("GET", "/api/channels/private/"+channel+"/threads?pageSize=101", nil), 400, "validationFailed")
	wantError(t, f.b.Client.Do("GET", "/api/channels/private/"+channel+"/threads?createdBefore=yesterday", nil), 400, "validationFailed")
}

// TestChatChannelWithPeer: peerId finds the one channel with that member
// however many newer ones the caller has (the conversation looks its
// channel up so), nothing for someone they have no channel with, and a
// peerId that is not a UUID is refused.
func TestChatChannelWithPeer(t *testing.T) {
	env := testenv.New(t)
	f := newChatFixture(t, env)
	oldest := send(t, f.a.Client, f.b.UserID, "the oldest").ChannelID
	exec(t, env, `UPDATE private_messages SET created_on = now() - interval '1 day' WHERE channel_id = $1`, oldest)
	exec(t, env, `UPDATE channels SET created_on = now() - interval '1 day' WHERE id = $1`, oldest)
	// 101 newer channels of a's, with people made for them.
	exec(t, env, `WITH u AS (
			INSERT INTO users (id, email, email_key, first_name, last_name, password_hash)
			SELECT gen_random_uuid(), e, lower(e), 'Many', 'Channels', 'x'
			FROM generate_series(1, 101) i, LATERAL (SELECT $2 || i || '@example.test' AS e) a RETURNING id),
		c AS (
			INSERT INTO channels (id, kind, pair_key)
			SELECT gen_random_uuid(), 'private', least($1::text, u.id::text) || ':' || greatest($1::text, u.id::text) FROM u
			RETURNING id, pair_key)
		INSERT INTO channel_members (channel_id, user_id)
		SELECT c.id, m::uuid FROM c, unnest(string_to_array(c.pair_key, ':')) m`, f.a.UserID, testenv.Unique("many"))
	all := listChannels(t, f.a.Client, "pageSize=100")
	if all.Total != 102 || slices.ContainsFunc(all.Results, func(c privateChannel) bool { return c.ID == oldest }) {
		t.Fatalf("first page: total %d, the oldest channel listed: want 102 and not among the newest 100", all.Total)
	}

	for name, c := range map[string]struct {
		reader *testenv.Client
		peer   string
	}{"the author": {f.a.Client, f.b.UserID}, "the other member": {f.b.Client, f.a.UserID}} {
		got := listChannels(t, c.reader, "peerId="+c.peer)
		if got.Total != 1 || len(got.Results) != 1 {
			t.Fatalf("%s: total %d, %d results; want the one channel", name, got.Total, len(got.Results))
		}
		ch := got.Results[0]
		if ch.ID != oldest || ch.Peer.UserID != c.peer || ch.LatestThread == nil || ch.LatestThread.Raw != "the oldest" {
			t.Errorf("%s: channel %+v, want %s with the peer %s", name, ch, oldest, c.peer)
		}
	}
	// Past the one result: nothing, and the same total.
	if p := listChannels(t, f.a.Client, "page=2&peerId="+f.b.UserID); p.Total != 1 || len(p.Results) != 0 {
		t.Errorf("page 2: total %d, %d results; want 1 and none", p.Total, len(p.Results))
	}
	// No channel with them: a member of the community, a stranger, oneself,
	// nobody; nor does a third member see the pair's channel by the peer.
	for name, q := range map[string]struct {
		reader *testenv.Client
		peer   string
	}{
		"a member never written to": {f.a.Client, f.third.UserID},
		"a stranger":                {f.a.Client, profileUser(t, env, outsiderEmail)},
		"oneself":                   {f.a.Client, f.a.UserID},
		"nobody":                    {f.a.Client, uuid.NewString()},
		"a third member's look":     {f.third.Client, f.b.UserID},
	} {
		if got := listChannels(t, q.reader, "peerId="+q.peer); got.Total != 0 || len(got.Results) != 0 {
			t.Errorf("%s: total %d, %d results; want none", name, got.Total, len(got.Results))
		}
	}
	before := chatDigest(t, env)
	for _, bad := range []string{"not-a-uuid", "123", f.b.UserID + "x"} {
		wantInvalid(t, f.a.Client.Do("GET", "/api/channels/private?peerId="+bad, nil), "peerId")
	}
	if chatDigest(t, env) != before {
		t.Error("refused calls wrote")
	}
}

// listChannels is GET /api/channels/private?query as c.
func listChannels(t *testing.T, c *testenv.Client, query string) channelList {
	t.Helper()
	path := "/api/channels/private"
	if query != "" {
		path += "?" + query
	}
	r := c.Do("GET", path, nil)
	wantStatus(t, r, 200)
	var l channelList
	r.JSON(t, &l)
	return l
}

// TestChatStrangers: a third member of the community, an admin of it, a
// super user and an outsider neither read nor write the channel, which is
// as unknown to them as any id, and nothing is written.
func TestChatStrangers(t *testing.T) {
	env := testenv.New(t)
	f := newChatFixture(t, env)
	m := send(t, f.a.Client, f.b.UserID, "between us")
	before := chatDigest(t, env)
	for name, c := range map[string]*testenv.Client{"third member": f.third.Client, "community admin": f.cadmin.Client, "super user": f.super, "outsider": f.outsider} {
		t.Run(name, func(t *testing.T) {
			wantError(t, c.Do("GET", "/api/channels/private/"+m.ChannelID+"/threads", nil), 404, "notFound")
			wantError(t, c.Do("POST", "/api/channels/private/"+m.ChannelID+"/seen", nil), 404, "notFound")
			wantError(t, c.Do("PATCH", "/api/threads/private/"+m.ID, map[string]any{"raw": "mine now"}), 404, "notFound")
			wantError(t, c.Do("DELETE", "/api/threads/private/"+m.ID, nil), 404, "notFound")
			wantError(t, c.Do("PUT", "/api/threads/private/"+m.ID+"/reaction", map[string]any{"reaction": "liked"}), 404, "notFound")
			for _, ch := range channels(t, c).Results {
				if ch.ID == m.ChannelID {
					t.Error("the channel is listed")
				}
			}
		})
	}
	if chatDigest(t, env) != before {
		t.Error("strangers' calls wrote")
	}
}

// TestPersonalizationFeedKey: the feed keeps the link confirmation's
// "don't ask again" in the personalization; no other feed key is taken.
func TestPersonalizationFeedKey(t *testing.T) {
	env := testenv.New(t)
	f := newChatFixture(t, env)
	path := "/api/users/" + f.a.UserID + "/personalization"
	r := f.a.Client.Do("PATCH", path, map[string]any{"feed.webLink.dontConfirmNavigation": true})
	wantStatus(t, r, 200)
	var got map[string]any
	r.JSON(t, &got)
	if got["feed.webLink.dontConfirmNavigation"] != true {
		t.Errorf("after the patch: %v", got)
	}
	before := chatDigest(t, env)
	wantError(t, f.a.Client.Do("PATCH", path, map[string]any{"feed.other": true}), 400, "validationFailed")
	if chatDigest(t, env) != before {
		t.Error("a refused key was written")
	}
}

// TestPersonalization: the user's own key/value settings, merged by dotted
// key, null removing one; the conversation's lastActivityOn shows on the
// channel; anyone else is refused.
func TestPersonalization(t *testing.T) {
	env := testenv.New(t)
	f := newChatFixture(t, env)
	path := "/api/users/" + f.a.UserID + "/personalization"
	r := f.a.Client.Do("GET", path, nil)
	wantStatus(t, r, 200)
	if strings.TrimSpace(string(r.Body)) != "{}" {
		t.Errorf("empty personalization %s", r.Body)
	}
	m := send(t, f.a.Client, f.b.UserID, "hi")
	activity := "2026-01-02T03:04:05.000Z"
	r = f.a.Client.Do("PATCH", path, map[string]any{
		"reminders.newMessages.dismissed":                  []string{m.ID},
		"conversations." + m.ChannelID + ".lastActivityOn": activity,
		"notifications.timezone":                           "Europe/Paris",
	})
	wantStatus(t, r, 200)
	var got map[string]any
	r.JSON(t, &got)
	if len(got) != 3 || got["notifications.timezone"] != "Europe/Paris" {
		t.Errorf("after the first patch: %v", got)
	}
	if ch := channels(t, f.a.Client).Results[0]; ch.LastActivity == nil || *ch.LastActivity != activity {
		t.Errorf("lastActivityOn %v", ch.LastActivity)
	}
	r = f.a.Client.Do("PATCH", path, map[string]any{"notifications.timezone": nil, "reminders.meeting.dismissed": []string{}})
	wantStatus(t, r, 200)
	got = nil
	r.JSON(t, &got)
	if _, ok := got["notifications.timezone"]; ok || len(got) != 3 {
		t.Errorf("after the second patch: %v", got)
	}

	before := chatDigest(t, env)
	// Another's personalization is unknown to anyone else (issue 31, G7).
	wantError(t, f.b.Client.Do("GET", path, nil), 404, "notFound")
	wantError(t, f.b.Client.Do("PATCH", path, map[string]any{"feed.webLink.dontConfirmNavigation": true}), 404, "notFound")
	wantError(t, f.super.Do("GET", path, nil), 404, "notFound")
	unknown := "/api/users/" + uuid.NewString() + "/personalization"
	wantError(t, f.a.Client.Do("GET", unknown, nil), 404, "notFound")
	wantError(t, f.a.Client.Do("PATCH", unknown, map[string]any{"feed.webLink.dontConfirmNavigation": true}), 404, "notFound")
	wantError(t, f.a.Client.Do("PATCH", path, map[string]any{"theme.dark": true}), 400, "validationFailed")
	wantError(t, f.a.Client.Do("PATCH", path, map[string]any{"reminders.a b": true}), 400, "validationFailed")
	wantError(t, f.a.Client.Do("PATCH", path, map[string]any{"reminders.big": strings.Repeat("x", 70<<10)}), 400, "validationFailed")
	wantError(t, f.a.Client.Do("PATCH", path, []string{"x"}), 400, "invalidBody")
	wantError(t, f.guest.Do("GET", path, nil), 401, "authenticationRequired")
	if chatDigest(t, env) != before {
		t.Error("refused personalization calls wrote")
	}
	// The stored object stays within its bound, however it is grown: a
	// full list of long strings (some 51 KiB), then a full list of ids.
	long := make([]string, 500)
	for i := range long {
		long[i] = fmt.Sprintf("%03d", i) + strings.Repeat("x", 97)
	}
	wantStatus(t, f.a.Client.Do("PATCH", path, map[string]any{"reminders.meeting.dismissed": long}), 200)
	ids := make([]string, 500)
	for i := range ids {
		ids[i] = uuid.NewString()
	}
	wantInvalid(t, f.a.Client.Do("PATCH", path, map[string]any{"notifications.posts.dismissed": ids}), "data")
}

// TestPersonalizationKeys: each key of the contract of issue 17 takes its
// kind of value and no other, an unknown key is refused by name, lists
// hold at most 500 entries; a refused body writes nothing.
func TestPersonalizationKeys(t *testing.T) {
	env := testenv.New(t)
	f := newChatFixture(t, env)
	path := "/api/users/" + f.a.UserID + "/personalization"
	id := uuid.NewString()
	good := map[string]any{
		"notifications.posts.lastSeenAt": "2026-01-02T03:04:05.000Z", "notifications.meetups.lastSeenAt": "2026-01-02T03:04:05+02:00",
		"notifications.posts.dismissed": []string{id}, "notifications.posts.read": []string{},
		"notifications.timezone":       "America/New_York",
		"notifications.email.mentions": false, "notifications.email.privateChats": true,
		"notifications.push.mentions": true, "notifications.push.privateChats": false, "notifications.push.comments": true,
		"notifications.digest.frequency": "weekly", "notifications.insights.frequency": "off",
		"notifications.digest.hour": 23, "notifications.digest.weekday": 0,
		"feed.webLink.dontConfirmNavigation":      true,
		"conversations." + id + ".lastActivityOn": "2026-01-02T03:04:05Z",
		"reminders.newMessages.dismissed":         []string{id}, "reminders.meeting.dismissed": []string{"meeting-1"},
	}
	r := f.a.Client.Do("PATCH", path, good)
	wantStatus(t, r, 200)
	var got map[string]any
	r.JSON(t, &got)
	if len(got) != len(good) {
		t.Errorf("stored %d keys, want %d: %v", len(got), len(good), got)
	}
	tooMany := make([]string, 501)
	for i := range tooMany {
		tooMany[i] = uuid.NewString()
	}
	before := queryString(t, env, "SELECT data::text FROM user_personalization WHERE user_id = $1", f.a.UserID)
	for key, bad := range map[string]any{
		"notifications.posts.lastSeenAt":             "yesterday",
		"notifications.meetups.lastSeenAt":           12,
		"notifications.posts.dismissed":              []string{"not-a-uuid"},
		"notifications.posts.read":                   tooMany,
		"notifications.timezone":                     "Mars/Olympus",
		"notifications.email.mentions":               "yes",
		"notifications.push.comments":                1,
		"notifications.digest.frequency":             "hourly",
		"notifications.digest.hour":                  24,
		"notifications.digest.weekday":               1.5,
		"feed.webLink.dontConfirmNavigation":         "true",
		"conversations.not-a-channel.lastActivityOn": "2026-01-02T03:04:05Z",
		"reminders.newMessages.dismissed":            "x",
		"reminders.meeting.dismissed":                []string{strings.Repeat("m", 101)},
		"notifications.unknown":                      true,
		"reminders.big":                              "x",
	} {
		wantInvalid(t, f.a.Client.Do("PATCH", path, map[string]any{key: bad, "notifications.insights.frequency": "daily"}), key)
	}
	if after := queryString(t, env, "SELECT data::text FROM user_personalization WHERE user_id = $1", f.a.UserID); after != before {
		t.Errorf("refused bodies wrote:\n%s\n%s", before, after)
	}
	// null removes a key, even one that is no longer a personalization key.
	wantStatus(t, f.a.Client.Do("PATCH", path, map[string]any{"notifications.timezone": nil, "reminders.old": nil}), 200)
}

// TestPrivateMessagesNotSearched: a private message never reaches the post
// search index, though a post written after it with the same word does.
func TestPrivateMessagesNotSearched(t *testing.T) {
	env, store := testenv.NewSearch(t)
	f := newChatFixture(t, env)
	word := "zq" + strings.ReplaceAll(uuid.NewString()[:8], "-", "")
	m := send(t, f.a.Client, f.b.UserID, "the secret word is "+word)
	forum := createForum(t, env.As(t, adminEmail), f.community)
	wantStatus(t, assign(t, env.As(t, adminEmail), forum.ID, "member", f.a.ProfileID), 204)
	p := post(t, f.a.Client, forum.ID, map[string]any{"channelId": forum.MainChannelID, "raw": "the public word is " + word})
	aiWaitIndexed(t, store, p.ID, forum.MainChannelID)
	// Readable by the member, through the forum's channel or the private
	// one: what a leaked message would be indexed under.
	res, err := store.Posts().Search(context.Background(), search.Query{Text: word, Limit: 50,
		Filter: search.Filter{search.ReadableBy(f.a.UserID, forum.MainChannelID, m.ChannelID)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || res.Hits[0].ID != p.ID {
		t.Errorf("the search index holds %+v for the word, want only the post %s", res.Hits, p.ID)
	}
}

// TestChatAttachments: a private message shows an image and a file of its
// author's uploads, as a post does: a member of a community alone may
// upload for it, each read signs URLs that work, the sweep leaves them,
// another post or message cannot take them, and they go with the message.
func TestChatAttachments(t *testing.T) {
	e := newUploadEnv(t)
	f := newChatFixture(t, e.Env)
	img := e.upload(t, f.a.Client, "image", "a.png", "image/png", pngBytes(t, 6, 6))
	file := e.upload(t, f.a.Client, "file", "a.pdf", "application/pdf", pdfBytes)
	r := f.a.Client.Do("POST", "/api/threads/private", map[string]any{"memberIds": []string{f.b.UserID},
		"image": map[string]any{"url": img.URL}, "file": map[string]any{"id": file.ID, "name": file.Name, "url": file.URL, "mediaType": file.MediaType}})
	wantStatus(t, r, 201)
	var m struct {
		ID        string `json:"id"`
		ChannelID string `json:"channelId"`
		Image     struct{ URL string }
		File      struct{ ID, URL string }
	}
	r.JSON(t, &m)
	if m.File.ID != file.ID || m.Image.URL == "" || m.File.URL == "" {
		t.Fatalf("message %s", r.Body)
	}
	anon := e.Client(t)
	for _, u := range []string{m.Image.URL, m.File.URL} {
		if r := anon.Do("GET", e.local(t, u), nil); r.Status != 200 {
			t.Errorf("GET %s: %d", u, r.Status)
		}
	}

	// The sweep, run by a node starting on the same blob folder, takes an
	// upload nothing shows and leaves the message's.
	forgotten := e.upload(t, f.a.Client, "file", "forgotten.pdf", "application/pdf", pdfBytes)
	exec(t, e.Env, `UPDATE uploads SET created_on = now() - interval '2 days' WHERE id = ANY($1::uuid[])`, []string{forgotten.ID, img.ID, file.ID})
	testenv.New(t, func(c *config.Config) { c.Blobs.Dir = e.dir })
	eventually(t, func() bool { return e.Count(t, "uploads", "id = $1", forgotten.ID) == 0 })
	if e.Count(t, "uploads", "id = ANY($1::uuid[]) AND private_message_id = $2", []string{img.ID, file.ID}, m.ID) != 2 {
		t.Error("the sweep took the message's uploads")
	}

	// Another message cannot show them, nor can the other member.
	before := chatDigest(t, e.Env)
	wantError(t, f.a.Client.Do("POST", "/api/threads/private", map[string]any{"memberIds": []string{f.third.UserID}, "image": map[string]any{"url": img.URL}}), 400, "validationFailed")
	wantError(t, f.b.Client.Do("POST", "/api/threads/private", map[string]any{"memberIds": []string{f.a.UserID},
		"file": map[string]any{"id": file.ID, "name": file.Name, "url": file.URL, "mediaType": file.MediaType}}), 400, "validationFailed")
	if chatDigest(t, e.Env) != before {
		t.Error("refused attachments wrote")
	}

	// Deleting the message removes its uploads and ends their URLs.
	wantStatus(t, f.a.Client.Do("DELETE", "/api/threads/private/"+m.ID, nil), 204)
	for _, u := range []string{m.Image.URL, m.File.URL} {
		if r := anon.Do("GET", e.local(t, u), nil); r.Status != 404 {
			t.Errorf("after delete, %s answers %d, want 404", u, r.Status)
		}
	}
	for _, id := range []string{img.ID, file.ID} {
		if slices.Contains(e.files(t, "objects"), id) || e.Count(t, "uploads", "id = $1", id) != 0 {
			t.Errorf("upload %s outlived its message", id)
		}
	}
}

// TestPeersFollowPrivateChat: GET /peers sorts by the latest private
// message with each peer, and pins a peer whose latest message the caller
// has not seen.
func TestPeersFollowPrivateChat(t *testing.T) {
	env := testenv.New(t)
	f := newChatFixture(t, env)
	type peer struct {
		UserID        string  `json:"userId"`
		LastMessageOn *string `json:"lastMessageOn"`
	}
	peers := func(c *testenv.Client) []peer {
		t.Helper()
		r := c.Do("GET", "/api/peers?pageSize=9999", nil)
		wantStatus(t, r, 200)
		var l struct{ Results []peer }
		r.JSON(t, &l)
		return l.Results
	}
	send(t, f.b.Client, f.third.UserID, "an older chat")
	m := send(t, f.a.Client, f.b.UserID, "unseen")
	got := peers(f.b.Client)
	if len(got) < 2 || got[0].UserID != f.a.UserID || got[0].LastMessageOn == nil || *got[0].LastMessageOn != m.CreatedOn {
		t.Fatalf("b's peers begin %+v, want a pinned with lastMessageOn %s", got[:min(2, len(got))], m.CreatedOn)
	}
	wantStatus(t, f.b.Client.Do("POST", "/api/channels/private/"+m.ChannelID+"/seen", nil), 204)
	// Seen, a is no longer pinned; a and the third member, with whom b has
	// chatted, come before those b has not, latest first.
	got = peers(f.b.Client)
	var chatted []string
	for _, p := range got {
		if p.LastMessageOn != nil {
			chatted = append(chatted, p.UserID)
		}
	}
	if len(chatted) != 2 || chatted[0] != f.a.UserID || chatted[1] != f.third.UserID {
		t.Errorf("peers with a chat %v, want a then the third member", chatted)
	}
	if n := peers(f.third.Client); len(n) == 0 {
		t.Error("the third member has no peers")
	}
}
