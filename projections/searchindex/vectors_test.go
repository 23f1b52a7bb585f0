package searchindex_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/seed"
	"agora/projections/searchindex"
	"agora/search"
	"agora/search/searchtest"
)

// recorder is the test embedder, remembering the texts of each call, that
// fails the calls it is told to.
type recorder struct {
	searchtest.HashEmbedder
	mu    sync.Mutex
	calls [][]string
	fail  int
}

func (r *recorder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	r.mu.Lock()
	r.calls = append(r.calls, slices.Clone(texts))
	failing := r.fail > 0
	if failing {
		r.fail--
	}
	r.mu.Unlock()
	if failing {
		return nil, errors.New("the embedding model is down")
	}
	return r.HashEmbedder.Embed(ctx, texts)
}

func (r *recorder) failNext(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fail = n
}

// embedded reports whether some call embedded text.
func (r *recorder) embedded(text string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.calls {
		if slices.Contains(c, text) {
			return true
		}
	}
	return false
}

// nearest is the id of the post nearest to text's vector that the member
// may read, "" for none.
func (w *world) nearest(t *testing.T, text string) string {
	t.Helper()
	r, err := w.store.Posts().Search(t.Context(), search.Query{Vector: searchtest.HashVector(text),
		Filter: search.Filter{search.ReadableBy(w.memberUser, w.main, w.admin)}, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Hits) == 0 {
		return ""
	}
	return r.Hits[0].ID
}

// TestPostsCarryTheirVectors: with an embedder, a post, a comment and a
// Meet Up's minutes are found by their vectors; an edit re-embeds the
// post, a delete takes its vector away.
func TestPostsCarryTheirVectors(t *testing.T) {
	e := &recorder{}
	w := newWorldEmbedding(t, e)
	member := w.env.As(t, seed.MemberEmail)
	admin := w.env.As(t, seed.AdminEmail)
	word := func() string { return "w" + uuid.NewString()[:8] }
	first := "Sighted a quokka " + word() + " near the ferry"
	thread := create(t, member, "/api/series/"+w.series+"/threads", map[string]any{"channelId": w.main, "raw": first})
	reply := "Rottnest " + word() + " has plenty of them"
	comment := create(t, member, "/api/threads/"+thread+"/replies", map[string]any{"raw": reply})
	waitFor(t, 10*time.Second, func() bool { return w.nearest(t, first) == thread && w.nearest(t, reply) == comment })
	if !e.embedded(reply) {
		t.Errorf("the comment was embedded as %v, want its own text alone", e.calls)
	}

	edited := "Completely other words " + word()
	if r := member.Do("PATCH", "/api/threads/"+thread, map[string]any{"raw": edited}); r.Status != http.StatusOK {
		t.Fatalf("edit: %d %s", r.Status, r.Body)
	}
	waitFor(t, 10*time.Second, func() bool { return w.nearest(t, edited) == thread })

	if r := admin.Do("DELETE", "/api/threads/"+thread, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	waitFor(t, 10*time.Second, func() bool { return w.nearest(t, edited) != thread && w.nearest(t, reply) != comment })

	// Minutes: readable by their Meet Up's creator, who is the member.
	meetup, room := uuid.New(), uuid.New()
	minutes := "Agenda: Sync. Notes: the zeppelin " + word() + " hangar lease is renewed"
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := w.env.DB.Pool.Exec(t.Context(), q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`INSERT INTO threads (id, channel_id, series_id, creator_id, raw) VALUES ($1, $2, $3, $4, '')`, meetup, w.main, w.series, w.memberUser)
	exec(`INSERT INTO meetings (id, thread_id, series_id, creator_id, name, start_time, duration, open, minutes_state, minutes_on, minutes_content)
		VALUES ($1, $2, $3, $4, 'Sync', now(), 30, false, 'completed', now(), $5)`, room, meetup, w.series, w.memberUser, minutes)
	waitFor(t, 10*time.Second, func() bool { return w.nearest(t, minutes) == searchindex.MinutesDocID(meetup).String() })
}

// TestAnEmbedderErrorIsRetried: a batch whose embedding fails is applied
// again, not dead-lettered: the post is found by its vector once the
// embedder answers.
func TestAnEmbedderErrorIsRetried(t *testing.T) {
	e := &recorder{}
	w := newWorldEmbedding(t, e)
	member := w.env.As(t, seed.MemberEmail)
	// Once the projection has caught up (a first post is found), the
	// failures fall on the second post's batch alone: a failure in a large
	// batch of the snapshot would have each of its changes applied one by
	// one, for longer than the test waits.
	before := "A first post " + uuid.NewString()[:8]
	first := create(t, member, "/api/series/"+w.series+"/threads", map[string]any{"channelId": w.main, "raw": before})
	waitFor(t, 30*time.Second, func() bool { return w.nearest(t, before) == first })
	e.failNext(2)
	text := "Has anyone met a numbat " + uuid.NewString()[:8] + " in the wheatbelt?"
	thread := create(t, member, "/api/series/"+w.series+"/threads", map[string]any{"channelId": w.main, "raw": text})
	waitFor(t, 20*time.Second, func() bool { return w.nearest(t, text) == thread })
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.fail != 0 {
		t.Errorf("%d failures left: the embedder was not called again", e.fail)
	}
}
