// Package searchtest is the contract suite of the search port: Run drives a
// search.Store through what Agora's projections and searches rely on, so
// every adapter (the embedded engine, Meilisearch) is held to the same
// behaviour.
package searchtest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"agora/search"
)

// Open returns an empty store for one test; the suite closes it.
type Open func(t *testing.T) search.Store

// Run runs the contract suite against the stores open makes.
func Run(t *testing.T, open Open) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s search.Store)
	}{
		{"upsert replaces by id", upsertReplaces},
		{"delete by id", deleteByID},
		{"delete where", deleteWhere},
		{"member search by name", memberSearch},
		{"typos and prefixes", typosAndPrefixes},
		{"limit, offset and total", limitOffsetTotal},
		{"sort", sortOrder},
		{"hashtags", hashtags},
		{"a post outside the readable set never comes back", postPermissions},
		{"any word", anyWord},
		{"a long text", longText},
		{"post search needs a readable clause", postUnscoped},
		{"peer criteria", peerCriteria},
		{"bad queries", badQueries},
		{"rebuild empties", rebuild},
		{"all lists every document", all},
		{"vector: nearest first", vectorNearest},
		{"vector: filter and permissions hold", vectorPermissions},
		{"vector: writes replace and delete vectors", vectorWrites},
		{"vector: rebuild empties", vectorRebuild},
		{"vector: bad queries", vectorBadQueries},
		{"vector: a post without text or vector", postWithoutText},
		{"vector: an edit that removes the vector", editRemovesVector},
		{"a search on a new index", newIndexSearch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			tt.fn(t, s)
		})
	}
}

func put[D search.Document](t *testing.T, x search.Index[D], docs ...D) {
	t.Helper()
	ctx := context.Background()
	if err := x.Upsert(ctx, docs...); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	if err := x.Wait(ctx); err != nil {
		t.Fatalf("Wait: %v", err)
	}
}

func find[D search.Document](t *testing.T, x search.Index[D], q search.Query) search.Result[D] {
	t.Helper()
	r, err := x.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("Search(%+v): %v", q, err)
	}
	return r
}

// ids lists the hits' ids in order.
func ids[D search.Document](r search.Result[D]) []string {
	out := make([]string, 0, len(r.Hits))
	for _, h := range r.Hits {
		out = append(out, h.DocID())
	}
	return out
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	return s
}

// sameSet fails unless the hits are exactly want, in any order.
func sameSet[D search.Document](t *testing.T, what string, r search.Result[D], want ...string) {
	t.Helper()
	if got := sorted(ids(r)); !slices.Equal(got, sorted(want)) {
		t.Errorf("%s: got %v, want %v (any order)", what, got, sorted(want))
	}
}

func member(id, first, last string, communities ...string) search.Member {
	return search.Member{
		ID: id, UserID: "u-" + id, FirstName: first, LastName: last,
		FullName: first + " " + last, SortName: strings.ToLower(last + " " + first),
		CommunityIDs: communities,
	}
}

func upsertReplaces(t *testing.T, s search.Store) {
	m := member("m1", "Ada", "Lovelace", "c1")
	put(t, s.Members(), m)
	put(t, s.Members(), m) // at least once: a replay changes nothing
	m.LastName, m.FullName = "Byron", "Ada Byron"
	put(t, s.Members(), m)

	sameSet(t, "old name", find(t, s.Members(), search.Query{Text: "lovelace"}))
	r := find(t, s.Members(), search.Query{Text: "byron"})
	sameSet(t, "new name", r, "m1")
	if r.Total != 1 {
		t.Errorf("Total = %d, want 1", r.Total)
	}
	if got := r.Hits[0]; got.FullName != "Ada Byron" || got.UserID != "u-m1" || !slices.Equal(got.CommunityIDs, []string{"c1"}) {
		t.Errorf("hit = %+v, want the whole replaced document", got)
	}
	if err := s.Members().Upsert(context.Background(), search.Member{FirstName: "No id"}); !errors.Is(err, search.ErrBadDocument) {
		t.Errorf("Upsert without id = %v, want ErrBadDocument", err)
	}
}

func deleteByID(t *testing.T, s search.Store) {
	ctx := context.Background()
	put(t, s.Members(), member("m1", "Grace", "Hopper"), member("m2", "Grace", "Kelly"))
	if err := s.Members().Delete(ctx, "m1", "missing"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if err := s.Members().Wait(ctx); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	sameSet(t, "after delete", find(t, s.Members(), search.Query{Text: "grace"}), "m2")
}

func all(t *testing.T, s search.Store) {
	ctx := context.Background()
	// More than a page of the embedded engine's (500), deleted ones left out.
	var docs []search.Member
	var want []string
	last := map[string]string{}
	for i := range 1203 {
		id := fmt.Sprintf("m%04d", i)
		last[id] = fmt.Sprint("Byron", i)
		docs = append(docs, member(id, "Ada", last[id]))
		if i%100 != 7 {
			want = append(want, id)
		}
	}
	put(t, s.Members(), docs...)
	var gone []string
	for i := 7; i < len(docs); i += 100 {
		gone = append(gone, docs[i].ID)
	}
	if err := s.Members().Delete(ctx, gone...); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if err := s.Members().Wait(ctx); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	var got []string
	err := s.Members().All(ctx, func(m search.Member) error {
		if m.LastName != last[m.ID] {
			t.Errorf("All: %s has last name %q", m.ID, m.LastName)
		}
		got = append(got, m.ID)
		return nil
	})
	if err != nil {
		t.Fatalf("All: %v", err)
	}
	if g, w := sorted(got), sorted(want); !slices.Equal(g, w) {
		t.Fatalf("All listed %d documents, want %d", len(g), len(w))
	}
}

func deleteWhere(t *testing.T, s search.Store) {
	ctx := context.Background()
	put(t, s.Posts(),
		search.Post{ID: "p1", ForumID: "fA", ChannelID: "cA", Text: "hello"},
		search.Post{ID: "p2", ForumID: "fB", ChannelID: "cB", Text: "hello"},
		search.Post{ID: "p3", ForumID: "fB", ChannelID: "cB", Text: "hello again"},
	)
	if err := s.Posts().DeleteWhere(ctx, search.Filter{search.In("forumId", "fB")}); err != nil {
		t.Fatalf("DeleteWhere: %v", err)
	}
	if err := s.Posts().Wait(ctx); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	all := search.Filter{search.ReadableBy("u", "cA", "cB")}
	sameSet(t, "after delete where", find(t, s.Posts(), search.Query{Filter: all}), "p1")
	if err := s.Posts().DeleteWhere(ctx, nil); !errors.Is(err, search.ErrBadQuery) {
		t.Errorf("DeleteWhere(nil) = %v, want ErrBadQuery", err)
	}
}

func memberSearch(t *testing.T, s search.Store) {
	put(t, s.Members(),
		member("m1", "Ada", "Lovelace", "c1"),
		member("m2", "Alan", "Turing", "c1"),
		member("m3", "Ada", "Yonath", "c2"),
		member("m4", "Élodie", "Durand", "c1"),
		search.Member{ID: "m5", FirstName: "Grace", LastName: "Hopper", FullName: "Grace Hopper",
			JobTitle: "Rear Admiral", Company: "US Navy", CommunityIDs: []string{"c1"}},
	)
	tests := []struct {
		text   string
		filter search.Filter
		want   []string
	}{
		{"ada", nil, []string{"m1", "m3"}},
		{"Lovelace", nil, []string{"m1"}},
		{"ada lovelace", nil, []string{"m1"}},
		{"ada", search.Filter{search.In("communityIds", "c1")}, []string{"m1"}},
		{"ada", search.Filter{search.In("communityIds", "c1", "c2")}, []string{"m1", "m3"}},
		{"ada", search.Filter{search.NotIn("communityIds", "c1")}, []string{"m3"}},
		{"elodie", nil, []string{"m4"}},
		{"navy", nil, []string{"m5"}},
		{"nobody", nil, nil},
		{"", search.Filter{search.In("communityIds", "c2")}, []string{"m3"}},
	}
	for _, tt := range tests {
		sameSet(t, fmt.Sprintf("%q %v", tt.text, tt.filter), find(t, s.Members(), search.Query{Text: tt.text, Filter: tt.filter}), tt.want...)
	}
	// The best match comes first: the full name beats a first name alone.
	r := find(t, s.Members(), search.Query{Text: "ada lovelace"})
	if len(r.Hits) == 0 || r.Hits[0].ID != "m1" {
		t.Errorf("ada lovelace: got %v, want m1 first", ids(r))
	}
}

func typosAndPrefixes(t *testing.T, s search.Store) {
	put(t, s.Members(),
		member("m1", "Ada", "Lovelace"),
		member("m2", "Grace", "Hopper"),
		member("m3", "Alan", "Turing"),
		member("m4", "Katherine", "Johnson"),
	)
	tests := []struct {
		text string
		want []string
	}{
		{"lovelase", []string{"m1"}},     // one typo in 8 letters
		{"grase", []string{"m2"}},        // one typo in 5 letters
		{"hoper", []string{"m2"}},        // a letter missing in 6
		{"katherjne", []string{"m4"}},    // one typo in 9
		{"grace hopqer", []string{"m2"}}, // the last word with a typo
		{"alam", nil},                    // four letters: no typo allowed
		{"ada lov", []string{"m1"}},      // the last word is a prefix
		{"ada lov?", []string{"m1"}},     // also before punctuation
		{"tur", []string{"m3"}},
		{"kath", []string{"m4"}},
	}
	for _, tt := range tests {
		sameSet(t, fmt.Sprintf("%q", tt.text), find(t, s.Members(), search.Query{Text: tt.text}), tt.want...)
	}
}

func limitOffsetTotal(t *testing.T, s search.Store) {
	var ms []search.Member
	for i := range 7 {
		ms = append(ms, member(fmt.Sprintf("m%d", i), fmt.Sprintf("First%c", 'a'+i), "Smith"))
	}
	ms = append(ms, member("other", "Jane", "Doe"))
	put(t, s.Members(), ms...)

	r := find(t, s.Members(), search.Query{Text: "smith", Limit: 5})
	if len(r.Hits) != 5 || r.Total != 7 {
		t.Fatalf("limit 5: %d hits, total %d; want 5 of 7 (a 'more results' line)", len(r.Hits), r.Total)
	}
	byName := []search.Sort{{Field: "sortName"}}
	first := find(t, s.Members(), search.Query{Text: "smith", Sort: byName, Limit: 4})
	rest := find(t, s.Members(), search.Query{Text: "smith", Sort: byName, Limit: 4, Offset: 4})
	all := append(ids(first), ids(rest)...)
	want := []string{"m0", "m1", "m2", "m3", "m4", "m5", "m6"}
	if !slices.Equal(all, want) {
		t.Errorf("two pages: got %v, want %v", all, want)
	}
	if r := find(t, s.Members(), search.Query{}); len(r.Hits) != 8 || r.Total != 8 {
		t.Errorf("blank query: %d hits of %d, want all 8", len(r.Hits), r.Total)
	}
}

func sortOrder(t *testing.T, s search.Store) {
	put(t, s.Posts(),
		search.Post{ID: "old", ChannelID: "c", Text: "release notes", CreatedAt: 1_000},
		search.Post{ID: "new", ChannelID: "c", Text: "release", CreatedAt: 3_000},
		search.Post{ID: "mid", ChannelID: "c", Text: "notes on the release", CreatedAt: 2_000},
	)
	readable := search.Filter{search.ReadableBy("u", "c")}
	r := find(t, s.Posts(), search.Query{Text: "release", Filter: readable, Sort: []search.Sort{{Field: "createdAt", Desc: true}}})
	if got := ids(r); !slices.Equal(got, []string{"new", "mid", "old"}) {
		t.Errorf("newest first: got %v", got)
	}
	r = find(t, s.Posts(), search.Query{Filter: readable, Sort: []search.Sort{{Field: "createdAt"}}})
	if got := ids(r); !slices.Equal(got, []string{"old", "mid", "new"}) {
		t.Errorf("oldest first: got %v", got)
	}
}

func hashtags(t *testing.T, s search.Store) {
	tag := func(forum, name string, count int) search.Hashtag {
		return search.Hashtag{ID: search.HashtagID(forum, name), Name: name, ForumID: forum, CommunityID: "c1", Count: count}
	}
	put(t, s.Hashtags(),
		tag("fA", "java", 10), tag("fA", "javascript", 50), tag("fA", "golang", 7),
		tag("fA", "café", 3),
		tag("fB", "javafx", 99), // a forum the asker cannot read
	)
	put(t, s.Hashtags(), tag("fA", "java", 10)) // a replayed change
	r := find(t, s.Hashtags(), search.Query{
		Text:   "jav",
		Filter: search.Filter{search.In("forumId", "fA")},
		Sort:   []search.Sort{{Field: "count", Desc: true}},
	})
	var names []string
	for _, h := range r.Hits {
		names = append(names, h.Name)
	}
	if !slices.Equal(names, []string{"javascript", "java"}) {
		t.Errorf("jav in fA by use: got %v, want [javascript java]", names)
	}
	if r.Hits[0].Count != 50 || r.Total != 2 {
		t.Errorf("count = %d of %d hits, want 50 of 2", r.Hits[0].Count, r.Total)
	}
	r = find(t, s.Hashtags(), search.Query{Text: "cafe", Filter: search.Filter{search.In("forumId", "fA")}})
	if len(r.Hits) != 1 || r.Hits[0].Name != "café" {
		t.Errorf("cafe: got %+v, want café (accents folded)", r.Hits)
	}
	r = find(t, s.Hashtags(), search.Query{Filter: search.Filter{search.In("forumId", "fA")}, Sort: []search.Sort{{Field: "name"}}})
	names = nil
	for _, h := range r.Hits {
		names = append(names, h.Name)
	}
	if !slices.Equal(names, []string{"café", "golang", "java", "javascript"}) {
		t.Errorf("fA by name: got %v", names)
	}
}

// postPermissions is the permission shape of the post index: a post comes
// back only when the asker is among its readers or it lives in a channel
// the asker may read, whatever the text, the other filters or the page.
func postPermissions(t *testing.T, s search.Store) {
	var posts []search.Post
	readable := map[string]bool{}
	for i := range 24 {
		p := search.Post{ID: fmt.Sprintf("p%02d", i), Kind: "thread", Text: "kubernetes rollout notes", CreatedAt: int64(i)}
		switch i % 4 {
		case 0: // the asker's forum
			p.ForumID, p.ChannelID = "fA", "cA"
			readable[p.ID] = true
		case 1: // a forum the asker is not in
			p.ForumID, p.ChannelID = "fB", "cB"
		case 2: // a private chat with the asker
			p.ChannelID, p.ReaderIDs = "dm1", []string{"u1", "u2"}
			readable[p.ID] = true
		case 3: // a private chat between others
			p.ChannelID, p.ReaderIDs = "dm2", []string{"u2", "u3"}
		}
		posts = append(posts, p)
	}
	put(t, s.Posts(), posts...)
	asker := search.ReadableBy("u1", "cA")
	check := func(what string, q search.Query) {
		t.Helper()
		seen := 0
		for page := 0; page < 10; page++ {
			q.Limit, q.Offset = 5, page*5
			r := find(t, s.Posts(), q)
			for _, p := range r.Hits {
				if !readable[p.ID] {
					t.Errorf("%s: unreadable post %s (channel %s, readers %v) came back", what, p.ID, p.ChannelID, p.ReaderIDs)
				}
				seen++
			}
			if len(r.Hits) < 5 {
				break
			}
		}
		if seen == 0 {
			t.Errorf("%s: nothing came back; want the readable posts", what)
		}
	}
	check("text", search.Query{Text: "kubernetes", Filter: search.Filter{asker}})
	check("typo", search.Query{Text: "kubernetis", Filter: search.Filter{asker}})
	check("prefix", search.Query{Text: "kub", Filter: search.Filter{asker}})
	check("blank", search.Query{Filter: search.Filter{asker}})
	check("sorted", search.Query{Text: "rollout", Filter: search.Filter{asker}, Sort: []search.Sort{{Field: "createdAt", Desc: true}}})
	// A wider second clause cannot widen the first: clauses are AND-ed.
	check("other clauses narrow", search.Query{Text: "notes", Filter: search.Filter{asker, search.In("channelId", "cA", "cB", "dm1", "dm2")}})
	check("any word", search.Query{Text: "kubernetes sandwiches", AnyWord: true, Filter: search.Filter{asker}})

	r := find(t, s.Posts(), search.Query{Text: "kubernetes", Filter: search.Filter{asker}, Limit: 100})
	want := []string{}
	for id := range readable {
		want = append(want, id)
	}
	sameSet(t, "every readable post", r, want...)
	sameSet(t, "readable and in fB", find(t, s.Posts(), search.Query{Text: "kubernetes", Filter: search.Filter{asker, search.In("forumId", "fB")}}))
	sameSet(t, "no channels, not a reader", find(t, s.Posts(), search.Query{Text: "kubernetes", Filter: search.Filter{search.ReadableBy("u9")}}))
}

// anyWord: with AnyWord a post holding one word of the text comes back,
// a word also matches as the start of a longer one, and a post holding
// more of the words ranks above one holding fewer.
func anyWord(t *testing.T, s search.Store) {
	put(t, s.Posts(),
		search.Post{ID: "p1", ChannelID: "c", Text: "We deploy the schema migrations on Tuesdays"},
		search.Post{ID: "p2", ChannelID: "c", Text: "Deployment freezes start in December"},
		search.Post{ID: "p3", ChannelID: "c", Text: "Lunch is at noon"},
		search.Post{ID: "p4", ChannelID: "other", Text: "We deploy migrations nightly"},
	)
	f := search.Filter{search.ReadableBy("u1", "c")}
	sameSet(t, "every word", find(t, s.Posts(), search.Query{Text: "deploy migrations", Filter: f}), "p1")
	r := find(t, s.Posts(), search.Query{Text: "deploy migrations", AnyWord: true, Filter: f})
	sameSet(t, "any word", r, "p1", "p2")
	if ids(r)[0] != "p1" {
		t.Errorf("any word: %v; want p1, which holds both words, first", ids(r))
	}
	sameSet(t, "no word", find(t, s.Posts(), search.Query{Text: "sandwiches", AnyWord: true, Filter: f}))
	// A long question: a post holding only its twelfth word, or a word
	// that is not the last as the start of a longer one, comes back.
	long := "when is the office hour for people asking about a lunch break deploy"
	sameSet(t, "a long question", find(t, s.Posts(), search.Query{Text: long, AnyWord: true, Filter: f}), "p1", "p2", "p3")
	sameSet(t, "a word start that is not last", find(t, s.Posts(), search.Query{Text: "deploy lunches", AnyWord: true, Filter: f}), "p1", "p2")
	// With a sort, the order is the sort's.
	put(t, s.Posts(),
		search.Post{ID: "p1", ChannelID: "c", Text: "We deploy the schema migrations on Tuesdays", CreatedAt: 1},
		search.Post{ID: "p2", ChannelID: "c", Text: "Deployment freezes start in December", CreatedAt: 3},
		search.Post{ID: "p5", ChannelID: "c", Text: "Migrations run at night", CreatedAt: 2},
	)
	r = find(t, s.Posts(), search.Query{Text: "deploy migrations", AnyWord: true, Filter: f, Sort: []search.Sort{{Field: "createdAt", Desc: true}}})
	if got := ids(r); !slices.Equal(got, []string{"p2", "p5", "p1"}) {
		t.Errorf("any word, newest first: %v, want [p2 p5 p1]", got)
	}
}

// longText: a text of more than ten words still needs every word (the
// repeated ones once) and its last as a prefix.
func longText(t *testing.T, s search.Store) {
	put(t, s.Posts(),
		search.Post{ID: "p1", ChannelID: "c", Text: "we deploy the schema migrations on tuesdays with the release team and the ops rota"},
		search.Post{ID: "p2", ChannelID: "c", Text: "we deploy the schema migrations on tuesdays with the release team and the ops"},
		// Without "ops", a short word among many: all the same a word.
		search.Post{ID: "p3", ChannelID: "c", Text: "we deploy the schema migrations on tuesdays with the release team and the rota"},
	)
	f := search.Filter{search.ReadableBy("u1", "c")}
	text := "the the we deploy the schema migrations on tuesdays with the release team and the ops ro"
	r := find(t, s.Posts(), search.Query{Text: text, Filter: f})
	sameSet(t, "every word of a long text", r, "p1")
	if r.Total != 1 {
		t.Errorf("Total = %d, want 1", r.Total)
	}
}

func postUnscoped(t *testing.T, s search.Store) {
	put(t, s.Posts(), search.Post{ID: "p1", ChannelID: "cB", Text: "secret"})
	for _, f := range []search.Filter{
		nil,
		{search.In("channelId", "cB")},
		{search.NotIn("readerIds", "nobody")},
		{search.Clause{{Field: "readerIds", Values: []string{"u1"}}, {Field: "forumId", Values: []string{"fB"}}}},
	} {
		if _, err := s.Posts().Search(context.Background(), search.Query{Text: "secret", Filter: f}); !errors.Is(err, search.ErrUnscoped) {
			t.Errorf("post search with filter %v: %v, want ErrUnscoped", f, err)
		}
	}
}

func peerCriteria(t *testing.T, s search.Store) {
	put(t, s.Peers(),
		search.Peer{ID: "u1", FirstName: "Ada", LastName: "Lovelace", Name: "Ada Lovelace", Company: "Analytical Society",
			JobTitle: "Mathematician", Expertise: []string{"Poetry"}, Tags: []string{"looms", "weaving"}, CommunityIDs: []string{"c1"}},
		search.Peer{ID: "u2", FirstName: "Charles", LastName: "Babbage", Name: "Charles Babbage", Company: "Acme",
			JobTitle: "Inventor", Expertise: []string{"Engines"}, Tags: []string{"cryptography"}, CommunityIDs: []string{"c1"}},
		search.Peer{ID: "u3", FirstName: "Mary", LastName: "Somerville", Name: "Mary Somerville", Company: "Acme",
			JobTitle: "Astronomer", CommunityIDs: []string{"c2"}},
		search.Peer{ID: "me", FirstName: "Me", LastName: "Myself", Name: "Me Myself", Company: "Acme", JobTitle: "Inventor", CommunityIDs: []string{"c1"}},
	)
	shared := search.Filter{search.In("communityIds", "c1")}
	notMe := search.Filter{search.In("communityIds", "c1"), search.NotIn("id", "me")}
	tests := []struct {
		criterion, text string
		filter          search.Filter
		want            []string
	}{
		{"all", "engines", shared, []string{"u2"}},
		{"expertise", "engines", shared, []string{"u2"}},
		{"org", "engines", shared, nil},
		{"name", "ada", shared, []string{"u1"}},
		{"name", "acme", shared, nil},
		{"org", "acme", shared, []string{"u2", "me"}},
		{"org", "acme", notMe, []string{"u2"}},
		{"job", "inventor", shared, []string{"u2", "me"}},
		{"tags", "cryptography", shared, []string{"u2"}},
		{"tags", "looms weaving", shared, []string{"u1"}},
		{"all", "poetry", shared, []string{"u1"}},
		{"all", "acme, inventor", shared, []string{"u2", "me"}}, // every term in some field
		{"all", "ACME   Inventor", shared, []string{"u2", "me"}},
		{"org", "acme inventor", shared, nil}, // a job is not an org
		{"all", "somerville", shared, nil},    // shares no community
	}
	for _, tt := range tests {
		fields, err := search.PeerCriterionFields(tt.criterion)
		if err != nil {
			t.Fatal(err)
		}
		sameSet(t, tt.criterion+" "+tt.text, find(t, s.Peers(), search.Query{Text: tt.text, Fields: fields, Filter: tt.filter}), tt.want...)
	}
	if _, err := search.PeerCriterionFields("shoe size"); !errors.Is(err, search.ErrBadQuery) {
		t.Errorf("unknown criterion: %v, want ErrBadQuery", err)
	}
}

func badQueries(t *testing.T, s search.Store) {
	ctx := context.Background()
	for _, q := range []search.Query{
		{Text: "x", Fields: []string{"password"}},
		{Filter: search.Filter{search.In("email", "a@b.c")}}, // searchable, not filterable
		{Sort: []search.Sort{{Field: "firstName"}}},
		{Limit: -1},
		{Offset: -1},
		{Filter: search.Filter{search.Clause{}}},
	} {
		if _, err := s.Members().Search(ctx, q); !errors.Is(err, search.ErrBadQuery) {
			t.Errorf("Search(%+v) = %v, want ErrBadQuery", q, err)
		}
	}
	// A clause of no values matches nothing; a Not of no values, anything.
	put(t, s.Members(), member("m1", "Ada", "Lovelace", "c1"))
	sameSet(t, "in nothing", find(t, s.Members(), search.Query{Filter: search.Filter{search.In("communityIds")}}))
	sameSet(t, "not in nothing", find(t, s.Members(), search.Query{Filter: search.Filter{search.NotIn("communityIds")}}), "m1")
	if r := find(t, s.Members(), search.Query{Limit: 5000}); len(r.Hits) != 1 {
		t.Errorf("limit above the maximum: %d hits", len(r.Hits))
	}
}

func rebuild(t *testing.T, s search.Store) {
	ctx := context.Background()
	put(t, s.Members(), member("m1", "Ada", "Lovelace"))
	put(t, s.Hashtags(), search.Hashtag{ID: "h", Name: "kept", ForumID: "f"})
	if err := s.Members().Rebuild(ctx); err != nil {
		t.Fatalf("Rebuild: %v", err)
	}
	sameSet(t, "after rebuild", find(t, s.Members(), search.Query{}))
	put(t, s.Members(), member("m2", "Alan", "Turing"))
	sameSet(t, "written after rebuild", find(t, s.Members(), search.Query{Text: "turing"}), "m2")
	sameSet(t, "other indexes untouched", find(t, s.Hashtags(), search.Query{Text: "kept"}), "h")
}

// at is a unit vector of the plane at deg degrees: the nearer two angles,
// the nearer their vectors.
func at(deg float64) []float32 {
	r := deg * math.Pi / 180
	return []float32{float32(math.Cos(r)), float32(math.Sin(r)), 0}
}

// vectorNearest: a Vector query returns the posts with a vector, nearest
// first, paged; a post without a vector never comes back.
func vectorNearest(t *testing.T, s search.Store) {
	put(t, s.Posts(),
		search.Post{ID: "far", ChannelID: "c", Text: "far", Vector: at(80)},
		search.Post{ID: "near", ChannelID: "c", Text: "near", Vector: at(10)},
		search.Post{ID: "opposite", ChannelID: "c", Text: "opposite", Vector: at(180)},
		search.Post{ID: "mid", ChannelID: "c", Text: "mid", Vector: at(45)},
		search.Post{ID: "long", ChannelID: "c", Text: "a longer vector, the same way", Vector: []float32{0, 5, 0}},
		search.Post{ID: "none", ChannelID: "c", Text: "no vector"},
	)
	f := search.Filter{search.ReadableBy("u1", "c")}
	r := find(t, s.Posts(), search.Query{Vector: at(0), Filter: f})
	if got, want := ids(r), []string{"near", "mid", "far", "long", "opposite"}; !slices.Equal(got, want) {
		t.Errorf("nearest first: got %v, want %v (cosine: a vector's length does not count)", got, want)
	}
	if r.Total != 5 {
		t.Errorf("Total = %d, want 5: the posts with a vector", r.Total)
	}
	for _, p := range r.Hits {
		if p.Vector != nil || p.Text == "" {
			t.Errorf("hit %+v: want the document without its vector", p)
		}
	}
	first := find(t, s.Posts(), search.Query{Vector: at(0), Filter: f, Limit: 2})
	rest := find(t, s.Posts(), search.Query{Vector: at(0), Filter: f, Limit: 2, Offset: 2})
	if got := append(ids(first), ids(rest)...); !slices.Equal(got, []string{"near", "mid", "far", "long"}) {
		t.Errorf("two pages: got %v", got)
	}
}

// vectorPermissions: a nearer post the asker may not read, or outside the
// filter, never comes back.
func vectorPermissions(t *testing.T, s search.Store) {
	put(t, s.Posts(),
		search.Post{ID: "mine", ForumID: "fA", ChannelID: "cA", Text: "mine", Vector: at(30)},
		search.Post{ID: "dm", ChannelID: "dm1", ReaderIDs: []string{"u1", "u2"}, Text: "dm", Vector: at(20)},
		search.Post{ID: "other-forum", ForumID: "fB", ChannelID: "cB", Text: "other", Vector: at(0)},
		search.Post{ID: "others-dm", ChannelID: "dm2", ReaderIDs: []string{"u2", "u3"}, Text: "theirs", Vector: at(1)},
		search.Post{ID: "fA-elsewhere", ForumID: "fA", ChannelID: "cA2", Text: "admins", Vector: at(2)},
	)
	asker := search.ReadableBy("u1", "cA")
	r := find(t, s.Posts(), search.Query{Vector: at(0), Filter: search.Filter{asker}})
	if got := ids(r); !slices.Equal(got, []string{"dm", "mine"}) {
		t.Errorf("readable, nearest first: got %v, want [dm mine]", got)
	}
	sameSet(t, "readable and in fA", find(t, s.Posts(), search.Query{Vector: at(0), Filter: search.Filter{asker, search.In("forumId", "fA")}}), "mine")
	sameSet(t, "not a reader", find(t, s.Posts(), search.Query{Vector: at(0), Filter: search.Filter{search.ReadableBy("u9")}}))
	if _, err := s.Posts().Search(context.Background(), search.Query{Vector: at(0), Filter: search.Filter{search.In("forumId", "fB")}}); !errors.Is(err, search.ErrUnscoped) {
		t.Errorf("unscoped vector query: %v, want ErrUnscoped", err)
	}
}

// vectorWrites: an upsert replaces a post's vector (or drops it, without
// one), a delete and a delete-where remove it.
func vectorWrites(t *testing.T, s search.Store) {
	ctx := context.Background()
	put(t, s.Posts(),
		search.Post{ID: "p1", ForumID: "fA", ChannelID: "c", Text: "one", Vector: at(0)},
		search.Post{ID: "p2", ForumID: "fA", ChannelID: "c", Text: "two", Vector: at(90)},
		search.Post{ID: "p3", ForumID: "fB", ChannelID: "c", Text: "three", Vector: at(45)},
		search.Post{ID: "p4", ForumID: "fA", ChannelID: "c", Text: "four", Vector: at(60)},
	)
	f := search.Filter{search.ReadableBy("u1", "c")}
	put(t, s.Posts(), search.Post{ID: "p2", ForumID: "fA", ChannelID: "c", Text: "two, edited", Vector: at(-5)})
	if got := ids(find(t, s.Posts(), search.Query{Vector: at(0), Filter: f, Limit: 2})); !slices.Equal(got, []string{"p1", "p2"}) {
		t.Errorf("after re-embedding p2: got %v, want [p1 p2]", got)
	}
	put(t, s.Posts(), search.Post{ID: "p2", ForumID: "fA", ChannelID: "c", Text: "two, without a vector"})
	if err := s.Posts().Delete(ctx, "p1"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if err := s.Posts().DeleteWhere(ctx, search.Filter{search.In("forumId", "fB")}); err != nil {
		t.Fatalf("DeleteWhere: %v", err)
	}
	if err := s.Posts().Wait(ctx); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	sameSet(t, "after the writes", find(t, s.Posts(), search.Query{Vector: at(0), Filter: f}), "p4")
	sameSet(t, "by words, p2 is still there", find(t, s.Posts(), search.Query{Text: "two", Filter: f}), "p2")
}

func vectorRebuild(t *testing.T, s search.Store) {
	put(t, s.Posts(), search.Post{ID: "p1", ChannelID: "c", Text: "one", Vector: at(0)})
	if err := s.Posts().Rebuild(context.Background()); err != nil {
		t.Fatalf("Rebuild: %v", err)
	}
	f := search.Filter{search.ReadableBy("u1", "c")}
	sameSet(t, "after rebuild", find(t, s.Posts(), search.Query{Vector: at(0), Filter: f}))
	put(t, s.Posts(), search.Post{ID: "p2", ChannelID: "c", Text: "two", Vector: at(10)})
	sameSet(t, "written after rebuild", find(t, s.Posts(), search.Query{Vector: at(0), Filter: f}), "p2")
}

func vectorBadQueries(t *testing.T, s search.Store) {
	ctx := context.Background()
	f := search.Filter{search.ReadableBy("u1", "c")}
	for _, q := range []search.Query{
		{Vector: at(0), Text: "words too", Filter: f},
		{Vector: at(0), Sort: []search.Sort{{Field: "createdAt"}}, Filter: f},
	} {
		if _, err := s.Posts().Search(ctx, q); !errors.Is(err, search.ErrBadQuery) {
			t.Errorf("Search(%+v) = %v, want ErrBadQuery", q, err)
		}
	}
	if _, err := s.Members().Search(ctx, search.Query{Vector: at(0)}); !errors.Is(err, search.ErrBadQuery) {
		t.Errorf("vector query of members = %v, want ErrBadQuery", err)
	}
	put(t, s.Posts(), search.Post{ID: "zero", ChannelID: "c", Text: "zero", Vector: make([]float32, 3)},
		search.Post{ID: "p1", ChannelID: "c", Text: "one", Vector: at(0)})
	sameSet(t, "a vector of zeros is none", find(t, s.Posts(), search.Query{Vector: at(0), Filter: f}), "p1")
	sameSet(t, "a query of zeros finds nothing", find(t, s.Posts(), search.Query{Vector: make([]float32, 3), Filter: f}))
}

// postWithoutText: an image-only post (no text, so no vector) written in
// one batch with posts that have vectors is kept, found by the filter, and
// does not come back from a Vector query.
func postWithoutText(t *testing.T, s search.Store) {
	put(t, s.Posts(),
		search.Post{ID: "p1", ChannelID: "c", Text: "one", Vector: at(0)},
		search.Post{ID: "image", ChannelID: "c", Kind: "thread"},
		search.Post{ID: "p2", ChannelID: "c", Text: "two", Vector: at(30)},
	)
	// A later batch of image-only posts alone, once vectors exist.
	put(t, s.Posts(), search.Post{ID: "image2", ChannelID: "c", Kind: "thread"})
	f := search.Filter{search.ReadableBy("u1", "c")}
	sameSet(t, "every post", find(t, s.Posts(), search.Query{Filter: f}), "p1", "image", "p2", "image2")
	r := find(t, s.Posts(), search.Query{Vector: at(0), Filter: f})
	if got := ids(r); !slices.Equal(got, []string{"p1", "p2"}) || r.Total != 2 {
		t.Errorf("nearest: %v of %d, want [p1 p2] of 2", got, r.Total)
	}
}

// editRemovesVector: an edit that loses its vector (the text is gone, or
// the embedder could not embed it) is no longer near anything.
func editRemovesVector(t *testing.T, s search.Store) {
	put(t, s.Posts(),
		search.Post{ID: "p1", ChannelID: "c", Text: "kubernetes rollout", Vector: at(0)},
		search.Post{ID: "p2", ChannelID: "c", Text: "other", Vector: at(60)},
	)
	put(t, s.Posts(), search.Post{ID: "p1", ChannelID: "c", Text: "kubernetes rollout, edited"})
	f := search.Filter{search.ReadableBy("u1", "c")}
	r := find(t, s.Posts(), search.Query{Vector: at(0), Filter: f})
	if got := ids(r); !slices.Equal(got, []string{"p2"}) || r.Total != 1 {
		t.Errorf("nearest after the edit: %v of %d, want [p2] of 1", got, r.Total)
	}
	sameSet(t, "by words", find(t, s.Posts(), search.Query{Text: "edited", Filter: f}), "p1")
	// And a vector again, later.
	put(t, s.Posts(), search.Post{ID: "p1", ChannelID: "c", Text: "kubernetes rollout, again", Vector: at(5)})
	if got := ids(find(t, s.Posts(), search.Query{Vector: at(0), Filter: f})); !slices.Equal(got, []string{"p1", "p2"}) {
		t.Errorf("nearest after a new vector: %v, want [p1 p2]", got)
	}
}

// newIndexSearch: every kind of search of a store nothing was written to
// answers nothing, without an error (a vector search before any vector
// included: the AI search runs it on a new forum).
func newIndexSearch(t *testing.T, s search.Store) {
	f := search.Filter{search.ReadableBy("u1", "c")}
	for _, q := range []search.Query{
		{Vector: at(0), Filter: f},
		{Text: "kubernetes", Filter: f},
		{Text: "how do we deploy kubernetes", AnyWord: true, Filter: f},
		{Filter: f},
	} {
		if r := find(t, s.Posts(), q); len(r.Hits) != 0 || r.Total != 0 {
			t.Errorf("Search(%+v) on a new index: %v of %d", q, ids(r), r.Total)
		}
	}
	sameSet(t, "members", find(t, s.Members(), search.Query{Text: "ada"}))
}
