package hnsw

// minHeap keeps the farthest of the kept nodes (the lowest score) on top,
// to be dropped first; maxHeap the nearest candidate, to be expanded
// first. They are written out rather than through container/heap, so that
// a walk's inner loop makes no interface calls.
type minHeap struct{ items []scored }

func (h *minHeap) Len() int      { return len(h.items) }
func (h *minHeap) peek() scored  { return h.items[0] }
func (h *minHeap) push(s scored) { h.items = append(h.items, s); h.up(len(h.items) - 1) }

func (h *minHeap) pop() scored {
	top := h.items[0]
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items = h.items[:last]
	h.down(0)
	return top
}

func (h *minHeap) replaceTop(s scored) { h.items[0] = s; h.down(0) }

func (h *minHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if h.items[p].score <= h.items[i].score {
			return
		}
		h.items[p], h.items[i] = h.items[i], h.items[p]
		i = p
	}
}

func (h *minHeap) down(i int) {
	n := len(h.items)
	for {
		l, s := 2*i+1, i
		if l < n && h.items[l].score < h.items[s].score {
			s = l
		}
		if r := l + 1; r < n && h.items[r].score < h.items[s].score {
			s = r
		}
		if s == i {
			return
		}
		h.items[s], h.items[i] = h.items[i], h.items[s]
		i = s
	}
}

type maxHeap struct{ items []scored }

func (h *maxHeap) Len() int      { return len(h.items) }
func (h *maxHeap) push(s scored) { h.items = append(h.items, s); h.up(len(h.items) - 1) }

func (h *maxHeap) pop() scored {
	top := h.items[0]
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items = h.items[:last]
	h.down(0)
	return top
}

func (h *maxHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if h.items[p].score >= h.items[i].score {
			return
		}
		h.items[p], h.items[i] = h.items[i], h.items[p]
		i = p
	}
}

func (h *maxHeap) down(i int) {
	n := len(h.items)
	for {
		l, s := 2*i+1, i
		if l < n && h.items[l].score > h.items[s].score {
			s = l
		}
		if r := l + 1; r < n && h.items[r].score > h.items[s].score {
			s = r
		}
		if s == i {
			return
		}
		h.items[s], h.items[i] = h.items[i], h.items[s]
		i = s
	}
}
