package vector

// The TopK selection: a bounded max-heap of candidates whose root is the
// worst kept, so a candidate no better than the root costs one float
// comparison and nothing else. Candidates are ordered by key (smaller is
// better: the score, or its negation for DOT_PRODUCT), then, for equal
// keys, by the table's scan order of their items (partition key hash,
// partition key, sort key): the stated tie-break, a total order, so the
// answer is the same however the rows lie in memory or the search is split.

// vcand is one candidate: its key and its row.
type vcand struct {
	key float64
	c   *vchunk
	i   int
}

// before reports whether a ranks before b.
func (a vcand) before(b vcand) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	return a.c.refs[a.i].ScanBefore(b.c.refs[b.i])
}

// topK keeps the k best candidates offered.
type topK struct {
	k    int
	heap []vcand // a max-heap by before: heap[0] is the worst kept
}

func newTopK(k int) *topK { return &topK{k: k, heap: make([]vcand, 0, k)} }

// worst returns the worst kept key once k candidates are kept.
func (h *topK) worst() (float64, bool) {
	if len(h.heap) < h.k {
		return 0, false
	}
	return h.heap[0].key, true
}

// offer keeps c if it ranks before the worst kept, or if fewer than k are kept.
func (h *topK) offer(c vcand) {
	if len(h.heap) < h.k {
		h.heap = append(h.heap, c)
		h.up(len(h.heap) - 1)
		return
	}
	if !c.before(h.heap[0]) {
		return
	}
	h.heap[0] = c
	h.down(0)
}

func (h *topK) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !h.heap[parent].before(h.heap[i]) {
			return
		}
		h.heap[parent], h.heap[i] = h.heap[i], h.heap[parent]
		i = parent
	}
}

func (h *topK) down(i int) {
	n := len(h.heap)
	for {
		worst := i
		if l := 2*i + 1; l < n && h.heap[worst].before(h.heap[l]) {
			worst = l
		}
		if r := 2*i + 2; r < n && h.heap[worst].before(h.heap[r]) {
			worst = r
		}
		if worst == i {
			return
		}
		h.heap[i], h.heap[worst] = h.heap[worst], h.heap[i]
		i = worst
	}
}
