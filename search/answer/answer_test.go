package answer_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"agora/search"
	"agora/search/answer"
	"agora/search/answer/answertest"
)

// flushWriter records how many lines were flushed, to check a flush follows
// every line.
type flushWriter struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	flushes int
}

func (f *flushWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.buf.Write(p)
}

func (f *flushWriter) Flush() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.flushes++
}

func (f *flushWriter) events(t *testing.T) []answer.Event {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []answer.Event
	sc := bufio.NewScanner(bytes.NewReader(f.buf.Bytes()))
	for sc.Scan() {
		var e answer.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		out = append(out, e)
	}
	if f.flushes != len(out) {
		t.Errorf("%d lines but %d flushes", len(out), f.flushes)
	}
	return out
}

var fixturePosts = []search.Post{
	{ID: "p1", ThreadID: "p1", ChannelID: "c1", Kind: "post",
		Text: "Welcome to the forum! Our deployment checklist lives in the wiki. Always run the database migrations before deploying the new release."},
	{ID: "p2", ThreadID: "p1", ChannelID: "c1", Kind: "comment",
		Text: "Thanks. I also roll back the release when the migrations fail [7]."},
	{ID: "p3", ThreadID: "p3", ChannelID: "c1", Kind: "post",
		Text: "Lunch on Friday is pizza."},
}

// secret is a post the asker may not read: it is never given to the answerer.
var secret = search.Post{ID: "secret", ChannelID: "c2", Text: "The secret migrations plan: deploy on Sunday."}

func checkOrder(t *testing.T, evs []answer.Event, searchID string) {
	t.Helper()
	if len(evs) < 3 {
		t.Fatalf("got %d events, want threads, completion…, answer", len(evs))
	}
	if evs[0].Type != answer.TypeThreads {
		t.Errorf("first event %q, want threads", evs[0].Type)
	}
	for _, e := range evs[1 : len(evs)-1] {
		if e.Type != answer.TypeCompletion {
			t.Errorf("middle event %q, want completion", e.Type)
		}
	}
	last := evs[len(evs)-1]
	if last.Type != answer.TypeAnswer || !last.Done {
		t.Errorf("last event %+v, want a done answer", last)
	}
	for _, e := range evs {
		if e.SearchID != searchID {
			t.Errorf("event %s has searchId %q, want %q", e.Type, e.SearchID, searchID)
		}
	}
}

func joined(evs []answer.Event) string {
	var b strings.Builder
	for _, e := range evs {
		if e.Type == answer.TypeCompletion {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

func TestExtractive(t *testing.T) {
	w := &flushWriter{}
	req := answer.Request{SearchID: "s1", Question: "How do we deploy the migrations?", Posts: fixturePosts}
	res, err := answer.Run(context.Background(), answer.Extractive{}, req, answer.NewStream(w, "s1"), nil)
	if err != nil {
		t.Fatal(err)
	}
	evs := w.events(t)
	checkOrder(t, evs, "s1")

	if got := evs[0].Posts; len(got) != 3 || got[0].ID != "p1" || got[0].N != 1 || got[2].ID != "p3" || got[0].Excerpt == "" {
		t.Errorf("threads posts %+v", got)
	}
	last := evs[len(evs)-1]
	if last.Answer != joined(evs) || last.Answer != res.Answer {
		t.Errorf("answer %q, completions %q, result %q", last.Answer, joined(evs), res.Answer)
	}
	want := []string{"p1", "p2"}
	if !slices.Equal(last.Citations, want) || !slices.Equal(res.Citations, want) {
		t.Errorf("citations %v (result %v), want %v", last.Citations, res.Citations, want)
	}
	if !strings.Contains(last.Answer, "Always run the database migrations before deploying the new release. [1]") {
		t.Errorf("answer %q misses the best passage", last.Answer)
	}
	// The post's own "[7]" is no citation, and the pizza post is not used.
	if strings.Contains(last.Answer, "[7]") || strings.Contains(last.Answer, "pizza") {
		t.Errorf("answer %q", last.Answer)
	}
	if strings.Contains(w.buf.String(), secret.ID) || strings.Contains(w.buf.String(), "Sunday") {
		t.Errorf("stream mentions a post that was not given: %s", w.buf.String())
	}

	// Deterministic: the same request gives the same answer.
	w2 := &flushWriter{}
	res2, err := answer.Run(context.Background(), answer.Extractive{}, req, answer.NewStream(w2, "s1"), nil)
	if err != nil || res2.Answer != res.Answer {
		t.Errorf("second run %q, %v; want %q", res2.Answer, err, res.Answer)
	}
}

func TestExtractiveNoMatch(t *testing.T) {
	w := &flushWriter{}
	req := answer.Request{Question: "kubernetes autoscaling?", Posts: fixturePosts}
	res, err := answer.Run(context.Background(), answer.Extractive{}, req, answer.NewStream(w, "s2"), nil)
	if err != nil {
		t.Fatal(err)
	}
	evs := w.events(t)
	checkOrder(t, evs, "s2")
	if res.Answer != answer.NoAnswer || len(res.Citations) != 0 {
		t.Errorf("result %+v", res)
	}
}

func TestRunRefusesBlankQuestion(t *testing.T) {
	w := &flushWriter{}
	_, err := answer.Run(context.Background(), answer.Extractive{}, answer.Request{Question: "  "}, answer.NewStream(w, "s"), nil)
	if err != answer.ErrEmptyQuestion || w.buf.Len() != 0 {
		t.Errorf("err %v, wrote %q", err, w.buf.String())
	}
}

func TestCitations(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"a [1] b [2]", []string{"p1", "p2"}},
		{"a [2][1] b [2, 3]", []string{"p2", "p1", "p3"}},
		{"out of range [0] [4] [99]", []string{}},
		{"none", []string{}},
	}
	for _, tt := range tests {
		if got := answer.Citations(tt.text, fixturePosts); !slices.Equal(got, tt.want) {
			t.Errorf("Citations(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	err := answer.Config{BaseURL: "ftp:/x", MaxTokens: -1}.Validate()
	if err == nil {
		t.Fatal("bad config accepted")
	}
	for _, want := range []string{"base URL", "model name", "max tokens"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not report %s", err, want)
		}
	}
	if err := (answer.Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m"}).Validate(); err != nil {
		t.Errorf("good config refused: %v", err)
	}
}

func TestModelStreams(t *testing.T) {
	tokens := []string{"Run the migrations", " first [1]", ", and roll back", " if they fail [2][9]."}
	srv := answertest.New(t, answertest.Options{Tokens: tokens})

	m, err := answer.NewModel(answer.Config{BaseURL: srv.URL, Model: "test-model"}, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	if m.Name() != "openai:test-model" {
		t.Errorf("name %q", m.Name())
	}
	w := &flushWriter{}
	req := answer.Request{
		SearchID: "s3", Question: "How do we deploy the migrations?", Posts: fixturePosts[:2],
		History: []answer.Turn{{Question: "Where is the checklist?", Answer: "In the wiki [1]."}},
	}
	res, err := answer.Run(context.Background(), m, req, answer.NewStream(w, "s3"), nil)
	if err != nil {
		t.Fatal(err)
	}
	evs := w.events(t)
	checkOrder(t, evs, "s3")
	var streamed []string
	for _, e := range evs[1 : len(evs)-1] {
		streamed = append(streamed, e.Text)
	}
	// The completions are numbered as cited as they stream: [9] names no
	// post and goes.
	if want := []string{"Run the migrations", " first [1]", ", and roll back", " if they fail [2]."}; !slices.Equal(streamed, want) {
		t.Errorf("completions %q, want %q", streamed, want)
	}
	// The answer event's text is numbered as cited: [9] names no post
	// and is dropped.
	full := "Run the migrations first [1], and roll back if they fail [2]."
	last := evs[len(evs)-1]
	if last.Answer != full || res.Answer != full {
		t.Errorf("answer %q, want %q", last.Answer, full)
	}
	// [9] names no given post, so it cites nothing.
	if want := []string{"p1", "p2"}; !slices.Equal(last.Citations, want) {
		t.Errorf("citations %v, want %v", last.Citations, want)
	}

	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	got := reqs[0]
	if got.Path != "/v1/chat/completions" || got.Model != "test-model" || !got.Stream {
		t.Errorf("request path %q model %q stream %v", got.Path, got.Model, got.Stream)
	}
	// system, the earlier turn (human, ai), then the posts and question.
	if len(got.Messages) != 4 {
		t.Fatalf("sent %d messages: %+v", len(got.Messages), got.Messages)
	}
	if got.Messages[1].Content != "Where is the checklist?" || got.Messages[2].Role != "assistant" || got.Messages[2].Content != "In the wiki [1]." {
		t.Errorf("history sent as %+v", got.Messages[1:3])
	}
	prompt := got.Messages[3].Content
	for _, want := range []string{`<post n="1">Welcome to the forum!`, `<post n="2">Thanks.`, "<question>How do we deploy the migrations?</question>", "follows the conversation above"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt %q lacks %q", prompt, want)
		}
	}
	if strings.Contains(prompt, `n="3"`) || strings.Contains(prompt, "pizza") {
		t.Errorf("prompt %q holds a post that was not given", prompt)
	}
}

// TestModelCancel cancels the search mid-stream, as a client that
// disconnects does, and checks the upstream request ends. The stalled model
// never ends a request by itself, so the bound only stops a hung test.
func TestModelCancel(t *testing.T) {
	// One token, then a stall, as a slow model does, until the client goes away.
	srv := answertest.New(t, answertest.Options{Tokens: []string{"The answer"}, Stall: true})

	m, err := answer.NewModel(answer.Config{BaseURL: srv.URL, Model: "test-model"}, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var cancelledAt time.Time
	w := &cancelOnCompletion{cancel: func() { cancelledAt = time.Now(); cancel() }}
	res, err := answer.Run(ctx, m, answer.Request{Question: "q?", Posts: fixturePosts}, answer.NewStream(w, "s4"), nil)
	if err == nil {
		t.Fatalf("run finished after cancel: %+v", res)
	}
	if strings.Contains(w.buf.String(), `"type":"answer"`) {
		t.Errorf("answer event written after cancel: %s", w.buf.String())
	}
	select {
	case at := <-srv.Ended():
		t.Logf("upstream request ended %v after cancel", at.Sub(cancelledAt))
	case <-time.After(10 * time.Second):
		t.Fatal("upstream request still running 10 s after cancel")
	}
}

func TestAnthropicConfig(t *testing.T) {
	if err := (answer.Config{Provider: answer.ProviderAnthropic, Model: "claude"}).Validate(); err == nil || !strings.Contains(err.Error(), "API key") {
		t.Errorf("Anthropic without a key: %v", err)
	}
	m, err := answer.NewModel(answer.Config{Provider: answer.ProviderAnthropic, Model: "claude-x", Token: "k"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name() != "anthropic:claude-x" {
		t.Errorf("name %q", m.Name())
	}
	if err := (answer.Config{Provider: "bard", BaseURL: "http://x", Model: "m"}).Validate(); err == nil {
		t.Error("unknown provider accepted")
	}
}

// cancelOnCompletion cancels the search once the first completion is
// written, that is, mid-stream.
type cancelOnCompletion struct {
	buf    bytes.Buffer
	cancel func()
	done   bool
}

func (c *cancelOnCompletion) Write(p []byte) (int, error) {
	n, err := c.buf.Write(p)
	if !c.done && bytes.Contains(p, []byte(`"type":"completion"`)) {
		c.done = true
		c.cancel()
	}
	return n, err
}
