package insights

import (
	"sync"

	"github.com/google/uuid"
)

// recentParents keeps the parents of the posts and AI searches the
// projection saw last, so that a comment, a reaction or an AI search
// question (most of which answer a recent post) finds its forum without a
// look-up. A parent never changes, so a kept one is never stale.
//
// The warehouse's parents table cannot answer a batch's look-up cheaply on
// ClickHouse 18.16, which orders UUIDs by their random half: the post ids
// of a batch are spread over the whole table, and the look-up reads it
// all. The cache is bounded: two generations of half the size each; the
// older one is dropped when the newer one is full, and what is read from
// it moves to the newer one.
type recentParents struct {
	mu       sync.Mutex
	half     int
	new, old map[uuid.UUID]parent
}

// parentsKept is how many parents the cache holds at most (a few MiB).
const parentsKept = 200_000

func newRecentParents(size int) *recentParents {
	return &recentParents{half: max(size/2, 1), new: map[uuid.UUID]parent{}, old: map[uuid.UUID]parent{}}
}

// get is the kept parent of id.
func (r *recentParents) get(id uuid.UUID) (parent, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p, ok := r.new[id]; ok {
		return p, true
	}
	p, ok := r.old[id]
	if ok {
		r.putLocked(id, p)
	}
	return p, ok
}

// put keeps the parent of id.
func (r *recentParents) put(id uuid.UUID, p parent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.putLocked(id, p)
}

func (r *recentParents) putLocked(id uuid.UUID, p parent) {
	if _, ok := r.new[id]; !ok && len(r.new) >= r.half {
		r.old, r.new = r.new, make(map[uuid.UUID]parent, r.half)
	}
	r.new[id] = p
}

// reset forgets every parent (the warehouse was emptied).
func (r *recentParents) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.new, r.old = map[uuid.UUID]parent{}, map[uuid.UUID]parent{}
}
