package httpapi_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/uuid"

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
		{"PUT", "/api/users/me", 405, "methodNotAllowed"},
		{"GET", "/nope", 404, "notFound"},
		{"POST", "/healthz", 405, "methodNotAllowed"},
	} {
		r := c.Do(rt.method, rt.path, nil)
		if r.Status != rt.status || r.Code() != rt.code {
			t.Errorf("%s %s: got %d %q, want %d %q; body %s", rt.method, rt.path, r.Status, r.Code(), rt.status, rt.code, r.Body)
		}
	}
}

var pathParam = regexp.MustCompile(`\{[^}]+\}`)

// TestWrongMethodIsNotAllowed (issue 31, G8): on every documented path, a
// method the path lacks answers 405 methodNotAllowed with the one error
// body and an Allow header naming the methods the path has (once, a JSON
// 404 said the route did not exist), and changes nothing.
func TestWrongMethodIsNotAllowed(t *testing.T) {
	env := testenv.New(t)
	c := env.Client(t)
	ops, err := openapi.Operations()
	if err != nil {
		t.Fatal(err)
	}
	// A concrete path can match several documented ones (/api/threads/private
	// is also /api/threads/{threadId}): Fiber allows the methods of all.
	templates := map[string]*regexp.Regexp{}
	for _, op := range ops {
		parts := pathParam.Split(op.Path, -1)
		for i := range parts {
			parts[i] = regexp.QuoteMeta(parts[i])
		}
		templates[op.Path] = regexp.MustCompile("^" + strings.Join(parts, `[^/]+`) + "$")
	}
	for tmpl := range templates {
		if !strings.HasPrefix(tmpl, "/api/") {
			continue
		}
		path := pathParam.ReplaceAllStringFunc(tmpl, func(string) string { return uuid.NewString() })
		allowed := map[string]bool{}
		for _, op := range ops {
			if templates[op.Path].MatchString(path) {
				allowed[op.Method] = true
			}
		}
		if allowed["GET"] {
			allowed["HEAD"] = true // Fiber answers HEAD on every GET route
		}
		for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
			if allowed[m] {
				continue
			}
			r := c.Do(m, path, nil)
			if r.Status != 405 || r.Code() != "methodNotAllowed" {
				t.Errorf("%s %s: %d %s, want 405 methodNotAllowed", m, path, r.Status, r.Body)
				continue
			}
			got := map[string]bool{}
			for _, a := range strings.Split(r.Header.Get("Allow"), ",") {
				got[strings.TrimSpace(a)] = true
			}
			if strings.Join(sortedKeys(got), ",") != strings.Join(sortedKeys(allowed), ",") {
				t.Errorf("%s %s: Allow %q, want %v", m, path, r.Header.Get("Allow"), sortedKeys(allowed))
			}
		}
	}
}
