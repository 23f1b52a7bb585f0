package httpapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/uuid"

	"agora/app/seed"
	"agora/app/testenv"
)

// TestAnonymousAskerLook: those who administer the forum see who asked an
// anonymous question, and each look is recorded; members, outsiders and
// looks at signed posts are refused and record nothing.
func TestAnonymousAskerLook(t *testing.T) {
	f := newFeedFixture(t)
	env := f.env
	member, expert, admin, super, outsider := env.As(t, seed.MemberEmail), env.As(t, seed.ExpertEmail), env.As(t, seed.AdminEmail),
		env.As(t, seed.SuperEmail), env.As(t, seed.OutsiderEmail)
	memberID, adminID, superID := f.user(t, seed.MemberEmail), f.user(t, seed.AdminEmail), f.user(t, seed.SuperEmail)

	q := post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "who decides?", "type": "question", "creatorAs": "anonymous"})
	signed := post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "a signed question", "type": "question"})
	path := "/api/threads/" + q.ID + "/asker"
	looks := func(viewer string) int {
		return env.Count(t, "anonymous_asker_looks", "thread_id = $1 AND viewer_id = $2", q.ID, viewer)
	}

	r := admin.Do("GET", path, nil)
	if r.Status != 200 {
		t.Fatalf("forum admin looks: %d %s", r.Status, r.Body)
	}
	var asker struct {
		ID        string  `json:"id"`
		UserID    string  `json:"userId"`
		FirstName string  `json:"firstName"`
		LastName  string  `json:"lastName"`
		Avatar    *string `json:"avatar"`
		JobTitle  string  `json:"jobTitle"`
		Company   string  `json:"company"`
	}
	r.JSON(t, &asker)
	profile := f.id(t, "SELECT id FROM profiles WHERE user_id = $1 AND organization_id = $2", memberID, seed.OrganizationID)
	if asker.UserID != memberID || asker.ID != profile || asker.FirstName == "" || asker.LastName == "" {
		t.Errorf("asker %+v, want the member (user %s, profile %s)", asker, memberID, profile)
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", cc)
	}
	if n := looks(adminID); n != 1 {
		t.Errorf("%d looks recorded for the forum admin, want 1", n)
	}
	var lookedOn bool
	if err := env.DB.Pool.QueryRow(t.Context(), `SELECT looked_on > now() - interval '1 minute' FROM anonymous_asker_looks
		WHERE thread_id = $1 AND viewer_id = $2`, q.ID, adminID).Scan(&lookedOn); err != nil || !lookedOn {
		t.Errorf("looked_on is not now: %v %v", lookedOn, err)
	}
	// Each look is its own record; a super user administers every forum.
	admin.Do("GET", path, nil)
	if r := super.Do("GET", path, nil); r.Status != 200 || !strings.Contains(string(r.Body), memberID) {
		t.Errorf("super user looks: %d %s", r.Status, r.Body)
	}
	if looks(adminID) != 2 || looks(superID) != 1 {
		t.Errorf("looks recorded: admin %d (want 2), super %d (want 1)", looks(adminID), looks(superID))
	}

	all := func() int { return env.Count(t, "anonymous_asker_looks", "") }
	before := all()
	cases := []struct {
		name   string
		c      *testenv.Client
		path   string
		status int
		code   string
	}{
		{"a member", expert, path, 403, "forbidden"},
		{"the asker, a member", member, path, 403, "forbidden"},
		{"an outsider", outsider, path, 404, "notFound"}, // the post is unknown to them (F12)
		{"a guest", env.Client(t), path, 401, "authenticationRequired"},
		{"a signed question", admin, "/api/threads/" + signed.ID + "/asker", 400, "threadNotAnonymous"},
		{"a member, at a signed question", expert, "/api/threads/" + signed.ID + "/asker", 403, "forbidden"},
		{"an unknown post", admin, "/api/threads/" + uuid.NewString() + "/asker", 404, "notFound"},
		{"a non-UUID post", admin, "/api/threads/x/asker", 400, "validationFailed"},
	}
	for _, c := range cases {
		r := c.c.Do("GET", c.path, nil)
		if r.Status != c.status || r.Code() != c.code {
			t.Errorf("%s: %d %s, want %d %s", c.name, r.Status, r.Body, c.status, c.code)
		}
		if strings.Contains(string(r.Body), memberID) {
			t.Errorf("%s: the refusal names the asker: %s", c.name, r.Body)
		}
	}
	if after := all(); after != before {
		t.Errorf("refused looks recorded %d rows", after-before)
	}
}

// TestAnonymousAskerHiddenFromReads: the reads that show creators (the
// feed page, the post, its comments and the reactions list) never name an
// anonymous question's asker to the forum's other readers, its admins
// included; only the recorded look does.
func TestAnonymousAskerHiddenFromReads(t *testing.T) {
	f := newFeedFixture(t)
	env := f.env
	member, expert, admin := env.As(t, seed.MemberEmail), env.As(t, seed.ExpertEmail), env.As(t, seed.AdminEmail)
	memberID := f.user(t, seed.MemberEmail)
	q := post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "who decides? #Anon", "type": "question", "creatorAs": "anonymous"})
	// Others react and comment; the expert's comment gets a reply and a reaction.
	if r := expert.Do("PUT", "/api/threads/"+q.ID+"/reaction", map[string]any{"reaction": "liked"}); r.Status != 200 {
		t.Fatalf("react: %d %s", r.Status, r.Body)
	}
	var c replyView
	if r := expert.Do("POST", "/api/threads/"+q.ID+"/replies", map[string]any{"raw": "the forum admins do"}); r.Status != 201 {
		t.Fatalf("comment: %d %s", r.Status, r.Body)
	} else {
		r.JSON(t, &c)
	}
	if r := admin.Do("PUT", "/api/threads/"+q.ID+"/replies/"+c.ID+"/reaction", map[string]any{"reaction": "loved"}); r.Status != 200 {
		t.Fatalf("react to the comment: %d %s", r.Status, r.Body)
	}
	// The asker's own edit changes nothing of this.
	if r := member.Do("PATCH", "/api/threads/"+q.ID, map[string]any{"raw": "who decides here?"}); r.Status != 200 ||
		strings.Contains(string(r.Body), memberID) {
		t.Errorf("the asker's edit: %d %s", r.Status, r.Body)
	}

	for _, who := range []struct {
		name string
		c    *testenv.Client
	}{{"a member", expert}, {"a forum admin", admin}} {
		for _, path := range []string{
			"/api/threads/" + q.ID,
			"/api/channels/" + f.welcomeMain + "/threads?pageSize=50",
			"/api/thread/" + q.ID + "/reactions",
			"/api/thread/" + q.ID + "/reactions?replyId=" + c.ID,
		} {
			r := who.c.Do("GET", path, nil)
			if r.Status != 200 {
				t.Errorf("%s GET %s: %d %s", who.name, path, r.Status, r.Body)
				continue
			}
			body := r.Body
			if strings.HasPrefix(path, "/api/channels/") {
				// The page holds other posts of the member's, signed: look at the question.
				var page struct {
					Results []json.RawMessage `json:"results"`
				}
				r.JSON(t, &page)
				body = nil
				for _, p := range page.Results {
					if strings.Contains(string(p), `"id":"`+q.ID+`"`) {
						body = p
					}
				}
				if body == nil {
					t.Errorf("%s: the question is not in the feed", who.name)
				}
			}
			if strings.Contains(string(body), memberID) {
				t.Errorf("%s GET %s names the asker: %s", who.name, path, body)
			}
		}
	}
}
