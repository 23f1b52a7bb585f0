package openapi_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	qfeed "agora/query/feed"

	"github.com/google/uuid"

	"agora/httpapi/openapi"
	"agora/internal/plumbing/jsontime"
	"agora/projections/realtime"
)

// TestLivePayloadsMatchSchemas marshals the payloads of the forum's live
// events, as the realtime projection delivers them, and validates them
// against the schemas GET /api/hub documents for them.
func TestLivePayloadsMatchSchemas(t *testing.T) {
	now := jsontime.Of(time.Date(2026, 11, 22, 8, 27, 3, 123456789, time.UTC))
	id, ch, se, user := uuid.New(), uuid.New(), uuid.New(), uuid.New()
	avatar, liked := "https://img.test/a.png", "liked"
	creator := &realtime.Creator{UserID: user, FirstName: "Ada", LastName: "Lovelace", Avatar: &avatar, IsExpert: true}
	counts := &realtime.Reactions{Liked: 2, Loved: 1, TotalCount: 3}
	post := qfeed.Post{
		ID: id, ChannelID: ch, SeriesID: se, Type: "post", CreatorAs: "author", CreatorID: &user, Creator: creator, Raw: "hello #Go",
		Image: json.RawMessage(`{"url": "https://img.test/b.png"}`), Link: json.RawMessage(`{"url": "https://example.com", "viewerType": "external"}`),
		Mentions: []string{user.String()}, Hashtags: []string{"Go"}, Reactions: *counts, CreatedOn: now, UpdatedOn: now,
	}
	question := post
	question.Type, question.CreatorAs, question.CreatorID, question.Creator, question.Image, question.Link = "question", "anonymous", nil, nil, nil, nil
	comment := realtime.ReplyPayload{ID: uuid.New(), ThreadID: id, ChannelID: ch, SeriesID: se, CreatorID: user, Creator: creator,
		Raw: "a comment", Mentions: []string{}, Hashtags: []string{}, Reactions: counts, CreatedOn: now, UpdatedOn: now}
	reply := comment
	reply.ParentID = &comment.ID
	deleted := comment
	deleted.Creator, deleted.Reactions = nil, nil
	replyID := comment.ID
	cases := []struct {
		name, schema string
		v            any
	}{
		{"a post", "LiveThread", post},
		{"an anonymous question", "LiveThread", question},
		{"a deleted post", "LiveThreadRef", realtime.ThreadRef{ID: id, ChannelID: ch, SeriesID: se}},
		{"a comment", "LiveReply", comment},
		{"a reply", "LiveReply", reply},
		{"a deleted comment", "LiveReply", deleted},
		{"a reaction on a post", "LiveReaction", realtime.ReactedPayload{ThreadID: id, ChannelID: ch, SeriesID: se, UserID: user, Reaction: &liked, Reactions: counts}},
		{"a reaction on a comment cleared", "LiveReaction", realtime.ReactedPayload{ThreadID: id, ReplyID: &replyID, ChannelID: ch, SeriesID: se, UserID: user, Reactions: &realtime.Reactions{}}},
		{"a subscription that gives access", "LiveSubscriptionCreated", realtime.SubscriptionPayload{UserID: user, ProductID: se, Kind: "forum", CommunityID: uuid.New(), SubscriptionID: "sub_1"}},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if err := openapi.ValidateSchema(c.schema, b); err != nil {
			t.Errorf("%s: %v\n%s", c.name, err, b)
		}
	}

	// The check can fail: a payload without its reactions, an unknown field.
	b, _ := json.Marshal(post)
	without := strings.Replace(string(b), `"reactions":{"liked":2,"loved":1,"smiled":0,"disliked":0,"neutral":0,"totalCount":3},`, "", 1)
	if without == string(b) {
		t.Fatalf("the payload has no reactions to take out: %s", b)
	}
	if err := openapi.ValidateSchema("LiveThread", []byte(without)); err == nil {
		t.Error("a post without reactions passes LiveThread")
	}
	if err := openapi.ValidateSchema("LiveThreadRef", []byte(`{"id":"`+id.String()+`","channelId":"`+ch.String()+`","seriesId":"`+se.String()+`","creatorId":"x"}`)); err == nil {
		t.Error("an unknown field passes LiveThreadRef")
	}
	if err := openapi.ValidateSchema("NoSuchSchema", []byte(`{}`)); err == nil {
		t.Error("an unknown schema passes")
	}
}
