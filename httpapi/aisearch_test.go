package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/seed"
	"agora/app/testenv"
	"agora/httpapi/openapi"
	"agora/internal/plumbing/config"
	"agora/search"
	"agora/search/answer/answertest"
)

// aiEvent is one line of an AI search stream.
type aiEvent struct {
	Type     string `json:"type"`
	SearchID string `json:"searchId"`
	Posts    []struct {
		N         int    `json:"n"`
		ID        string `json:"id"`
		ThreadID  string `json:"threadId"`
		ChannelID string `json:"channelId"`
		Kind      string `json:"kind"`
		Excerpt   string `json:"excerpt"`
	} `json:"posts"`
	Text      string   `json:"text"`
	Answer    string   `json:"answer"`
	Citations []string `json:"citations"`
	Done      bool     `json:"done"`
	CreatedOn string   `json:"createdOn"`
}

// aiStream is an answered search: its events, in order.
type aiStream []aiEvent

func (s aiStream) searchID() string { return s[0].SearchID }

// postIDs are the ids of the threads event's posts.
func (s aiStream) postIDs() []string {
	var ids []string
	for _, p := range s[0].Posts {
		ids = append(ids, p.ID)
	}
	return ids
}

func (s aiStream) last() aiEvent { return s[len(s)-1] }

func (s aiStream) completions() []string {
	var out []string
	for _, e := range s {
		if e.Type == "completion" {
			out = append(out, e.Text)
		}
	}
	return out
}

// aiPath is the search route for a question, a follow-up when searchID is
// not empty.
func aiPath(channel, searchID, q string) string {
	p := "/api/ai/search/" + channel
	if searchID != "" {
		p += "/" + searchID
	}
	return p + "?q=" + url.QueryEscape(q)
}

// aiAsk asks and checks the stream: application/x-ndjson, every line an
// AISearchEvent of the contract, threads first, then completions, then one
// done answer whose text the completions add up to, every event with the
// same searchId, and citations among the threads event's posts.
func aiAsk(t *testing.T, c *testenv.Client, channel, searchID, q string) aiStream {
	t.Helper()
	r := c.Do("GET", aiPath(channel, searchID, q), nil)
	if r.Status != http.StatusOK {
		t.Fatalf("ask %q: %d %s", q, r.Status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-ndjson") {
		t.Errorf("Content-Type %q", ct)
	}
	var s aiStream
	for _, line := range bytes.Split(bytes.TrimRight(r.Body, "\n"), []byte("\n")) {
		if err := openapi.ValidateSchema("AISearchEvent", line); err != nil {
			t.Errorf("line %s: %v", line, err)
		}
		var e aiEvent
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		s = append(s, e)
	}
	if len(s) < 3 {
		t.Fatalf("%d events, want threads, completion…, answer: %s", len(s), r.Body)
	}
	if s[0].Type != "threads" {
		t.Errorf("first event %q, want threads", s[0].Type)
	}
	for _, e := range s[1 : len(s)-1] {
		if e.Type != "completion" {
			t.Errorf("middle event %q, want completion", e.Type)
		}
	}
	last := s.last()
	if last.Type != "answer" || !last.Done || last.CreatedOn == "" {
		t.Errorf("last event %+v, want a done answer", last)
	}
	if got := strings.Join(s.completions(), ""); got != last.Answer {
		t.Errorf("completions add up to %q, answer is %q", got, last.Answer)
	}
	if _, err := uuid.Parse(s.searchID()); err != nil {
		t.Errorf("searchId %q", s.searchID())
	}
	for _, e := range s {
		if e.SearchID != s.searchID() {
			t.Errorf("event %s has searchId %q, want %q", e.Type, e.SearchID, s.searchID())
		}
	}
	if searchID != "" && s.searchID() != searchID {
		t.Errorf("follow-up answered as search %q, want %q", s.searchID(), searchID)
	}
	for _, id := range last.Citations {
		if !slices.Contains(s.postIDs(), id) {
			t.Errorf("citation %s is not among the retrieved posts %v", id, s.postIDs())
		}
	}
	return s
}

// aiWord is a word no other test writes, of ten letters.
func aiWord() string {
	id := uuid.New()
	b := []byte("zq")
	for _, x := range id[:8] {
		b = append(b, 'a'+x%26)
	}
	return string(b)
}

// aiWaitIndexed waits until the search projection has indexed the post.
func aiWaitIndexed(t *testing.T, store search.Store, postID, channelID string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := store.Posts().Search(t.Context(), search.Query{Filter: search.Filter{
			search.In("threadId", postID), search.ReadableBy(uuid.Nil.String(), channelID),
		}})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range res.Hits {
			if p.ID == postID {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("post %s not indexed after 30 s", postID)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// aiPost posts raw to a channel of a forum and waits until it is indexed.
func aiPost(t *testing.T, c *testenv.Client, store search.Store, series, channel, raw string) string {
	t.Helper()
	v := post(t, c, series, map[string]any{"channelId": channel, "raw": raw})
	aiWaitIndexed(t, store, v.ID, channel)
	return v.ID
}

func aiWantError(t *testing.T, r *testenv.Response, status int, code string) {
	t.Helper()
	if r.Status != status || r.Code() != code {
		t.Errorf("got %d %s, want %d %s", r.Status, r.Body, status, code)
	}
}

// TestAISearchExtractive: with no model configured, a question is answered
// from the forum's posts, citing the post that holds the answer, and the
// search is stored with its turn.
func TestAISearchExtractive(t *testing.T) {
	env, store := testenv.NewSearch(t)
	f := feedFixtureOn(t, env)
	member := env.As(t, seed.MemberEmail)
	w := aiWord()
	answerID := aiPost(t, member, store, f.welcome, f.welcomeMain,
		"The "+w+" deployment checklist lives in the wiki. Always run the "+w+" database migrations before deploying the release.")
	aiPost(t, member, store, f.welcome, f.welcomeMain, "Lunch on Friday for the "+w+" team is pizza.")

	s := aiAsk(t, member, f.welcomeMain, "", "How do we deploy the "+w+" migrations?")
	last := s.last()
	if !slices.Contains(s.postIDs(), answerID) {
		t.Fatalf("the post holding the answer was not retrieved: %+v", s[0].Posts)
	}
	if !slices.Contains(last.Citations, answerID) {
		t.Errorf("citations %v do not name the post holding the answer %s", last.Citations, answerID)
	}
	if !strings.Contains(last.Answer, "migrations before deploying the release") || strings.Contains(last.Answer, "pizza") {
		t.Errorf("answer %q", last.Answer)
	}
	if p := s[0].Posts[0]; p.N != 1 || p.ChannelID != f.welcomeMain || p.ThreadID == "" || p.Kind != "post" || p.Excerpt == "" {
		t.Errorf("source %+v", p)
	}

	userID := f.user(t, seed.MemberEmail)
	if n := env.Count(t, "ai_searches", "id = $1 AND user_id = $2 AND channel_id = $3 AND series_id = $4", s.searchID(), userID, f.welcomeMain, f.welcome); n != 1 {
		t.Errorf("%d searches stored", n)
	}
	if n := env.Count(t, "ai_search_turns", "search_id = $1 AND answerer = 'extractive' AND $2 = ANY(cited) AND answer = $3",
		s.searchID(), answerID, last.Answer); n != 1 {
		t.Errorf("%d matching turns stored", n)
	}

	// A follow-up continues the same search.
	s2 := aiAsk(t, member, f.welcomeMain, s.searchID(), "Where does the "+w+" checklist live?")
	if !strings.Contains(s2.last().Answer, "wiki") {
		t.Errorf("follow-up answer %q", s2.last().Answer)
	}
	if n := env.Count(t, "ai_search_turns", "search_id = $1", s.searchID()); n != 2 {
		t.Errorf("%d turns after a follow-up, want 2", n)
	}
}

// TestAISearchModel: with a model configured (langchaingo's OpenAI client
// against a local OpenAI-compatible server), completion events carry the
// model's tokens, a follow-up gives the model the earlier turn, and the
// turns name the model.
func TestAISearchModel(t *testing.T) {
	tokens := []string{"Run the migrations", " first [1]", ", then deploy."}
	srv := answertest.New(t, answertest.Options{Tokens: tokens})
	env, store := testenv.NewSearch(t, func(c *config.Config) {
		c.AI.ModelURL, c.AI.Model = srv.URL, "test-model"
	})
	f := feedFixtureOn(t, env)
	member := env.As(t, seed.MemberEmail)
	w := aiWord()
	postID := aiPost(t, member, store, f.welcome, f.welcomeMain, "Always run the "+w+" migrations before deploying.")

	first := "How do we deploy the " + w + " migrations?"
	s := aiAsk(t, member, f.welcomeMain, "", first)
	if got := s.completions(); !slices.Equal(got, tokens) {
		t.Errorf("completions %q, want the model's tokens %q", got, tokens)
	}
	if want := strings.Join(tokens, ""); s.last().Answer != want {
		t.Errorf("answer %q, want %q", s.last().Answer, want)
	}
	if len(s[0].Posts) == 0 || s[0].Posts[0].ID != postID || !slices.Equal(s.last().Citations, []string{postID}) {
		t.Errorf("posts %+v, citations %v; want [1] to cite %s", s[0].Posts, s.last().Citations, postID)
	}

	second := "And the " + w + " rollbacks?"
	s2 := aiAsk(t, member, f.welcomeMain, s.searchID(), second)
	if n := env.Count(t, "ai_search_turns", "search_id = $1 AND answerer = 'openai:test-model'", s.searchID()); n != 2 {
		t.Errorf("%d turns stored, want 2", n)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the model got %d requests, want 2", len(reqs))
	}
	// The follow-up: system, the first question and its answer, then the
	// posts and the new question.
	msgs := reqs[1].Messages
	if len(msgs) != 4 || msgs[1].Role != "user" || msgs[1].Content != first || msgs[2].Role != "assistant" || msgs[2].Content != s.last().Answer ||
		!strings.Contains(msgs[3].Content, "<question>"+second+"</question>") {
		t.Errorf("the follow-up's history did not reach the model: %+v", msgs)
	}
	if s2.searchID() != s.searchID() {
		t.Errorf("follow-up search %s", s2.searchID())
	}
}

// TestAISearchDisconnect: a client that goes away mid-answer cancels the
// model's request, seen at the model server, and nothing is stored. The
// stalled model never ends a request by itself, so any end is the
// cancellation; the bound only stops a hung test (it is usually a few ms,
// which the log shows, and a timed bound here failed on a loaded machine).
func TestAISearchDisconnect(t *testing.T) {
	srv := answertest.New(t, answertest.Options{Tokens: []string{"The answer"}, Stall: true})
	env, _ := testenv.NewSearch(t, func(c *config.Config) {
		c.AI.ModelURL, c.AI.Model = srv.URL, "test-model"
	})
	f := feedFixtureOn(t, env)
	member := env.As(t, seed.MemberEmail)

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", env.URL+aiPath(f.welcomeMain, "", "What is the answer?"), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+member.Token)
	res, err := (&http.Client{}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	br := bufio.NewReader(res.Body)
	var searchID string
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			t.Fatalf("the stream ended before a completion: %v", err)
		}
		var e aiEvent
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		searchID = e.SearchID
		if e.Type == "completion" {
			break
		}
	}
	// The model has sent its first token and is now "thinking": leave.
	left := time.Now()
	cancel()
	res.Body.Close()
	select {
	case at := <-srv.Ended():
		t.Logf("the model's request ended %v after the client left", at.Sub(left))
	case <-time.After(10 * time.Second):
		t.Fatal("the model's request still runs 10 s after the client left")
	}
	time.Sleep(100 * time.Millisecond)
	if n := env.Count(t, "ai_searches", "id = $1", searchID); n != 0 {
		t.Errorf("an unfinished answer was stored")
	}
}

// TestAISearchPermissions: retrieval sees only the posts of the asked
// forum that the asker may read, whatever matches best; the channel and a
// follow-up's search are checked; bad input is refused and stores nothing.
func TestAISearchPermissions(t *testing.T) {
	env, store := testenv.NewSearch(t)
	f := feedFixtureOn(t, env)
	member, expert, admin, outsider := env.As(t, seed.MemberEmail), env.As(t, seed.ExpertEmail), env.As(t, seed.AdminEmail), env.As(t, seed.OutsiderEmail)
	w := aiWord()
	visible := aiPost(t, member, store, f.welcome, f.welcomeMain, "The "+w+" guild meets every Tuesday in room four.")
	// These match the question better (more of its words) but are in a
	// forum the member does not read, and in the admin channel.
	elsewhere := aiPost(t, admin, store, f.roundtable, f.roundtableMain,
		"When does the "+w+" guild meet? The "+w+" guild meets in the vault, secretly, every Tuesday.")
	adminOnly := aiPost(t, admin, store, f.welcome, f.welcomeAdmin,
		"When does the "+w+" guild meet? The "+w+" guild meets in the admin vault every Tuesday.")
	question := "When does the " + w + " guild meet?"

	s := aiAsk(t, member, f.welcomeMain, "", question)
	if !slices.Contains(s.postIDs(), visible) {
		t.Errorf("the readable post was not retrieved: %v", s.postIDs())
	}
	for name, id := range map[string]string{"another forum's post": elsewhere, "the admin channel's post": adminOnly} {
		if slices.Contains(s.postIDs(), id) || slices.Contains(s.last().Citations, id) {
			t.Errorf("%s reached a member's search", name)
		}
	}
	if strings.Contains(strings.ToLower(s.last().Answer), "vault") {
		t.Errorf("the answer quotes a post the member may not read: %q", s.last().Answer)
	}

	// The same question from a forum admin sees the admin channel, and the
	// other forum's post is found in its own forum: both were indexed and
	// match, and only permissions kept them out.
	if s := aiAsk(t, admin, f.welcomeMain, "", question); !slices.Contains(s.postIDs(), adminOnly) || slices.Contains(s.postIDs(), elsewhere) {
		t.Errorf("admin in the forum retrieved %v", s.postIDs())
	}
	if s := aiAsk(t, admin, f.roundtableMain, "", question); !slices.Contains(s.postIDs(), elsewhere) {
		t.Errorf("admin in the other forum retrieved %v", s.postIDs())
	}

	memberID := f.user(t, seed.MemberEmail)
	before := env.Count(t, "ai_searches", "user_id = $1", memberID)
	beforeTurns := env.Count(t, "ai_search_turns t JOIN ai_searches s ON s.id = t.search_id", "s.user_id = $1", memberID)

	// Who may ask where.
	// A channel one may not read is as unknown as any (issue 14, F12).
	aiWantError(t, outsider.Do("GET", aiPath(f.welcomeMain, "", question), nil), 404, "notFound")
	aiWantError(t, member.Do("GET", aiPath(f.welcomeAdmin, "", question), nil), 404, "notFound")
	aiWantError(t, member.Do("GET", aiPath(f.roundtableMain, "", question), nil), 404, "notFound")
	aiWantError(t, member.Do("GET", aiPath(uuid.NewString(), "", question), nil), 404, "notFound")
	aiWantError(t, env.Client(t).Do("GET", aiPath(f.welcomeMain, "", question), nil), 401, "authenticationRequired")

	// A follow-up must be the asker's own search, in that channel.
	aiWantError(t, expert.Do("GET", aiPath(f.welcomeMain, s.searchID(), question), nil), 404, "notFound")
	aiWantError(t, member.Do("GET", aiPath(f.roadmapsMain, s.searchID(), question), nil), 404, "notFound")
	aiWantError(t, member.Do("GET", aiPath(f.welcomeMain, uuid.NewString(), question), nil), 404, "notFound")

	// Bad input. Lengths count characters, not bytes.
	long := strings.Repeat("é", 300) + strings.Repeat("a", 700)
	for name, path := range map[string]string{
		"blank q":         aiPath(f.welcomeMain, "", " \t "),
		"no q":            "/api/ai/search/" + f.welcomeMain,
		"q too long":      aiPath(f.welcomeMain, "", long+"a"),
		"bad channel":     aiPath("nope", "", question),
		"bad search":      aiPath(f.welcomeMain, "nope", question),
		"bad follow-up q": aiPath(f.welcomeMain, s.searchID(), ""),
	} {
		if r := member.Do("GET", path, nil); r.Status != 400 || r.Code() != "validationFailed" {
			t.Errorf("%s: %d %s, want 400 validationFailed", name, r.Status, r.Body)
		}
	}
	// 1000 characters is the longest question, in any script: 1000
	// Cyrillic letters are 6 KB of URL.
	aiAsk(t, member, f.welcomeMain, "", long)
	aiAsk(t, member, f.welcomeMain, "", strings.Repeat("ж", 1000))

	if n := env.Count(t, "ai_searches", "user_id = $1", memberID); n != before+2 {
		t.Errorf("searches went from %d to %d, want only the two good questions", before, n)
	}
	if n := env.Count(t, "ai_search_turns t JOIN ai_searches s ON s.id = t.search_id", "s.user_id = $1", memberID); n != beforeTurns+2 {
		t.Errorf("turns went from %d to %d, want only the two good questions", beforeTurns, n)
	}
}

// TestShareChat: a member shares a search to the forum as a shared-ai-chat
// post holding the conversation, which the channel's feed shows; only the
// asker's own search with an answer can be shared.
func TestShareChat(t *testing.T) {
	env, store := testenv.NewSearch(t)
	f := feedFixtureOn(t, env)
	member, expert, outsider := env.As(t, seed.MemberEmail), env.As(t, seed.ExpertEmail), env.As(t, seed.OutsiderEmail)
	w := aiWord()
	aiPost(t, member, store, f.welcome, f.welcomeMain, "The "+w+" retro happens on Fridays. Notes go to the "+w+" wiki.")
	q1, q2 := "When is the "+w+" retro?", "Where do the "+w+" notes go?"
	s1 := aiAsk(t, member, f.welcomeMain, "", q1)
	s2 := aiAsk(t, member, f.welcomeMain, s1.searchID(), q2)

	body := map[string]any{"channelId": f.welcomeMain, "searchId": s1.searchID()}
	r := member.Do("POST", "/api/ai-response/share-chat", body)
	if r.Status != 201 {
		t.Fatalf("share: %d %s", r.Status, r.Body)
	}
	var th struct {
		ID        string  `json:"id"`
		ChannelID string  `json:"channelId"`
		Type      string  `json:"type"`
		CreatorID *string `json:"creatorId"`
		Raw       string  `json:"raw"`
		Chat      []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
			Sources []struct {
				N  int    `json:"n"`
				ID string `json:"id"`
			} `json:"sources"`
			CreatedOn string `json:"createdOn"`
		} `json:"chat"`
	}
	r.JSON(t, &th)
	// Each answer keeps the posts it cites, under the numbers its markers use.
	for i, m := range th.Chat {
		if m.Role != "other" {
			continue
		}
		var cited []string
		for _, src := range m.Sources {
			if !strings.Contains(m.Content, fmt.Sprintf("[%d]", src.N)) {
				t.Errorf("chat[%d] source %+v is not cited by %q", i, src, m.Content)
			}
			cited = append(cited, src.ID)
		}
		want := []aiEvent{s1.last(), s2.last()}[i/2].Citations
		slices.Sort(cited)
		want = slices.Sorted(slices.Values(want))
		if len(want) == 0 || !slices.Equal(cited, want) {
			t.Errorf("chat[%d] sources %+v, want the citations %v", i, m.Sources, want)
		}
	}
	if th.Type != "shared-ai-chat" || th.ChannelID != f.welcomeMain || th.CreatorID == nil || *th.CreatorID != f.user(t, seed.MemberEmail) || th.Raw != q1 {
		t.Errorf("shared post %+v", th)
	}
	want := []struct{ role, content string }{{"user", q1}, {"other", s1.last().Answer}, {"user", q2}, {"other", s2.last().Answer}}
	if len(th.Chat) != len(want) {
		t.Fatalf("chat %+v, want %d messages", th.Chat, len(want))
	}
	for i, m := range th.Chat {
		if m.Role != want[i].role || m.Content != want[i].content || m.CreatedOn == "" {
			t.Errorf("chat[%d] = %+v, want %s %q", i, m, want[i].role, want[i].content)
		}
	}

	// The channel's feed shows it, to another reader too.
	r = expert.Do("GET", "/api/channels/"+f.welcomeMain+"/threads?pageSize=10", nil)
	var page struct {
		Results []struct {
			ID   string            `json:"id"`
			Type string            `json:"type"`
			Chat []json.RawMessage `json:"chat"`
		} `json:"results"`
	}
	r.JSON(t, &page)
	found := false
	for _, p := range page.Results {
		found = found || (p.ID == th.ID && p.Type == "shared-ai-chat" && len(p.Chat) == 4)
	}
	if !found {
		t.Errorf("the shared chat is not in the channel's feed: %s", r.Body)
	}

	// Only the asker's own search, in its channel, with an answer.
	posts := env.Count(t, "threads", "channel_id = $1", f.welcomeMain)
	aiWantError(t, expert.Do("POST", "/api/ai-response/share-chat", body), 404, "notFound")
	aiWantError(t, member.Do("POST", "/api/ai-response/share-chat", map[string]any{"channelId": f.roadmapsMain, "searchId": s1.searchID()}), 404, "notFound")
	aiWantError(t, member.Do("POST", "/api/ai-response/share-chat", map[string]any{"channelId": f.welcomeMain, "searchId": uuid.NewString()}), 404, "notFound")
	aiWantError(t, outsider.Do("POST", "/api/ai-response/share-chat", body), 404, "notFound")
	aiWantError(t, member.Do("POST", "/api/ai-response/share-chat", map[string]any{"channelId": f.welcomeMain}), 400, "parametersMissingException")
	aiWantError(t, member.Do("POST", "/api/ai-response/share-chat", map[string]any{"channelId": "nope", "searchId": s1.searchID()}), 400, "validationFailed")
	aiWantError(t, member.Do("POST", "/api/ai-response/share-chat", map[string]any{"channelId": f.welcomeMain, "searchId": s1.searchID(), "x": 1}), 400, "invalidBody")
	aiWantError(t, env.Client(t).Do("POST", "/api/ai-response/share-chat", body), 401, "authenticationRequired")
	empty := uuid.NewString()
	if _, err := env.DB.Pool.Exec(t.Context(), `INSERT INTO ai_searches (id, channel_id, series_id, user_id) VALUES ($1, $2, $3, $4)`,
		empty, f.welcomeMain, f.welcome, f.user(t, seed.MemberEmail)); err != nil {
		t.Fatal(err)
	}
	aiWantError(t, member.Do("POST", "/api/ai-response/share-chat", map[string]any{"channelId": f.welcomeMain, "searchId": empty}), 400, "validationFailed")
	if n := env.Count(t, "threads", "channel_id = $1", f.welcomeMain); n != posts {
		t.Errorf("a refused share posted: %d posts, want %d", n, posts)
	}
}

// TestAISearchRateLimit: an account asks at most its searches a minute
// (AGORA_AI_SEARCHES_PER_ACCOUNT_PER_MINUTE), follow-ups included; the
// next is 429 tooManyRequests with Retry-After and stores nothing. An ask
// refused for rights does not count, and another account still asks.
func TestAISearchRateLimit(t *testing.T) {
	env, store := testenv.NewSearch(t, func(c *config.Config) { c.AI.SearchesPerAccountPerMinute = 3 })
	f := feedFixtureOn(t, env)
	member, expert := env.As(t, seed.MemberEmail), env.As(t, seed.ExpertEmail)
	w := aiWord()
	aiPost(t, member, store, f.welcome, f.welcomeMain, "The "+w+" club meets on Fridays.")
	question := "When does the " + w + " club meet?"

	aiWantError(t, member.Do("GET", aiPath(f.welcomeAdmin, "", question), nil), 404, "notFound")
	s := aiAsk(t, member, f.welcomeMain, "", question)
	aiAsk(t, member, f.welcomeMain, s.searchID(), "And where?")
	aiAsk(t, member, f.welcomeMain, "", question)

	memberID := f.user(t, seed.MemberEmail)
	before := env.Count(t, "ai_search_turns t JOIN ai_searches s ON s.id = t.search_id", "s.user_id = $1", memberID)
	r := member.Do("GET", aiPath(f.welcomeMain, "", question), nil)
	aiWantError(t, r, 429, "tooManyRequests")
	if n, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || n < 1 || n > 60 {
		t.Errorf("Retry-After %q, want 1 to 60 seconds", r.Header.Get("Retry-After"))
	}
	aiWantError(t, member.Do("GET", aiPath(f.welcomeMain, s.searchID(), "And when?"), nil), 429, "tooManyRequests")
	if n := env.Count(t, "ai_search_turns t JOIN ai_searches s ON s.id = t.search_id", "s.user_id = $1", memberID); n != before {
		t.Errorf("refused searches stored %d turns", n-before)
	}
	aiAsk(t, expert, f.welcomeMain, "", question)
}
