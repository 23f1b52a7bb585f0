package searchtest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Request is one request FakeMeili received.
type Request struct {
	Method, Path, Auth string
	Body               string
}

// String is the method and path.
func (r Request) String() string { return r.Method + " " + r.Path }

// FakeMeili answers as Meilisearch v1 does, for tests that pin, request by
// request, what an adapter sends (method, path, body, key): no Meilisearch
// server runs on these machines. It answers 202 with an enqueued task for
// every write, the task on GET /tasks/{uid}, and searchAnswer for a search.
type FakeMeili struct {
	t  *testing.T
	mu sync.Mutex
	// requests lists what arrived, in order.
	requests []Request
	nextTask int64
	// failures maps a task uid to the error Meilisearch reports for it.
	failures map[int64][2]string
	// searchAnswer is the body of every search answer.
	searchAnswer string
}

// NewFakeMeili starts a fake on loopback, closed when t ends.
func NewFakeMeili(t *testing.T) (*FakeMeili, *httptest.Server) {
	f := &FakeMeili{t: t, failures: map[int64][2]string{}}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

// ServeHTTP records the request and answers it.
func (f *FakeMeili) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	defer f.mu.Unlock()
	path := r.URL.Path
	if r.URL.RawQuery != "" {
		path += "?" + r.URL.RawQuery
	}
	f.requests = append(f.requests, Request{Method: r.Method, Path: path, Auth: r.Header.Get("Authorization"), Body: string(body)})
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/tasks/"):
		uid, _ := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, "/tasks/"), 10, 64)
		task := map[string]any{
			"uid": uid, "batchUid": uid, "indexUid": "x", "status": "succeeded", "type": "documentAdditionOrUpdate",
			"canceledBy": nil, "details": map[string]any{}, "error": nil, "duration": "PT0.004S",
			"enqueuedAt": "2026-11-22T11:00:00.000000Z", "startedAt": "2026-11-22T11:00:00.001000Z", "finishedAt": "2026-11-22T11:00:00.005000Z",
		}
		if fail, ok := f.failures[uid]; ok {
			task["status"] = "failed"
			task["error"] = map[string]any{"message": fail[1], "code": fail[0], "type": "invalid_request", "link": "https://docs.meilisearch.com/errors#" + fail[0]}
		}
		_ = json.NewEncoder(w).Encode(task)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/search"):
		_, _ = io.WriteString(w, f.searchAnswer)
	default:
		f.nextTask++
		w.WriteHeader(http.StatusAccepted)
		_ = json.NewEncoder(w).Encode(map[string]any{
			"taskUid": f.nextTask, "indexUid": "x", "status": "enqueued", "type": "documentAdditionOrUpdate",
			"enqueuedAt": "2026-11-22T11:00:00.000000Z",
		})
	}
}

// Take returns the requests so far and forgets them.
func (f *FakeMeili) Take() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.requests
	f.requests = nil
	return out
}

// FailTask makes task uid fail with Meilisearch error code and message.
func (f *FakeMeili) FailTask(uid int64, code, message string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failures[uid] = [2]string{code, message}
}

// SetSearchAnswer sets the body of every search answer.
func (f *FakeMeili) SetSearchAnswer(body string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.searchAnswer = body
}

// Paths are the requests' methods and paths, for a test's message.
func Paths(rs []Request) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.String()
	}
	return out
}
