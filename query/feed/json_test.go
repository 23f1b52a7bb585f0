package feed_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/internal/plumbing/jsontime"
	"agora/query/feed"
)

// TestAppendJSONIsMarshal: the feed page's own encoder writes the bytes
// encoding/json writes, for pages with every field set, and with the nils
// and empties a page can hold.
func TestAppendJSONIsMarshal(t *testing.T) {
	at := jsontime.Of(time.Date(2026, 12, 4, 1, 2, 3, 456789000, time.FixedZone("X", 3600)))
	avatar, mine := "https://cdn.example/a.png?x=1&y=<2>", "loved"
	creator := feed.Creator{UserID: uuid.New(), FirstName: "Zoë \"Z\"", LastName: "O'Brien\u2028", Avatar: &avatar, IsExpert: true}
	parent := uuid.New()
	reply := &feed.Reply{ID: uuid.New(), ThreadID: uuid.New(), ParentID: &parent, CreatorID: creator.UserID, Creator: creator,
		Raw: "a reply <script>\x00\xff", Mentions: []string{"01a23eac-cf15-749c-b433-54be1b04279e"}, Hashtags: []string{},
		Reactions: feed.Stats{Liked: 1, Loved: 2, Smiled: 3, Disliked: 4, Neutral: 5, TotalCount: 15}, MyReaction: &mine,
		CanManage: true, RepliesCount: 0, Replies: []*feed.Reply{}, CreatedOn: at, UpdatedOn: at}
	comment := &feed.Reply{ID: parent, ThreadID: reply.ThreadID, CreatorID: creator.UserID, Creator: feed.Creator{UserID: creator.UserID},
		Raw: "first", Replies: []*feed.Reply{reply}, RepliesCount: 1, CreatedOn: at, UpdatedOn: at}
	full := &feed.Thread{
		Post: feed.Post{ID: uuid.New(), ChannelID: uuid.New(), SeriesID: uuid.New(), Type: "post", CreatorAs: "author",
			CreatorID: &creator.UserID, Creator: &creator, Raw: "Hello & welcome, <all>\n\t#intro",
			Image:    json.RawMessage(`{"url": "https://x/i.png?a=1&b=2", "width": 10, "height" : 20}`),
			File:     json.RawMessage(`{"name": "r\u00e9sum\u00e9 <1>.pdf", "size": 1234}`),
			Link:     json.RawMessage(`{"url": "https://example.com", "title": "line\u2028sep"}`),
			Meeting:  json.RawMessage(`{"id":"m","startsOn":"2026-12-04T01:00:00.000Z"}`),
			Chat:     json.RawMessage(`[{"role": "user", "text": "hi"}]`),
			Mentions: []string{"a", "b"}, Hashtags: []string{"intro", "Émoji🎉"},
			Reactions: feed.Stats{Liked: 7, TotalCount: 7}, CreatedOn: at, UpdatedOn: at},
		MyReaction: &mine, CanManage: true, IsMine: true, RepliesCount: 2, CommentsCount: 1, Replies: []*feed.Reply{comment},
	}
	anonymous := &feed.Thread{Post: feed.Post{ID: uuid.New(), Type: "question", CreatorAs: "anonymous",
		Image: json.RawMessage("null"), Mentions: []string{}, Hashtags: []string{}}, Replies: []*feed.Reply{}}
	bare := &feed.Thread{} // every nil a Thread can have
	for name, page := range map[string]feed.ThreadPage{
		"full": {Results: []*feed.Thread{full, anonymous, bare}}, "empty": {Results: []*feed.Thread{}}, "nil": {},
		"nil thread": {Results: []*feed.Thread{nil}}, "nil reply": {Results: []*feed.Thread{{Replies: []*feed.Reply{nil}}}},
	} {
		want, err := json.Marshal(page)
		if err != nil {
			t.Fatal(err)
		}
		got, err := page.AppendJSON([]byte("x"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if string(got) != "x"+string(want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got[1:], want)
		}
	}
	broken := feed.ThreadPage{Results: []*feed.Thread{{Post: feed.Post{Link: json.RawMessage(`{"url":`)}}}}
	if _, err := broken.AppendJSON(nil); err == nil {
		t.Error("a stored value that is not JSON was written")
	}
}
