package realtime_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	qfeed "agora/query/feed"

	"github.com/google/uuid"

	"agora/internal/plumbing/jsontime"
	"agora/projections/change"
	"agora/projections/realtime"
)

var (
	tid   = uuid.MustParse("0190a6f2-9a4e-7c3b-8f00-0000000000a1") // a thread
	chid  = uuid.MustParse("0190a6f2-9a4e-7c3b-8f00-0000000000a2") // its channel
	rid   = uuid.MustParse("0190a6f2-9a4e-7c3b-8f00-0000000000a3") // a comment
	asker = uuid.MustParse("0190a6f2-9a4e-7c3b-8f00-0000000000a4") // who wrote them
)

const (
	created = "2026-11-22T08:27:03.123456Z"
	edited  = "2026-11-22T09:00:00.5Z"
)

// threadJSON is a threads row as the relay (and Debezium) sends it: jsonb
// as a string holding the document, arrays as JSON arrays.
func threadJSON(as, raw, updated string) string {
	return `{"id":"` + tid.String() + `","channel_id":"` + chid.String() + `","series_id":"` + sid.String() +
		`","creator_id":"` + asker.String() + `","creator_as":"` + as + `","type":"question","raw":"` + raw +
		`","image":"{\"url\": \"https://img.test/a.png\"}","file":null,"link":null,"meeting":null,` +
		`"mentions":["` + uid.String() + `"],"hashtags":["Kickoff"],"created_on":"` + created + `","updated_on":"` + updated + `"}`
}

func replyJSON(parent, raw, updated string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	return `{"id":"` + rid.String() + `","thread_id":"` + tid.String() + `","parent_id":` + p + `,"creator_id":"` + asker.String() +
		`","raw":"` + raw + `","mentions":[],"hashtags":[],"created_on":"` + created + `","updated_on":"` + updated + `"}`
}

func reactionJSON(reply, kind string) string {
	r := "null"
	if reply != "" {
		r = `"` + reply + `"`
	}
	return `{"id":"` + uuid.NewString() + `","thread_id":"` + tid.String() + `","reply_id":` + r + `,"user_id":"` + uid.String() +
		`","kind":"` + kind + `","created_on":"` + created + `"}`
}

func ts(s string) jsontime.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return jsontime.Of(t)
}

// TestForumEvents maps thread, reply and reaction changes to events: their
// type, context key, payload (before what delivery reads) and audience.
func TestForumEvents(t *testing.T) {
	readers := []realtime.Audience{{Kind: realtime.ChannelReaders, ID: chid}}
	ofThread := []realtime.Audience{{Kind: realtime.ThreadReaders, ID: tid}}
	key := "thread:" + tid.String()
	asAuthor := func(raw, updated string) *qfeed.Post {
		id := asker
		return &qfeed.Post{
			ID: tid, ChannelID: chid, SeriesID: sid, Type: "question", CreatorAs: "author", CreatorID: &id, Raw: raw,
			Image: json.RawMessage(`{"url": "https://img.test/a.png"}`), Mentions: []string{uid.String()}, Hashtags: []string{"Kickoff"},
			CreatedOn: ts(created), UpdatedOn: ts(updated),
		}
	}
	newPost := asAuthor("hello", created)
	anonymous := asAuthor("who decides?", created)
	anonymous.CreatorAs, anonymous.CreatorID = "anonymous", nil
	comment := func(raw, updated string) *realtime.ReplyPayload {
		return &realtime.ReplyPayload{ID: rid, ThreadID: tid, CreatorID: asker, Raw: raw, Mentions: []string{}, Hashtags: []string{},
			CreatedOn: ts(created), UpdatedOn: ts(updated)}
	}
	newComment := comment("first", created)
	newComment.Reactions = &realtime.Reactions{}
	reply := comment("first", created)
	parent := uuid.New()
	reply.ParentID = &parent
	reply.Reactions = &realtime.Reactions{}
	liked, loved := "liked", "loved"
	replyID := rid

	cases := []struct {
		name          string
		table         string
		op            change.Op
		before, after string
		want          []realtime.Event
	}{
		{"a post", "threads", change.Create, "", threadJSON("author", "hello", created), []realtime.Event{{
			Type: realtime.ThreadCreated, ContextKey: key, Payload: newPost, To: readers}}},
		{"an anonymous question", "threads", change.Create, "", threadJSON("anonymous", "who decides?", created), []realtime.Event{{
			Type: realtime.ThreadCreated, ContextKey: key, Payload: anonymous, To: readers}}},
		{"a post edited", "threads", change.Update, threadJSON("author", "hello", created), threadJSON("author", "hi", edited), []realtime.Event{{
			Type: realtime.ThreadUpdated, ContextKey: key, Payload: asAuthor("hi", edited), To: readers}}},
		{"a post touched but not changed", "threads", change.Update, threadJSON("author", "hello", created), threadJSON("author", "hello", edited), nil},
		{"a post deleted", "threads", change.Delete, threadJSON("anonymous", "hello", created), "", []realtime.Event{{
			Type: realtime.ThreadDeleted, ContextKey: key, Payload: realtime.ThreadRef{ID: tid, ChannelID: chid, SeriesID: sid}, To: readers}}},
		{"a post in a snapshot", "threads", change.Read, "", threadJSON("author", "hello", created), nil},
		{"a comment", "replies", change.Create, "", replyJSON("", "first", created), []realtime.Event{{
			Type: realtime.ReplyCreated, ContextKey: key, Payload: newComment, To: ofThread}}},
		{"a reply to a comment", "replies", change.Create, "", replyJSON(parent.String(), "first", created), []realtime.Event{{
			Type: realtime.ReplyCreated, ContextKey: key, Payload: reply, To: ofThread}}},
		{"a comment edited", "replies", change.Update, replyJSON("", "first", created), replyJSON("", "second", edited), []realtime.Event{{
			Type: realtime.ReplyUpdated, ContextKey: key, Payload: comment("second", edited), To: ofThread}}},
		{"a comment touched but not changed", "replies", change.Update, replyJSON("", "first", created), replyJSON("", "first", edited), nil},
		{"a reaction on a post", "reactions", change.Create, "", reactionJSON("", "liked"), []realtime.Event{{
			Type: realtime.Reacted, ContextKey: key, Payload: &realtime.ReactedPayload{ThreadID: tid, UserID: uid, Reaction: &liked}, To: ofThread}}},
		{"a reaction changed", "reactions", change.Update, reactionJSON(rid.String(), "liked"), reactionJSON(rid.String(), "loved"), []realtime.Event{{
			Type: realtime.Reacted, ContextKey: key, Payload: &realtime.ReactedPayload{ThreadID: tid, ReplyID: &replyID, UserID: uid, Reaction: &loved}, To: ofThread}}},
		{"the same reaction chosen again", "reactions", change.Update, reactionJSON("", "liked"), reactionJSON("", "liked"), nil},
		{"a reaction on a post cleared", "reactions", change.Delete, reactionJSON("", "liked"), "", []realtime.Event{{
			Type: realtime.Reacted, ContextKey: key, Payload: &realtime.ReactedPayload{ThreadID: tid, UserID: uid}, To: ofThread}}},
		{"a reaction on a comment cleared, unless the comment went", "reactions", change.Delete, reactionJSON(rid.String(), "liked"), "", []realtime.Event{{
			Type: realtime.Reacted, ContextKey: key, Payload: &realtime.ReactedPayload{ThreadID: tid, ReplyID: &replyID, UserID: uid}, To: ofThread,
			If: &realtime.Condition{Table: "replies", ID: rid, Exists: true}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ch := change.Change{Op: c.op, Schema: "public", Table: c.table, Before: row(t, c.before), After: row(t, c.after)}
			got, err := realtime.Events(ch)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				gj, _ := json.Marshal(got)
				wj, _ := json.Marshal(c.want)
				t.Errorf("events:\n got %s\nwant %s", gj, wj)
			}
		})
	}

	t.Run("a comment deleted", func(t *testing.T) {
		ch := change.Change{Op: change.Delete, Schema: "public", Table: "replies", Before: row(t, replyJSON("", "first", created))}
		got, err := realtime.Events(ch)
		if err != nil || len(got) != 1 {
			t.Fatalf("events %+v, %v", got, err)
		}
		e := got[0]
		if e.Type != realtime.ReplyDeleted || e.ContextKey != key || !reflect.DeepEqual(e.To, ofThread) {
			t.Errorf("event %+v", e)
		}
		b, _ := e.Encode()
		var m struct {
			Data struct {
				Payload map[string]any `json:"payload"`
			} `json:"data"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		p := m.Data.Payload
		if p["id"] != rid.String() || p["threadId"] != tid.String() || p["parentId"] != nil || p["creator"] != nil || p["reactions"] != nil {
			t.Errorf("payload %s", b)
		}
	})

	// An anonymous question's events name nobody: not in the creator
	// fields, nor anywhere in the message.
	t.Run("an anonymous question carries no asker", func(t *testing.T) {
		for _, c := range []struct {
			op            change.Op
			before, after string
		}{
			{change.Create, "", threadJSON("anonymous", "q", created)},
			{change.Update, threadJSON("anonymous", "q", created), threadJSON("anonymous", "q2", edited)},
			{change.Delete, threadJSON("anonymous", "q", created), ""},
		} {
			ch := change.Change{Op: c.op, Schema: "public", Table: "threads", Before: row(t, c.before), After: row(t, c.after)}
			evs, err := realtime.Events(ch)
			if err != nil || len(evs) != 1 {
				t.Fatalf("%v: events %+v, %v", c.op, evs, err)
			}
			b, err := evs[0].Encode()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), asker.String()) {
				t.Errorf("%v: message %s names the asker", c.op, b)
			}
		}
	})
}
