package search

import (
	"fmt"
	"math"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/char/asciifolding"
	"github.com/blevesearch/bleve/v2/analysis/token/edgengram"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/mapping"
)

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
	// vectorField stores a document's vector (encodeEntry), apart from
	// its source so that a hit never loads it.
	vectorField = "_vec"
	// vectorDimField holds the length of a document's vector as a term, so
	// that a Vector query counts the documents that pass its filter and
	// have a vector of its length from the posting lists alone, without
	// reading their ids (nearestUnfiltered).
	vectorDimField = "_vecdim"
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
	// vectors says the index stores vectors. One created before it kept
	// them keeps none: its documents are found by words only, until a
	// Rebuild (agora projector rebuild search) recreates it.
	vectors bool
	// vectorDims says the documents with a vector hold vectorDimField. An
	// index made before it still answers Vector queries, from the ids its
	// filter admits, until a Rebuild.
	vectorDims bool
}

// layoutOf reads an index's layout from its mapping.
func layoutOf(idx bleve.Index) layout {
	im, ok := idx.Mapping().(*mapping.IndexMappingImpl)
	if !ok {
		return layout{}
	}
	var l layout
	if im.DefaultMapping != nil {
		_, l.vectors = im.DefaultMapping.Properties[vectorField]
		_, l.vectorDims = im.DefaultMapping.Properties[vectorDimField]
	}
	if im.CustomAnalysis == nil || im.CustomAnalysis.Analyzers[prefixAnalyzer] == nil {
		return l
	}
	n, _ := im.CustomAnalysis.TokenFilters[edgeFilter]["max"].(float64)
	l.starts, l.numbersAsText = int(n), true
	return l
}

// bleveMapping is the schema as a static Bleve mapping: text fields with
// textAnalyzer and their prefix twins, exact-value (keyword) fields for
// filters and sorts (numbers among them, as sortable text), doc values for
// the sorted ones, and the stored source (and vector).
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
	stored := func() *mapping.FieldMapping {
		fm := bleve.NewTextFieldMapping()
		fm.Index, fm.Store, fm.IncludeInAll, fm.IncludeTermVectors, fm.DocValues = false, true, false, false, false
		return fm
	}
	fields[sourceField] = append(fields[sourceField], stored())
	if s.vectors {
		fields[vectorField] = append(fields[vectorField], stored())
		fm := bleve.NewKeywordFieldMapping()
		fm.Store, fm.IncludeInAll, fm.IncludeTermVectors, fm.DocValues = false, false, false, false
		fields[vectorDimField] = append(fields[vectorDimField], fm)
	}
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
