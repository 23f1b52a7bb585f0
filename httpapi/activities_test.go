package httpapi_test

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"agora/app/testenv"
)

type newPostsPage struct {
	Results []struct {
		SeriesID    string `json:"seriesId"`
		CommunityID string `json:"communityId"`
		Count       int    `json:"count"`
		LatestOn    string `json:"latestOn"`
	} `json:"results"`
	Total int `json:"total"`
}

// newIn is how many posts of forum the caller is told are new (0 when the
// forum is not listed).
func newIn(t *testing.T, c *testenv.Client, query, forum string) int {
	t.Helper()
	var p newPostsPage
	r := c.Do("GET", "/api/sharedposts/new"+query, nil)
	wantStatus(t, r, 200)
	r.JSON(t, &p)
	if p.Total != len(p.Results) {
		t.Errorf("total %d for %d results", p.Total, len(p.Results))
	}
	for _, f := range p.Results {
		if f.SeriesID == forum {
			return f.Count
		}
	}
	return 0
}

// TestNewSharedPosts (issue 31, spec 001 §7 GET /sharedposts/new): a
// reader is told how many posts of each forum are new to them, as the
// feed's unread marker counts (after their last visit, not theirs), less
// those they viewed on their own page; the admin channel and forums they
// do not read count for nothing.
func TestNewSharedPosts(t *testing.T) {
	env := testenv.New(t)
	m := newMatrixForum(t, env)
	post(t, m.creator.Client, m.forum.ID, map[string]any{"channelId": m.main, "raw": "first"})
	post(t, m.creator.Client, m.forum.ID, map[string]any{"channelId": m.main, "raw": "second"})
	post(t, m.forumAdmin.Client, m.forum.ID, map[string]any{"channelId": m.admins, "raw": "for the admins"})

	// Never visited: every post of the feed is new, but one's own.
	if n := newIn(t, m.reader.Client, "", m.forum.ID); n != 2 {
		t.Errorf("before the first visit: %d new, want 2", n)
	}
	if n := newIn(t, m.creator.Client, "", m.forum.ID); n != 0 {
		t.Errorf("the creator's own posts: %d new, want 0", n)
	}
	// The forum admin reads the admin channel; it is not the feed.
	if n := newIn(t, m.forumAdmin.Client, "", m.forum.ID); n != 2 {
		t.Errorf("forum admin: %d new, want 2", n)
	}
	for _, c := range []*testenv.Client{m.nonMember.Client, m.outsider} {
		if n := newIn(t, c, "", m.forum.ID); n != 0 {
			t.Errorf("one who does not read the forum is told of %d posts", n)
		}
	}
	// The community filter: the forum's own community, another, an unknown one.
	if n := newIn(t, m.reader.Client, "?communityId="+m.community, m.forum.ID); n != 2 {
		t.Errorf("in its community: %d, want 2", n)
	}
	if n := newIn(t, m.reader.Client, "?communityId="+uuid.NewString(), m.forum.ID); n != 0 {
		t.Errorf("in an unknown community: %d, want 0", n)
	}
	wantInvalid(t, m.reader.Client.Do("GET", "/api/sharedposts/new?communityId=nope", nil), "communityId")

	// A visit makes them seen; what is shared after is new.
	wantStatus(t, m.reader.Client.Do("POST", "/api/series/"+m.forum.ID+"/visits", nil), 200)
	if n := newIn(t, m.reader.Client, "", m.forum.ID); n != 0 {
		t.Errorf("after a visit: %d new, want 0", n)
	}
	third := post(t, m.creator.Client, m.forum.ID, map[string]any{"channelId": m.main, "raw": "third"})
	fourth := post(t, m.creator.Client, m.forum.ID, map[string]any{"channelId": m.main, "raw": "fourth"})
	if n := newIn(t, m.reader.Client, "", m.forum.ID); n != 2 {
		t.Errorf("after two more posts: %d new, want 2", n)
	}
	// Viewed on its own page, a post is no longer new; opening its link is
	// not viewing it.
	wantStatus(t, m.reader.Client.Do("POST", "/api/activities", map[string]any{"contextKey": "thread:" + third.ID, "objectType": "thread", "verbType": "viewed"}), 201)
	wantStatus(t, m.reader.Client.Do("POST", "/api/activities", map[string]any{"contextKey": "thread:" + fourth.ID, "objectType": "link", "verbType": "opened"}), 201)
	if n := newIn(t, m.reader.Client, "", m.forum.ID); n != 1 {
		t.Errorf("after viewing one: %d new, want 1", n)
	}
	// Another reader's view is theirs alone.
	if n := newIn(t, m.forumAdmin.Client, "", m.forum.ID); n != 4 {
		t.Errorf("forum admin after the member's view: %d new, want 4", n)
	}
}

// TestRecordActivity (issue 31, spec 001 §7 POST /activities): an
// activity in a post or forum the caller reads is recorded as theirs and
// answered; bad input is a 400 naming the field, a post or forum they may
// not read is the 404 of an unknown one, and a refusal records nothing.
func TestRecordActivity(t *testing.T) {
	env := testenv.New(t)
	m := newMatrixForum(t, env)
	th := post(t, m.creator.Client, m.forum.ID, map[string]any{"channelId": m.main, "raw": "watch this"})
	count := func() int { return env.Count(t, "activities", "series_id = $1", m.forum.ID) }

	var got struct {
		ID, ActorID, ContextKey, ObjectType, VerbType string
		Data                                          map[string]any
		Recipients                                    []string
		Context                                       struct{ CommunityID, SeriesID string }
		CreatedOn                                     string
	}
	r := m.reader.Client.Do("POST", "/api/activities", map[string]any{"contextKey": "thread:" + strings.ToUpper(th.ID), "objectType": "video",
		"verbType": "played", "data": map[string]any{"position": 30}, "recipients": []string{m.creator.UserID}, "actorId": m.reader.UserID,
		"context": map[string]any{"communityId": m.community, "seriesId": m.forum.ID}})
	wantStatus(t, r, 201)
	r.JSON(t, &got)
	if got.ActorID != m.reader.UserID || got.ContextKey != "thread:"+th.ID || got.ObjectType != "video" || got.VerbType != "played" ||
		got.Data["position"] != float64(30) || len(got.Recipients) != 1 || got.Recipients[0] != m.creator.UserID ||
		got.Context.CommunityID != m.community || got.Context.SeriesID != m.forum.ID || got.CreatedOn == "" {
		t.Errorf("recorded %+v", got)
	}
	if n := env.Count(t, "activities", "id = $1 AND actor_id = $2 AND thread_id = $3", got.ID, m.reader.UserID, th.ID); n != 1 {
		t.Errorf("%d rows for the activity", n)
	}

	before := count()
	ok := map[string]any{"contextKey": "thread:" + th.ID, "objectType": "file", "verbType": "opened"}
	with := func(k string, v any) map[string]any {
		b := map[string]any{}
		for key, val := range ok {
			b[key] = val
		}
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
		return b
	}
	many := make([]string, 51)
	for i := range many {
		many[i] = uuid.NewString()
	}
	for name, c := range map[string]struct {
		body  map[string]any
		field string
	}{
		"a context that is no key":       {with("contextKey", "thread"), "contextKey"},
		"a context of another kind":      {with("contextKey", "community:"+m.community), "contextKey"},
		"an unknown object":              {with("objectType", "page"), "objectType"},
		"an unknown verb":                {with("verbType", "liked"), "verbType"},
		"a forum viewed":                 {map[string]any{"contextKey": "series:" + m.forum.ID, "objectType": "thread", "verbType": "viewed"}, "verbType"},
		"data that is no object":         {with("data", []int{1}), "data"},
		"data too large":                 {with("data", map[string]any{"x": strings.Repeat("a", 2100)}), "data"},
		"too many recipients":            {with("recipients", many), "recipients"},
		"a recipient twice":              {with("recipients", []string{m.creator.UserID, m.creator.UserID}), "recipients"},
		"another actor":                  {with("actorId", m.creator.UserID), "actorId"},
		"a context of another forum":     {with("context", map[string]any{"communityId": m.community, "seriesId": uuid.NewString()}), "context"},
		"a context of another community": {with("context", map[string]any{"communityId": uuid.NewString(), "seriesId": m.forum.ID}), "context"},
	} {
		t.Run(name, func(t *testing.T) { wantInvalid(t, m.reader.Client.Do("POST", "/api/activities", c.body), c.field) })
	}
	wantMissing(t, m.reader.Client.Do("POST", "/api/activities", map[string]any{"contextKey": "thread:" + th.ID}), "objectType", "verbType")
	wantError(t, m.reader.Client.Do("POST", "/api/activities", with("recipients", []string{"nope"})), 400, "invalidBody")
	wantError(t, m.reader.Client.Do("POST", "/api/activities", with("extra", true)), 400, "invalidBody")
	// Hidden and unknown alike.
	for _, c := range []*testenv.Client{m.nonMember.Client, m.outsider} {
		hidden := c.Do("POST", "/api/activities", ok)
		missing := c.Do("POST", "/api/activities", with("contextKey", "thread:"+uuid.NewString()))
		wantError(t, hidden, 404, "notFound")
		if hidden.Status != missing.Status || string(hidden.Body) != string(missing.Body) {
			t.Errorf("hidden %d %s, unknown %d %s", hidden.Status, hidden.Body, missing.Status, missing.Body)
		}
		wantError(t, c.Do("POST", "/api/activities", with("contextKey", "series:"+m.forum.ID)), 404, "notFound")
	}
	wantStatus(t, env.Client(t).Do("POST", "/api/activities", ok), 401)
	if count() != before {
		t.Errorf("refused activities wrote %d rows", count()-before)
	}
}
