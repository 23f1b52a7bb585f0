// Package answertest is a local OpenAI-compatible chat completions server
// for tests of the model answerer and of what streams through it: it
// streams the tokens it is given as server-sent events, as OpenAI, Ollama,
// vLLM and llama.cpp's server do, records each request, and can stall after
// its tokens, as a slow model does, to measure how soon a cancelled search
// ends the upstream request.
package answertest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Options say what the server answers.
type Options struct {
	// Tokens are streamed one event each, flushed one by one.
	Tokens []string
	// Stall keeps the answer open after the tokens, without its [DONE], until
	// the client goes away (or StallLimit passes): a model that is still
	// thinking.
	Stall bool
	// StallLimit bounds a stall; 0 means 10 seconds.
	StallLimit time.Duration
}

// Message is one chat message of a request, its content as text.
type Message struct {
	Role    string
	Content string
}

// Request is a chat completions request the server received.
type Request struct {
	Path     string
	Model    string
	Stream   bool
	Messages []Message
}

// Server is a running fake model server, closed when the test ends.
type Server struct {
	// URL is the base URL to configure the answerer with (it ends in /v1).
	URL string

	srv      *httptest.Server
	opts     Options
	mu       sync.Mutex
	requests []Request
	ended    chan time.Time
}

// New starts a server for t.
func New(t testing.TB, o Options) *Server {
	t.Helper()
	if o.StallLimit == 0 {
		o.StallLimit = 10 * time.Second
	}
	s := &Server{opts: o, ended: make(chan time.Time, 16)}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/v1"
	t.Cleanup(s.srv.Close)
	return s
}

// Client is an HTTP client of the server.
func (s *Server) Client() *http.Client { return s.srv.Client() }

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Ended receives, for each stalled answer, the time its request ended
// because the client went away: compare it with the time the search was
// cancelled.
func (s *Server) Ended() <-chan time.Time { return s.ended }

// chatRequest is the part of an OpenAI chat completions request read here.
type chatRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	var in chatRequest
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req := Request{Path: r.URL.Path, Model: in.Model, Stream: in.Stream}
	for _, m := range in.Messages {
		req.Messages = append(req.Messages, Message{Role: m.Role, Content: text(m.Content)})
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()

	w.Header().Set("Content-Type", "text/event-stream")
	for _, tok := range s.opts.Tokens {
		io.WriteString(w, Chunk(tok))
		w.(http.Flusher).Flush()
	}
	if !s.opts.Stall {
		io.WriteString(w, "data: [DONE]\n\n")
		return
	}
	select {
	case <-r.Context().Done():
		select {
		case s.ended <- time.Now():
		default:
		}
	case <-time.After(s.opts.StallLimit):
	}
}

// text reads a message's content: a string, or a list of parts whose text
// parts are joined.
func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return string(raw)
}

// Chunk is one server-sent event of an OpenAI chat.completion.chunk
// carrying content.
func Chunk(content string) string {
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "test-model",
		"choices": []map[string]any{{"index": 0, "delta": map[string]any{"content": content}}},
	})
	return "data: " + string(b) + "\n\n"
}
