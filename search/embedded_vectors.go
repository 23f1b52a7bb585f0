package search

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
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
// cosine similarity is then a dot product). It is loaded when the index
// opens and follows every write; 100 dimensions take 400 bytes a post,
// 40 MB for 100,000 posts.
type vectorSet struct {
	mu   sync.RWMutex
	byID map[string][]float32
}

func newVectorSet() *vectorSet { return &vectorSet{byID: map[string][]float32{}} }

// set records the documents' vectors; a nil one drops the document's.
func (vs *vectorSet) set(ids []string, vectors [][]float32) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	for i, id := range ids {
		if vectors[i] == nil {
			delete(vs.byID, id)
		} else {
			vs.byID[id] = vectors[i]
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

// loadVectors reads every stored vector of an index, when it opens.
func loadVectors(idx bleve.Index) (*vectorSet, error) {
	vs := newVectorSet()
	adv, err := idx.Advanced()
	if err != nil {
		return nil, err
	}
	r, err := adv.Reader()
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
		if err != nil {
			return nil, err
		}
		if iid == nil {
			return vs, nil
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
				vs.byID[id] = decodeVector(f.Value())
			}
		})
	}
}

// nearest answers a Vector query. The filter picks the candidates in
// Bleve, unscored as every filter (bleveQuery), the newest
// MaxVectorCandidates of them; their vectors are scored from memory, and
// the page's sources are then read by id. A vector of another dimension
// than the query's (an embedding model changed, the index not yet rebuilt)
// is no candidate.
func (bi *bleveIndex) nearest(ctx context.Context, s *schema, q Query) ([]json.RawMessage, int, error) {
	req := bleve.NewSearchRequestOptions(bleveQuery(ctx, bi, s, "", nil, false, q.Filter), MaxVectorCandidates, 0, false)
	req.SortByCustom(bsearch.SortOrder{bi.sortField(s, Sort{Field: s.newest, Desc: true})})
	res, err := bi.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, 0, fmt.Errorf("search: %s: %w", s.name, err)
	}
	type scored struct {
		id    string
		score float32
	}
	qv := unit(q.Vector)
	candidates := make([]scored, 0, len(res.Hits))
	bi.vectors.mu.RLock()
	for _, h := range res.Hits {
		if v := bi.vectors.byID[h.ID]; len(v) == len(qv) {
			candidates = append(candidates, scored{h.ID, dot(v, qv)})
		}
	}
	bi.vectors.mu.RUnlock()
	// Stable: of two as near, the newer first.
	slices.SortStableFunc(candidates, func(a, b scored) int { return cmp.Compare(b.score, a.score) })
	page := candidates[min(q.Offset, len(candidates)):min(q.Offset+q.Limit, len(candidates))]
	if len(page) == 0 {
		return nil, len(candidates), nil
	}
	ids := make([]string, len(page))
	for i, c := range page {
		ids[i] = c.id
	}
	req = bleve.NewSearchRequestOptions(bleve.NewDocIDQuery(ids), len(ids), 0, false)
	req.Fields = []string{sourceField}
	res, err = bi.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, 0, fmt.Errorf("search: %s: %w", s.name, err)
	}
	src := make(map[string]string, len(res.Hits))
	for _, h := range res.Hits {
		src[h.ID], _ = h.Fields[sourceField].(string)
	}
	raws := make([]json.RawMessage, 0, len(ids))
	for _, id := range ids {
		// A document deleted since the first request is left out.
		if src[id] != "" {
			raws = append(raws, json.RawMessage(src[id]))
		}
	}
	return raws, len(candidates), nil
}
