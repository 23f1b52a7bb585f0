package aisearch

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"agora/search"
	"agora/search/rank"
	"agora/search/sentence/sentencetest"
)

// TestSharedChatIsNoSource: a shared AI chat, whose text is the question it
// shared, is never a source; the post its answer cited still is, and a post
// of a channel the asker may not read never is.
func TestSharedChatIsNoSource(t *testing.T) {
	ctx := context.Background()
	posts := postIndex(t,
		search.Post{ID: "shared", Kind: KindSharedChat, ThreadID: "shared", ChannelID: "main", ForumID: "f", Text: "Where is the zephyr checklist?"},
		search.Post{ID: "answer", Kind: "post", ThreadID: "answer", ChannelID: "main", ForumID: "f", Text: "The zephyr checklist lives in the shared drive."},
		search.Post{ID: "closed", Kind: "post", ThreadID: "closed", ChannelID: "admin", ForumID: "f", Text: "Where is the zephyr checklist? In the vault."},
	)
	got, err := findSources(ctx, posts, nil, sourceFilter("asker", "f", []string{"main"}), rank.Question{Text: "Where is the zephyr checklist?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.posts) != 1 || got.posts[0].ID != "answer" {
		t.Errorf("sources %+v, want the answer post alone", got)
	}
}

// TestConversationSources: a follow-up's candidates are the posts the
// previous answer cited, first, then their comments, each still under the
// asker's filter; the follow-up's own words find neither.
func TestConversationSources(t *testing.T) {
	ctx := context.Background()
	docs := []search.Post{
		{ID: "c1", Kind: "comment", ThreadID: "b1", ChannelID: "main", ForumID: "f", Text: "Dana is out on Fridays.", CreatedAt: 2},
		{ID: "b1", Kind: "post", ThreadID: "b1", ChannelID: "main", ForumID: "f", Text: "Ask Dana Reyes for the zephyr checklist.", CreatedAt: 1},
		{ID: "m1", Kind: search.KindMinutes, ThreadID: "b1", ReaderIDs: []string{"someone"}, ForumID: "f", Text: "Minutes: Dana Reyes.", CreatedAt: 3},
		{ID: "x", Kind: "post", ThreadID: "x", ChannelID: "main", ForumID: "f", Text: "Lunch is pizza.", CreatedAt: 4},
	}
	posts := postIndex(t, docs...)
	filter := sourceFilter("asker", "f", []string{"main"})
	if got, err := findSources(ctx, posts, nil, filter, rank.Question{Text: "Who did he mention in that post?"}); err != nil || len(got.posts) != 0 {
		t.Fatalf("the follow-up alone finds %+v, %v", got, err)
	}
	got, err := conversationSources(ctx, posts, filter, []string{"b1"}, []string{"b1"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range got {
		ids = append(ids, p.ID)
	}
	if strings.Join(ids, ",") != "b1,c1" {
		t.Errorf("conversation sources %v, want b1,c1", ids)
	}
	merged := mergeSources(got, []search.Post{docs[3], docs[1]})
	if len(merged) != 3 || merged[2].ID != "x" {
		t.Errorf("merged %+v", merged)
	}
}

// TestFrequencies: the answer's word weights count the forum's posts the
// asker may read, and those holding each word of the question and of the
// earlier one; a post of another forum, of a channel the asker may not
// read, or a shared chat counts for nothing.
func TestFrequencies(t *testing.T) {
	posts := postIndex(t,
		search.Post{ID: "a", Kind: "post", ThreadID: "a", ChannelID: "main", ForumID: "f", Text: "The zephyr checklist lives in the shared drive."},
		search.Post{ID: "b", Kind: "comment", ThreadID: "a", ChannelID: "main", ForumID: "f", Text: "Dana keeps the zephyr checklists."},
		search.Post{ID: "c", Kind: "post", ThreadID: "c", ChannelID: "main", ForumID: "f", Text: "Lunch on Friday is pizza."},
		search.Post{ID: "closed", Kind: "post", ThreadID: "closed", ChannelID: "admin", ForumID: "f", Text: "The zephyr checklist is in the vault."},
		search.Post{ID: "other", Kind: "post", ThreadID: "other", ChannelID: "elsewhere", ForumID: "g", Text: "Our zephyr checklist is on paper."},
		search.Post{ID: "shared", Kind: KindSharedChat, ThreadID: "shared", ChannelID: "main", ForumID: "f", Text: "Where is the zephyr checklist?"},
	)
	got, err := frequencies(context.Background(), posts, sourceFilter("asker", "f", []string{"main"}),
		rank.Question{Text: "Where is the zephyr checklist?", Earlier: "What is for lunch?"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"zephyr": 2, "checklist": 2, "lunch": 1}
	if got.Posts != 3 || len(got.Words) != len(want) {
		t.Fatalf("frequencies %+v, want 3 posts and %v", got, want)
	}
	for w, n := range want {
		if got.Words[w] != n {
			t.Errorf("%q held by %d posts, want %d (all: %v)", w, got.Words[w], n, got.Words)
		}
	}
}

// postIndex is a post index of an embedded store holding the posts.
func postIndex(t *testing.T, posts ...search.Post) search.Index[search.Post] {
	t.Helper()
	store, err := search.OpenEmbedded(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := store.Posts().Upsert(context.Background(), posts...); err != nil {
		t.Fatal(err)
	}
	return store.Posts()
}

// TestQuestionBringsItsAnswers: when the first source is a member's
// question, its comments the keyword ranking found are sources too, in
// place of the last ones; a first source that is not a question, or a
// question whose thread already has its share, changes nothing.
func TestQuestionBringsItsAnswers(t *testing.T) {
	q := search.Post{ID: "q", Kind: kindQuestion, ThreadID: "q"}
	answer := rank.Scored{Post: search.Post{ID: "a", Kind: "comment", ThreadID: "q"}}
	other := rank.Scored{Post: search.Post{ID: "o", Kind: "comment", ThreadID: "elsewhere"}}
	var near []search.Post
	for i := range RetrieveLimit - 1 {
		near = append(near, search.Post{ID: strconv.Itoa(i), Kind: "post", ThreadID: strconv.Itoa(i)})
	}
	ids := func(ps []search.Post) string {
		var out []string
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return strings.Join(out, ",")
	}
	got := withAnswers(append([]search.Post{q}, near...), []rank.Scored{other, answer}, map[string]int{"q": 1})
	if want := "q,0,1,2,3,4,5,a"; ids(got) != want {
		t.Errorf("sources %s, want %s", ids(got), want)
	}
	post := search.Post{ID: "p", Kind: "post", ThreadID: "q"}
	if got := withAnswers(append([]search.Post{post}, near...), []rank.Scored{answer}, map[string]int{"q": 1}); ids(got) != "p,0,1,2,3,4,5,6" {
		t.Errorf("after a post that is no question, sources %s", ids(got))
	}
	if got := withAnswers(append([]search.Post{q}, near...), []rank.Scored{answer}, map[string]int{"q": perThread}); ids(got) != "q,0,1,2,3,4,5,6" {
		t.Errorf("with the thread's share taken, sources %s", ids(got))
	}
}

// TestAgreedThread: with the sentence model, a thread first both by the
// question's words and by its meaning is the agreed one; with no embedder
// there is only one ranking, and nothing is agreed.
func TestAgreedThread(t *testing.T) {
	enc := sentencetest.Encoder(t)
	ctx := context.Background()
	docs := []search.Post{
		{ID: "late", Kind: "post", ThreadID: "late", ChannelID: "main", ForumID: "f",
			Text: "Mobile game events reach our warehouse up to seven days late, so we restate the last week of revenue every night."},
		{ID: "lunch", Kind: "post", ThreadID: "lunch", ChannelID: "main", ForumID: "f",
			Text: "The office lunch on Friday is pizza, and the vegetarian option is on the left."},
		{ID: "deck", Kind: "post", ThreadID: "deck", ChannelID: "main", ForumID: "f",
			Text: "Our quarterly board deck has twelve slides and one chart per team."},
	}
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = d.Text
	}
	vs, err := enc.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range docs {
		docs[i].Vector = vs[i]
	}
	posts := postIndex(t, docs...)
	filter := sourceFilter("asker", "f", []string{"main"})
	q := rank.Question{Text: "How do people handle game data that shows up days late?"}
	got, err := findSources(ctx, posts, enc, filter, q)
	if err != nil {
		t.Fatal(err)
	}
	if got.agreed != "late" {
		t.Errorf("agreed %q, want the late-data thread", got.agreed)
	}
	if got, err = findSources(ctx, posts, nil, filter, q); err != nil || got.agreed != "" {
		t.Errorf("without an embedder agreed %q (%v), want none", got.agreed, err)
	}
}
