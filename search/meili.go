package search

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/meilisearch/meilisearch-go"
)

// MeiliConfig places the Meilisearch adapter.
type MeiliConfig struct {
	// URL is Meilisearch's base URL (MEILI_URL).
	URL string
	// Key is the master key or an API key allowed to manage the indexes
	// (MEILI_MASTER_KEY); empty for a server without one.
	Key string
	// Prefix starts every index name, so that deployments (or tests) can
	// share a server: agora_ by default.
	Prefix string
	// HTTPClient, when set, sends the requests.
	HTTPClient *http.Client
	// PollInterval is how often a task's status is read while waiting;
	// 50 ms by default.
	PollInterval time.Duration
	// VectorDimensions, when set, is the length of the posts' vectors, for
	// the posts index's embedder setting; without it the setting is made
	// when the first vectors arrive, from their length.
	VectorDimensions int
	// Log, when set, receives the adapter's warnings; slog's default
	// otherwise.
	Log *slog.Logger
}

// DefaultIndexPrefix starts the index names of a store opened with Open.
const DefaultIndexPrefix = "agora_"

// rankingRules puts sort first: a caller who asks for an order gets that
// order, relevance breaking ties, as in the embedded engine; without a sort
// the rule does nothing and the relevance rules rank as usual.
var rankingRules = []string{"sort", "words", "typo", "proximity", "attribute", "exactness"}

// typoTolerance is Meilisearch's default, written down so that the contract
// (one typo from 5 letters, two from 9) does not move with its defaults.
var typoTolerance = meilisearch.TypoTolerance{
	Enabled:             true,
	MinWordSizeForTypos: meilisearch.MinWordSizeForTypos{OneTypo: 5, TwoTypos: 9},
	DisableOnWords:      []string{},
	DisableOnAttributes: []string{},
}

// meiliMaxTotalHits is the posts' and every index's pagination limit.
// Meilisearch's default (1,000) returns no hit beyond the thousandth and
// stops estimatedTotalHits there; the port pages by Offset without such a
// bound, and a large forum has more matches than that. The bound costs
// nothing until a page that deep is asked for.
const meiliMaxTotalHits = 1_000_000

// vectorMarker is a field the adapter adds to every post: whether it has a
// vector. Meilisearch's semantic search returns the documents without one
// after those with one (and counts them in the total); filtering on it
// keeps a Vector query to what the port promises.
const vectorMarker = "hasVector"

type meili struct {
	client   meilisearch.ServiceManager
	prefix   string
	interval time.Duration
	log      *slog.Logger

	mu sync.Mutex
	// pending holds, per index, the tasks enqueued since the last wait.
	pending map[string][]int64
	// dimensions is the vectors' length once known (VectorDimensions, or
	// the first vectors written): the embedder setting has been sent.
	dimensions int
	// warnedNoEmbedder is set once a vector search found no embedder, so
	// that a new forum's every AI search does not log it again.
	warnedNoEmbedder atomic.Bool
}

// OpenMeili connects to Meilisearch, creates the indexes that are missing
// (primary key id) and applies their settings, waiting until those tasks are
// done so that the first search sees them.
func OpenMeili(ctx context.Context, cfg MeiliConfig) (Store, error) {
	if cfg.URL == "" {
		return nil, errors.New("search: Meilisearch URL is empty")
	}
	opts := []meilisearch.Option{}
	if cfg.Key != "" {
		opts = append(opts, meilisearch.WithAPIKey(cfg.Key))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, meilisearch.WithCustomClient(cfg.HTTPClient))
	}
	m := &meili{
		client:   meilisearch.New(cfg.URL, opts...),
		prefix:   cfg.Prefix,
		interval: cfg.PollInterval,
		pending:  map[string][]int64{},

		dimensions: cfg.VectorDimensions,
		log:        cfg.Log,
	}
	if m.log == nil {
		m.log = slog.Default()
	}
	if m.prefix == "" {
		m.prefix = DefaultIndexPrefix
	}
	if m.interval <= 0 {
		m.interval = 50 * time.Millisecond
	}
	for _, s := range []*schema{memberSchema, hashtagSchema, postSchema, peerSchema} {
		if err := m.setUp(ctx, s); err != nil {
			return nil, err
		}
	}
	if m.dimensions == 0 {
		if err := m.readDimensions(ctx, postSchema); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *meili) uid(s *schema) string { return m.prefix + s.name }

func (m *meili) Members() Index[Member]   { return index[Member]{memberSchema, m} }
func (m *meili) Hashtags() Index[Hashtag] { return index[Hashtag]{hashtagSchema, m} }
func (m *meili) Posts() Index[Post]       { return index[Post]{postSchema, m} }
func (m *meili) Peers() Index[Peer]       { return index[Peer]{peerSchema, m} }
func (m *meili) Close() error             { m.client.Close(); return nil }

// vectorEmbedder names the embedder setting of an index that holds
// vectors. Agora computes them (search.Embedder) and hands them over:
// Meilisearch only stores and compares them.
const vectorEmbedder = "default"

// embedders is the embedder setting for vectors of that many dimensions.
func embedders(dimensions int) map[string]meilisearch.Embedder {
	return map[string]meilisearch.Embedder{vectorEmbedder: {Source: "userProvided", Dimensions: dimensions}}
}

// settings are the index settings of s; with the embedder when s holds
// vectors and their dimensions are known.
func settings(s *schema, dimensions int) *meilisearch.Settings {
	tt := typoTolerance
	filterable := s.filterable
	if !has(filterable, "id") {
		// longText keeps a page of hits to those that hold the other words.
		filterable = append(slices.Clip(filterable), "id")
	}
	if s.vectors {
		filterable = append(slices.Clip(filterable), vectorMarker)
	}
	set := &meilisearch.Settings{
		RankingRules:         rankingRules,
		SearchableAttributes: s.searchable,
		FilterableAttributes: filterable,
		SortableAttributes:   s.sortable,
		TypoTolerance:        &tt,
		Pagination:           &meilisearch.Pagination{MaxTotalHits: meiliMaxTotalHits},
		// Filters and sorts name every field; displaying all keeps hits
		// decodable into the document types.
		DisplayedAttributes: []string{"*"},
	}
	if s.vectors && dimensions > 0 {
		set.Embedders = embedders(dimensions)
	}
	return set
}

// setUp creates the index (an existing one answers index_already_exists,
// which is fine) and applies its settings, then waits for both.
func (m *meili) setUp(ctx context.Context, s *schema) error {
	uid := m.uid(s)
	created, err := m.client.CreateIndexWithContext(ctx, &meilisearch.IndexConfig{Uid: uid, PrimaryKey: "id"})
	if err != nil {
		return fmt.Errorf("search: create index %s: %w", uid, meiliError(err))
	}
	m.mu.Lock()
	dimensions := m.dimensions
	m.mu.Unlock()
	set, err := m.client.Index(uid).UpdateSettingsWithContext(ctx, settings(s, dimensions))
	if err != nil {
		return fmt.Errorf("search: settings of %s: %w", uid, meiliError(err))
	}
	task, err := m.client.WaitForTaskWithContext(ctx, created.TaskUID, m.interval)
	if err != nil {
		return fmt.Errorf("search: create index %s: %w", uid, meiliError(err))
	}
	if task.Status != meilisearch.TaskStatusSucceeded && task.Error.Code != "index_already_exists" {
		return fmt.Errorf("search: create index %s: %s: %s", uid, task.Error.Code, task.Error.Message)
	}
	return m.await(ctx, uid, set.TaskUID)
}

// readDimensions learns the dimensions of an embedder an earlier process
// set up: without them, this one would send vectors before knowing that
// the setting exists, and its posts without a vector would be refused.
func (m *meili) readDimensions(ctx context.Context, s *schema) error {
	es, err := m.client.Index(m.uid(s)).GetEmbeddersWithContext(ctx)
	if err != nil {
		return fmt.Errorf("search: embedders of %s: %w", m.uid(s), meiliError(err))
	}
	if e, ok := es[vectorEmbedder]; ok && e.Dimensions > 0 {
		m.mu.Lock()
		m.dimensions = e.Dimensions
		m.mu.Unlock()
	}
	return nil
}

// await waits for one task and reports its failure.
func (m *meili) await(ctx context.Context, uid string, taskUID int64) error {
	task, err := m.client.WaitForTaskWithContext(ctx, taskUID, m.interval)
	if err != nil {
		return fmt.Errorf("search: task %d of %s: %w", taskUID, uid, meiliError(err))
	}
	if task.Status != meilisearch.TaskStatusSucceeded {
		return fmt.Errorf("search: task %d of %s %s: %s: %s", taskUID, uid, task.Status, task.Error.Code, task.Error.Message)
	}
	return nil
}

// enqueued records a task for the next wait.
func (m *meili) enqueued(s *schema, t *meilisearch.TaskInfo) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pending[s.name] = append(m.pending[s.name], t.TaskUID)
}

func (m *meili) upsert(ctx context.Context, s *schema, ids []string, docs []json.RawMessage, vectors [][]float32) error {
	if s.vectors {
		var err error
		if docs, err = m.withVectors(ctx, s, docs, vectors); err != nil {
			return err
		}
	}
	// Adding replaces a document with the same id whole, which is what an
	// upsert of a projection means (an update would merge fields).
	t, err := m.client.Index(m.uid(s)).AddDocumentsWithContext(ctx, docs, nil)
	if err != nil {
		return fmt.Errorf("search: write %s: %w", m.uid(s), meiliError(err))
	}
	m.enqueued(s, t)
	return nil
}

// withVectors adds each vector to its document as Meilisearch takes it,
// {"_vectors": {"default": [...]}, "hasVector": true, ...}, and null to a
// document without one: once a userProvided embedder exists, Meilisearch
// fails the whole batch when a document new to the index says nothing of
// it, and a replacement that says nothing keeps the old vector (an edit
// that lost its vector would still be found by it). Null is its opt-out,
// harmless before the embedder exists. The first vectors of the process
// set the embedder up when VectorDimensions did not, and wait for it.
func (m *meili) withVectors(ctx context.Context, s *schema, docs []json.RawMessage, vectors [][]float32) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(docs))
	for i, doc := range docs {
		var v []float32
		if vectors != nil {
			v = vectors[i]
		}
		if v != nil {
			if err := m.knowDimensions(ctx, s, len(v)); err != nil {
				return nil, err
			}
		}
		vj, err := json.Marshal(map[string][]float32{vectorEmbedder: v})
		if err != nil {
			return nil, fmt.Errorf("search: encode a vector: %w", err)
		}
		// doc is a JSON object with fields: "{" opens it.
		out[i] = slices.Concat([]byte(`{"_vectors":`), vj, []byte(fmt.Sprintf(`,%q:%t,`, vectorMarker, v != nil)), doc[1:])
	}
	return out, nil
}

// knowDimensions sets the embedder up for vectors of n dimensions, unless
// it is, and waits for its task: documents with vectors enqueued before a
// setting that then fails would all fail. The lock is held through (once
// a process), so that no write's documents are enqueued before it.
func (m *meili) knowDimensions(ctx context.Context, s *schema, n int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.dimensions > 0 {
		return nil
	}
	t, err := m.client.Index(m.uid(s)).UpdateEmbeddersWithContext(ctx, embedders(n))
	if err != nil {
		return fmt.Errorf("search: embedder of %s: %w", m.uid(s), meiliError(err))
	}
	if err := m.await(ctx, m.uid(s), t.TaskUID); err != nil {
		return fmt.Errorf("search: embedder of %s: %w", m.uid(s), err)
	}
	m.dimensions = n
	return nil
}

func (m *meili) delete(ctx context.Context, s *schema, ids []string) error {
	t, err := m.client.Index(m.uid(s)).DeleteDocumentsWithContext(ctx, ids, nil)
	if err != nil {
		return fmt.Errorf("search: delete from %s: %w", m.uid(s), meiliError(err))
	}
	m.enqueued(s, t)
	return nil
}

func (m *meili) deleteWhere(ctx context.Context, s *schema, f Filter) error {
	t, err := m.client.Index(m.uid(s)).DeleteDocumentsByFilterWithContext(ctx, meiliFilter(f), nil)
	if err != nil {
		return fmt.Errorf("search: delete from %s: %w", m.uid(s), meiliError(err))
	}
	m.enqueued(s, t)
	return nil
}

// meiliAnswer is the part of a search answer the adapter reads.
type meiliAnswer struct {
	Hits               []json.RawMessage `json:"hits"`
	EstimatedTotalHits int               `json:"estimatedTotalHits"`
}

// maxQueryWords is how many words of a query Meilisearch reads: it ignores
// the rest.
const maxQueryWords = 10

// queryWords splits text as Meilisearch does, near enough: lower-cased
// runs of letters and digits.
func queryWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// fitWords chooses the words sent for a text: Meilisearch reads the first
// maxQueryWords words of a query alone. A longer text is sent as its
// longest words (which are the rarest, most often), each once, in their
// order, with its last word last so that it stays the prefix the port
// promises; rest holds the words left out, which longText checks apart.
//
// A separator that ends the text ("kubernetes?") is dropped first: after
// one, Meilisearch does not read the last word as a prefix.
func fitWords(text string) (sent string, rest []string) {
	text = strings.TrimRightFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	all := queryWords(text)
	if len(all) <= maxQueryWords {
		return text, nil
	}
	last := all[len(all)-1]
	var distinct []string
	seen := map[string]bool{last: true}
	for _, w := range all[:len(all)-1] {
		if !seen[w] {
			seen[w] = true
			distinct = append(distinct, w)
		}
	}
	if len(distinct) >= maxQueryWords {
		byLength := slices.Clone(distinct)
		sort.SliceStable(byLength, func(i, j int) bool { return utf8.RuneCountInString(byLength[i]) > utf8.RuneCountInString(byLength[j]) })
		keep := map[string]bool{}
		for _, w := range byLength[:maxQueryWords-1] {
			keep[w] = true
		}
		for _, w := range distinct {
			if !keep[w] {
				rest = append(rest, w)
			}
		}
		distinct = slices.DeleteFunc(distinct, func(w string) bool { return !keep[w] })
	}
	return strings.Join(append(distinct, last), " "), rest
}

func (m *meili) request(s *schema, q Query) *meilisearch.SearchRequest {
	req := &meilisearch.SearchRequest{
		Query:  q.Text,
		Limit:  int64(q.Limit),
		Offset: int64(q.Offset),
		// Every word must match, as in the embedded engine and as spec 002
		// §5 asks of the peer search; Meilisearch's default drops words.
		MatchingStrategy:     meilisearch.All,
		AttributesToSearchOn: q.Fields,
	}
	if f := meiliFilter(q.Filter); f != "" {
		req.Filter = f
	}
	for _, o := range q.Sort {
		dir := ":asc"
		if o.Desc {
			dir = ":desc"
		}
		req.Sort = append(req.Sort, o.Field+dir)
	}
	return req
}

func (m *meili) search(ctx context.Context, s *schema, q Query) ([]json.RawMessage, int, error) {
	if len(q.Vector) > 0 {
		return m.nearest(ctx, s, q)
	}
	if q.AnyWord && q.Text != "" {
		return m.anyWord(ctx, s, q)
	}
	var rest []string
	if q.Text, rest = fitWords(q.Text); len(rest) > 0 {
		return m.longText(ctx, s, q, rest)
	}
	a, err := m.searchOnce(ctx, s, m.request(s, q))
	return a.Hits, a.EstimatedTotalHits, err
}

func (m *meili) searchOnce(ctx context.Context, s *schema, req *meilisearch.SearchRequest) (meiliAnswer, error) {
	var a meiliAnswer
	raw, err := m.client.Index(m.uid(s)).SearchRawWithContext(ctx, req.Query, req)
	if err != nil {
		return a, fmt.Errorf("search: %s: %w", m.uid(s), meiliError(err))
	}
	if err := json.Unmarshal(*raw, &a); err != nil {
		return a, fmt.Errorf("search: %s: answer: %w", m.uid(s), err)
	}
	return a, nil
}

// longTextPage is how many hits of its sent words longText checks at a
// time, at least; longTextChecked how many in all, so that a long text
// whose chosen words are common costs a bounded number of round trips
// (its hits beyond are not found, as the embedded engine's vector
// candidates stop at MaxVectorCandidates).
const (
	longTextPage    = 100
	longTextChecked = 10_000
)

// longText answers a text whose words do not fit in one query: the sent
// words rank and page the hits, and each page is kept to the documents
// that also hold the words left out, asked for in groups of ten (each
// ending with a space, so that none is a prefix) over the page's ids. The
// total is exact once every hit was checked, and otherwise the share of
// checked hits that held every word, times the hits of the sent words.
func (m *meili) longText(ctx context.Context, s *schema, q Query, rest []string) ([]json.RawMessage, int, error) {
	uid := m.uid(s)
	want := q.Offset + q.Limit
	page := min(max(want, longTextPage), MaxLimit)
	var kept []json.RawMessage
	checked, total := 0, 0
	for {
		req := m.request(s, Query{Text: q.Text, Fields: q.Fields, Filter: q.Filter, Sort: q.Sort, Limit: page, Offset: checked})
		a, err := m.searchOnce(ctx, s, req)
		if err != nil {
			return nil, 0, err
		}
		total = a.EstimatedTotalHits
		if len(a.Hits) == 0 {
			break
		}
		ids := make([]string, len(a.Hits))
		for i, h := range a.Hits {
			var d struct {
				ID string `json:"id"`
			}
			if err := json.Unmarshal(h, &d); err != nil {
				return nil, 0, fmt.Errorf("search: %s: a hit: %w", uid, err)
			}
			ids[i] = d.ID
		}
		onPage := append(slices.Clip(q.Filter), In("id", ids...))
		var queries []*meilisearch.SearchRequest
		for i := 0; i < len(rest); i += maxQueryWords {
			group := strings.Join(rest[i:min(i+maxQueryWords, len(rest))], " ") + " "
			r := m.request(s, Query{Text: group, Fields: q.Fields, Filter: onPage, Limit: len(ids)})
			r.IndexUID, r.AttributesToRetrieve = uid, []string{"id"}
			queries = append(queries, r)
		}
		res, err := m.client.MultiSearchWithContext(ctx, &meilisearch.MultiSearchRequest{Queries: queries})
		if err != nil {
			return nil, 0, fmt.Errorf("search: %s: %w", uid, meiliError(err))
		}
		held := map[string]int{}
		for _, r := range res.Results {
			for _, h := range r.Hits {
				var id string
				if json.Unmarshal(h["id"], &id) == nil {
					held[id]++
				}
			}
		}
		for i, h := range a.Hits {
			if held[ids[i]] == len(queries) {
				kept = append(kept, h)
			}
		}
		checked += len(a.Hits)
		if len(kept) >= want || checked >= total || checked >= longTextChecked {
			break
		}
	}
	if checked < total && checked > 0 {
		total = len(kept) * total / checked
	} else {
		total = len(kept)
	}
	total = max(total, len(kept))
	if q.Offset >= len(kept) {
		return nil, total, nil
	}
	return kept[q.Offset:min(want, len(kept))], total, nil
}

// nearest is a semantic search: only the vectors rank (the text is
// blank), over the posts that have one. Hits come without their vectors,
// as retrieveVectors is not set.
func (m *meili) nearest(ctx context.Context, s *schema, q Query) ([]json.RawMessage, int, error) {
	req := m.request(s, q)
	req.Vector = q.Vector
	req.Hybrid = &meilisearch.SearchRequestHybrid{Embedder: vectorEmbedder, SemanticRatio: 1}
	req.ShowRankingScoreDetails = true
	// "!= false" also keeps posts written before the marker existed;
	// those without a vector among them are dropped below.
	marker := vectorMarker + " != false"
	if f, ok := req.Filter.(string); ok {
		marker = f + " AND " + marker
	}
	req.Filter = marker
	raw, err := m.client.Index(m.uid(s)).SearchRawWithContext(ctx, "", req)
	var me *meilisearch.Error
	if errors.As(err, &me) && me.MeilisearchApiError.Code == "invalid_search_embedder" {
		// No vector was written yet, so no embedder exists and no post is
		// near: an AI search goes on with its words alone.
		if !m.warnedNoEmbedder.Swap(true) {
			m.log.Warn("search: a vector search before the first vector was written: no post is near, the AI search goes on with words", "index", m.uid(s))
		}
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("search: %s: %w", m.uid(s), meiliError(err))
	}
	var a meiliAnswer
	if err := json.Unmarshal(*raw, &a); err != nil {
		return nil, 0, fmt.Errorf("search: %s: answer: %w", m.uid(s), err)
	}
	// A hit the vectors did not rank (no similarity) is not near anything:
	// the marker keeps them out, and this keeps them out of a store whose
	// documents were written without it.
	hits := a.Hits[:0]
	for _, h := range a.Hits {
		var d struct {
			Details struct {
				VectorSort struct {
					Similarity *float64 `json:"similarity"`
				} `json:"vectorSort"`
			} `json:"_rankingScoreDetails"`
		}
		if json.Unmarshal(h, &d) == nil && d.Details.VectorSort.Similarity != nil {
			hits = append(hits, h)
		}
	}
	return hits, a.EstimatedTotalHits, nil
}

// anyWord answers an AnyWord query. No matchingStrategy means what the
// port does: "last" keeps only the documents with the first word and
// "frequency" only those with the rarest, while the port keeps a document
// with any of the words; and only a query's last word is a prefix, of its
// first ten. So each word is a search of its own, in one multi-search
// (alone, it is the last word: a prefix, or not, followed by a space,
// when shorter than anyWordStem), and the adapter ranks their union as
// the embedded engine does: by the summed rarity (BM25's idf, from each
// word's count of matches) of the words a document holds, leaving out the
// common words (commonShare, commonMin) unless all are. A document beyond
// each word's first Offset+Limit matches is not a candidate.
func (m *meili) anyWord(ctx context.Context, s *schema, q Query) ([]json.RawMessage, int, error) {
	var terms []string
	seen := map[string]bool{}
	for _, w := range queryWords(q.Text) {
		if !seen[w] {
			seen[w] = true
			terms = append(terms, w)
		}
	}
	uid := m.uid(s)
	want := q.Offset + q.Limit
	// The first query counts the documents that pass the filter.
	count := m.request(s, Query{Filter: q.Filter, Limit: 1})
	count.IndexUID, count.AttributesToRetrieve = uid, []string{"id"}
	queries := []*meilisearch.SearchRequest{count}
	for _, w := range terms {
		text := w
		if utf8.RuneCountInString(w) < anyWordStem {
			text += " "
		}
		r := m.request(s, Query{Text: text, Fields: q.Fields, Filter: q.Filter, Sort: q.Sort, Limit: want})
		r.IndexUID = uid
		queries = append(queries, r)
	}
	res, err := m.client.MultiSearchWithContext(ctx, &meilisearch.MultiSearchRequest{Queries: queries})
	if err != nil {
		return nil, 0, fmt.Errorf("search: %s: %w", uid, meiliError(err))
	}
	if len(res.Results) != len(queries) {
		return nil, 0, fmt.Errorf("search: %s: %d answers to %d queries", uid, len(res.Results), len(queries))
	}
	docs := float64(res.Results[0].EstimatedTotalHits)
	type word struct {
		hits     []json.RawMessage
		df       int
		complete bool
	}
	words := make([]word, len(terms))
	for i := range terms {
		r := res.Results[i+1]
		w := word{df: int(r.EstimatedTotalHits)}
		for _, h := range r.Hits {
			b, err := json.Marshal(h)
			if err != nil {
				return nil, 0, fmt.Errorf("search: %s: a hit: %w", uid, err)
			}
			w.hits = append(w.hits, b)
		}
		w.complete = len(w.hits) >= w.df
		words[i] = w
	}
	common := func(w word) bool { return docs >= commonMin && float64(w.df) >= commonShare*docs }
	kept := slices.DeleteFunc(slices.Clone(words), common)
	if len(kept) == 0 && len(words) > 0 {
		rarest := slices.MinFunc(words, func(a, b word) int { return a.df - b.df })
		kept = []word{rarest}
	}
	type candidate struct {
		raw   json.RawMessage
		score float64
		best  int
		// sorts are the values of q.Sort's fields.
		sorts []any
	}
	byID := map[string]*candidate{}
	var union []*candidate
	total := 0
	complete := true
	for _, w := range kept {
		idf := math.Log(1 + (docs-float64(w.df)+0.5)/(float64(w.df)+0.5))
		for rank, h := range w.hits {
			var id struct {
				ID string `json:"id"`
			}
			if err := json.Unmarshal(h, &id); err != nil {
				return nil, 0, fmt.Errorf("search: %s: a hit: %w", uid, err)
			}
			c := byID[id.ID]
			if c == nil {
				c = &candidate{raw: h, best: rank}
				if len(q.Sort) > 0 {
					var d map[string]any
					_ = json.Unmarshal(h, &d)
					for _, o := range q.Sort {
						c.sorts = append(c.sorts, d[o.Field])
					}
				}
				byID[id.ID] = c
				union = append(union, c)
			}
			c.score += idf
			c.best = min(c.best, rank)
		}
		complete = complete && w.complete
		total = max(total, w.df)
	}
	if complete {
		total = len(union)
	}
	total = max(total, len(union))
	slices.SortStableFunc(union, func(a, b *candidate) int {
		// A Sort orders first, relevance breaking ties, as in Search.
		for i, o := range q.Sort {
			if d := compareJSON(a.sorts[i], b.sorts[i]); d != 0 {
				if o.Desc {
					return -d
				}
				return d
			}
		}
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return a.best - b.best
	})
	var out []json.RawMessage
	for i := q.Offset; i < len(union) && i < want; i++ {
		out = append(out, union[i].raw)
	}
	return out, total, nil
}

// compareJSON orders two sortable values as Meilisearch does: numbers
// before strings, both before a missing value.
func compareJSON(a, b any) int {
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
		return cmp.Compare(a, b.(float64))
	case string:
		return strings.Compare(a, b.(string))
	}
	return 0
}

// meiliAllPage is how many documents all reads at a time.
const meiliAllPage = 1000

func (m *meili) all(ctx context.Context, s *schema, fn func(json.RawMessage) error) error {
	for offset := int64(0); ; offset += meiliAllPage {
		var res meilisearch.DocumentsResult
		if err := m.client.Index(m.uid(s)).GetDocumentsWithContext(ctx, &meilisearch.DocumentsQuery{Offset: offset, Limit: meiliAllPage}, &res); err != nil {
			return fmt.Errorf("search: read %s: %w", m.uid(s), meiliError(err))
		}
		for _, h := range res.Results {
			raw, err := json.Marshal(h)
			if err != nil {
				return fmt.Errorf("search: read %s: %w", m.uid(s), err)
			}
			if err := fn(raw); err != nil {
				return err
			}
		}
		if len(res.Results) < meiliAllPage {
			return nil
		}
	}
}

func (m *meili) wait(ctx context.Context, s *schema) error {
	m.mu.Lock()
	tasks := m.pending[s.name]
	m.pending[s.name] = nil
	m.mu.Unlock()
	for i, t := range tasks {
		if err := m.await(ctx, m.uid(s), t); err != nil {
			// Keep what is not yet known for the next wait.
			m.mu.Lock()
			m.pending[s.name] = append(tasks[i+1:len(tasks):len(tasks)], m.pending[s.name]...)
			m.mu.Unlock()
			return err
		}
	}
	return nil
}

func (m *meili) rebuild(ctx context.Context, s *schema) error {
	uid := m.uid(s)
	t, err := m.client.DeleteIndexWithContext(ctx, uid)
	if err != nil {
		return fmt.Errorf("search: rebuild %s: %w", uid, meiliError(err))
	}
	task, err := m.client.WaitForTaskWithContext(ctx, t.TaskUID, m.interval)
	if err != nil {
		return fmt.Errorf("search: rebuild %s: %w", uid, meiliError(err))
	}
	if task.Status != meilisearch.TaskStatusSucceeded && task.Error.Code != "index_not_found" {
		return fmt.Errorf("search: rebuild %s: %s: %s", uid, task.Error.Code, task.Error.Message)
	}
	m.mu.Lock()
	m.pending[s.name] = nil
	m.mu.Unlock()
	return m.setUp(ctx, s)
}

// meiliFilter writes a filter in Meilisearch's filter language:
// (a IN ["x", "y"] OR NOT b IN ["z"]) AND c IN ["w"].
func meiliFilter(f Filter) string {
	var and []string
	for _, c := range f {
		var or []string
		for _, t := range c {
			vals := make([]string, len(t.Values))
			for i, v := range t.Values {
				vals[i] = meiliQuote(v)
			}
			term := t.Field + " IN [" + strings.Join(vals, ", ") + "]"
			if t.Not {
				term = "NOT " + term
			}
			or = append(or, term)
		}
		if len(or) == 1 {
			and = append(and, or[0])
		} else {
			and = append(and, "("+strings.Join(or, " OR ")+")")
		}
	}
	return strings.Join(and, " AND ")
}

// meiliQuote quotes a value for a filter: inside double quotes, a double
// quote and a backslash are escaped with a backslash.
func meiliQuote(v string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
}

// meiliError marks err with ErrUnavailable when it says Meilisearch could
// not be reached, timed out, or answered with a server error (5xx) or a
// 429: the request was fine, the server could not take it now.
func meiliError(err error) error {
	var me *meilisearch.Error
	if !errors.As(err, &me) {
		return err
	}
	switch {
	case me.ErrCode == meilisearch.MeilisearchCommunicationError, me.ErrCode == meilisearch.MeilisearchTimeoutError,
		me.ErrCode == meilisearch.MeilisearchMaxRetriesExceeded, me.StatusCode >= 500, me.StatusCode == 429:
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return err
}
