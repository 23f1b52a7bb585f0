// Package hnsw is an approximate nearest-neighbour index over unit float32
// vectors (cosine similarity is then their dot product): a hierarchical
// navigable small-world graph (Malkov and Yashunin, 2016). A query walks
// the graph greedily from one entry point, through sparse upper layers down
// to the layer that holds every vector, and scores a few thousand vectors
// instead of all of them: at 1,000,000 vectors of 384 dimensions a query
// costs milliseconds where the exact scan costs a few hundred.
//
// Vectors are added and deleted while queries run. A deleted vector stays
// in the graph as a tombstone, as other vectors reach theirs through it,
// but is never returned again; an edit is a delete and an add under the
// same key.
package hnsw

import (
	"cmp"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// The parameters are the usual ones for embeddings of a few hundred
// dimensions, checked on clustered unit vectors of 384 dimensions
// (hnsw_test.go, and cmd/bench -only search-vectors, which prints recall
// and latency for several efSearch on one graph):
//
//   - M = 16 links a node (32 on the bottom layer): the bottom layer's
//     links then cost 128 bytes a vector, a twelfth of the vector itself,
//     and the graph stays navigable between clusters.
//   - efConstruction = 100: the candidates kept while linking a new node.
//     The build's cost grows with it (each add scores some thousands of
//     vectors); at 20,000 vectors it gives recall@10 1.000 at efSearch 96.
//   - efSearch = 96 (DefaultEF) up to 100,000 vectors: there the sweep
//     gave recall@10 0.982 at 32, 0.995 at 64 and 1.000 at 96, with p50
//     0.9, 1.3 and 1.8 ms. A larger graph needs more candidates for the
//     same recall: at 1,000,000 vectors (one build, 764 s on 2 CPUs) 96
//     gave 0.909 and 160 gave 0.950, p99 3.5 and 4.4 ms. So EF grows with
//     the square root of the graph's size beyond 100,000 (304 at
//     1,000,000), which the walk's cost of a few milliseconds affords.
const (
	DefaultM              = 16
	DefaultEFConstruction = 100
	DefaultEF             = 96
)

// efFlat is the size up to which a query walks with DefaultEF.
const efFlat = 100_000

// EF is the efSearch for a graph of n vectors: DefaultEF up to efFlat,
// then DefaultEF times the square root of n/efFlat.
func EF(n int) int {
	if n <= efFlat {
		return DefaultEF
	}
	return int(math.Ceil(DefaultEF * math.Sqrt(float64(n)/efFlat)))
}

// Hit is a key and its vector's similarity to the query (the dot product).
type Hit struct {
	Key   string
	Score float32
}

// Graph is the index; the zero value is not usable (New).
type Graph struct {
	dim    int
	m, m0  int
	efc    int
	levelF float64

	// Nodes live in pages that never move, so that a walk reads them
	// without a lock while adds append: a global write lock for each add
	// would wait for every walk and serialise a parallel build.
	pages [maxPages]atomic.Pointer[page]
	count atomic.Uint32
	// entryTop packs the entry node (low 32 bits) and its level plus one
	// (high bits; 0 while the graph is empty), read at a walk's start.
	entryTop atomic.Uint64

	// mu guards byKey and dead, and orders an add's id with its key.
	mu    sync.RWMutex
	byKey map[string]uint32
	dead  int // tombstones

	rmu sync.Mutex
	rng *rand.Rand

	visited sync.Pool
}

const (
	pageBits = 12
	pageSize = 1 << pageBits
	maxPages = 1 << 16 // 268 million nodes
)

type page [pageSize]atomic.Pointer[node]

func (g *Graph) node(id uint32) *node { return g.pages[id>>pageBits].Load()[id&(pageSize-1)].Load() }

// entryPoint is the entry node and its level, or top -1 when empty.
func (g *Graph) entryPoint() (uint32, int) {
	et := g.entryTop.Load()
	return uint32(et), int(et>>32) - 1
}

type node struct {
	key     string
	vec     []float32
	deleted atomic.Bool
	// lmu serializes changes of the links; readers load them without a
	// lock, as each change stores a new slice.
	lmu   sync.Mutex
	links []atomic.Pointer[[]uint32] // by layer
}

// New is an empty graph for vectors of dim dimensions, with M links a node
// and efConstruction candidates while linking (0 for the defaults). seed
// makes the layers of the nodes, and so the graph, reproducible.
func New(dim, m, efConstruction int, seed uint64) *Graph {
	if m <= 0 {
		m = DefaultM
	}
	if efConstruction <= 0 {
		efConstruction = DefaultEFConstruction
	}
	return &Graph{
		dim: dim, m: m, m0: 2 * m, efc: max(efConstruction, m),
		levelF: 1 / math.Log(float64(m)),
		byKey:  map[string]uint32{},
		rng:    rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)),
	}
}

// Dim is the vectors' length.
func (g *Graph) Dim() int { return g.dim }

// Len is how many vectors can be found; Tombstones how many deleted ones
// still route queries.
func (g *Graph) Len() int {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return len(g.byKey)
}

// Tombstones is how many deleted vectors the graph still holds.
func (g *Graph) Tombstones() int {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.dead
}

// Add puts the key's vector in the graph, replacing any vector it had. v
// must be of unit length and Dim long (it is kept, not copied). Adding the
// vector a key already has changes nothing, so that an edit of a post's
// text costs no relinking.
func (g *Graph) Add(key string, v []float32) {
	if len(v) != g.dim {
		panic("hnsw: vector of another dimension")
	}
	level := g.level()
	n := &node{key: key, vec: v, links: make([]atomic.Pointer[[]uint32], level+1)}
	g.mu.Lock()
	if old, ok := g.byKey[key]; ok {
		if slices.Equal(g.node(old).vec, v) {
			g.mu.Unlock()
			return
		}
		g.node(old).deleted.Store(true)
		g.dead++
	}
	id := g.count.Load()
	if id>>pageBits >= maxPages {
		g.mu.Unlock()
		panic("hnsw: graph full")
	}
	if id&(pageSize-1) == 0 {
		g.pages[id>>pageBits].Store(new(page))
	}
	g.pages[id>>pageBits].Load()[id&(pageSize-1)].Store(n)
	g.count.Store(id + 1)
	g.byKey[key] = id
	entry, top := g.entryPoint()
	if top < 0 {
		g.entryTop.Store(uint64(level+1)<<32 | uint64(id))
		g.mu.Unlock()
		return
	}
	g.mu.Unlock()

	ep := entry
	epScore := dot(v, g.node(ep).vec)
	for l := top; l > level; l-- {
		ep, epScore = g.greedy(v, ep, epScore, l)
	}
	eps := []scored{{ep, epScore}}
	for l := min(level, top); l >= 0; l-- {
		found := g.searchLayer(v, eps, g.efc, l, nil)
		live := found[:0:0]
		for _, c := range found {
			if !g.node(c.id).deleted.Load() {
				live = append(live, c)
			}
		}
		friends := g.choose(live, g.m)
		ids := make([]uint32, len(friends))
		for i, f := range friends {
			ids[i] = f.id
		}
		n.lmu.Lock()
		n.links[l].Store(&ids)
		n.lmu.Unlock()
		for _, f := range friends {
			g.link(f.id, id, f.score, l)
		}
		if len(found) > 0 {
			eps = found
		}
	}
	// A node above the top layer becomes the entry; the lock orders two
	// such adds.
	if level > top {
		g.mu.Lock()
		if _, t := g.entryPoint(); level > t {
			g.entryTop.Store(uint64(level+1)<<32 | uint64(id))
		}
		g.mu.Unlock()
	}
}

// AddAll adds the vectors on every CPU; keys must be distinct.
func (g *Graph) AddAll(keys []string, vs [][]float32) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(keys) {
					return
				}
				g.Add(keys[i], vs[i])
			}
		})
	}
	wg.Wait()
}

// Delete removes the keys' vectors: no query that starts after it returns
// them.
func (g *Graph) Delete(keys ...string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, k := range keys {
		if id, ok := g.byKey[k]; ok {
			g.node(id).deleted.Store(true)
			delete(g.byKey, k)
			g.dead++
		}
	}
}

// Vector is the key's vector, if it has one.
func (g *Graph) Vector(key string) ([]float32, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	id, ok := g.byKey[key]
	if !ok {
		return nil, false
	}
	return g.node(id).vec, true
}

// Live lists the keys that have a vector, and their vectors, for a
// compaction (a new graph without the tombstones).
func (g *Graph) Live() ([]string, [][]float32) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	keys, vs := make([]string, 0, len(g.byKey)), make([][]float32, 0, len(g.byKey))
	for k, id := range g.byKey {
		keys, vs = append(keys, k), append(vs, g.node(id).vec)
	}
	return keys, vs
}

// Set is a set of the graph's nodes, for a filter: those of the keys that
// have a vector. Its IDs are valid for this graph only.
type Set struct {
	bits []uint64
	ids  []uint32
}

// Len is how many of the keys have a vector.
func (s *Set) Len() int { return len(s.ids) }

func (s *Set) has(id uint32) bool {
	i := int(id >> 6)
	return i < len(s.bits) && s.bits[i]&(1<<(id&63)) != 0
}

// Among is the set of the keys that have a vector.
func (g *Graph) Among(keys []string) *Set {
	g.mu.RLock()
	defer g.mu.RUnlock()
	s := &Set{bits: make([]uint64, (g.count.Load()+63)/64)}
	for _, k := range keys {
		if id, ok := g.byKey[k]; ok && s.bits[id>>6]&(1<<(id&63)) == 0 {
			s.bits[id>>6] |= 1 << (id & 63)
			s.ids = append(s.ids, id)
		}
	}
	return s
}

// Search returns up to k keys nearest to q (of unit length), nearest first,
// walking the bottom layer with ef candidates (at least k). With a set,
// only its members come back; the walk still goes through the others, so
// a set of few members makes the walk long and its recall lower, and is
// better scored exactly (Exact). Fewer than k come back only when the walk
// met fewer members.
func (g *Graph) Search(q []float32, k, ef int, among *Set) []Hit {
	if len(q) != g.dim || k <= 0 {
		return nil
	}
	ep, top := g.entryPoint()
	if top < 0 {
		return nil
	}
	epScore := dot(q, g.node(ep).vec)
	for l := top; l > 0; l-- {
		ep, epScore = g.greedy(q, ep, epScore, l)
	}
	admit := func(id uint32) bool {
		return !g.node(id).deleted.Load() && (among == nil || among.has(id))
	}
	found := g.searchLayer(q, []scored{{ep, epScore}}, max(ef, k), 0, admit)
	return g.hits(found, k)
}

// Exact scores every member of the set (every vector when nil) and returns
// the k nearest: the reference the approximate search is measured
// against, and the search for a set of few members.
func (g *Graph) Exact(q []float32, k int, among *Set) []Hit {
	if len(q) != g.dim || k <= 0 {
		return nil
	}
	top := &heap{}
	consider := func(id uint32) {
		n := g.node(id)
		if n.deleted.Load() {
			return
		}
		s := dot(q, n.vec)
		if top.Len() < k {
			top.push(scored{id, s})
		} else if s > top.peek().score {
			top.replaceTop(scored{id, s})
		}
	}
	if among != nil {
		for _, id := range among.ids {
			consider(id)
		}
	} else {
		for id := range g.count.Load() {
			consider(id)
		}
	}
	return g.hits(top.items, k)
}

// hits orders the scored nodes nearest first and names them.
func (g *Graph) hits(found []scored, k int) []Hit {
	found = slices.Clone(found)
	slices.SortFunc(found, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	out := make([]Hit, 0, min(k, len(found)))
	for _, f := range found {
		if len(out) == k {
			break
		}
		// A delete after the walk started is honoured too.
		if n := g.node(f.id); !n.deleted.Load() {
			out = append(out, Hit{Key: n.key, Score: f.score})
		}
	}
	return out
}

// level draws a new node's top layer: layer l holds about M^-l of the
// nodes.
func (g *Graph) level() int {
	g.rmu.Lock()
	u := g.rng.Float64()
	g.rmu.Unlock()
	return int(-math.Log(1-u) * g.levelF)
}

func (g *Graph) linksOf(id uint32, l int) []uint32 {
	n := g.node(id)
	if l >= len(n.links) {
		return nil
	}
	if p := n.links[l].Load(); p != nil {
		return *p
	}
	return nil
}

// greedy moves from ep to ever nearer neighbours on layer l until none is
// nearer.
func (g *Graph) greedy(q []float32, ep uint32, score float32, l int) (uint32, float32) {
	for changed := true; changed; {
		changed = false
		for _, f := range g.linksOf(ep, l) {
			if s := dot(q, g.node(f).vec); s > score {
				ep, score, changed = f, s, true
			}
		}
	}
	return ep, score
}

type scored struct {
	id    uint32
	score float32
}

// searchLayer is the paper's SEARCH-LAYER: a best-first walk of layer l
// from eps that keeps the ef nearest nodes admit accepts (all when nil),
// and stops when the nearest unexpanded candidate is farther than the
// farthest of those.
func (g *Graph) searchLayer(q []float32, eps []scored, ef, l int, admit func(uint32) bool) []scored {
	vis := g.visitedSet()
	defer g.visited.Put(vis)
	candidates := &heap{nearest: true}
	results := &heap{}
	for _, e := range eps {
		if vis.visit(e.id) {
			candidates.push(e)
			if admit == nil || admit(e.id) {
				results.push(e)
			}
		}
	}
	for results.Len() > ef {
		results.pop()
	}
	for candidates.Len() > 0 {
		c := candidates.pop()
		if results.Len() >= ef && c.score < results.peek().score {
			break
		}
		for _, f := range g.linksOf(c.id, l) {
			if !vis.visit(f) {
				continue
			}
			s := dot(q, g.node(f).vec)
			if results.Len() < ef || s > results.peek().score {
				candidates.push(scored{f, s})
				if admit == nil || admit(f) {
					if results.Len() < ef {
						results.push(scored{f, s})
					} else {
						results.replaceTop(scored{f, s})
					}
				}
			}
		}
	}
	return results.items
}

// choose is the paper's neighbour heuristic: of the candidates, nearest
// first, it keeps one only if it is nearer the new node than any kept
// one, so that the links point in different directions and a walk can
// leave a cluster.
func (g *Graph) choose(cands []scored, m int) []scored {
	if len(cands) <= m {
		return cands
	}
	sorted := slices.Clone(cands)
	slices.SortFunc(sorted, func(a, b scored) int { return cmp.Compare(b.score, a.score) })
	kept := make([]scored, 0, m)
	for _, c := range sorted {
		if len(kept) == m {
			break
		}
		ok := true
		cv := g.node(c.id).vec
		for _, k := range kept {
			if dot(cv, g.node(k.id).vec) > c.score {
				ok = false
				break
			}
		}
		if ok {
			kept = append(kept, c)
		}
	}
	return kept
}

// link adds to from's links on layer l; a node with more than its share
// of links keeps those the heuristic chooses.
func (g *Graph) link(from, to uint32, score float32, l int) {
	n := g.node(from)
	max := g.m
	if l == 0 {
		max = g.m0
	}
	n.lmu.Lock()
	defer n.lmu.Unlock()
	old := g.linksOf(from, l)
	next := make([]uint32, 0, len(old)+1)
	next = append(append(next, old...), to)
	if len(next) > max {
		cands := make([]scored, len(next))
		for i, id := range next {
			cands[i] = scored{id, dot(n.vec, g.node(id).vec)}
		}
		kept := g.choose(cands, max)
		next = next[:0]
		for _, k := range kept {
			next = append(next, k.id)
		}
	}
	n.links[l].Store(&next)
}

// visited marks the nodes of one walk: a mark is the walk's generation, so
// the array is cleared only when the generation wraps.
type visited struct {
	mark []uint16
	gen  uint16
}

func (g *Graph) visitedSet() *visited {
	v, _ := g.visited.Get().(*visited)
	if v == nil {
		v = &visited{}
	}
	if n := int(g.count.Load()); len(v.mark) < n {
		v.mark = make([]uint16, n+n/4+1024)
		v.gen = 0
	}
	v.gen++
	if v.gen == 0 {
		clear(v.mark)
		v.gen = 1
	}
	return v
}

// visit marks id and says whether it was not yet marked. A node added
// since the walk began may be beyond the marks.
func (v *visited) visit(id uint32) bool {
	if int(id) >= len(v.mark) {
		v.mark = append(v.mark, make([]uint16, int(id)+1-len(v.mark)+1024)...)
	}
	if v.mark[id] == v.gen {
		return false
	}
	v.mark[id] = v.gen
	return true
}

// dot is the dot product of two vectors of one length, eight terms a
// step: Go does not vectorise the plain loop, and four independent sums
// keep the CPU's adders busy (about twice the plain loop's speed).
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		s0 += a[i]*b[i] + a[i+4]*b[i+4]
		s1 += a[i+1]*b[i+1] + a[i+5]*b[i+5]
		s2 += a[i+2]*b[i+2] + a[i+6]*b[i+6]
		s3 += a[i+3]*b[i+3] + a[i+7]*b[i+7]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// Dot is the dot product the graph scores with (the cosine of two unit
// vectors).
func Dot(a, b []float32) float32 { return dot(a, b) }
