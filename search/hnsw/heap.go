package hnsw

// heap is a binary heap of scored nodes with the lowest score on top: the
// farthest of the kept nodes, dropped first; with nearest, the highest:
// the nearest candidate, expanded first. It is written out rather than
// through container/heap, so that a walk's inner loop makes no interface
// calls.
type heap struct {
	items   []scored
	nearest bool
}

func (h *heap) Len() int      { return len(h.items) }
func (h *heap) peek() scored  { return h.items[0] }
func (h *heap) push(s scored) { h.items = append(h.items, s); h.up(len(h.items) - 1) }

func (h *heap) pop() scored {
	top := h.items[0]
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items = h.items[:last]
	h.down(0)
	return top
}

func (h *heap) replaceTop(s scored) { h.items[0] = s; h.down(0) }

// above tells whether a belongs above b.
func (h *heap) above(a, b scored) bool {
	if h.nearest {
		return a.score > b.score
	}
	return a.score < b.score
}

func (h *heap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.above(h.items[i], h.items[p]) {
			return
		}
		h.items[p], h.items[i] = h.items[i], h.items[p]
		i = p
	}
}

func (h *heap) down(i int) {
	n := len(h.items)
	for {
		l, s := 2*i+1, i
		if l < n && h.above(h.items[l], h.items[s]) {
			s = l
		}
		if r := l + 1; r < n && h.above(h.items[r], h.items[s]) {
			s = r
		}
		if s == i {
			return
		}
		h.items[s], h.items[i] = h.items[i], h.items[s]
		i = s
	}
}
