package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bindex "github.com/blevesearch/bleve_index_api"
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
	// starts is the longest word start idx keeps in its prefix fields, 0
	// for an index made before it had them.
	starts int
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
	idx, err := bleve.Open(path)
	if errors.Is(err, bleve.ErrorIndexPathDoesNotExist) {
		idx, err = bleve.New(path, m)
	}
	if err != nil {
		return nil, fmt.Errorf("search: open %s: %w", path, err)
	}
	return &bleveIndex{idx: idx, path: path, m: m, starts: startsOf(idx)}, nil
}

// startsOf reads the longest word start kept by the prefix fields from the
// mapping idx was created with (Bleve keeps it in the index), 0 when it
// has none.
func startsOf(idx bleve.Index) int {
	im, ok := idx.Mapping().(*mapping.IndexMappingImpl)
	if !ok || im.CustomAnalysis == nil || im.CustomAnalysis.Analyzers[prefixAnalyzer] == nil {
		return 0
	}
	n, _ := im.CustomAnalysis.TokenFilters[edgeFilter]["max"].(float64)
	return int(n)
}

// bleveMapping is the schema as a static Bleve mapping: text fields with
// textAnalyzer and their prefix twins, exact-value (keyword) fields for
// filters and sorts, numbers with doc values, and the stored source.
func bleveMapping(s *schema) (*mapping.IndexMappingImpl, error) {
	im := bleve.NewIndexMapping()
	im.ScoringModel = "bm25" // bleve_index_api.BM25Scoring; TF-IDF otherwise
	text := map[string]any{
		"type":          custom.Name,
		"char_filters":  []string{asciifolding.Name},
		"tokenizer":     unicode.Name,
		"token_filters": []string{lowercase.Name},
	}
	if err := im.AddCustomAnalyzer(textAnalyzer, text); err != nil {
		return nil, fmt.Errorf("search: analyzer: %w", err)
	}
	if err := im.AddCustomTokenFilter(edgeFilter, map[string]any{
		"type": edgengram.Name, "min": 1.0, "max": float64(prefixLength(s)),
	}); err != nil {
		return nil, fmt.Errorf("search: analyzer: %w", err)
	}
	text["token_filters"] = []string{lowercase.Name, edgeFilter}
	if err := im.AddCustomAnalyzer(prefixAnalyzer, text); err != nil {
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
		if has(s.numeric, f) {
			fm := bleve.NewNumericFieldMapping()
			fm.Store, fm.IncludeInAll, fm.DocValues = false, false, true
			fields[f] = append(fields[f], fm)
			continue
		}
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

func (e *embedded) Close() error {
	var errs []error
	for _, bi := range e.indexes {
		bi.mu.Lock()
		if bi.idx != nil {
			errs = append(errs, bi.idx.Close())
			bi.idx = nil
		}
		bi.mu.Unlock()
	}
	return errors.Join(errs...)
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
			if err := b.Index(ids[i], m); err != nil {
				return fmt.Errorf("search: index %s %s: %w", s.name, ids[i], err)
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := bi.idx.Batch(b); err != nil {
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
		if err := bi.idx.Batch(b); err != nil {
			return fmt.Errorf("search: delete from %s: %w", s.name, err)
		}
		return nil
	})
}

func (e *embedded) deleteWhere(ctx context.Context, s *schema, f Filter) error {
	return e.with(s, func(bi *bleveIndex) error {
		q := bleveQuery(bi, s, "", nil, f)
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
			if err := bi.idx.Batch(b); err != nil {
				return fmt.Errorf("search: delete from %s: %w", s.name, err)
			}
		}
		return fmt.Errorf("search: delete from %s did not finish", s.name)
	})
}

func (e *embedded) search(ctx context.Context, s *schema, q Query) (raws []json.RawMessage, total int, err error) {
	err = e.with(s, func(bi *bleveIndex) error {
		bq := bleveQuery(bi, s, q.Text, q.Fields, q.Filter)
		req := bleve.NewSearchRequestOptions(bq, q.Limit, q.Offset, false)
		// The source is loaded for the page's hits only, after collection.
		req.Fields = []string{sourceField}
		// Ties in score (or in the sort fields) keep the index's order,
		// which a page and the next share. Sorting them by _id as well
		// would load the id of every match, not only of the page's hits.
		var order []string
		for _, o := range q.Sort {
			f := s.keywordField(o.Field)
			if o.Desc {
				f = "-" + f
			}
			order = append(order, f)
		}
		req.SortBy(append(order, "-_score"))
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

// wait has nothing to wait for: Batch returns once the batch is searchable.
func (e *embedded) wait(ctx context.Context, s *schema) error {
	return e.with(s, func(*bleveIndex) error { return nil })
}

func (e *embedded) rebuild(ctx context.Context, s *schema) error {
	bi := e.indexes[s.name]
	bi.mu.Lock()
	defer bi.mu.Unlock()
	if bi.idx == nil {
		return errClosed
	}
	if err := bi.idx.Close(); err != nil {
		return fmt.Errorf("search: rebuild %s: %w", s.name, err)
	}
	bi.idx = nil
	if err := os.RemoveAll(bi.path); err != nil {
		return fmt.Errorf("search: rebuild %s: %w", s.name, err)
	}
	idx, err := bleve.New(bi.path, bi.m)
	if err != nil {
		return fmt.Errorf("search: rebuild %s: %w", s.name, err)
	}
	bi.idx, bi.starts = idx, startsOf(idx)
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
func bleveQuery(bi *bleveIndex, s *schema, text string, fields []string, f Filter) query.Query {
	var must []query.Query
	if text != "" {
		if len(fields) == 0 {
			fields = s.searchable
		}
		tokens := bi.m.AnalyzerNamed(textAnalyzer).Analyze([]byte(text))
		for i, tok := range tokens {
			must = append(must, wordQuery(s, string(tok.Term), i == len(tokens)-1, fields, bi.starts))
		}
	}
	var clauses []query.Query
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
		clauses = append(clauses, bleve.NewDisjunctionQuery(anyOf...))
	}
	switch {
	case len(clauses) == 1:
		must = append(must, unscored{clauses[0]})
	case len(clauses) > 1:
		must = append(must, unscored{bleve.NewConjunctionQuery(clauses...)})
	}
	switch len(must) {
	case 0:
		return bleve.NewMatchAllQuery()
	case 1:
		return must[0]
	}
	return bleve.NewConjunctionQuery(must...)
}

// unscored runs a query without scoring it: a filter. Bleve then may (and
// does, for a disjunction or conjunction of terms) answer it as one bitmap.
type unscored struct{ q query.Query }

func (u unscored) Searcher(ctx context.Context, i bindex.IndexReader, m mapping.IndexMapping, o bsearch.SearcherOptions) (bsearch.Searcher, error) {
	o.Score, o.Explain, o.IncludeTermVectors = "none", false, false
	return u.q.Searcher(ctx, i, m, o)
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
	if os.Getenv("XMERGE") != "" {
		if adv, _ := bi.idx.Advanced(); adv != nil {
			if err := adv.(*scorch.Scorch).ForceMerge(ctx, nil); err != nil {
				return EmbeddedState{}, err
			}
		}
	}
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
