// Package openapi holds the API contract (openapi.yaml, the source of truth
// served at /api/openapi.json) and checks responses against it: the
// integration-test client validates every response it receives, so a
// handler cannot drift from the document the web client's types are
// generated from.
package openapi

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

// Document is the API contract, OpenAPI 3.1, written by hand beside the
// handlers.
//
//go:embed openapi.yaml
var Document []byte

// docURL names the document inside the schema compiler; $refs such as
// #/components/schemas/User resolve against it.
const docURL = "https://agora.invalid/openapi.json"

type spec struct {
	json  []byte
	doc   map[string]any // decoded with jsonschema.UnmarshalJSON (numbers are json.Number)
	paths []template

	mu       sync.Mutex // guards compiler, which is not safe for concurrent use
	compiler *jsonschema.Compiler
	schemas  sync.Map // schema location → *jsonschema.Schema
}

// template is one path of the document, split into segments.
type template struct {
	path     string
	segments []string
}

func (t template) param(i int) bool {
	s := t.segments[i]
	return strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}")
}

var load = sync.OnceValues(func() (*spec, error) {
	var y any
	if err := yaml.Unmarshal(Document, &y); err != nil {
		return nil, fmt.Errorf("openapi: parse openapi.yaml: %w", err)
	}
	j, err := json.Marshal(y)
	if err != nil {
		return nil, fmt.Errorf("openapi: convert openapi.yaml to JSON: %w", err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	doc, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("openapi: the document is not an object")
	}
	paths, ok := doc["paths"].(map[string]any)
	if !ok {
		return nil, errors.New("openapi: the document has no paths")
	}
	s := &spec{json: j, doc: doc, compiler: jsonschema.NewCompiler()}
	for p := range paths {
		s.paths = append(s.paths, template{path: p, segments: split(p)})
	}
	sort.Slice(s.paths, func(i, j int) bool { return s.paths[i].path < s.paths[j].path })
	s.compiler.DefaultDraft(jsonschema.Draft2020)
	s.compiler.AssertFormat()
	if err := s.compiler.AddResource(docURL, doc); err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	return s, nil
})

// JSON is the document as JSON, as served at /api/openapi.json.
func JSON() ([]byte, error) {
	s, err := load()
	if err != nil {
		return nil, err
	}
	return s.json, nil
}

// Operation is a documented method and path template.
type Operation struct {
	Method string // upper case, e.g. GET
	Path   string // the template, e.g. /api/users/{id}/profiles
}

// Operations lists every operation of the document, sorted by path and
// method.
func Operations() ([]Operation, error) {
	s, err := load()
	if err != nil {
		return nil, err
	}
	var ops []Operation
	for _, t := range s.paths {
		item, _ := s.doc["paths"].(map[string]any)[t.path].(map[string]any)
		for m := range item {
			if methods[m] {
				ops = append(ops, Operation{Method: strings.ToUpper(m), Path: t.path})
			}
		}
	}
	sort.Slice(ops, func(i, j int) bool {
		if ops[i].Path != ops[j].Path {
			return ops[i].Path < ops[j].Path
		}
		return ops[i].Method < ops[j].Method
	})
	return ops, nil
}

var methods = map[string]bool{
	"get": true, "put": true, "post": true, "delete": true, "options": true, "head": true, "patch": true, "trace": true,
}

// ValidateResponse checks one response against the contract: the path and
// method must be documented, the status must be documented (exactly, as a
// range such as 4XX, or as default), the content type must be one the
// response documents, a JSON body must match its schema, and a response
// documented without content must have an empty body (204 always must).
// A request that matches no operation may only get one of the answers of
// the document's x-unmatched responses (the JSON 404 of unknown routes).
func ValidateResponse(method, path string, status int, contentType string, body []byte) error {
	s, err := load()
	if err != nil {
		return err
	}
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	code := strconv.Itoa(status)
	var opName, respPtr string
	m := strings.ToLower(method)
	headOnly := m == "head"
	t, matched := s.match(path)
	if matched && headOnly && !s.hasOperation(t, m) {
		m = "get" // Fiber answers HEAD for every GET route
	}
	if !matched || !s.hasOperation(t, m) {
		what := "path " + path
		if matched {
			what = strings.ToUpper(method) + " " + t.path
		}
		unmatched, _ := s.at("/x-unmatched/responses")
		if _, documented := asObject(unmatched)[code]; !documented {
			return fmt.Errorf("%s is not in the OpenAPI document (and %d is not an x-unmatched response)", what, status)
		}
		opName, respPtr = "an unmatched request", "/x-unmatched/responses/"+escape(code)
	} else {
		opName = strings.ToUpper(method) + " " + t.path
		opPtr := "/paths/" + escape(t.path) + "/" + escape(m)
		responses, _ := s.at(opPtr + "/responses")
		key := ""
		for _, k := range []string{code, code[:1] + "XX", code[:1] + "xx", "default"} {
			if _, ok := asObject(responses)[k]; ok {
				key = k
				break
			}
		}
		if key == "" {
			return fmt.Errorf("status %d is not documented for %s", status, opName)
		}
		respPtr = opPtr + "/responses/" + escape(key)
	}
	respPtr, resp, err := s.resolve(respPtr)
	if err != nil {
		return err
	}
	if status == http.StatusNoContent || headOnly {
		if len(body) > 0 {
			return fmt.Errorf("status %d must have an empty body, got %d bytes", status, len(body))
		}
		return nil
	}
	content := asObject(asObject(resp)["content"])
	if len(content) == 0 {
		if len(body) > 0 {
			return fmt.Errorf("status %d of %s is documented without content, got %d bytes", status, opName, len(body))
		}
		return nil
	}
	media, err := pickMedia(content, contentType)
	if err != nil {
		return fmt.Errorf("status %d of %s: %w", status, opName, err)
	}
	if !isJSON(media) {
		return nil
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("status %d of %s: the body is not JSON: %w", status, opName, err)
	}
	schemaPtr := respPtr + "/content/" + escape(media) + "/schema"
	if _, ok := s.at(schemaPtr); !ok {
		return nil // documented without a schema: any JSON
	}
	sch, err := s.schema(schemaPtr)
	if err != nil {
		return err
	}
	if err := sch.Validate(v); err != nil {
		return fmt.Errorf("status %d of %s: the body does not match the schema: %w", status, opName, err)
	}
	return nil
}

// ValidateSchema checks a JSON value against the component schema name
// (#/components/schemas/<name>): for what is documented but is not an HTTP
// response, such as the payloads of the live events on GET /api/hub.
func ValidateSchema(name string, body []byte) error {
	s, err := load()
	if err != nil {
		return err
	}
	ptr := "/components/schemas/" + escape(name)
	if _, ok := s.at(ptr); !ok {
		return fmt.Errorf("openapi: no schema %q", name)
	}
	sch, err := s.schema(ptr)
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("schema %s: not JSON: %w", name, err)
	}
	if err := sch.Validate(v); err != nil {
		return fmt.Errorf("schema %s: %w", name, err)
	}
	return nil
}

// hasOperation reports whether the path item t has the operation m
// (a lower-case method).
func (s *spec) hasOperation(t template, m string) bool {
	if !methods[m] {
		return false
	}
	_, ok := asObject(asObject(s.doc["paths"])[t.path])[m]
	return ok
}

func asObject(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// match finds the template of a request path. Segments match literally
// (case-insensitively, as Fiber routes) or by a {parameter}; when several
// templates match, the one with a literal segment at the first place they
// differ wins, as /api/tokens/passwordReset/{token} over
// /api/tokens/{token}/validate.
func (s *spec) match(path string) (template, bool) {
	segs := split(path)
	var best template
	found := false
	for _, t := range s.paths {
		if len(t.segments) != len(segs) {
			continue
		}
		ok := true
		for i, seg := range t.segments {
			if t.param(i) {
				if segs[i] == "" {
					ok = false
				}
			} else if !strings.EqualFold(seg, segs[i]) {
				ok = false
			}
			if !ok {
				break
			}
		}
		if !ok {
			continue
		}
		if !found || moreLiteral(t, best) {
			best, found = t, true
		}
	}
	return best, found
}

func moreLiteral(a, b template) bool {
	for i := range a.segments {
		if pa, pb := a.param(i), b.param(i); pa != pb {
			return !pa
		}
	}
	return false
}

func split(path string) []string {
	if path != "/" {
		path = strings.TrimSuffix(path, "/")
	}
	return strings.Split(strings.TrimPrefix(path, "/"), "/")
}

// at returns the node at a JSON pointer of the document, without following
// $refs.
func (s *spec) at(ptr string) (any, bool) {
	var n any = s.doc
	if ptr == "" {
		return n, true
	}
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		obj, ok := n.(map[string]any)
		if !ok {
			return nil, false
		}
		if n, ok = obj[unescape(tok)]; !ok {
			return nil, false
		}
	}
	return n, true
}

// resolve follows the local $refs of the node at ptr and returns where it
// ends up.
func (s *spec) resolve(ptr string) (string, any, error) {
	for range 16 {
		n, ok := s.at(ptr)
		if !ok {
			return "", nil, fmt.Errorf("openapi: nothing at #%s", ptr)
		}
		obj, ok := n.(map[string]any)
		if !ok {
			return "", nil, fmt.Errorf("openapi: #%s is not an object", ptr)
		}
		ref, ok := obj["$ref"].(string)
		if !ok {
			return ptr, obj, nil
		}
		if !strings.HasPrefix(ref, "#") {
			return "", nil, fmt.Errorf("openapi: only local $refs are supported, got %q", ref)
		}
		frag, err := url.PathUnescape(ref[1:])
		if err != nil {
			return "", nil, fmt.Errorf("openapi: bad $ref %q: %w", ref, err)
		}
		ptr = frag
	}
	return "", nil, fmt.Errorf("openapi: $ref chain too long at #%s", ptr)
}

// schema compiles, once, the schema at a JSON pointer of the document.
func (s *spec) schema(ptr string) (*jsonschema.Schema, error) {
	if v, ok := s.schemas.Load(ptr); ok {
		return v.(*jsonschema.Schema), nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.schemas.Load(ptr); ok {
		return v.(*jsonschema.Schema), nil
	}
	sch, err := s.compiler.Compile(docURL + "#" + fragment(ptr))
	if err != nil {
		return nil, fmt.Errorf("openapi: compile #%s: %w", ptr, err)
	}
	s.schemas.Store(ptr, sch)
	return sch, nil
}

// pickMedia finds the documented media type of a response's content type.
func pickMedia(content map[string]any, contentType string) (string, error) {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(contentType))
	}
	documented := make([]string, 0, len(content))
	for k := range content {
		documented = append(documented, k)
	}
	sort.Strings(documented)
	for _, k := range documented {
		if strings.EqualFold(k, mt) {
			return k, nil
		}
	}
	for _, k := range documented {
		if typ, sub, ok := strings.Cut(k, "/"); ok && sub == "*" && (typ == "*" || strings.HasPrefix(mt, typ+"/")) {
			return k, nil
		}
	}
	return "", fmt.Errorf("content type %q is not documented (documented: %s)", contentType, strings.Join(documented, ", "))
}

func isJSON(mediaType string) bool {
	mt := strings.ToLower(mediaType)
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// escape makes a JSON pointer token of s (RFC 6901).
func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func unescape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// fragment writes a JSON pointer as a URI fragment, percent-encoding each
// token (braces of path templates, for one).
func fragment(ptr string) string {
	toks := strings.Split(ptr, "/")
	for i, t := range toks {
		toks[i] = url.PathEscape(t)
	}
	return strings.Join(toks, "/")
}
