package insights

import (
	"testing"

	"github.com/google/uuid"
)

// kept says whether r holds id, without moving it.
func (r *recentParents) kept(id uuid.UUID) bool {
	_, inNew := r.new[id]
	_, inOld := r.old[id]
	return inNew || inOld
}

func TestRecentParentsKeepsTheLastOnes(t *testing.T) {
	r := newRecentParents(4)
	ids := make([]uuid.UUID, 6)
	for i := range ids {
		ids[i] = uuid.New()
		r.put(ids[i], parent{series: ids[i]})
	}
	// Two generations of two: the last four are kept, the first two not.
	for i, id := range ids {
		if got, want := r.kept(id), i >= 2; got != want {
			t.Errorf("parent %d: kept %v, want %v", i, got, want)
		}
	}
	if p, ok := r.get(ids[5]); !ok || p.series != ids[5] {
		t.Errorf("get: %v %v", p, ok)
	}
	// What is read moves to the newer generation and outlives the rest.
	r = newRecentParents(4)
	for _, id := range ids[:4] {
		r.put(id, parent{series: id})
	}
	if _, ok := r.get(ids[0]); !ok {
		t.Fatal("the oldest of four is gone")
	}
	r.put(ids[4], parent{series: ids[4]})
	if !r.kept(ids[0]) || r.kept(ids[1]) {
		t.Errorf("after a read and a put: the one read kept %v, an older one %v", r.kept(ids[0]), r.kept(ids[1]))
	}
	r.reset()
	if r.kept(ids[4]) {
		t.Error("kept after a reset")
	}
}
