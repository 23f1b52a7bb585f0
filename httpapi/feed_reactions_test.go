package httpapi_test

import (
	"testing"

	"github.com/google/uuid"

	"agora/app/seed"
	"agora/app/testenv"
)

// TestFeedReactions: set, change, clear; counts; who reacted.
func TestFeedReactions(t *testing.T) {
	f := newFeedFixture(t)
	env := f.env
	member, expert, outsider := env.As(t, seed.MemberEmail), env.As(t, seed.ExpertEmail), env.As(t, seed.OutsiderEmail)
	th := post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "react to me"})
	path := "/api/threads/" + th.ID + "/reaction"
	type summary struct {
		Reactions  map[string]int `json:"reactions"`
		MyReaction *string        `json:"myReaction"`
	}
	put := func(c *testenv.Client, p string, kind any) summary {
		t.Helper()
		r := c.Do("PUT", p, map[string]any{"reaction": kind})
		if r.Status != 200 {
			t.Fatalf("react %v: %d %s", kind, r.Status, r.Body)
		}
		var s summary
		r.JSON(t, &s)
		return s
	}
	put(member, path, "liked")
	s := put(expert, path, "loved")
	if s.Reactions["liked"] != 1 || s.Reactions["loved"] != 1 || s.Reactions["totalCount"] != 2 || s.MyReaction == nil || *s.MyReaction != "loved" {
		t.Errorf("after two reactions: %+v", s)
	}
	s = put(expert, path, "loved") // the server sets what it is given
	if s.Reactions["totalCount"] != 2 || *s.MyReaction != "loved" {
		t.Errorf("same again: %+v", s)
	}
	s = put(expert, path, "smiled")
	if s.Reactions["loved"] != 0 || s.Reactions["smiled"] != 1 || s.Reactions["totalCount"] != 2 {
		t.Errorf("changed: %+v", s)
	}
	s = put(expert, path, nil)
	if s.Reactions["totalCount"] != 1 || s.MyReaction != nil {
		t.Errorf("cleared: %+v", s)
	}

	before := env.Count(t, "reactions", "thread_id = $1", th.ID)
	for name, c := range map[string]struct {
		c      *testenv.Client
		path   string
		body   any
		status int
		code   string
	}{
		"unknown kind":  {member, path, map[string]any{"reaction": "angry"}, 400, "validationFailed"},
		"wrong type":    {member, path, map[string]any{"reaction": 1}, 400, "invalidBody"},
		"missing":       {member, path, map[string]any{}, 400, "parametersMissingException"},
		"outsider":      {outsider, path, map[string]any{"reaction": "liked"}, 404, "notFound"},
		"unknown post":  {member, "/api/threads/" + uuid.NewString() + "/reaction", map[string]any{"reaction": "liked"}, 404, "notFound"},
		"unknown reply": {member, "/api/threads/" + th.ID + "/replies/" + uuid.NewString() + "/reaction", map[string]any{"reaction": "liked"}, 404, "notFound"},
		"non-UUID":      {member, "/api/threads/x/reaction", map[string]any{"reaction": "liked"}, 400, "validationFailed"},
	} {
		if r := c.c.Do("PUT", c.path, c.body); r.Status != c.status || r.Code() != c.code {
			t.Errorf("%s: %d %s, want %d %s", name, r.Status, r.Body, c.status, c.code)
		}
	}
	if after := env.Count(t, "reactions", "thread_id = $1", th.ID); after != before {
		t.Errorf("refused reactions wrote %d rows", after-before)
	}

	// A comment's reactions are its own.
	var c replyView
	expert.Do("POST", "/api/threads/"+th.ID+"/replies", map[string]any{"raw": "nice"}).JSON(t, &c)
	rpath := "/api/threads/" + th.ID + "/replies/" + c.ID + "/reaction"
	s = put(member, rpath, "neutral")
	if s.Reactions["neutral"] != 1 || s.Reactions["totalCount"] != 1 {
		t.Errorf("comment reaction: %+v", s)
	}
	var full threadView
	member.Do("GET", "/api/threads/"+th.ID, nil).JSON(t, &full)
	if full.Reactions["liked"] != 1 || full.MyReaction == nil || *full.MyReaction != "liked" ||
		len(full.Replies) != 1 || full.Replies[0].Reactions["neutral"] != 1 || *full.Replies[0].MyReaction != "neutral" {
		t.Errorf("thread view: %+v", full)
	}

	// Who reacted.
	type list struct {
		Results []struct {
			Reaction string `json:"reaction"`
			Actor    struct {
				UserID    string `json:"userId"`
				FirstName string `json:"firstName"`
			} `json:"actor"`
		} `json:"results"`
		Total int `json:"total"`
	}
	var l list
	r := expert.Do("GET", "/api/thread/"+th.ID+"/reactions", nil)
	r.JSON(t, &l)
	if r.Status != 200 || l.Total != 1 || l.Results[0].Reaction != "liked" || l.Results[0].Actor.UserID != f.user(t, seed.MemberEmail) {
		t.Errorf("reactions: %d %s", r.Status, r.Body)
	}
	var lr list
	member.Do("GET", "/api/thread/"+th.ID+"/reactions?replyId="+c.ID, nil).JSON(t, &lr)
	if lr.Total != 1 || lr.Results[0].Reaction != "neutral" {
		t.Errorf("reply reactions: %+v", lr)
	}
	if r := member.Do("GET", "/api/thread/"+th.ID+"/reactions?replyId=x", nil); r.Status != 400 || r.Code() != "validationFailed" {
		t.Errorf("bad replyId: %d %s", r.Status, r.Body)
	}
	if r := outsider.Do("GET", "/api/thread/"+th.ID+"/reactions", nil); r.Status != 404 {
		t.Errorf("outsider lists: %d %s", r.Status, r.Body)
	}
	if r := member.Do("GET", "/api/thread/"+uuid.NewString()+"/reactions", nil); r.Status != 404 {
		t.Errorf("unknown thread: %d %s", r.Status, r.Body)
	}
}
