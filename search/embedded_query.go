package search

import (
	"context"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bindex "github.com/blevesearch/bleve_index_api"

	"agora/search/words"
)

func (e *embedded) search(ctx context.Context, s *schema, q Query) (raws []json.RawMessage, total int, err error) {
	err = e.with(s, func(bi *bleveIndex) error {
		if len(q.Vector) > 0 {
			raws, total, err = bi.nearest(ctx, s, q)
			return err
		}
		bq := bleveQuery(ctx, bi, s, q.Text, q.Fields, q.AnyWord, q.Filter)
		req := bleve.NewSearchRequestOptions(bq, q.Limit, q.Offset, false)
		// The source is loaded for the page's hits only, after collection.
		req.Fields = []string{sourceField}
		// Ties in score (or in the sort fields) keep the index's order,
		// which a page and the next share. Sorting them by _id as well
		// would load the id of every match, not only of the page's hits.
		var order bsearch.SortOrder
		for _, o := range q.Sort {
			order = append(order, bi.sortField(s, o))
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

// allPage is how many documents all reads at a time.
const allPage = 500

// all pages through every document by id. Each page is a search of its
// own, so a long read does not hold the index against writes throughout.
func (e *embedded) all(ctx context.Context, s *schema, fn func(json.RawMessage) error) error {
	var after []string
	for {
		var raws []json.RawMessage
		err := e.with(s, func(bi *bleveIndex) error {
			req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), allPage, 0, false)
			req.Fields = []string{sourceField}
			req.SortBy([]string{"_id"})
			req.SearchAfter = after
			res, err := bi.idx.SearchInContext(ctx, req)
			if err != nil {
				return fmt.Errorf("search: %s: %w", s.name, err)
			}
			for _, h := range res.Hits {
				src, _ := h.Fields[sourceField].(string)
				if src == "" {
					return fmt.Errorf("search: %s: document %s has no source", s.name, h.ID)
				}
				raws = append(raws, json.RawMessage(src))
				after = []string{h.ID}
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, r := range raws {
			if err := fn(r); err != nil {
				return err
			}
		}
		if len(raws) < allPage {
			return nil
		}
	}
}

// sortField is the Bleve sort of one Sort.
func (bi *bleveIndex) sortField(s *schema, o Sort) *bsearch.SortField {
	sf := &bsearch.SortField{Field: s.keywordField(o.Field), Desc: o.Desc}
	if bi.numbersAsText {
		sf.Type = bsearch.SortFieldAsString
	}
	return sf
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
//
// With anyWord, the words are alternatives (a disjunction, scored as the
// sum of those that match), each matched as a word start too from
// anyWordStem letters; a common word would only add every document of
// the forum to the candidates, so it is dropped instead of filtering.
func bleveQuery(ctx context.Context, bi *bleveIndex, s *schema, text string, fields []string, anyWord bool, f Filter) query.Query {
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
			prefix := i == len(words)-1 || anyWord && utf8.RuneCountInString(w) >= anyWordStem
			q := wordQuery(s, w, prefix, fields, bi.starts)
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
		if anyWord {
			unscoredWords = nil
			if len(scored) > 1 {
				scored = []query.Query{bleve.NewDisjunctionQuery(scored...)}
			}
		}
	}
	filter := unscoredWords
	// A clause that is one Not term alone ("kind is none of these") is
	// excluded from the rest of the query rather than matched as every
	// document but those: as its own clause it walks the whole index (a
	// match-all) at every step of the conjunction, which at 100,000 posts
	// of one forum was a tenth of an AI search's retrieval.
	var excluded []query.Query
	for _, c := range f {
		var anyOf []query.Query
		for _, t := range c {
			var vals []query.Query
			for _, v := range t.Values {
				tq := bleve.NewTermQuery(v)
				tq.SetField(s.keywordField(t.Field))
				vals = append(vals, tq)
			}
			if t.Not && len(c) == 1 {
				excluded = append(excluded, vals...)
				continue
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
		if len(anyOf) > 0 {
			filter = append(filter, bleve.NewDisjunctionQuery(anyOf...))
		}
	}
	must := scored
	switch {
	case len(filter) == 1:
		must = append(must, unscored{filter[0]})
	case len(filter) > 1:
		must = append(must, unscored{bleve.NewConjunctionQuery(filter...)})
	}
	var q query.Query
	switch len(must) {
	case 0:
		q = bleve.NewMatchAllQuery()
	case 1:
		q = must[0]
	default:
		q = bleve.NewConjunctionQuery(must...)
	}
	if len(excluded) == 0 {
		return q
	}
	bq := bleve.NewBooleanQuery()
	bq.AddMust(q)
	bq.AddMustNot(excluded...)
	return bq
}

// anyWordStem is the shortest word an AnyWord search also matches as the
// start of longer words: shorter ones ("ai", "ux", "sql") would match
// unrelated words.
const anyWordStem = 4

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

// wordQuery matches one word in any of fields. An exact match scores
// above a typo or a prefix, and earlier fields of the schema above later
// ones, as Meilisearch's typo and attribute rules rank them. starts is the
// longest word start the index keeps as a term.
func wordQuery(s *schema, word string, last bool, fields []string, starts int) query.Query {
	n := utf8.RuneCountInString(word)
	fuzziness := words.Typos(word)
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
