package search

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"
	bindex "github.com/blevesearch/bleve_index_api"

	"agora/search/hnsw"
)

// The embedded engine keeps each document's vector twice: on disk in a
// stored field of its own (vectorField), written in the same batch as the
// document, so that an upsert or a delete changes both or neither; and in
// memory, in a nearest-neighbour graph (search/hnsw) a Vector query walks.
// Hits are read from the source field alone, so they never load a vector.
// Bleve's own vector fields need a build with FAISS (cgo), which Agora's
// single binary does without.
//
// The graph is built again from the stored vectors when the index opens,
// on every CPU: cmd/bench -only search-vectors prints what that costs
// (the build time at 100,000 and 1,000,000 vectors of 384 dimensions).
// Storing the graph would make the open faster and is not done yet: a
// graph on disk must follow the batches exactly, or a crash between the
// two would bring back a deleted post.

// vectorSet is an index's vectors: a graph per dimension (a vector of
// another dimension than a query's, as when the embedding model changed
// and the index was not yet rebuilt, is no candidate), and each
// document's newest field's value, which orders two hits as near.
type vectorSet struct {
	// wmu orders the writes, so that two batches that change one document
	// leave the graph as the index: the last one wins.
	wmu sync.Mutex
	// mu guards the maps; the graphs take their own locks, so that a walk
	// runs while a batch is linked.
	mu     sync.RWMutex
	newer  map[string]float64
	dimOf  map[string]int
	graphs map[int]*hnsw.Graph
}

// vectorEntry is a document's unit vector and its newest field's value.
type vectorEntry struct {
	v     []float32
	newer float64
}

func newVectorSet() *vectorSet {
	return &vectorSet{newer: map[string]float64{}, dimOf: map[string]int{}, graphs: map[int]*hnsw.Graph{}}
}

// graphSeed makes the graphs reproducible: the same documents give the
// same graph, and so the same hits.
const graphSeed = 0x61676f7261

// set records the documents' vectors; a nil one drops the document's. The
// batch's vectors are linked in parallel (hnsw.Graph.AddAll); of a
// document given twice, the last entry counts.
func (vs *vectorSet) set(ids []string, entries []vectorEntry) {
	vs.wmu.Lock()
	defer vs.wmu.Unlock()
	last := make(map[string]int, len(ids))
	for i, id := range ids {
		last[id] = i
	}
	add := map[*hnsw.Graph][]int{}
	vs.mu.Lock()
	for i, id := range ids {
		if last[id] != i {
			continue
		}
		e := entries[i]
		if d, ok := vs.dimOf[id]; ok && (e.v == nil || d != len(e.v)) {
			vs.graphs[d].Delete(id)
			delete(vs.dimOf, id)
			delete(vs.newer, id)
		}
		if e.v == nil {
			continue
		}
		g := vs.graphs[len(e.v)]
		if g == nil {
			g = hnsw.New(len(e.v), 0, 0, graphSeed)
			vs.graphs[len(e.v)] = g
		}
		vs.dimOf[id], vs.newer[id] = len(e.v), e.newer
		add[g] = append(add[g], i)
	}
	vs.mu.Unlock()
	for g, is := range add {
		keys, vectors := make([]string, len(is)), make([][]float32, len(is))
		for j, i := range is {
			keys[j], vectors[j] = ids[i], entries[i].v
		}
		g.AddAll(keys, vectors)
	}
	vs.compact()
}

// compact replaces a graph that holds more tombstones (deleted vectors and
// the old vectors of edits) than vectors, and at least compactMin, by one
// built from its live vectors: the tombstones cost memory and make walks
// longer. The writes wait for it (wmu is held), the queries walk the old
// graph meanwhile.
func (vs *vectorSet) compact() {
	vs.mu.RLock()
	var stale []*hnsw.Graph
	for _, g := range vs.graphs {
		if t := g.Tombstones(); t >= compactMin && t > g.Len() {
			stale = append(stale, g)
		}
	}
	vs.mu.RUnlock()
	for _, g := range stale {
		fresh := hnsw.New(g.Dim(), 0, 0, graphSeed)
		fresh.AddAll(g.Live())
		vs.mu.Lock()
		vs.graphs[g.Dim()] = fresh
		vs.mu.Unlock()
	}
}

// compactMin keeps a small graph from being rebuilt often; a variable for
// the tests.
var compactMin = 10_000

func (vs *vectorSet) drop(ids ...string) {
	vs.wmu.Lock()
	defer vs.wmu.Unlock()
	vs.mu.Lock()
	for _, id := range ids {
		if d, ok := vs.dimOf[id]; ok {
			vs.graphs[d].Delete(id)
			delete(vs.dimOf, id)
			delete(vs.newer, id)
		}
	}
	vs.mu.Unlock()
	vs.compact()
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

// loadVectors reads every stored vector of an index, when it opens, and
// builds the graphs from them.
func loadVectors(idx bleve.Index) (*vectorSet, error) {
	vs := newVectorSet()
	var ids []string
	var entries []vectorEntry
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
		if err != nil {
			return nil, err
		}
		if iid == nil {
			vs.set(ids, entries)
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
				if e := decodeEntry(f.Value()); e.v != nil {
					ids, entries = append(ids, id), append(entries, e)
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

// nearest answers a Vector query. When the filter admits most of the
// graph's vectors (nearestUnfiltered), the graph is walked without it and
// only the nearest candidates are checked against it. Otherwise the
// filter picks the candidates in Bleve, unscored as every filter
// (bleveQuery); its matches are walked directly, without a collector, as
// only their ids are needed (a collector would also order and keep
// them). When they are few (exactBelow), each candidate is scored;
// otherwise the graph is walked for the nearest that pass the filter.
// The page's sources are then read by id.
func (bi *bleveIndex) nearest(ctx context.Context, s *schema, q Query) ([]json.RawMessage, int, error) {
	qv := unit(q.Vector)
	bi.vectors.mu.RLock()
	g := bi.vectors.graphs[len(qv)]
	bi.vectors.mu.RUnlock()
	if g == nil {
		return nil, 0, nil
	}
	k := q.Offset + q.Limit
	hits, total, ok, err := bi.nearestUnfiltered(ctx, s, q.Filter, g, qv, k)
	if err != nil {
		return nil, 0, fmt.Errorf("search: %s: %w", s.name, err)
	}
	if !ok {
		if hits, total, err = bi.nearestAmong(ctx, s, q.Filter, g, qv, k); err != nil {
			return nil, 0, fmt.Errorf("search: %s: %w", s.name, err)
		}
	}
	// Of two as near, the newer first; then by id, so that pages agree.
	bi.vectors.mu.RLock()
	newer := make(map[string]float64, len(hits))
	for _, h := range hits {
		newer[h.Key] = bi.vectors.newer[h.Key]
	}
	bi.vectors.mu.RUnlock()
	slices.SortFunc(hits, func(a, b hnsw.Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(newer[b.Key], newer[a.Key]); c != 0 {
			return c
		}
		return cmp.Compare(a.Key, b.Key)
	})
	page := hits[min(q.Offset, len(hits)):min(q.Offset+q.Limit, len(hits))]
	if len(page) == 0 {
		return nil, total, nil
	}
	pageIDs := make([]string, len(page))
	for j, h := range page {
		pageIDs[j] = h.Key
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
	return raws, total, nil
}

// nearestAmong is the k nearest of the vectors the filter admits, and
// how many it admits, from the admitted documents' ids.
func (bi *bleveIndex) nearestAmong(ctx context.Context, s *schema, f Filter, g *hnsw.Graph, qv []float32, k int) ([]hnsw.Hit, int, error) {
	ids, err := bi.matching(ctx, s, f)
	if err != nil {
		return nil, 0, err
	}
	among := g.Among(ids)
	if exactBelow(among.Len(), g.Len()) {
		return g.Exact(qv, k, among), among.Len(), nil
	}
	// The walk goes through the vectors the filter leaves out too, so it
	// meets fewer admitted ones than an unfiltered walk meets vectors: ef
	// grows with 1/share, at most twice (below a twentieth, exactBelow
	// scores exactly). Without it a walk of a query near a cluster the
	// filter leaves out kept 0.93 of the exact ten in one CI run.
	ef := hnsw.EF(g.Len())
	ef = max(k, ef*min(2*among.Len(), g.Len())/max(1, among.Len()))
	hits := g.Search(qv, k, ef, among)
	// A walk meets few of a small set's members; it is then scored as a
	// whole.
	if len(hits) < min(k, among.Len()) {
		hits = g.Exact(qv, k, among)
	}
	return hits, among.Len(), nil
}

// nearestUnfiltered answers a Vector query whose filter admits at least
// half of the graph's vectors (ok false otherwise). Listing the admitted
// ids then costs the most of the query: at 100,000 posts of one forum,
// reading each id from Bleve's stored fields and looking it up in the
// graph took 33 ms of an AI search's 80, the walk itself 1.5 ms. Instead
// the graph is walked unfiltered for enough candidates that about twice
// k of them pass, and only those are checked against the filter, by id.
// The walk's recall is then that of an unfiltered walk with a larger ef.
// Total, the vectors the filter admits, is counted from the posting
// lists: the filter and the vector's length (vectorDimField) as one
// unscored query. When fewer than k candidates pass (the admitted
// documents are the far ones), ok is false and the filtered path answers.
//
// A per-segment map from Bleve's document numbers to graph nodes would
// also spare the id reads, but must follow Bleve's segment merges; the
// count and the check by id need nothing kept beside the index.
func (bi *bleveIndex) nearestUnfiltered(ctx context.Context, s *schema, f Filter, g *hnsw.Graph, qv []float32, k int) (hits []hnsw.Hit, total int, ok bool, err error) {
	if !bi.layout.vectorDims {
		return nil, 0, false, nil
	}
	f = append(slices.Clip(f), In(vectorDimField, strconv.Itoa(g.Dim())))
	filter := bleveQuery(ctx, bi, s, "", nil, false, f)
	creq := bleve.NewSearchRequestOptions(filter, 0, 0, false)
	creq.Score = "none"
	count, err := bi.idx.SearchInContext(ctx, creq)
	if err != nil {
		return nil, 0, false, err
	}
	n, size := int(count.Total), g.Len()
	if n == 0 {
		return nil, 0, true, nil
	}
	// A filter admitting few of the vectors is better walked among them;
	// few vectors at all are better scored exactly (exactBelow): the
	// filtered path does both.
	if n*2 < size || exactBelow(n, size) {
		return nil, 0, false, nil
	}
	c := min(size, max(hnsw.EF(size), 2*k*size/n))
	cands := g.Search(qv, c, c, nil)
	keys := make([]string, len(cands))
	for i, h := range cands {
		keys[i] = h.Key
	}
	req := bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(bleve.NewDocIDQuery(keys), filter), len(keys), 0, false)
	req.Score = "none"
	res, err := bi.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, 0, false, err
	}
	pass := make(map[string]bool, len(res.Hits))
	for _, h := range res.Hits {
		pass[h.ID] = true
	}
	for _, h := range cands {
		if len(hits) == k {
			break
		}
		if pass[h.Key] {
			hits = append(hits, h)
		}
	}
	if len(hits) < min(k, n) {
		return nil, 0, false, nil
	}
	return hits, n, true, nil
}

// exactBelow says whether a filter that admits n of a graph's size
// vectors is better scored exactly than walked. A walk keeps only the
// admitted nodes but goes through the others, so it visits about 1/share
// times the nodes of an unfiltered walk; scoring every admitted vector
// costs n dot products. cmd/bench -only search-vectors prints both at
// several shares. At 100,000 vectors of 384 dimensions (2 shared CPUs)
// the walk took p50 85 ms at 1 % admitted, 16 ms at 5 %, 3.1 ms at 20 %
// and 2.3 ms at 50 %; scored exactly, 0.4, 7.7, 24 and 44 ms (recall@10
// 1.000 both ways). Hence exact up to one in twenty of the graph, and up
// to 5,000 vectors whatever the share (about 8 ms).
func exactBelow(n, size int) bool { return n <= exactMin || n*20 <= size }

// exactMin is a variable so that the engine's tests walk the graph with
// few documents.
var exactMin = 5_000

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
