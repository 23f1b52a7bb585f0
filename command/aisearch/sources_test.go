package aisearch

import (
	"context"
	"testing"

	"agora/search"
)

// TestSharedChatIsNoSource: a shared AI chat, whose text is the question it
// shared, is never a source; the post its answer cited still is, and a post
// of a channel the asker may not read never is.
func TestSharedChatIsNoSource(t *testing.T) {
	store, err := search.OpenEmbedded(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	ctx := context.Background()
	posts := []search.Post{
		{ID: "shared", Kind: KindSharedChat, ThreadID: "shared", ChannelID: "main", ForumID: "f", Text: "Where is the zephyr checklist?"},
		{ID: "answer", Kind: "post", ThreadID: "answer", ChannelID: "main", ForumID: "f", Text: "The zephyr checklist lives in the shared drive."},
		{ID: "closed", Kind: "post", ThreadID: "closed", ChannelID: "admin", ForumID: "f", Text: "Where is the zephyr checklist? In the vault."},
	}
	if err := store.Posts().Upsert(ctx, posts...); err != nil {
		t.Fatal(err)
	}
	got, err := findSources(ctx, store.Posts(), sourceFilter("asker", "f", []string{"main"}), "Where is the zephyr checklist?")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ID != "answer" {
		t.Errorf("sources %+v, want the answer post alone", got)
	}
}
