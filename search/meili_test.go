package search_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"agora/search"
	"agora/search/searchtest"
)

// No Meilisearch server runs here, so these tests pin, request by request,
// what the adapter sends (searchtest.FakeMeili).

func newFakeMeili(t *testing.T) (*searchtest.FakeMeili, *httptest.Server) {
	return searchtest.NewFakeMeili(t)
}

func openFake(t *testing.T, srv *httptest.Server) search.Store {
	t.Helper()
	s, err := search.OpenMeili(context.Background(), search.MeiliConfig{
		URL: srv.URL, Key: "master-key", Prefix: "t_", PollInterval: time.Millisecond,
	})
	if err != nil {
		t.Fatalf("OpenMeili: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// sameJSON fails unless got and want are the same JSON value.
func sameJSON(t *testing.T, what, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("%s: body %q is not JSON: %v", what, got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: bad expectation: %v", what, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s: body\n got %s\nwant %s", what, got, want)
	}
}

func samePaths(t *testing.T, what string, rs []searchtest.Request, want ...string) {
	t.Helper()
	if got := searchtest.Paths(rs); !slices.Equal(got, want) {
		t.Fatalf("%s: requests\n got %q\nwant %q", what, got, want)
	}
}

func TestMeiliOpenCreatesIndexesWithSettings(t *testing.T) {
	f, srv := newFakeMeili(t)
	openFake(t, srv)
	rs := f.Take()
	samePaths(t, "open", rs,
		"POST /indexes", "PATCH /indexes/t_members/settings", "GET /tasks/1", "GET /tasks/2",
		"POST /indexes", "PATCH /indexes/t_hashtags/settings", "GET /tasks/3", "GET /tasks/4",
		"POST /indexes", "PATCH /indexes/t_posts/settings", "GET /tasks/5", "GET /tasks/6",
		"POST /indexes", "PATCH /indexes/t_peers/settings", "GET /tasks/7", "GET /tasks/8",
		// An embedder an earlier process set up says the vectors' length.
		"GET /indexes/t_posts/settings/embedders",
	)
	for _, r := range rs {
		if r.Auth != "Bearer master-key" {
			t.Errorf("%s: Authorization %q, want the master key", r, r.Auth)
		}
	}
	sameJSON(t, "create members", rs[0].Body, `{"uid":"t_members","primaryKey":"id"}`)
	sameJSON(t, "create peers", rs[12].Body, `{"uid":"t_peers","primaryKey":"id"}`)
	const typos = `"typoTolerance":{"enabled":true,"minWordSizeForTypos":{"oneTypo":5,"twoTypos":9},
		"disableOnWords":[],"disableOnAttributes":[],"disableOnNumbers":false}`
	const ranking = `"rankingRules":["sort","words","typo","proximity","attribute","exactness"],"pagination":{"maxTotalHits":1000000}`
	sameJSON(t, "posts settings", rs[9].Body, `{`+ranking+`,
		"searchableAttributes":["text","hashtags"],
		"displayedAttributes":["*"],
		"filterableAttributes":["kind","threadId","parentId","channelId","forumId","communityId","authorId","hashtags","readerIds","id","hasVector"],
		"sortableAttributes":["createdAt"],`+typos+`}`)
	sameJSON(t, "members settings", rs[1].Body, `{`+ranking+`,
		"searchableAttributes":["fullName","firstName","lastName","email","jobTitle","company"],
		"displayedAttributes":["*"],
		"filterableAttributes":["id","userId","organizationIds","communityIds","forumIds","adminOf","expertIn"],
		"sortableAttributes":["sortName"],`+typos+`}`)
	sameJSON(t, "hashtags settings", rs[5].Body, `{`+ranking+`,
		"searchableAttributes":["name"],"displayedAttributes":["*"],
		"filterableAttributes":["forumId","communityId","id"],"sortableAttributes":["count","name"],`+typos+`}`)
	sameJSON(t, "peers settings", rs[13].Body, `{`+ranking+`,
		"searchableAttributes":["name","firstName","lastName","company","jobTitle","expertise","tags"],
		"displayedAttributes":["*"],"filterableAttributes":["id","communityIds"],"sortableAttributes":["sortName"],`+typos+`}`)
}

func TestMeiliOpenKeepsAnExistingIndexButNotFailedSettings(t *testing.T) {
	f, srv := newFakeMeili(t)
	// Every index exists already: its creation task fails, and that is fine.
	for _, uid := range []int64{1, 3, 5, 7} {
		f.FailTask(uid, "index_already_exists", "Index `t_x` already exists.")
	}
	openFake(t, srv)

	f, srv = newFakeMeili(t)
	f.FailTask(2, "invalid_settings_filterable_attributes", "bad filterable attributes")
	_, err := search.OpenMeili(context.Background(), search.MeiliConfig{URL: srv.URL, Prefix: "t_", PollInterval: time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "invalid_settings_filterable_attributes") {
		t.Fatalf("OpenMeili with failing settings = %v, want the task's error", err)
	}
	for _, r := range f.Take() {
		if r.Auth != "" {
			t.Errorf("%s sent Authorization %q without a key", r, r.Auth)
		}
	}
}

func TestMeiliWritesAreTasksAwaitedByWait(t *testing.T) {
	f, srv := newFakeMeili(t)
	s := openFake(t, srv)
	f.Take()
	ctx := context.Background()

	err := s.Posts().Upsert(ctx,
		search.Post{ID: "p1", Kind: "thread", ChannelID: "c1", ForumID: "f1", CommunityID: "k1", AuthorID: "u1",
			Text: "Kubernetes rollout", Hashtags: []string{"k8s"}, CreatedAt: 1763809200000},
		search.Post{ID: "p2", Kind: "comment", ThreadID: "p1", ChannelID: "c1", ForumID: "f1", Text: "anonymous question"},
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Posts().Delete(ctx, "p3", "p4"); err != nil {
		t.Fatal(err)
	}
	if err := s.Posts().DeleteWhere(ctx, search.Filter{search.In("forumId", "f9")}); err != nil {
		t.Fatal(err)
	}
	rs := f.Take()
	// Writes do not wait: a projection writes a batch, then waits once.
	samePaths(t, "writes", rs, "POST /indexes/t_posts/documents", "POST /indexes/t_posts/documents/delete-batch", "POST /indexes/t_posts/documents/delete")
	// A post without a vector says so: once the embedder exists,
	// Meilisearch fails a batch with a new post that does not.
	sameJSON(t, "upsert", rs[0].Body, `[
		{"_vectors":{"default":null},"hasVector":false,"id":"p1","kind":"thread","threadId":"","parentId":"","channelId":"c1","forumId":"f1","communityId":"k1","authorId":"u1",
		 "text":"Kubernetes rollout","hashtags":["k8s"],"readerIds":null,"createdAt":1763809200000},
		{"_vectors":{"default":null},"hasVector":false,"id":"p2","kind":"comment","threadId":"p1","parentId":"","channelId":"c1","forumId":"f1","communityId":"","authorId":"",
		 "text":"anonymous question","hashtags":null,"readerIds":null,"createdAt":0}]`)
	sameJSON(t, "delete", rs[1].Body, `["p3","p4"]`)
	sameJSON(t, "delete where", rs[2].Body, `{"filter":"forumId IN [\"f9\"]"}`)

	if err := s.Posts().Wait(ctx); err != nil {
		t.Fatal(err)
	}
	samePaths(t, "wait", f.Take(), "GET /tasks/9", "GET /tasks/10", "GET /tasks/11")
	if err := s.Posts().Wait(ctx); err != nil {
		t.Fatal(err)
	}
	samePaths(t, "nothing left to wait for", f.Take())

	// A failed task is reported by the next Wait, with Meilisearch's code.
	f.FailTask(12, "invalid_document_id", "Document identifier `a b` is invalid.")
	if err := s.Members().Upsert(ctx, search.Member{ID: "a b"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Members().Wait(ctx); err == nil || !strings.Contains(err.Error(), "invalid_document_id") {
		t.Fatalf("Wait after a failed task = %v, want its error", err)
	}
}

func TestMeiliSearchSendsTheQueryAndDecodesHits(t *testing.T) {
	f, srv := newFakeMeili(t)
	s := openFake(t, srv)
	f.Take()
	f.SetSearchAnswer(`{
		"hits": [
			{"id":"p7","kind":"thread","threadId":"","parentId":"","channelId":"c1","forumId":"f1","communityId":"k1",
			 "authorId":"u4","text":"Rolling out Kubernetes","hashtags":["k8s","ops"],"readerIds":[],"createdAt":1763809200123},
			{"id":"p9","kind":"reply","threadId":"p7","parentId":"p8","channelId":"dm1","forumId":"","communityId":"",
			 "authorId":"u1","text":"kubernetes?","hashtags":[],"readerIds":["u1","u2"],"createdAt":1763809100000}
		],
		"query": "kubernetes",
		"processingTimeMs": 1,
		"limit": 5,
		"offset": 10,
		"estimatedTotalHits": 42
	}`)
	r, err := s.Posts().Search(context.Background(), search.Query{
		Text:   "  kubernetes ",
		Fields: []string{"text"},
		Filter: search.Filter{search.ReadableBy("u1", "c1", "c2"), search.In("kind", "thread", "reply"), search.NotIn("authorId", `a"b\c`)},
		Sort:   []search.Sort{{Field: "createdAt", Desc: true}},
		Limit:  5, Offset: 10,
	})
	if err != nil {
		t.Fatal(err)
	}
	rs := f.Take()
	samePaths(t, "search", rs, "POST /indexes/t_posts/search")
	sameJSON(t, "search", rs[0].Body, `{
		"q":"kubernetes","limit":5,"offset":10,
		"attributesToSearchOn":["text"],
		"matchingStrategy":"all",
		"filter":"(readerIds IN [\"u1\"] OR channelId IN [\"c1\", \"c2\"]) AND kind IN [\"thread\", \"reply\"] AND NOT authorId IN [\"a\\\"b\\\\c\"]",
		"sort":["createdAt:desc"],
		"hybrid":null}`)
	want := []search.Post{
		{ID: "p7", Kind: "thread", ChannelID: "c1", ForumID: "f1", CommunityID: "k1", AuthorID: "u4",
			Text: "Rolling out Kubernetes", Hashtags: []string{"k8s", "ops"}, ReaderIDs: []string{}, CreatedAt: 1763809200123},
		{ID: "p9", Kind: "reply", ThreadID: "p7", ParentID: "p8", ChannelID: "dm1", AuthorID: "u1",
			Text: "kubernetes?", Hashtags: []string{}, ReaderIDs: []string{"u1", "u2"}, CreatedAt: 1763809100000},
	}
	if !reflect.DeepEqual(r.Hits, want) || r.Total != 42 {
		t.Errorf("result = %+v (total %d), want %+v of 42", r.Hits, r.Total, want)
	}

	// A blank query sends an empty q and no filter; defaults fill the page.
	f.SetSearchAnswer(`{"hits":[],"query":"","processingTimeMs":0,"limit":20,"offset":0,"estimatedTotalHits":0}`)
	if _, err := s.Members().Search(context.Background(), search.Query{}); err != nil {
		t.Fatal(err)
	}
	rs = f.Take()
	sameJSON(t, "blank search", rs[0].Body, `{"q":"","limit":20,"matchingStrategy":"all","hybrid":null}`)

	// AnyWord is a search a word (no matching strategy keeps a document
	// with any word), after a count of what passes the filter; a word
	// shorter than four letters ends with a space, so it is no prefix.
	f.SetSearchAnswer("")
	if _, err := s.Posts().Search(context.Background(), search.Query{Text: "deploy migrations on AWS", AnyWord: true, Filter: search.Filter{search.ReadableBy("u1")}}); err != nil {
		t.Fatal(err)
	}
	rs = f.Take()
	samePaths(t, "any word", rs, "POST /multi-search")
	const readable = `"filter":"readerIds IN [\"u1\"]","indexUid":"t_posts","hybrid":null,"matchingStrategy":"all"`
	sameJSON(t, "any word", rs[0].Body, `{"queries":[
		{"q":"","limit":1,"attributesToRetrieve":["id"],`+readable+`},
		{"q":"deploy","limit":20,`+readable+`},
		{"q":"migrations","limit":20,`+readable+`},
		{"q":"on ","limit":20,`+readable+`},
		{"q":"aws ","limit":20,`+readable+`}]}`)
}

func TestMeiliRefusesBeforeSending(t *testing.T) {
	f, srv := newFakeMeili(t)
	s := openFake(t, srv)
	f.Take()
	ctx := context.Background()
	if _, err := s.Posts().Search(ctx, search.Query{Text: "secret", Filter: search.Filter{search.In("forumId", "f1")}}); !errors.Is(err, search.ErrUnscoped) {
		t.Errorf("unscoped post search = %v", err)
	}
	if _, err := s.Members().Search(ctx, search.Query{Sort: []search.Sort{{Field: "email"}}}); !errors.Is(err, search.ErrBadQuery) {
		t.Errorf("bad sort = %v", err)
	}
	// A clause no document can pass needs no round trip.
	r, err := s.Posts().Search(ctx, search.Query{Filter: search.Filter{search.ReadableBy("u1"), search.In("forumId")}})
	if err != nil || len(r.Hits) != 0 {
		t.Errorf("impossible filter = %v, %v", r, err)
	}
	if err := s.Posts().DeleteWhere(ctx, search.Filter{search.In("forumId")}); err != nil {
		t.Errorf("delete where nothing = %v", err)
	}
	samePaths(t, "refused", f.Take())
}

func TestMeiliRebuildDropsAndRecreates(t *testing.T) {
	f, srv := newFakeMeili(t)
	s := openFake(t, srv)
	f.Take()
	if err := s.Posts().Upsert(context.Background(), search.Post{ID: "p1"}); err != nil {
		t.Fatal(err)
	}
	f.Take()
	if err := s.Posts().Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	rs := f.Take()
	samePaths(t, "rebuild", rs, "DELETE /indexes/t_posts", "GET /tasks/10",
		"POST /indexes", "PATCH /indexes/t_posts/settings", "GET /tasks/11", "GET /tasks/12")
	sameJSON(t, "recreate", rs[2].Body, `{"uid":"t_posts","primaryKey":"id"}`)
	// The write before the rebuild went with the old index: nothing to wait for.
	if err := s.Posts().Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	samePaths(t, "wait after rebuild", f.Take())
}

func TestMeiliVectorsGoWithTheirEmbedder(t *testing.T) {
	f, srv := newFakeMeili(t)
	s := openFake(t, srv)
	f.Take()
	ctx := context.Background()
	err := s.Posts().Upsert(ctx,
		search.Post{ID: "p1", ChannelID: "c1", Text: "with", Vector: []float32{0.5, -1, 2}},
		search.Post{ID: "p2", ChannelID: "c1", Text: "without"},
		search.Post{ID: "p3", ChannelID: "c1", Text: "zeros", Vector: []float32{0, 0, 0}},
	)
	if err != nil {
		t.Fatal(err)
	}
	rs := f.Take()
	// The first vectors set the embedder up, and wait for it, before their
	// documents.
	samePaths(t, "first vectors", rs, "PATCH /indexes/t_posts/settings/embedders", "GET /tasks/9", "POST /indexes/t_posts/documents")
	sameJSON(t, "embedder", rs[0].Body, `{"default":{"source":"userProvided","dimensions":3}}`)
	const rest = `"threadId":"","parentId":"","channelId":"c1","forumId":"","communityId":"","authorId":"","hashtags":null,"readerIds":null,"createdAt":0`
	sameJSON(t, "documents", rs[2].Body, `[
		{"_vectors":{"default":[0.5,-1,2]},"hasVector":true,"id":"p1","kind":"","text":"with",`+rest+`},
		{"_vectors":{"default":null},"hasVector":false,"id":"p2","kind":"","text":"without",`+rest+`},
		{"_vectors":{"default":null},"hasVector":false,"id":"p3","kind":"","text":"zeros",`+rest+`}]`)

	if err := s.Posts().Upsert(ctx, search.Post{ID: "p4", ChannelID: "c1", Text: "later", Vector: []float32{1, 2, 3}}); err != nil {
		t.Fatal(err)
	}
	samePaths(t, "later vectors", f.Take(), "POST /indexes/t_posts/documents")
	if err := s.Posts().Wait(ctx); err != nil {
		t.Fatal(err)
	}
	samePaths(t, "wait", f.Take(), "GET /tasks/10", "GET /tasks/11")

	// A rebuilt index gets the embedder with its other settings.
	if err := s.Posts().Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	rs = f.Take()
	samePaths(t, "rebuild", rs, "DELETE /indexes/t_posts", "GET /tasks/12",
		"POST /indexes", "PATCH /indexes/t_posts/settings", "GET /tasks/13", "GET /tasks/14")
	var set struct {
		Embedders json.RawMessage `json:"embedders"`
	}
	if err := json.Unmarshal([]byte(rs[3].Body), &set); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "rebuilt settings' embedders", string(set.Embedders), `{"default":{"source":"userProvided","dimensions":3}}`)
}

func TestMeiliVectorDimensionsSetUpThePostsIndex(t *testing.T) {
	f, srv := newFakeMeili(t)
	s, err := search.OpenMeili(context.Background(), search.MeiliConfig{URL: srv.URL, Prefix: "t_", PollInterval: time.Millisecond, VectorDimensions: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rs := f.Take()
	for _, i := range []int{1, 5, 9, 13} {
		var set map[string]json.RawMessage
		if err := json.Unmarshal([]byte(rs[i].Body), &set); err != nil {
			t.Fatal(err)
		}
		emb, ok := set["embedders"]
		switch {
		case rs[i].Path == "/indexes/t_posts/settings":
			sameJSON(t, "posts embedders", string(emb), `{"default":{"source":"userProvided","dimensions":100}}`)
		case ok:
			t.Errorf("%s: embedders %s; only posts hold vectors", rs[i], emb)
		}
	}
	// Vectors then need no setting of their own.
	if err := s.Posts().Upsert(context.Background(), search.Post{ID: "p1", Vector: []float32{1}}); err != nil {
		t.Fatal(err)
	}
	samePaths(t, "vectors", f.Take(), "POST /indexes/t_posts/documents")
}

func TestMeiliVectorSearchIsSemantic(t *testing.T) {
	f, srv := newFakeMeili(t)
	s := openFake(t, srv)
	f.Take()
	// A hit the vectors did not rank (no similarity) is dropped.
	f.SetSearchAnswer(`{"hits":[
		{"id":"p7","kind":"thread","channelId":"c1","text":"Rolling out","_rankingScoreDetails":{"vectorSort":{"order":0,"similarity":0.9}}},
		{"id":"p8","kind":"thread","channelId":"c1","text":"No vector","_rankingScoreDetails":{"vectorSort":{"order":0}}}],
		"query":"","processingTimeMs":1,"limit":5,"offset":5,"estimatedTotalHits":12,"semanticHitCount":1}`)
	r, err := s.Posts().Search(context.Background(), search.Query{
		Vector: []float32{0.25, -0.5}, Filter: search.Filter{search.ReadableBy("u1", "c1"), search.In("forumId", "f1")}, Limit: 5, Offset: 5,
	})
	if err != nil {
		t.Fatal(err)
	}
	rs := f.Take()
	samePaths(t, "search", rs, "POST /indexes/t_posts/search")
	// No retrieveVectors: hits come without their vectors. Only posts
	// with a vector are asked for.
	sameJSON(t, "search", rs[0].Body, `{
		"q":"","limit":5,"offset":5,"matchingStrategy":"all","showRankingScoreDetails":true,
		"filter":"(readerIds IN [\"u1\"] OR channelId IN [\"c1\"]) AND forumId IN [\"f1\"] AND hasVector != false",
		"vector":[0.25,-0.5],
		"hybrid":{"embedder":"default","semanticRatio":1}}`)
	if len(r.Hits) != 1 || r.Hits[0].ID != "p7" || r.Hits[0].Vector != nil || r.Total != 12 {
		t.Errorf("result = %+v", r)
	}
}

// TestMeiliDownIsUnavailable: a write to a Meilisearch that no longer
// answers says ErrUnavailable, so the search projection waits for it
// rather than dead-letter the change; a refused document does not.
func TestMeiliDownIsUnavailable(t *testing.T) {
	_, srv := newFakeMeili(t)
	s := openFake(t, srv)
	if err := s.Posts().Upsert(context.Background(), search.Post{}); err == nil || errors.Is(err, search.ErrUnavailable) {
		t.Fatalf("a document without an id: %v, want an error that is not ErrUnavailable", err)
	}
	srv.Close()
	err := s.Posts().Upsert(context.Background(), search.Post{ID: "p1", Kind: "thread", Text: "t"})
	if !errors.Is(err, search.ErrUnavailable) {
		t.Fatalf("a write to a closed server: %v, want ErrUnavailable", err)
	}
}

// TestMeiliFailedEmbedderTaskIsAnError: the embedder setting's task is
// waited for, and its failure fails the write (no documents go after a
// setting that did not take); the next write sets it up again.
func TestMeiliFailedEmbedderTaskIsAnError(t *testing.T) {
	f, srv := newFakeMeili(t)
	s := openFake(t, srv)
	f.Take()
	ctx := context.Background()
	f.FailTask(9, "invalid_settings_embedders", "`.embedders.default`: bad")
	err := s.Posts().Upsert(ctx, search.Post{ID: "p1", ChannelID: "c", Text: "one", Vector: []float32{1, 0}})
	if err == nil || !strings.Contains(err.Error(), "invalid_settings_embedders") {
		t.Fatalf("Upsert after a failed embedder task = %v, want its error", err)
	}
	samePaths(t, "no documents after it", f.Take(), "PATCH /indexes/t_posts/settings/embedders", "GET /tasks/9")
	if err := s.Posts().Upsert(ctx, search.Post{ID: "p1", ChannelID: "c", Text: "one", Vector: []float32{1, 0}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Posts().Wait(ctx); err != nil {
		t.Fatal(err)
	}
	// A vector of another length is Meilisearch's failure, which Wait reports.
	if err := s.Posts().Upsert(ctx, search.Post{ID: "p2", ChannelID: "c", Text: "two", Vector: []float32{1, 0, 0}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Posts().Wait(ctx); err == nil || !strings.Contains(err.Error(), "invalid_vector_dimensions") {
		t.Fatalf("Wait after vectors of another length = %v, want invalid_vector_dimensions", err)
	}
}

// TestMeiliOpenLearnsAnExistingEmbedder: a process opening a store another
// set up with vectors knows their length, so it sends no second setting.
func TestMeiliOpenLearnsAnExistingEmbedder(t *testing.T) {
	f, srv := newFakeMeili(t)
	ctx := context.Background()
	first := openFake(t, srv)
	if err := first.Posts().Upsert(ctx, search.Post{ID: "p1", ChannelID: "c", Vector: []float32{1, 0}}); err != nil {
		t.Fatal(err)
	}
	second := openFake(t, srv)
	f.Take()
	if err := second.Posts().Upsert(ctx, search.Post{ID: "p2", ChannelID: "c", Vector: []float32{0, 1}}); err != nil {
		t.Fatal(err)
	}
	samePaths(t, "second process", f.Take(), "POST /indexes/t_posts/documents")
}

// meiliDo sends one request to the fake and decodes its answer.
func meiliDo(t *testing.T, srv *httptest.Server, method, path, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

func taskOf(t *testing.T, srv *httptest.Server, answer map[string]any) map[string]any {
	t.Helper()
	_, task := meiliDo(t, srv, "GET", fmt.Sprintf("/tasks/%v", answer["taskUid"]), "")
	return task
}

func hitIDs(answer map[string]any) []string {
	var out []string
	hits, _ := answer["hits"].([]any)
	for _, h := range hits {
		out = append(out, h.(map[string]any)["id"].(string))
	}
	return out
}

// TestFakeMeiliKeepsMeilisearchRules pins the rules of Meilisearch 1.15
// the fake implements, which the adapter is written against.
func TestFakeMeiliKeepsMeilisearchRules(t *testing.T) {
	_, srv := newFakeMeili(t)
	meiliDo(t, srv, "POST", "/indexes", `{"uid":"x","primaryKey":"id"}`)
	meiliDo(t, srv, "PATCH", "/indexes/x/settings", `{"filterableAttributes":["tag"]}`)
	_, a := meiliDo(t, srv, "POST", "/indexes/x/documents", `[{"id":"d1","text":"alpha beta"},{"id":"d2","text":"beta gamma"},
		{"id":"d3","text":"beta"},{"id":"d4","text":"alpha"}]`)
	if task := taskOf(t, srv, a); task["status"] != "succeeded" {
		t.Fatalf("documents: %v", task)
	}
	search := func(body string) []string {
		t.Helper()
		status, res := meiliDo(t, srv, "POST", "/indexes/x/search", body)
		if status != 200 {
			t.Fatalf("search %s: %d %v", body, status, res)
		}
		return hitIDs(res)
	}
	// last: the first word is needed; frequency: the rarest (alpha).
	if got := search(`{"q":"alpha beta","matchingStrategy":"last"}`); !slices.Equal(got, []string{"d1", "d4"}) {
		t.Errorf("last: %v, want [d1 d4]", got)
	}
	if got := search(`{"q":"alpha beta","matchingStrategy":"frequency"}`); !slices.Equal(got, []string{"d1", "d4"}) {
		t.Errorf("frequency: %v, want [d1 d4]: a document without the rarest word is dropped", got)
	}
	if got := search(`{"q":"alpha beta","matchingStrategy":"all"}`); !slices.Equal(got, []string{"d1"}) {
		t.Errorf("all: %v", got)
	}
	// Only the last word is a prefix, and not followed by a space; words
	// past the tenth do not count.
	if got := search(`{"q":"alp","matchingStrategy":"all"}`); !slices.Equal(got, []string{"d1", "d4"}) {
		t.Errorf("prefix: %v", got)
	}
	if got := search(`{"q":"alp ","matchingStrategy":"all"}`); len(got) != 0 {
		t.Errorf("prefix before a space: %v", got)
	}
	if got := search(`{"q":"alp beta","matchingStrategy":"all"}`); len(got) != 0 {
		t.Errorf("a prefix that is not last: %v", got)
	}
	if got := search(`{"q":"gamma b c d e f g h i j nothing","matchingStrategy":"all"}`); len(got) != 0 {
		t.Errorf("ten words: %v", got)
	}
	if got := search(`{"q":"alpha alpha alpha alpha alpha alpha alpha alpha alpha alpha gamma","matchingStrategy":"all"}`); !slices.Equal(got, []string{"d1", "d4"}) {
		t.Errorf("past the tenth word: %v, want [d1 d4] (gamma is not read)", got)
	}
	// A userProvided embedder: a new document must say its vector.
	_, a = meiliDo(t, srv, "PATCH", "/indexes/x/settings/embedders", `{"default":{"source":"userProvided","dimensions":2}}`)
	if task := taskOf(t, srv, a); task["status"] != "succeeded" {
		t.Fatalf("embedder: %v", task)
	}
	_, a = meiliDo(t, srv, "POST", "/indexes/x/documents", `[{"id":"v1","_vectors":{"default":[1,0]}},{"id":"v2"}]`)
	task := taskOf(t, srv, a)
	if e, _ := task["error"].(map[string]any); task["status"] != "failed" || e["code"] != "vector_embedding_error" {
		t.Fatalf("a new document without a vector: %v, want the batch failed", task)
	}
	if status, _ := meiliDo(t, srv, "POST", "/indexes/x/search", `{"q":"","filter":"text = none"}`); status != 400 {
		t.Errorf("a filter on an unfilterable field: %d", status)
	}
	_, a = meiliDo(t, srv, "POST", "/indexes/x/documents", `[{"id":"v1","_vectors":{"default":[1,0]}},{"id":"v2","_vectors":{"default":null}}]`)
	if task := taskOf(t, srv, a); task["status"] != "succeeded" {
		t.Fatalf("with a null: %v", task)
	}
	// A replacement that says nothing keeps the old vector.
	meiliDo(t, srv, "POST", "/indexes/x/documents", `[{"id":"v1","text":"edited"}]`)
	_, res := meiliDo(t, srv, "POST", "/indexes/x/search", `{"q":"","vector":[1,0],"hybrid":{"embedder":"default","semanticRatio":1},"showRankingScoreDetails":true}`)
	if got := hitIDs(res); len(got) < 1 || got[0] != "v1" {
		t.Errorf("semantic: %v, want v1 first, with its old vector", got)
	}
	if status, res := meiliDo(t, srv, "POST", "/indexes/x/search", `{"q":"","vector":[1,0],"hybrid":{"embedder":"other","semanticRatio":1}}`); status != 400 || res["code"] != "invalid_search_embedder" {
		t.Errorf("an unknown embedder: %d %v", status, res)
	}
	// maxTotalHits (1000 by default) bounds the hits and the total.
	var docs []string
	for i := range 1005 {
		docs = append(docs, fmt.Sprintf(`{"id":"m%d","_vectors":{"default":null}}`, i))
	}
	meiliDo(t, srv, "POST", "/indexes/x/documents", "["+strings.Join(docs, ",")+"]")
	_, res = meiliDo(t, srv, "POST", "/indexes/x/search", `{"q":"","offset":995,"limit":20}`)
	if n := len(hitIDs(res)); n != 5 || res["estimatedTotalHits"] != float64(1000) {
		t.Errorf("past maxTotalHits: %d hits of %v, want 5 of 1000", n, res["estimatedTotalHits"])
	}
}
