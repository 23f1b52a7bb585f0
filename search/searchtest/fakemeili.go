package searchtest

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"agora/search"
)

// Request is one request FakeMeili received.
type Request struct {
	Method, Path, Auth string
	Body               string
}

// String is the method and path.
func (r Request) String() string { return r.Method + " " + r.Path }

// FakeMeili is an in-memory Meilisearch that follows the rules of
// Meilisearch 1.15 that the adapter depends on, so that the contract suite
// sees what production would: no Meilisearch server can be installed on
// these machines. It records every request (for tests that pin what the
// adapter sends) and implements:
//
//   - tasks: every write answers 202 with an enqueued task, which the fake
//     applies at once; GET /tasks/{uid} reports it succeeded or failed, with
//     Meilisearch's error object. A failed task applies nothing.
//   - indexes: creation (index_already_exists), deletion (index_not_found),
//     implicit creation by a write, settings and the embedders setting.
//   - a userProvided embedder: once it exists, a document new to the index
//     must say its vector (an array, or null to opt out) in
//     _vectors.{embedder}, or the whole task fails with
//     vector_embedding_error; a replacement that says nothing keeps the
//     vector the old document had. A vector search naming an embedder that
//     does not exist is a 400 invalid_search_embedder.
//   - keyword search: the query's words are the first 10 (maxQueryWords);
//     only the last is a prefix, and not when a separator ends the query;
//     typos by the typoTolerance setting, a typo on the first letter counting
//     as two; matchingStrategy last, all and frequency; ranking by the
//     rankingRules (sort, words, typo, attribute, exactness; proximity is not
//     modelled and ties keep the order documents were first added in).
//   - pagination.maxTotalHits (1000 by default): no hit beyond it, and
//     estimatedTotalHits stops at it.
//   - semantic search (hybrid, semanticRatio 1): the documents that pass
//     the filter, those with a vector first by cosine similarity, then those
//     without one, as Meilisearch's vector sort does; the similarity shows
//     in _rankingScoreDetails.vectorSort when asked for.
//
// Filters are the subset of Meilisearch's language the adapter writes: IN,
// =, !=, NOT, AND, OR and parentheses.
type FakeMeili struct {
	t  *testing.T
	mu sync.Mutex
	// requests lists what arrived, in order.
	requests []Request
	nextTask int64
	tasks    map[int64]map[string]any
	// failures maps a task uid to the error it is made to fail with,
	// whatever it holds.
	failures map[int64][2]string
	// searchAnswer, when set, is the body of every search answer.
	searchAnswer string
	indexes      map[string]*fakeIndex
}

// maxQueryWords is how many words of a query Meilisearch reads; the rest
// are ignored.
const maxQueryWords = 10

type fakeIndex struct {
	primaryKey string
	settings   fakeSettings
	docs       map[string]*fakeDoc
	seq        int
}

type fakeSettings struct {
	rankingRules []string
	searchable   []string // nil: every field
	filterable   []string
	sortable     []string
	oneTypo      int
	twoTypos     int
	maxTotalHits int
	embedders    map[string]fakeEmbedder
}

type fakeEmbedder struct {
	Source     string `json:"source"`
	Dimensions int    `json:"dimensions"`
}

type fakeDoc struct {
	// seq is Meilisearch's internal id: ties keep it, and a replacement
	// keeps the old one.
	seq    int
	fields map[string]any
	// vectors hold, per embedder, the document's vector; optedOut the
	// embedders it said null for; loose the _vectors entries of embedders
	// not configured, which Meilisearch keeps for when they are.
	vectors  map[string][]float32
	optedOut map[string]bool
	loose    map[string]any
}

func defaultSettings() fakeSettings {
	return fakeSettings{
		rankingRules: []string{"words", "typo", "proximity", "attribute", "sort", "exactness"},
		oneTypo:      5, twoTypos: 9, maxTotalHits: 1000,
		embedders: map[string]fakeEmbedder{},
	}
}

// fakeError is Meilisearch's error object.
type fakeError struct {
	status        int
	code, message string
}

func (e *fakeError) object() map[string]any {
	return map[string]any{"message": e.message, "code": e.code, "type": "invalid_request", "link": "https://docs.meilisearch.com/errors#" + e.code}
}

func errorf(status int, code, format string, args ...any) *fakeError {
	return &fakeError{status: status, code: code, message: fmt.Sprintf(format, args...)}
}

// NewFakeMeili starts a fake on loopback, closed when t ends.
func NewFakeMeili(t *testing.T) (*FakeMeili, *httptest.Server) {
	f := &FakeMeili{t: t, failures: map[int64][2]string{}, tasks: map[int64]map[string]any{}, indexes: map[string]*fakeIndex{}}
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
	status, answer := f.route(r.Method, strings.Split(strings.Trim(r.URL.Path, "/"), "/"), body)
	if e, ok := answer.(*fakeError); ok {
		status, answer = e.status, e.object()
	}
	w.WriteHeader(status)
	if s, ok := answer.(string); ok {
		_, _ = io.WriteString(w, s)
		return
	}
	_ = json.NewEncoder(w).Encode(answer)
}

func (f *FakeMeili) route(method string, p []string, body []byte) (int, any) {
	switch {
	case method == http.MethodGet && len(p) == 2 && p[0] == "tasks":
		uid, _ := strconv.ParseInt(p[1], 10, 64)
		task, ok := f.tasks[uid]
		if !ok {
			return 0, errorf(404, "task_not_found", "Task `%d` not found.", uid)
		}
		return 200, task
	case method == http.MethodPost && len(p) == 1 && p[0] == "indexes":
		var c struct {
			UID        string `json:"uid"`
			PrimaryKey string `json:"primaryKey"`
		}
		if err := json.Unmarshal(body, &c); err != nil || c.UID == "" {
			return 0, errorf(400, "bad_request", "bad index creation")
		}
		return f.enqueue(c.UID, "indexCreation", func() *fakeError {
			if f.indexes[c.UID] != nil {
				return errorf(0, "index_already_exists", "Index `%s` already exists.", c.UID)
			}
			f.indexes[c.UID] = f.newIndex(c.PrimaryKey)
			return nil
		})
	case method == http.MethodPost && len(p) == 1 && p[0] == "multi-search":
		return f.multiSearch(body)
	case len(p) >= 2 && p[0] == "indexes":
		return f.indexRoute(method, p[1], p[2:], body)
	}
	f.t.Errorf("FakeMeili: no route for %s /%s", method, strings.Join(p, "/"))
	return 0, errorf(404, "not_found", "Not found.")
}

func (f *FakeMeili) newIndex(primaryKey string) *fakeIndex {
	if primaryKey == "" {
		primaryKey = "id"
	}
	return &fakeIndex{primaryKey: primaryKey, settings: defaultSettings(), docs: map[string]*fakeDoc{}}
}

// writable returns the index a write goes to, creating it as Meilisearch
// does for a document addition or a settings update.
func (f *FakeMeili) writable(uid string) *fakeIndex {
	if f.indexes[uid] == nil {
		f.indexes[uid] = f.newIndex("")
	}
	return f.indexes[uid]
}

func (f *FakeMeili) indexRoute(method, uid string, rest []string, body []byte) (int, any) {
	path := strings.Join(rest, "/")
	switch {
	case method == http.MethodDelete && path == "":
		return f.enqueue(uid, "indexDeletion", func() *fakeError {
			if f.indexes[uid] == nil {
				return errorf(0, "index_not_found", "Index `%s` not found.", uid)
			}
			delete(f.indexes, uid)
			return nil
		})
	case method == http.MethodPatch && path == "settings":
		var set map[string]json.RawMessage
		if err := json.Unmarshal(body, &set); err != nil {
			return 0, errorf(400, "bad_request", "settings: %v", err)
		}
		return f.enqueue(uid, "settingsUpdate", func() *fakeError { return f.applySettings(uid, set) })
	case method == http.MethodPatch && path == "settings/embedders":
		return f.enqueue(uid, "settingsUpdate", func() *fakeError {
			return f.applySettings(uid, map[string]json.RawMessage{"embedders": body})
		})
	case method == http.MethodGet && path == "settings/embedders":
		x := f.indexes[uid]
		if x == nil {
			return 0, errorf(404, "index_not_found", "Index `%s` not found.", uid)
		}
		return 200, x.settings.embedders
	case method == http.MethodPost && path == "documents":
		var docs []map[string]any
		if err := json.Unmarshal(body, &docs); err != nil {
			return 0, errorf(400, "malformed_payload", "The `json` payload provided is malformed. %v", err)
		}
		return f.enqueue(uid, "documentAdditionOrUpdate", func() *fakeError { return f.addDocuments(uid, docs) })
	case method == http.MethodPost && path == "documents/delete-batch":
		var ids []string
		if err := json.Unmarshal(body, &ids); err != nil {
			return 0, errorf(400, "bad_request", "delete-batch: %v", err)
		}
		return f.enqueue(uid, "documentDeletion", func() *fakeError {
			x := f.writable(uid)
			for _, id := range ids {
				delete(x.docs, id)
			}
			return nil
		})
	case method == http.MethodPost && path == "documents/delete":
		var req struct {
			Filter string `json:"filter"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			return 0, errorf(400, "bad_request", "delete: %v", err)
		}
		return f.enqueue(uid, "documentDeletion", func() *fakeError {
			x := f.indexes[uid]
			if x == nil {
				return errorf(0, "index_not_found", "Index `%s` not found.", uid)
			}
			keep, err := parseFilter(req.Filter, x.settings.filterable)
			if err != nil {
				return errorf(0, "invalid_document_filter", "%s", err.message)
			}
			for id, d := range x.docs {
				if keep(d.fields) {
					delete(x.docs, id)
				}
			}
			return nil
		})
	case method == http.MethodPost && path == "documents/fetch":
		var q struct {
			Offset int `json:"offset"`
			Limit  int `json:"limit"`
		}
		if err := json.Unmarshal(body, &q); err != nil {
			return 0, errorf(400, "bad_request", "fetch: %v", err)
		}
		x := f.indexes[uid]
		if x == nil {
			return 0, errorf(404, "index_not_found", "Index `%s` not found.", uid)
		}
		if q.Limit == 0 {
			q.Limit = 20
		}
		docs := x.ordered()
		out := []map[string]any{}
		for i := q.Offset; i < len(docs) && i < q.Offset+q.Limit; i++ {
			out = append(out, docs[i].fields)
		}
		return 200, map[string]any{"results": out, "offset": q.Offset, "limit": q.Limit, "total": len(docs)}
	case method == http.MethodPost && path == "search":
		if f.searchAnswer != "" {
			return 200, f.searchAnswer
		}
		var q fakeQuery
		if err := json.Unmarshal(body, &q); err != nil {
			return 0, errorf(400, "bad_request", "search: %v", err)
		}
		res, err := f.search(uid, q)
		if err != nil {
			return 0, err
		}
		return 200, res
	}
	f.t.Errorf("FakeMeili: no route for %s /indexes/%s/%s", method, uid, path)
	return 0, errorf(404, "not_found", "Not found.")
}

// enqueue records a task, applies it (unless it is made to fail) and
// answers its summary.
func (f *FakeMeili) enqueue(uid, typ string, apply func() *fakeError) (int, any) {
	f.nextTask++
	id := f.nextTask
	task := map[string]any{
		"uid": id, "batchUid": id, "indexUid": uid, "status": "succeeded", "type": typ,
		"canceledBy": nil, "details": map[string]any{}, "error": nil, "duration": "PT0.004S",
		"enqueuedAt": "2026-11-22T11:00:00.000000Z", "startedAt": "2026-11-22T11:00:00.001000Z", "finishedAt": "2026-11-22T11:00:00.005000Z",
	}
	var fail *fakeError
	if forced, ok := f.failures[id]; ok {
		fail = &fakeError{code: forced[0], message: forced[1]}
	} else {
		fail = apply()
	}
	if fail != nil {
		task["status"] = "failed"
		task["error"] = fail.object()
	}
	f.tasks[id] = task
	return http.StatusAccepted, map[string]any{
		"taskUid": id, "indexUid": uid, "status": "enqueued", "type": typ, "enqueuedAt": "2026-11-22T11:00:00.000000Z",
	}
}

func strList(raw json.RawMessage) ([]string, bool) {
	if string(raw) == "null" {
		return nil, true
	}
	var l []string
	return l, json.Unmarshal(raw, &l) == nil
}

// applySettings applies a settings update: fields present replace, null
// resets; embedders merge by name (null removes one).
func (f *FakeMeili) applySettings(uid string, set map[string]json.RawMessage) *fakeError {
	x := f.writable(uid)
	s := x.settings
	s.embedders = maps(s.embedders)
	for k, raw := range set {
		var ok bool
		switch k {
		case "rankingRules":
			s.rankingRules, ok = strList(raw)
			if s.rankingRules == nil {
				s.rankingRules = defaultSettings().rankingRules
			}
		case "searchableAttributes":
			s.searchable, ok = strList(raw)
			if slices.Equal(s.searchable, []string{"*"}) {
				s.searchable = nil
			}
		case "filterableAttributes":
			s.filterable, ok = strList(raw)
		case "sortableAttributes":
			s.sortable, ok = strList(raw)
		case "displayedAttributes", "stopWords", "synonyms", "distinctAttribute":
			ok = true
		case "typoTolerance":
			var tt struct {
				Enabled             bool `json:"enabled"`
				MinWordSizeForTypos struct {
					OneTypo  int `json:"oneTypo"`
					TwoTypos int `json:"twoTypos"`
				} `json:"minWordSizeForTypos"`
			}
			ok = json.Unmarshal(raw, &tt) == nil
			s.oneTypo, s.twoTypos = tt.MinWordSizeForTypos.OneTypo, tt.MinWordSizeForTypos.TwoTypos
			if !tt.Enabled {
				s.oneTypo, s.twoTypos = math.MaxInt32, math.MaxInt32
			}
		case "pagination":
			var p struct {
				MaxTotalHits *int `json:"maxTotalHits"`
			}
			ok = json.Unmarshal(raw, &p) == nil
			if p.MaxTotalHits != nil {
				s.maxTotalHits = *p.MaxTotalHits
			}
		case "embedders":
			var es map[string]*fakeEmbedder
			if err := json.Unmarshal(raw, &es); err != nil {
				return errorf(0, "invalid_settings_embedders", "`.embedders`: %v", err)
			}
			for name, e := range es {
				switch {
				case e == nil:
					delete(s.embedders, name)
				case e.Source != "userProvided":
					return errorf(0, "invalid_settings_embedders", "`.embedders.%s.source`: the fake knows only `userProvided`", name)
				case e.Dimensions <= 0:
					return errorf(0, "invalid_settings_embedders", "`.embedders.%s`: Missing field `dimensions` (required for source `userProvided`)", name)
				default:
					s.embedders[name] = *e
				}
			}
			ok = true
		default:
			f.t.Errorf("FakeMeili: setting %q is not modelled", k)
			ok = true
		}
		if !ok {
			return errorf(0, "invalid_settings_"+k, "`.%s`: bad value %s", k, raw)
		}
	}
	// Vectors kept for an embedder that now exists become its vectors.
	for _, d := range x.docs {
		for name, e := range s.embedders {
			v, had := d.loose[name]
			if !had {
				continue
			}
			vec, opted, err := readVector(uid, d.fields[x.primaryKey], name, e, v)
			if err != nil {
				return err
			}
			delete(d.loose, name)
			if opted {
				d.optedOut[name] = true
			} else {
				d.vectors[name] = vec
			}
		}
	}
	x.settings = s
	return nil
}

func maps(m map[string]fakeEmbedder) map[string]fakeEmbedder {
	out := make(map[string]fakeEmbedder, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

var validID = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,511}$`)

// readVector reads one _vectors entry: null (an opt-out), an array of
// numbers, or {"embeddings": ..., "regenerate": false}.
func readVector(uid string, id any, name string, e fakeEmbedder, v any) ([]float32, bool, *fakeError) {
	if obj, ok := v.(map[string]any); ok {
		v = obj["embeddings"]
	}
	if v == nil {
		return nil, true, nil
	}
	arr, ok := v.([]any)
	if ok && len(arr) > 0 {
		if inner, nested := arr[0].([]any); nested {
			arr = inner
		}
	}
	if !ok {
		return nil, false, errorf(0, "invalid_vectors_type", "Index `%s`: Invalid vector type for document `%v` in `._vectors.%s`", uid, id, name)
	}
	if len(arr) != e.Dimensions {
		return nil, false, errorf(0, "invalid_vector_dimensions", "Index `%s`: Invalid vector dimensions: expected: `%d`, found: `%d`.", uid, e.Dimensions, len(arr))
	}
	vec := make([]float32, len(arr))
	for i, a := range arr {
		n, ok := a.(float64)
		if !ok {
			return nil, false, errorf(0, "invalid_vectors_type", "Index `%s`: Invalid vector type for document `%v`", uid, id)
		}
		vec[i] = float32(n)
	}
	return vec, false, nil
}

// addDocuments applies one addition task: every document or none.
func (f *FakeMeili) addDocuments(uid string, docs []map[string]any) *fakeError {
	x := f.writable(uid)
	next := map[string]*fakeDoc{}
	var missing []string
	for _, fields := range docs {
		rawID, ok := fields[x.primaryKey]
		if !ok {
			return errorf(0, "missing_document_id", "Document doesn't have a `%s` attribute: `%v`.", x.primaryKey, fields)
		}
		id := fmt.Sprint(rawID)
		if _, isString := rawID.(string); isString && !validID.MatchString(id) {
			return errorf(0, "invalid_document_id", "Document identifier `%s` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.", id)
		}
		d := &fakeDoc{fields: fields, vectors: map[string][]float32{}, optedOut: map[string]bool{}, loose: map[string]any{}}
		old := next[id]
		if old == nil {
			old = x.docs[id]
		}
		if old != nil {
			d.seq = old.seq
		} else {
			x.seq++
			d.seq = x.seq
		}
		given, _ := fields["_vectors"].(map[string]any)
		delete(fields, "_vectors")
		for name, e := range x.settings.embedders {
			v, said := given[name]
			switch {
			case said:
				vec, opted, err := readVector(uid, rawID, name, e, v)
				if err != nil {
					return err
				}
				if opted {
					d.optedOut[name] = true
				} else {
					d.vectors[name] = vec
				}
			case old != nil && old.vectors[name] != nil:
				// A userProvided vector is kept until a document says otherwise.
				d.vectors[name] = old.vectors[name]
			case old != nil && old.optedOut[name]:
				d.optedOut[name] = true
			default:
				missing = append(missing, id)
			}
		}
		for name, v := range given {
			if _, configured := x.settings.embedders[name]; !configured {
				d.loose[name] = v
			}
		}
		next[id] = d
	}
	if len(missing) > 0 {
		name := ""
		for n := range x.settings.embedders {
			name = n
		}
		others := ""
		if len(missing) > 1 {
			others = fmt.Sprintf(" and at least %d other document(s)", len(missing)-1)
		}
		return errorf(0, "vector_embedding_error",
			"Index `%s`: While embedding documents for embedder `%s`: no vectors provided for document `%s`%s\n- Note: `%s` has `source: userProvided`, so documents must provide embeddings as an array in `_vectors.%s`.\n- Hint: opt-out for a document with `_vectors.%s: null`",
			uid, name, missing[0], others, name, name, name)
	}
	for id, d := range next {
		x.docs[id] = d
	}
	return nil
}

func (x *fakeIndex) ordered() []*fakeDoc {
	out := make([]*fakeDoc, 0, len(x.docs))
	for _, d := range x.docs {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

// fakeQuery is the part of a search request the fake reads.
type fakeQuery struct {
	IndexUID             string    `json:"indexUid"`
	Q                    string    `json:"q"`
	Limit                *int      `json:"limit"`
	Offset               int       `json:"offset"`
	Filter               any       `json:"filter"`
	Sort                 []string  `json:"sort"`
	AttributesToSearchOn []string  `json:"attributesToSearchOn"`
	MatchingStrategy     string    `json:"matchingStrategy"`
	Vector               []float32 `json:"vector"`
	Hybrid               *struct {
		Embedder      string  `json:"embedder"`
		SemanticRatio float64 `json:"semanticRatio"`
	} `json:"hybrid"`
	ShowRankingScoreDetails bool `json:"showRankingScoreDetails"`
}

func (f *FakeMeili) multiSearch(body []byte) (int, any) {
	var req struct {
		Queries    []fakeQuery     `json:"queries"`
		Federation json.RawMessage `json:"federation"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return 0, errorf(400, "bad_request", "multi-search: %v", err)
	}
	if len(req.Federation) > 0 && string(req.Federation) != "null" {
		f.t.Errorf("FakeMeili: federated search is not modelled")
	}
	results := []any{}
	for i, q := range req.Queries {
		res, err := f.search(q.IndexUID, q)
		if err != nil {
			err.message = fmt.Sprintf("Inside `.queries[%d]`: %s", i, err.message)
			return 0, err
		}
		res["indexUid"] = q.IndexUID
		results = append(results, res)
	}
	return 200, map[string]any{"results": results}
}

// match is how one query word matched a document: its typos, the rank of
// the field it matched in, and whether exactly.
type match struct {
	ok        bool
	typos     int
	attribute int
	exact     bool
}

type scored struct {
	d                          *fakeDoc
	words, typos, attr, exacts int
	similarity                 *float64
}

func (f *FakeMeili) search(uid string, q fakeQuery) (map[string]any, *fakeError) {
	x := f.indexes[uid]
	if x == nil {
		return nil, errorf(404, "index_not_found", "Index `%s` not found.", uid)
	}
	s := x.settings
	fields := s.searchable
	for _, a := range q.AttributesToSearchOn {
		if fields != nil && !slices.Contains(fields, a) {
			return nil, errorf(400, "invalid_search_attributes_to_search_on", "Attribute `%s` is not searchable. Available searchable attributes are: `%s`.", a, strings.Join(fields, ", "))
		}
	}
	if len(q.AttributesToSearchOn) > 0 {
		fields = q.AttributesToSearchOn
	}
	filter, _ := q.Filter.(string)
	keep, ferr := parseFilter(filter, s.filterable)
	if ferr != nil {
		return nil, ferr
	}
	type sortKey struct {
		field string
		desc  bool
	}
	var sorts []sortKey
	for _, o := range q.Sort {
		field, dir, _ := strings.Cut(o, ":")
		if !slices.Contains(s.sortable, field) {
			return nil, errorf(400, "invalid_search_sort", "Attribute `%s` is not sortable. Available sortable attributes are: `%s`.", field, strings.Join(s.sortable, ", "))
		}
		sorts = append(sorts, sortKey{field, dir == "desc"})
	}
	limit := 20
	if q.Limit != nil {
		limit = *q.Limit
	}
	var universe []scored
	for _, d := range x.ordered() {
		if keep(d.fields) {
			universe = append(universe, scored{d: d})
		}
	}
	semantic := len(q.Vector) > 0
	var hits []scored
	if semantic {
		if q.Hybrid == nil {
			return nil, errorf(400, "missing_search_hybrid", "Passing `vector` as a parameter requires `hybrid` to be set.")
		}
		e, ok := s.embedders[q.Hybrid.Embedder]
		if !ok {
			return nil, errorf(400, "invalid_search_embedder", "Cannot find embedder with name `%s`.", q.Hybrid.Embedder)
		}
		if len(q.Vector) != e.Dimensions {
			return nil, errorf(400, "invalid_vector_dimensions", "Invalid vector dimensions: expected: `%d`, found: `%d`.", e.Dimensions, len(q.Vector))
		}
		var with, without []scored
		for _, c := range universe {
			if v := c.d.vectors[q.Hybrid.Embedder]; v != nil {
				sim := (1 + search.Cosine(q.Vector, v)) / 2
				c.similarity = &sim
				with = append(with, c)
			} else {
				without = append(without, c)
			}
		}
		sort.SliceStable(with, func(i, j int) bool { return *with[i].similarity > *with[j].similarity })
		hits = append(with, without...)
	} else {
		terms := tokens(q.Q)
		if len(terms) > maxQueryWords {
			terms = terms[:maxQueryWords]
		}
		// The last word is a prefix unless a separator follows it.
		prefix := len(terms) > 0 && len(tokens(q.Q)) <= maxQueryWords && !endsWithSeparator(q.Q)
		strategy := q.MatchingStrategy
		if strategy == "" {
			strategy = "last"
		}
		order := removalOrder(terms, strategy, universe, fields, prefix, s)
		for _, c := range universe {
			if len(terms) == 0 {
				hits = append(hits, c)
				continue
			}
			ms := make([]match, len(terms))
			for i, t := range terms {
				ms[i] = matchTerm(c.d.fields, fields, t, prefix && i == len(terms)-1, s)
			}
			words := wordsMatched(ms, order)
			if words == 0 {
				continue
			}
			c.words = words
			for _, m := range ms {
				if m.ok {
					c.typos += m.typos
					c.attr += m.attribute
					if m.exact {
						c.exacts++
					}
				}
			}
			hits = append(hits, c)
		}
		less := func(a, b scored) int {
			for _, rule := range s.rankingRules {
				var d int
				switch rule {
				case "sort":
					for _, o := range sorts {
						if d = compareValues(a.d.fields[o.field], b.d.fields[o.field]); o.desc {
							d = -d
						}
						if d != 0 {
							break
						}
					}
				case "words":
					d = b.words - a.words
				case "typo":
					d = a.typos - b.typos
				case "attribute":
					d = a.attr - b.attr
				case "exactness":
					d = b.exacts - a.exacts
				}
				if d != 0 {
					return d
				}
			}
			return a.d.seq - b.d.seq
		}
		slices.SortStableFunc(hits, less)
	}
	total := min(len(hits), s.maxTotalHits)
	offset := min(q.Offset, s.maxTotalHits)
	limit = max(0, min(limit, s.maxTotalHits-offset))
	page := []map[string]any{}
	semanticHits := 0
	for i := offset; i < len(hits) && i < offset+limit; i++ {
		h := map[string]any{}
		for k, v := range hits[i].d.fields {
			h[k] = v
		}
		if q.ShowRankingScoreDetails && semantic {
			vs := map[string]any{"order": 0}
			if hits[i].similarity != nil {
				vs["similarity"] = *hits[i].similarity
			}
			h["_rankingScoreDetails"] = map[string]any{"vectorSort": vs}
		}
		if hits[i].similarity != nil {
			semanticHits++
		}
		page = append(page, h)
	}
	res := map[string]any{"hits": page, "query": q.Q, "processingTimeMs": 0, "limit": limit, "offset": offset, "estimatedTotalHits": total}
	if semantic {
		res["semanticHitCount"] = semanticHits
	}
	return res, nil
}

// removalOrder is the order in which the words ranking rule drops query
// words: from the end (last), the most frequent first (frequency), or
// none (all).
func removalOrder(terms []string, strategy string, universe []scored, fields []string, prefix bool, s fakeSettings) []int {
	var order []int
	switch strategy {
	case "all":
		return nil
	case "last":
		for i := len(terms) - 1; i > 0; i-- {
			order = append(order, i)
		}
	case "frequency":
		freq := make([]int, len(terms))
		for i, t := range terms {
			for _, c := range universe {
				if matchTerm(c.d.fields, fields, t, prefix && i == len(terms)-1, s).ok {
					freq[i]++
				}
			}
		}
		for i := range terms {
			order = append(order, i)
		}
		sort.SliceStable(order, func(a, b int) bool { return freq[order[a]] > freq[order[b]] })
		order = order[:len(order)-1] // the rarest word is never dropped
	}
	return order
}

// wordsMatched is the words rule's score: how many words remain when the
// document first matches every remaining one, dropping them in order; 0
// when it never does.
func wordsMatched(ms []match, order []int) int {
	dropped := map[int]bool{}
	for k := 0; ; k++ {
		all := true
		for i, m := range ms {
			if !dropped[i] && !m.ok {
				all = false
				break
			}
		}
		if all {
			return len(ms) - len(dropped)
		}
		if k >= len(order) {
			return 0
		}
		dropped[order[k]] = true
	}
}

// matchTerm is the best match of a query word in the document's fields.
func matchTerm(doc map[string]any, fields []string, term string, prefix bool, s fakeSettings) match {
	if fields == nil {
		for k := range doc {
			fields = append(fields, k)
		}
		sort.Strings(fields)
	}
	allowed := 0
	switch n := len([]rune(term)); {
	case n >= s.twoTypos:
		allowed = 2
	case n >= s.oneTypo:
		allowed = 1
	}
	best := match{}
	for ai, field := range fields {
		for _, w := range tokens(textOf(doc[field])) {
			m := match{ok: true, attribute: ai}
			switch {
			case w == term:
				m.exact = true
			case prefix && strings.HasPrefix(w, term):
			default:
				d := typos(term, w)
				if prefix && len([]rune(w)) > len([]rune(term)) {
					d = min(d, typos(term, string([]rune(w)[:len([]rune(term))])))
				}
				if d > allowed {
					continue
				}
				m.typos = d
			}
			if !best.ok || m.typos < best.typos || m.typos == best.typos && (m.exact && !best.exact || m.attribute < best.attribute) {
				best = m
			}
		}
	}
	return best
}

// typos is the edit distance of two words (a transposition is one), a
// wrong first letter counting as two, as Meilisearch counts it.
func typos(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := osa(ra, rb)
	if len(ra) > 0 && len(rb) > 0 && ra[0] != rb[0] {
		d++
	}
	return d
}

func osa(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func textOf(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = textOf(x)
		}
		return strings.Join(parts, " ")
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// tokens lower-cases, folds accents and splits on what is not a letter or
// a digit.
func tokens(s string) []string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(s)) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return strings.FieldsFunc(b.String(), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func endsWithSeparator(s string) bool {
	r := []rune(s)
	return len(r) > 0 && !unicode.IsLetter(r[len(r)-1]) && !unicode.IsDigit(r[len(r)-1])
}

// compareValues orders sort values: numbers before strings, both before
// a missing value. The adapter's compareJSON keeps the same rule; this one
// is written apart on purpose, as Meilisearch's own: a rule the fake took
// from the adapter would hide the adapter's mistakes.
func compareValues(a, b any) int {
	rank := func(v any) int {
		switch v.(type) {
		case float64:
			return 0
		case string:
			return 1
		}
		return 2
	}
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra - rb
	}
	switch a := a.(type) {
	case float64:
		b := b.(float64)
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
	case string:
		return strings.Compare(strings.ToLower(a), strings.ToLower(b.(string)))
	}
	return 0
}

// parseFilter reads a filter of the language's subset the adapter writes
// and returns its test; a field not filterable is Meilisearch's 400.
func parseFilter(src string, filterable []string) (func(map[string]any) bool, *fakeError) {
	if strings.TrimSpace(src) == "" {
		return func(map[string]any) bool { return true }, nil
	}
	p := &filterParser{toks: lexFilter(src), filterable: filterable}
	fn, err := p.or()
	if err == nil && p.pos < len(p.toks) {
		err = fmt.Errorf("unexpected %q", p.toks[p.pos])
	}
	if err != nil {
		if fe, ok := err.(*fakeError); ok {
			return nil, fe
		}
		return nil, errorf(400, "invalid_search_filter", "Filter %q: %v", src, err)
	}
	return fn, nil
}

func (e *fakeError) Error() string { return e.message }

type filterParser struct {
	toks       []string
	pos        int
	filterable []string
}

func (p *filterParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *filterParser) next() string { t := p.peek(); p.pos++; return t }

type pred = func(map[string]any) bool

func (p *filterParser) or() (pred, error) {
	l, err := p.and()
	for err == nil && p.peek() == "OR" {
		p.next()
		var r pred
		if r, err = p.and(); err == nil {
			a, b := l, r
			l = func(d map[string]any) bool { return a(d) || b(d) }
		}
	}
	return l, err
}

func (p *filterParser) and() (pred, error) {
	l, err := p.not()
	for err == nil && p.peek() == "AND" {
		p.next()
		var r pred
		if r, err = p.not(); err == nil {
			a, b := l, r
			l = func(d map[string]any) bool { return a(d) && b(d) }
		}
	}
	return l, err
}

func (p *filterParser) not() (pred, error) {
	if p.peek() == "NOT" {
		p.next()
		inner, err := p.not()
		if err != nil {
			return nil, err
		}
		return func(d map[string]any) bool { return !inner(d) }, nil
	}
	return p.primary()
}

func (p *filterParser) primary() (pred, error) {
	if p.peek() == "(" {
		p.next()
		fn, err := p.or()
		if err == nil && p.next() != ")" {
			err = fmt.Errorf("missing )")
		}
		return fn, err
	}
	field := unquote(p.next())
	if !slices.Contains(p.filterable, field) {
		return nil, errorf(400, "invalid_search_filter", "Attribute `%s` is not filterable. Available filterable attributes are: `%s`.", field, strings.Join(p.filterable, ", "))
	}
	var values []string
	op := p.next()
	switch op {
	case "IN":
		if p.next() != "[" {
			return nil, fmt.Errorf("IN without [")
		}
		for p.peek() != "]" {
			if p.peek() == "" {
				return nil, fmt.Errorf("IN without ]")
			}
			if t := p.next(); t != "," {
				values = append(values, unquote(t))
			}
		}
		p.next()
	case "=", "!=":
		values = []string{unquote(p.next())}
	default:
		return nil, fmt.Errorf("operator %q is not modelled", op)
	}
	in := func(d map[string]any) bool {
		var have []string
		switch v := d[field].(type) {
		case []any:
			for _, x := range v {
				have = append(have, textOf(x))
			}
		case nil:
		default:
			have = []string{textOf(v)}
		}
		for _, h := range have {
			for _, w := range values {
				if strings.EqualFold(h, w) {
					return true
				}
			}
		}
		return false
	}
	if op == "!=" {
		return func(d map[string]any) bool { return !in(d) }, nil
	}
	return in, nil
}

// lexFilter splits a filter into words, punctuation and quoted strings
// (kept with their quotes).
func lexFilter(s string) []string {
	var out []string
	r := []rune(s)
	for i := 0; i < len(r); {
		switch c := r[i]; {
		case unicode.IsSpace(c):
			i++
		case strings.ContainsRune("()[],", c):
			out = append(out, string(c))
			i++
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(r) && r[j] != c {
				if r[j] == '\\' {
					j++
				}
				j++
			}
			out = append(out, string(r[i:min(j+1, len(r))]))
			i = j + 1
		case c == '!' && i+1 < len(r) && r[i+1] == '=':
			out = append(out, "!=")
			i += 2
		case c == '=':
			out = append(out, "=")
			i++
		default:
			j := i
			for j < len(r) && !unicode.IsSpace(r[j]) && !strings.ContainsRune("()[],=!", r[j]) {
				j++
			}
			out = append(out, string(r[i:j]))
			i = j
		}
	}
	return out
}

func unquote(t string) string {
	if len(t) >= 2 && (t[0] == '"' || t[0] == '\'') {
		var b strings.Builder
		for i := 1; i < len(t)-1; i++ {
			if t[i] == '\\' && i+1 < len(t)-1 {
				i++
			}
			b.WriteByte(t[i])
		}
		return b.String()
	}
	return t
}

// Take returns the requests so far and forgets them.
func (f *FakeMeili) Take() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.requests
	f.requests = nil
	return out
}

// FailTask makes task uid fail with Meilisearch error code and message,
// applying nothing, whatever it holds.
func (f *FakeMeili) FailTask(uid int64, code, message string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failures[uid] = [2]string{code, message}
}

// SetSearchAnswer makes every search answer body, in place of the
// search the fake would run ("" runs it again).
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
