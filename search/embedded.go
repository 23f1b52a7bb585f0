package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/char/asciifolding"
	"github.com/blevesearch/bleve/v2/analysis/token/edgengram"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bindex "github.com/blevesearch/bleve_index_api"
	bolterrors "go.etcd.io/bbolt/errors"
)

// The embedded engine keeps each index in its own Bleve index (scorch, on
// disk) under the folder given to OpenEmbedded. Bleve answers in process in
// about a millisecond, writes are searchable when Batch returns, and BM25
// scoring matches what people expect of a search box.
//
// layoutVersion is part of each index's folder name: a change of mapping
// that the queries cannot serve bumps it, and the projection rebuilds into
// the new folder rather than reading an index built with another mapping.
// A change they can serve keeps it: the prefix fields (pre_) came later,
// and an index without them has its prefixes expanded as before, until a
// Rebuild recreates it with the current mapping.
const layoutVersion = "v1"

const (
	// textAnalyzer folds accents (Élodie is found as elodie), splits on
	// Unicode word boundaries (so on spaces and commas, as spec 002 §5 asks)
	// and lower-cases; no stemming and no stop words, as Meilisearch, so both
	// engines match the same words.
	textAnalyzer = "agora_text"
	// prefixAnalyzer is textAnalyzer followed by the leading n-grams of each
	// word ("ada" gives a, ad, ada), up to prefixLength letters.
	prefixAnalyzer = "agora_prefix"
	edgeFilter     = "agora_edge"
	// sourceField stores each document's JSON, which a hit is decoded from.
	sourceField = "_src"
	// keywordPrefix names the exact-value twin of a field that is both
	// searched as text and filtered or sorted.
	keywordPrefix = "kw_"
	// startsPrefix names the twin of a searched field that holds the
	// leading n-grams of its words.
	startsPrefix = "pre_"
)

// prefixLength is the longest word start an index keeps as a term of its
// own, so that the type-ahead of the last word is one term lookup instead
// of an expansion over every word that starts so: "a" alone starts
// thousands of distinct names and e-mail addresses (ada.lovelace12…). A
// longer start is expanded, over the few words that share it. Members,
// peers and hashtags are short documents, so they keep starts as long as
// "christopher." (an e-mail address is one word); posts keep the first
// three letters, which bounds the index's growth to about twice the words
// of the text.
func prefixLength(s *schema) int {
	if s == postSchema {
		return 3
	}
	return 12
}

type embedded struct {
	dir     string
	indexes map[string]*bleveIndex
}

type bleveIndex struct {
	// mu is held for reading by every operation and for writing by Rebuild
	// and Close, which replace or drop idx.
	mu   sync.RWMutex
	idx  bleve.Index
	path string
	// m is the current mapping, which a new or rebuilt index gets.
	m *mapping.IndexMappingImpl
	layout

	// unpersisted holds a channel for each batch that is searchable but
	// not yet on disk; Bleve's persisted callback sends its error and
	// closes it.
	pmu         sync.Mutex
	unpersisted map[uint64]chan error
	batches     uint64
}

// write applies a batch: searchable when it returns, on disk once the
// persister has written it (see scorchConfig).
func (bi *bleveIndex) write(b *bleve.Batch) error {
	done := make(chan error, 1)
	bi.pmu.Lock()
	id := bi.batches
	bi.batches++
	bi.unpersisted[id] = done
	bi.pmu.Unlock()
	var once sync.Once
	b.SetPersistedCallback(func(err error) {
		once.Do(func() {
			bi.pmu.Lock()
			delete(bi.unpersisted, id)
			bi.pmu.Unlock()
			done <- err
			close(done)
		})
	})
	if err := bi.idx.Batch(b); err != nil {
		// A batch that failed was not introduced: nothing will persist it.
		bi.pmu.Lock()
		delete(bi.unpersisted, id)
		bi.pmu.Unlock()
		return err
	}
	return nil
}

// persisted waits until every batch written before the call is on disk,
// and reports the first that could not be written.
func (bi *bleveIndex) persisted(ctx context.Context) error {
	bi.pmu.Lock()
	waits := make([]chan error, 0, len(bi.unpersisted))
	for _, ch := range bi.unpersisted {
		waits = append(waits, ch)
	}
	bi.pmu.Unlock()
	var errs []error
	for _, ch := range waits {
		select {
		case err := <-ch:
			errs = append(errs, err)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return errors.Join(errs...)
}

// layout is what the mapping an index was created with holds (Bleve keeps
// it in the index): an index made before the prefix fields is still served,
// the way it was, until a Rebuild recreates it with the current mapping.
type layout struct {
	// starts is the longest word start kept in the prefix fields; 0 for
	// an index without them, whose prefixes are expanded.
	starts int
	// numbersAsText says numbers are kept as sortable text (see
	// sortableNumber), not as Bleve numbers.
	numbersAsText bool
}

// layoutOf reads an index's layout from its mapping.
func layoutOf(idx bleve.Index) layout {
	im, ok := idx.Mapping().(*mapping.IndexMappingImpl)
	if !ok || im.CustomAnalysis == nil || im.CustomAnalysis.Analyzers[prefixAnalyzer] == nil {
		return layout{}
	}
	n, _ := im.CustomAnalysis.TokenFilters[edgeFilter]["max"].(float64)
	return layout{starts: int(n), numbersAsText: true}
}

// OpenEmbedded opens (or creates) the embedded search store in dir.
func OpenEmbedded(dir string) (Store, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("search: embedded folder: %w", err)
	}
	e := &embedded{dir: dir, indexes: map[string]*bleveIndex{}}
	for _, s := range []*schema{memberSchema, hashtagSchema, postSchema, peerSchema} {
		bi, err := openBleve(filepath.Join(dir, s.name+"-"+layoutVersion+".bleve"), s)
		if err != nil {
			_ = e.Close()
			return nil, err
		}
		e.indexes[s.name] = bi
	}
	return e, nil
}

func openBleve(path string, s *schema) (*bleveIndex, error) {
	m, err := bleveMapping(s)
	if err != nil {
		return nil, err
	}
	idx, err := bleve.OpenUsing(path, scorchConfig())
	if errors.Is(err, bleve.ErrorIndexPathDoesNotExist) {
		idx, err = newBleve(path, m)
	}
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("search: open %s: another process has it open (give processes that run apart a shared engine with MEILI_URL): %w", path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("search: open %s: %w", path, err)
	}
	return &bleveIndex{idx: idx, path: path, m: m, layout: layoutOf(idx), unpersisted: map[uint64]chan error{}}, nil
}

// newBleve creates an index with the mapping, then opens it again with
// scorchConfig, which bleve.New does not take.
func newBleve(path string, m mapping.IndexMapping) (bleve.Index, error) {
	idx, err := bleve.New(path, m)
	if err != nil {
		return nil, err
	}
	if err := idx.Close(); err != nil {
		return nil, err
	}
	return bleve.OpenUsing(path, scorchConfig())
}

// scorchConfig is how the embedded engine runs Bleve's scorch, given at
// every open (Bleve keeps the config of an index's creation too).
//
// Batches are safe (Bleve's default): a batch returns once it is
// searchable and its segment is on disk. unsafe_batch (returning before
// the disk, the persister writing behind) loaded a million posts faster,
// but a CI run with it once left a new post unindexed for over 30 s, for
// a reason not found; safe batches are what every earlier run used. Wait
// still waits for each batch's persisted callback, so its contract holds
// in either mode.
//
// bolt_timeout: an index is one process's (its root file is locked); a
// second process gives up after lockWait instead of waiting for ever.
func scorchConfig() map[string]any {
	return map[string]any{"bolt_timeout": lockWait.String()}
}

// lockWait is how long opening an index waits for another process to let
// go of it: long enough for a restart, short enough to say why.
const lockWait = 3 * time.Second

// bleveMapping is the schema as a static Bleve mapping: text fields with
// textAnalyzer and their prefix twins, exact-value (keyword) fields for
// filters and sorts (numbers among them, as sortable text), doc values for
// the sorted ones, and the stored source.
func bleveMapping(s *schema) (*mapping.IndexMappingImpl, error) {
	im := bleve.NewIndexMapping()
	im.ScoringModel = "bm25" // bleve_index_api.BM25Scoring; TF-IDF otherwise
	analyzer := func(filters ...string) map[string]any {
		return map[string]any{
			"type":          custom.Name,
			"char_filters":  []string{asciifolding.Name},
			"tokenizer":     unicode.Name,
			"token_filters": filters,
		}
	}
	if err := im.AddCustomAnalyzer(textAnalyzer, analyzer(lowercase.Name)); err != nil {
		return nil, fmt.Errorf("search: analyzer: %w", err)
	}
	if err := im.AddCustomTokenFilter(edgeFilter, map[string]any{
		"type": edgengram.Name, "min": 1.0, "max": float64(prefixLength(s)),
	}); err != nil {
		return nil, fmt.Errorf("search: analyzer: %w", err)
	}
	if err := im.AddCustomAnalyzer(prefixAnalyzer, analyzer(lowercase.Name, edgeFilter)); err != nil {
		return nil, fmt.Errorf("search: analyzer: %w", err)
	}
	im.DefaultAnalyzer = textAnalyzer
	im.IndexDynamic, im.StoreDynamic, im.DocValuesDynamic = false, false, false

	dm := bleve.NewDocumentStaticMapping()
	// No _all field: every query names its fields, and Bleve would
	// otherwise add an (empty) composite field to every document.
	dm.AddSubDocumentMapping("_all", bleve.NewDocumentDisabledMapping())
	fields := map[string][]*mapping.FieldMapping{}
	for _, f := range s.searchable {
		fm := bleve.NewTextFieldMapping()
		fm.Analyzer = textAnalyzer
		fm.Store, fm.IncludeInAll, fm.IncludeTermVectors, fm.DocValues = false, false, false, false
		pm := bleve.NewTextFieldMapping()
		pm.Name = startsPrefix + f
		pm.Analyzer = prefixAnalyzer
		pm.Store, pm.IncludeInAll, pm.IncludeTermVectors, pm.DocValues = false, false, false, false
		fields[f] = append(fields[f], fm, pm)
	}
	for _, f := range append(append([]string{}, s.filterable...), s.sortable...) {
		name := s.keywordField(f)
		dup := false
		for _, fm := range fields[f] {
			dup = dup || fm.Name == name
		}
		if dup {
			continue
		}
		fm := bleve.NewKeywordFieldMapping()
		fm.Name = name
		fm.Store, fm.IncludeInAll, fm.IncludeTermVectors = false, false, false
		fm.DocValues = has(s.sortable, f)
		fields[f] = append(fields[f], fm)
	}
	src := bleve.NewTextFieldMapping()
	src.Index, src.Store, src.IncludeInAll, src.IncludeTermVectors, src.DocValues = false, true, false, false, false
	fields[sourceField] = append(fields[sourceField], src)
	for path, fms := range fields {
		dm.AddFieldMappingsAt(path, fms...)
	}
	im.DefaultMapping = dm
	if err := im.Validate(); err != nil {
		return nil, fmt.Errorf("search: mapping of %s: %w", s.name, err)
	}
	return im, nil
}

// keywordField is the Bleve field that holds f's exact values.
func (s *schema) keywordField(f string) string {
	if has(s.searchable, f) {
		return keywordPrefix + f
	}
	return f
}

func (e *embedded) Members() Index[Member]   { return index[Member]{memberSchema, e} }
func (e *embedded) Hashtags() Index[Hashtag] { return index[Hashtag]{hashtagSchema, e} }
func (e *embedded) Posts() Index[Post]       { return index[Post]{postSchema, e} }
func (e *embedded) Peers() Index[Peer]       { return index[Peer]{peerSchema, e} }

// closeWait bounds how long Close and Rebuild wait for the persister to
// write what is searchable but not yet on disk.
const closeWait = time.Minute

func (e *embedded) Close() error {
	var errs []error
	for _, bi := range e.indexes {
		bi.mu.Lock()
		if bi.idx != nil {
			errs = append(errs, bi.persistedBefore(closeWait), bi.idx.Close())
			bi.idx = nil
		}
		bi.mu.Unlock()
	}
	return errors.Join(errs...)
}

// persistedBefore waits for the unpersisted batches at most d: Bleve's Close
// does not write them.
func (bi *bleveIndex) persistedBefore(d time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return bi.persisted(ctx)
}

// errClosed is returned by an operation on a closed store.
var errClosed = errors.New("search: store closed")

// with runs fn with the index of s held for reading.
func (e *embedded) with(s *schema, fn func(bi *bleveIndex) error) error {
	return e.indexes[s.name].read(fn)
}

func (bi *bleveIndex) read(fn func(bi *bleveIndex) error) error {
	bi.mu.RLock()
	defer bi.mu.RUnlock()
	if bi.idx == nil {
		return errClosed
	}
	return fn(bi)
}

func (e *embedded) upsert(ctx context.Context, s *schema, ids []string, docs []json.RawMessage) error {
	return e.with(s, func(bi *bleveIndex) error {
		b := bi.idx.NewBatch()
		for i, raw := range docs {
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				return fmt.Errorf("search: %s %s: %w", s.name, ids[i], err)
			}
			m[sourceField] = string(raw)
			if bi.numbersAsText {
				for _, f := range s.numeric {
					if v, ok := m[f].(float64); ok {
						m[f] = sortableNumber(v)
					}
				}
			}
			if err := b.Index(ids[i], m); err != nil {
				return fmt.Errorf("search: index %s %s: %w", s.name, ids[i], err)
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := bi.write(b); err != nil {
			return fmt.Errorf("search: write %s: %w", s.name, err)
		}
		return nil
	})
}

func (e *embedded) delete(ctx context.Context, s *schema, ids []string) error {
	return e.with(s, func(bi *bleveIndex) error {
		b := bi.idx.NewBatch()
		for _, id := range ids {
			b.Delete(id)
		}
		if err := bi.write(b); err != nil {
			return fmt.Errorf("search: delete from %s: %w", s.name, err)
		}
		return nil
	})
}

func (e *embedded) deleteWhere(ctx context.Context, s *schema, f Filter) error {
	return e.with(s, func(bi *bleveIndex) error {
		q := bleveQuery(ctx, bi, s, "", nil, f)
		// Delete a page at a time until nothing matches; the bound stops a
		// loop should a delete not take.
		for range 1_000_000 {
			req := bleve.NewSearchRequestOptions(q, 1000, 0, false)
			res, err := bi.idx.SearchInContext(ctx, req)
			if err != nil {
				return fmt.Errorf("search: delete from %s: %w", s.name, err)
			}
			if len(res.Hits) == 0 {
				return nil
			}
			b := bi.idx.NewBatch()
			for _, h := range res.Hits {
				b.Delete(h.ID)
			}
			if err := bi.write(b); err != nil {
				return fmt.Errorf("search: delete from %s: %w", s.name, err)
			}
		}
		return fmt.Errorf("search: delete from %s did not finish", s.name)
	})
}

func (e *embedded) search(ctx context.Context, s *schema, q Query) (raws []json.RawMessage, total int, err error) {
	err = e.with(s, func(bi *bleveIndex) error {
		bq := bleveQuery(ctx, bi, s, q.Text, q.Fields, q.Filter)
		req := bleve.NewSearchRequestOptions(bq, q.Limit, q.Offset, false)
		// The source is loaded for the page's hits only, after collection.
		req.Fields = []string{sourceField}
		// Ties in score (or in the sort fields) keep the index's order,
		// which a page and the next share. Sorting them by _id as well
		// would load the id of every match, not only of the page's hits.
		var order bsearch.SortOrder
		for _, o := range q.Sort {
			sf := &bsearch.SortField{Field: s.keywordField(o.Field), Desc: o.Desc}
			if bi.numbersAsText {
				sf.Type = bsearch.SortFieldAsString
			}
			order = append(order, sf)
		}
		req.SortByCustom(append(order, &bsearch.SortScore{Desc: true}))
		res, err := bi.idx.SearchInContext(ctx, req)
		if err != nil {
			return fmt.Errorf("search: %s: %w", s.name, err)
		}
		total = int(res.Total)
		for _, h := range res.Hits {
			src, _ := h.Fields[sourceField].(string)
			if src == "" {
				return fmt.Errorf("search: %s: hit %s has no source", s.name, h.ID)
			}
			raws = append(raws, json.RawMessage(src))
		}
		return nil
	})
	return raws, total, err
}

// wait returns once the writes made so far are on disk: they are
// searchable already, when Batch returns.
func (e *embedded) wait(ctx context.Context, s *schema) error {
	return e.with(s, func(bi *bleveIndex) error {
		if err := bi.persisted(ctx); err != nil {
			return fmt.Errorf("search: write %s: %w", s.name, err)
		}
		return nil
	})
}

func (e *embedded) rebuild(ctx context.Context, s *schema) error {
	bi := e.indexes[s.name]
	bi.mu.Lock()
	defer bi.mu.Unlock()
	if bi.idx == nil {
		return errClosed
	}
	// What is dropped need not reach the disk; waiting keeps the persister
	// from writing into a folder being removed.
	_ = bi.persistedBefore(closeWait)
	if err := bi.idx.Close(); err != nil {
		return fmt.Errorf("search: rebuild %s: %w", s.name, err)
	}
	bi.idx = nil
	if err := os.RemoveAll(bi.path); err != nil {
		return fmt.Errorf("search: rebuild %s: %w", s.name, err)
	}
	idx, err := newBleve(bi.path, bi.m)
	if err != nil {
		return fmt.Errorf("search: rebuild %s: %w", s.name, err)
	}
	bi.idx, bi.layout = idx, layoutOf(idx)
	return nil
}

// bleveQuery builds the query of a search: every word of text must match
// one of fields (exactly, with typos, or as a prefix for the last word), and
// the filter must hold.
//
// The filter takes no part in the score: it is one unscored query, which
// Bleve answers from the posting lists' bitmaps (an OR of a user's channels
// is a bitmap union, an AND with the forum an intersection), and the words'
// conjunction then only visits, and scores, the documents that pass it.
//
// Very common words ("the", "you" in a large index) join the filter: they
// must still match, but are not scored. Their BM25 weight is small (a word
// in a tenth of the documents weighs a third of one in a thousandth), and
// scoring them means visiting every document of the forum; as a bitmap
// they cost an intersection. When every word is common, the rarest one is
// still scored, so that the order stays by relevance.
func bleveQuery(ctx context.Context, bi *bleveIndex, s *schema, text string, fields []string, f Filter) query.Query {
	var scored, unscoredWords []query.Query
	if text != "" {
		if len(fields) == 0 {
			fields = s.searchable
		}
		tokens := bi.m.AnalyzerNamed(textAnalyzer).Analyze([]byte(text))
		words := make([]string, len(tokens))
		for i, tok := range tokens {
			words[i] = string(tok.Term)
		}
		common := bi.commonWords(ctx, words, fields)
		rarest := -1
		for i, w := range words {
			q := wordQuery(s, w, i == len(words)-1, fields, bi.starts)
			if common[i] == 0 {
				scored = append(scored, q)
				continue
			}
			unscoredWords = append(unscoredWords, q)
			if rarest < 0 || common[i] < common[rarest] {
				rarest = len(unscoredWords) - 1
			}
		}
		if len(scored) == 0 && rarest >= 0 {
			scored = append(scored, unscoredWords[rarest])
			unscoredWords = append(unscoredWords[:rarest], unscoredWords[rarest+1:]...)
		}
	}
	filter := unscoredWords
	for _, c := range f {
		var anyOf []query.Query
		for _, t := range c {
			var vals []query.Query
			for _, v := range t.Values {
				tq := bleve.NewTermQuery(v)
				tq.SetField(s.keywordField(t.Field))
				vals = append(vals, tq)
			}
			var tq query.Query = bleve.NewDisjunctionQuery(vals...)
			if t.Not {
				bq := bleve.NewBooleanQuery()
				bq.AddMust(bleve.NewMatchAllQuery())
				bq.AddMustNot(vals...)
				tq = bq
			}
			anyOf = append(anyOf, tq)
		}
		filter = append(filter, bleve.NewDisjunctionQuery(anyOf...))
	}
	must := scored
	switch {
	case len(filter) == 1:
		must = append(must, unscored{filter[0]})
	case len(filter) > 1:
		must = append(must, unscored{bleve.NewConjunctionQuery(filter...)})
	}
	switch len(must) {
	case 0:
		return bleve.NewMatchAllQuery()
	case 1:
		return must[0]
	}
	return bleve.NewConjunctionQuery(must...)
}

// Common words: held by at least commonShare of an index's documents, and
// by commonMin of them, so that in a small index every word is scored.
const (
	commonShare = 0.1
	commonMin   = 10_000
)

// commonWords tells, for each word, how many documents hold it in the
// field where it is most frequent (as a start of a word, for the last one,
// when the prefix fields keep it), when that makes it common; 0 otherwise.
func (bi *bleveIndex) commonWords(ctx context.Context, words, fields []string) []uint64 {
	out := make([]uint64, len(words))
	adv, err := bi.idx.Advanced()
	if err != nil {
		return out
	}
	r, err := adv.Reader()
	if err != nil {
		return out
	}
	defer r.Close()
	docs, err := r.DocCount()
	if err != nil || docs < commonMin {
		return out
	}
	least := max(uint64(commonMin), uint64(commonShare*float64(docs)))
	for i, w := range words {
		term, prefix := []byte(w), i == len(words)-1 && utf8.RuneCountInString(w) <= bi.starts
		var most uint64
		for _, f := range fields {
			if prefix {
				f = startsPrefix + f
			}
			tfr, err := r.TermFieldReader(ctx, term, f, false, false, false)
			if err != nil {
				continue
			}
			most = max(most, tfr.Count())
			_ = tfr.Close()
		}
		if most >= least {
			out[i] = most
		}
	}
	return out
}

// unscored runs a query without scoring it: a filter. Bleve then may (and
// does, for a disjunction or conjunction of terms) answer it as one bitmap.
type unscored struct{ q query.Query }

func (u unscored) Searcher(ctx context.Context, i bindex.IndexReader, m mapping.IndexMapping, o bsearch.SearcherOptions) (bsearch.Searcher, error) {
	o.Score, o.Explain, o.IncludeTermVectors = "none", false, false
	return u.q.Searcher(ctx, i, m, o)
}

// sortableNumber writes a number as 16 hexadecimal digits that sort as the
// numbers do: one term a value, where a Bleve number is indexed as sixteen
// (one per precision step, for range queries that no search here makes).
func sortableNumber(v float64) string {
	b := math.Float64bits(v)
	if v >= 0 {
		b ^= 1 << 63
	} else {
		b = ^b
	}
	return fmt.Sprintf("%016x", b)
}

// wordQuery matches one word in any of fields. An exact match scores
// above a typo or a prefix, and earlier fields of the schema above later
// ones, as Meilisearch's typo and attribute rules rank them. starts is the
// longest word start the index keeps as a term.
func wordQuery(s *schema, word string, last bool, fields []string, starts int) query.Query {
	n := utf8.RuneCountInString(word)
	fuzziness := 0
	switch {
	case n >= 9:
		fuzziness = 2
	case n >= 5:
		fuzziness = 1
	}
	ranked := s.searchable
	var anyOf []query.Query
	for _, f := range fields {
		boost := 1.0
		for i, r := range ranked {
			if r == f {
				boost = 1 + float64(len(ranked)-i)/float64(len(ranked))
			}
		}
		tq := bleve.NewTermQuery(word)
		tq.SetField(f)
		tq.SetBoost(3 * boost)
		anyOf = append(anyOf, tq)
		if fuzziness > 0 {
			fq := bleve.NewFuzzyQuery(word)
			fq.SetField(f)
			fq.SetFuzziness(fuzziness)
			// The first letter must be right: people rarely mistype it, and
			// the Levenshtein automaton then walks a sliver of the terms.
			fq.SetPrefix(1)
			fq.SetBoost(boost)
			anyOf = append(anyOf, fq)
		}
		if last {
			var pq query.Query
			if n <= starts {
				// Every start of a word is a term of the prefix twin.
				tq := bleve.NewTermQuery(word)
				tq.SetField(startsPrefix + f)
				tq.SetBoost(boost)
				pq = tq
			} else {
				p := bleve.NewPrefixQuery(word)
				p.SetField(f)
				p.SetBoost(boost)
				pq = p
			}
			anyOf = append(anyOf, pq)
		}
	}
	return bleve.NewDisjunctionQuery(anyOf...)
}

// EmbeddedState is what Settle reports of one embedded index.
type EmbeddedState struct {
	// Segments is the number of segments a search visits.
	Segments int
	// DiskBytes is the size of the index's files.
	DiskBytes int64
}

// Settle waits until the embedded engine has persisted every write and its
// background merging has nothing left to do, and reports each index's state
// by name ("members", "posts"…). After a bulk load the engine goes on
// merging small segments into large ones for a while; a benchmark settles
// first to measure the index a running server has. For another store it
// returns at once, with no states.
func Settle(ctx context.Context, s Store) (map[string]EmbeddedState, error) {
	e, ok := s.(*embedded)
	if !ok {
		return nil, nil
	}
	out := map[string]EmbeddedState{}
	for name, bi := range e.indexes {
		var st EmbeddedState
		err := bi.read(func(bi *bleveIndex) (err error) {
			st, err = bi.settle(ctx)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("search: settle %s: %w", name, err)
		}
		out[name] = st
	}
	return out, nil
}

// settle polls the index's statistics until, for a second, nothing is left
// in memory, no merge runs and the root snapshot stays the same.
func (bi *bleveIndex) settle(ctx context.Context) (EmbeddedState, error) {
	var st EmbeddedState
	var lastEpoch uint64
	for quiet := 0; quiet < 5; {
		m, _ := bi.idx.StatsMap()["index"].(map[string]any)
		n := func(k string) uint64 { v, _ := m[k].(uint64); return v }
		epoch := n("CurRootEpoch")
		if n("TotMemorySegmentsAtRoot") == 0 && n("TotFileMergeZapBeg") == n("TotFileMergeZapEnd") && epoch == lastEpoch {
			quiet++
		} else {
			quiet = 0
		}
		lastEpoch = epoch
		st = EmbeddedState{Segments: int(n("TotFileSegmentsAtRoot") + n("TotMemorySegmentsAtRoot")), DiskBytes: int64(n("CurOnDiskBytes"))}
		select {
		case <-ctx.Done():
			return st, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return st, nil
}
