package search

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"
	bindex "github.com/blevesearch/bleve_index_api"
)

// The embedded engine keeps each document's vector twice: on disk in a
// stored field of its own (vectorField), written in the same batch as the
// document, so that an upsert or a delete changes both or neither; and in
// memory (vectorSet), where a Vector query scores its candidates. Hits are
// read from the source field alone, so they never load a vector. Bleve's
// own vector fields need a build with FAISS (cgo), which Agora's single
// binary does without.

// vectorSet is an index's vectors by document id, of unit length (the
// cosine similarity is then a dot product), each with how new its document
// is (the schema's newest field), which caps a query's candidates. It is
// loaded when the index opens and follows every write; 100 dimensions take
// 400 bytes a post, 40 MB for 100,000 posts.
type vectorSet struct {
	mu   sync.RWMutex
	byID map[string]vectorEntry
}

// vectorEntry is a document's unit vector and its newest field's value.
type vectorEntry struct {
	v     []float32
	newer float64
}

func newVectorSet() *vectorSet { return &vectorSet{byID: map[string]vectorEntry{}} }

// set records the documents' vectors; a nil one drops the document's.
func (vs *vectorSet) set(ids []string, entries []vectorEntry) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	for i, id := range ids {
		if entries[i].v == nil {
			delete(vs.byID, id)
		} else {
			vs.byID[id] = entries[i]
		}
	}
}

func (vs *vectorSet) drop(ids ...string) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	for _, id := range ids {
		delete(vs.byID, id)
	}
}

// encodeEntry is how vectorField stores an entry: newer as a little-endian
// float64, then the vector (encodeVector).
func encodeEntry(e vectorEntry) string {
	b := binary.LittleEndian.AppendUint64(nil, math.Float64bits(e.newer))
	return string(append(b, encodeVector(e.v)...))
}

// decodeEntry reads what encodeEntry wrote.
func decodeEntry(b []byte) vectorEntry {
	if len(b) < 8 {
		return vectorEntry{}
	}
	return vectorEntry{newer: math.Float64frombits(binary.LittleEndian.Uint64(b)), v: decodeVector(b[8:])}
}

// loadVectors reads every stored vector of an index, when it opens.
func loadVectors(idx bleve.Index) (*vectorSet, error) {
	vs := newVectorSet()
	r, err := reader(idx)
	if err != nil {
		return nil, err
	}
	defer r.Close() //nolint:errcheck
	all, err := r.DocIDReaderAll()
	if err != nil {
		return nil, err
	}
	defer all.Close() //nolint:errcheck
	for {
		iid, err := all.Next()
		if err != nil || iid == nil {
			return vs, err
		}
		id, err := r.ExternalID(iid)
		if err != nil {
			return nil, err
		}
		doc, err := r.Document(id)
		if err != nil {
			return nil, err
		}
		if doc == nil {
			continue
		}
		doc.VisitFields(func(f bindex.Field) {
			if f.Name() == vectorField {
				if e := decodeEntry(f.Value()); e.v != nil {
					vs.byID[id] = e
				}
			}
		})
	}
}

func reader(idx bleve.Index) (bindex.IndexReader, error) {
	adv, err := idx.Advanced()
	if err != nil {
		return nil, err
	}
	return adv.Reader()
}

// nearest answers a Vector query. The filter picks the candidates in
// Bleve, unscored as every filter (bleveQuery); its matches are walked
// directly, without a collector, as only their ids are needed (a
// collector would also order and keep them). The newest
// MaxVectorCandidates of those with a vector are scored from memory, and
// the page's sources are then read by id. A vector of another dimension
// than the query's (an embedding model changed, the index not yet rebuilt)
// is no candidate.
func (bi *bleveIndex) nearest(ctx context.Context, s *schema, q Query) ([]json.RawMessage, int, error) {
	ids, err := bi.matching(ctx, s, q.Filter)
	if err != nil {
		return nil, 0, fmt.Errorf("search: %s: %w", s.name, err)
	}
	// A candidate is small, as sorting moves it: its id and vector are
	// found again through i.
	type candidate struct {
		i     int32
		score float32
		newer float64
	}
	newest := func(a, b candidate) int { return cmp.Compare(b.newer, a.newer) }
	qv := unit(q.Vector)
	candidates := make([]candidate, 0, len(ids))
	vectors := make([][]float32, len(ids))
	bi.vectors.mu.RLock()
	for i, id := range ids {
		if e, ok := bi.vectors.byID[id]; ok && len(e.v) == len(qv) {
			candidates = append(candidates, candidate{i: int32(i), newer: e.newer})
			vectors[i] = e.v
		}
	}
	bi.vectors.mu.RUnlock()
	if len(candidates) > MaxVectorCandidates {
		slices.SortFunc(candidates, newest)
		candidates = candidates[:MaxVectorCandidates]
	}
	for j, c := range candidates {
		candidates[j].score = dot(vectors[c.i], qv)
	}
	// Of two as near, the newer first; then by id, so that pages agree.
	slices.SortFunc(candidates, func(a, b candidate) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		if c := newest(a, b); c != 0 {
			return c
		}
		return cmp.Compare(ids[a.i], ids[b.i])
	})
	page := candidates[min(q.Offset, len(candidates)):min(q.Offset+q.Limit, len(candidates))]
	if len(page) == 0 {
		return nil, len(candidates), nil
	}
	pageIDs := make([]string, len(page))
	for j, c := range page {
		pageIDs[j] = ids[c.i]
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDocIDQuery(pageIDs), len(pageIDs), 0, false)
	req.Fields = []string{sourceField}
	res, err := bi.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, 0, fmt.Errorf("search: %s: %w", s.name, err)
	}
	src := make(map[string]string, len(res.Hits))
	for _, h := range res.Hits {
		src[h.ID], _ = h.Fields[sourceField].(string)
	}
	raws := make([]json.RawMessage, 0, len(pageIDs))
	for _, id := range pageIDs {
		// A document deleted since the first request is left out.
		if src[id] != "" {
			raws = append(raws, json.RawMessage(src[id]))
		}
	}
	return raws, len(candidates), nil
}

// matching lists the ids of the documents that pass the filter.
func (bi *bleveIndex) matching(ctx context.Context, s *schema, f Filter) ([]string, error) {
	r, err := reader(bi.idx)
	if err != nil {
		return nil, err
	}
	defer r.Close() //nolint:errcheck
	searcher, err := bleveQuery(ctx, bi, s, "", nil, false, f).Searcher(ctx, r, bi.idx.Mapping(), bsearch.SearcherOptions{Score: "none"})
	if err != nil {
		return nil, err
	}
	defer searcher.Close() //nolint:errcheck
	sctx := &bsearch.SearchContext{DocumentMatchPool: bsearch.NewDocumentMatchPool(searcher.DocumentMatchPoolSize(), 0), IndexReader: r}
	var ids []string
	for n := 0; ; n++ {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		m, err := searcher.Next(sctx)
		if err != nil || m == nil {
			return ids, err
		}
		id, err := r.ExternalID(m.IndexInternalID)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
		sctx.DocumentMatchPool.Put(m)
	}
}
