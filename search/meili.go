package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

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

type meili struct {
	client   meilisearch.ServiceManager
	prefix   string
	interval time.Duration

	mu sync.Mutex
	// pending holds, per index, the tasks enqueued since the last wait.
	pending map[string][]int64
	// dimensions is the vectors' length once known (VectorDimensions, or
	// the first vectors written): the embedder setting has been sent.
	dimensions int
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
	set := &meilisearch.Settings{
		RankingRules:         rankingRules,
		SearchableAttributes: s.searchable,
		FilterableAttributes: s.filterable,
		SortableAttributes:   s.sortable,
		TypoTolerance:        &tt,
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
	if vectors != nil {
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
// {"_vectors": {"default": [...]}, ...}. The first vectors of the process
// send the embedder setting when VectorDimensions did not: Meilisearch
// applies an index's tasks in order, so the setting is in place before the
// documents are.
func (m *meili) withVectors(ctx context.Context, s *schema, docs []json.RawMessage, vectors [][]float32) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(docs))
	for i, doc := range docs {
		v := vectors[i]
		if v == nil {
			out[i] = doc
			continue
		}
		if err := m.knowDimensions(ctx, s, len(v)); err != nil {
			return nil, err
		}
		vj, err := json.Marshal(map[string][]float32{vectorEmbedder: v})
		if err != nil {
			return nil, fmt.Errorf("search: encode a vector: %w", err)
		}
		// doc is a JSON object with fields: "{" opens it.
		out[i] = slices.Concat([]byte(`{"_vectors":`), vj, []byte(","), doc[1:])
	}
	return out, nil
}

// knowDimensions sends the embedder setting for vectors of n dimensions,
// unless it was sent. The lock is held through the request (once a
// process), so that no write's documents are enqueued before it.
func (m *meili) knowDimensions(ctx context.Context, s *schema, n int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.dimensions > 0 {
		return nil
	}
	t, err := m.client.Index(m.uid(s)).UpdateEmbeddersWithContext(ctx, embedders(n))
	if err != nil {
		return fmt.Errorf("search: embedder of %s: %w", m.uid(s), err)
	}
	m.dimensions = n
	m.pending[s.name] = append(m.pending[s.name], t.TaskUID)
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

func (m *meili) search(ctx context.Context, s *schema, q Query) ([]json.RawMessage, int, error) {
	req := &meilisearch.SearchRequest{
		Query:  q.Text,
		Limit:  int64(q.Limit),
		Offset: int64(q.Offset),
		// Every word must match, as in the embedded engine and as spec 002
		// §5 asks of the peer search; Meilisearch's default drops words.
		MatchingStrategy:     meilisearch.All,
		AttributesToSearchOn: q.Fields,
	}
	if len(q.Vector) > 0 {
		// Only the vectors rank (the text is blank): a semantic search.
		// Hits come without their vectors, as retrieveVectors is not set.
		req.Vector = q.Vector
		req.Hybrid = &meilisearch.SearchRequestHybrid{Embedder: vectorEmbedder, SemanticRatio: 1}
	}
	if q.AnyWord {
		// Documents with every word first, then those missing the most
		// frequent words, which say least.
		req.MatchingStrategy = meilisearch.Frequency
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
	raw, err := m.client.Index(m.uid(s)).SearchRawWithContext(ctx, q.Text, req)
	if err != nil {
		return nil, 0, fmt.Errorf("search: %s: %w", m.uid(s), meiliError(err))
	}
	var a meiliAnswer
	if err := json.Unmarshal(*raw, &a); err != nil {
		return nil, 0, fmt.Errorf("search: %s: answer: %w", m.uid(s), err)
	}
	return a.Hits, a.EstimatedTotalHits, nil
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
