package httpapi_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"regexp"
	"sort"
	"strings"
	"testing"

	"agora/app"
	"agora/app/testenv"
	"agora/httpapi/openapi"
)

var fiberParam = regexp.MustCompile(`:([A-Za-z0-9_]+)`)

// TestRoutesAreDocumented compares the routes of the real app (in dev mode,
// so the dev mailbox is there) with the operations of the OpenAPI document,
// both ways: a route missing from the document, or a documented operation
// without a route, fails.
func TestRoutesAreDocumented(t *testing.T) {
	env := testenv.New(t)
	cfg := testenv.Config()
	cfg.DataDir = t.TempDir() // the API opens its own search store there
	app, err := app.NewAPI(cfg, env.DB, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	routes := map[string]bool{}
	for _, r := range app.GetRoutes(true) {
		if r.Method == "HEAD" || strings.HasSuffix(r.Path, "*") {
			continue // Fiber's automatic HEAD of every GET; middleware catch-alls
		}
		routes[r.Method+" "+fiberParam.ReplaceAllString(r.Path, "{$1}")] = true
	}
	if len(routes) == 0 {
		t.Fatal("the app has no routes")
	}
	ops, err := openapi.Operations()
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, op := range ops {
		documented[op.Method+" "+op.Path] = true
	}
	for _, r := range sortedKeys(routes) {
		if !documented[r] {
			t.Errorf("route %s is not in the OpenAPI document (httpapi/openapi/openapi.yaml)", r)
		}
	}
	for _, op := range sortedKeys(documented) {
		if !routes[op] {
			t.Errorf("the OpenAPI document has %s, but the app has no such route", op)
		}
	}
}

func TestOpenAPIServed(t *testing.T) {
	env := testenv.New(t)
	r := env.Client(t).Do("GET", "/api/openapi.json", nil)
	if r.Status != 200 {
		t.Fatalf("GET /api/openapi.json: %d %s", r.Status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q", ct)
	}
	var doc map[string]any
	if err := json.Unmarshal(r.Body, &doc); err != nil {
		t.Fatalf("the document is not JSON: %v", err)
	}
	if doc["openapi"] != "3.1.0" {
		t.Errorf(`"openapi" = %v, want "3.1.0"`, doc["openapi"])
	}
	if paths, _ := doc["paths"].(map[string]any); len(paths) == 0 {
		t.Error("the document has no paths")
	}
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestUnmatchedRequests checks the answers the document gives under
// x-unmatched: the client validates each response against them.
func TestUnmatchedRequests(t *testing.T) {
	env := testenv.New(t)
	c := env.Client(t)
	for _, rt := range []struct {
		method, path string
		status       int
		code         string
	}{
		{"GET", "/api/nope", 404, "notFound"},
		{"PUT", "/api/users/me", 404, "notFound"},
		{"GET", "/nope", 404, "notFound"},
		{"POST", "/healthz", 405, "methodNotAllowed"},
	} {
		r := c.Do(rt.method, rt.path, nil)
		if r.Status != rt.status || r.Code() != rt.code {
			t.Errorf("%s %s: got %d %q, want %d %q; body %s", rt.method, rt.path, r.Status, r.Code(), rt.status, rt.code, r.Body)
		}
	}
}
