package storage

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
)

// SearchVectors: an exact search. Every row of the partition searched is
// scored (no approximation: the true nearest neighbours, which makes the
// emulator a test oracle for an approximate service) with the loops of
// vector_kernel.go, the TopK kept by a bounded heap (vector_topk.go).

// VectorQuery is one search of a vector index.
type VectorQuery struct {
	// Vector is the search vector: Dimensions finite float32 values.
	Vector []float32
	// TopK is how many results at most: 1..MaxTopK.
	TopK int
	// Hash is the value of the search schema's HASH element, which the
	// search is restricted to: required when the index has one, else
	// invalid (the zero Value). A value of another kind matches nothing.
	Hash Value
	// Filters are equalities on INLINE_FILTER elements, all of which a
	// result satisfies. An item lacking the attribute never satisfies one;
	// a value of another kind matches nothing.
	Filters []VectorFilter
	// Exact asks an approximate index (VectorIndexOptions) for the exact
	// answer. Exact indexes always give it.
	Exact bool
}

// VectorFilter is one equality on an inline filter attribute.
type VectorFilter struct {
	Name  string
	Value Value
}

// VectorResult is one search result: the table's item as stored, whole
// (the index's projection is the reader's to apply), and its score.
type VectorResult struct {
	Item  EncodedItem
	Score float64
}

// parallelMinFloats is the partition size, in floats, from which a search
// splits its chunks among GOMAXPROCS goroutines (8 MiB of vectors: below
// that the goroutines cost more than they save).
const parallelMinFloats = 1 << 21

// SearchVectors returns the q.TopK items of the vector index called name
// nearest q.Vector by the index's distance function, best first: COSINE
// and EUCLIDEAN by smallest score, DOT_PRODUCT by largest; equal scores in
// the table's scan order (vector_topk.go). Scores: COSINE 1 - cosine
// similarity, clamped to [0, 2] (a zero vector, stored or searched, scores
// 1 against everything); EUCLIDEAN the distance; DOT_PRODUCT the dot
// product. Sums run in float32 as the vectors are stored; a score whose
// float32 arithmetic overflows ranks last (±Inf, or +Inf for COSINE).
//
// It holds the table's read lock while searching; the EncodedItems stay
// valid after. ErrNoVectorIndex if there is no such index; ErrVectorQuery
// (wrapped, with the reason) if q does not fit it.
func (t *Table) SearchVectors(name string, q VectorQuery) ([]VectorResult, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	x := t.vindexLocked(name)
	if x == nil {
		return nil, fmt.Errorf("%w: %q", ErrNoVectorIndex, name)
	}
	s, p, err := x.prepare(q)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return []VectorResult{}, nil
	}
	var cands []vcand
	if p.graph != nil && !q.Exact && p.n >= approxMinRows {
		cands = s.approx(p, q.TopK)
	}
	if cands == nil {
		cands = s.run(p, q.TopK)
	}
	out := make([]VectorResult, len(cands))
	for i, c := range cands {
		r := c.c.refs[c.i]
		k := Key{Partition: Value{kind: t.ks.Partition.Kind, str: r.pk}}
		if t.ks.HasSort() {
			k.Sort = sortKeyValue(t.ks.Sort.Kind, r.e.sortKey())
		}
		out[i] = VectorResult{Item: t.encodedOf(k, r.e), Score: x.score(c.key)}
	}
	return out, nil
}

// vscan is one search's query, prepared.
type vscan struct {
	x    *vindex
	q    []float32
	qinv float64  // COSINE: 1/|q| (0 for a zero vector)
	want []uint32 // per inline filter, the code required (0: none)
	any  bool     // some filter is required
}

// prepare checks q against the index and returns the scan and the
// partition to scan (nil when nothing can match).
func (x *vindex) prepare(q VectorQuery) (*vscan, *vpart, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrVectorQuery, fmt.Sprintf(format, args...))
	}
	if len(q.Vector) != x.dims {
		return nil, nil, bad("search vector of %d dimensions, index of %d", len(q.Vector), x.dims)
	}
	if q.TopK < 1 || q.TopK > MaxTopK {
		return nil, nil, bad("TopK %d", q.TopK)
	}
	for i, f := range q.Vector {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return nil, nil, bad("search vector element %d is %v", i, f)
		}
	}
	if x.def.HasHash() != q.Hash.IsValid() {
		return nil, nil, bad("HASH value given %v, index has a HASH element %v", q.Hash.IsValid(), x.def.HasHash())
	}
	s := &vscan{x: x, q: q.Vector, want: make([]uint32, x.nf)}
	none := false
	for _, f := range q.Filters {
		i := slices.IndexFunc(x.def.Filters, func(a KeyAttr) bool { return a.Name == f.Name })
		if i < 0 {
			return nil, nil, bad("%q is not an inline filter", f.Name)
		}
		code, ok := x.codes[i].ids[f.Value.str]
		switch {
		case !ok || f.Value.kind != x.def.Filters[i].Kind:
			none = true // no row holds that value
		case s.want[i] != 0 && s.want[i] != code:
			none = true // two different values required
		}
		s.want[i], s.any = code, true
	}
	if none {
		return nil, nil, nil
	}
	hash := ""
	if x.def.HasHash() {
		if q.Hash.kind != x.def.Hash.Kind {
			return nil, nil, nil
		}
		hash = q.Hash.str
	}
	if x.def.Distance == Cosine {
		if n := math.Sqrt(float64(dot(q.Vector, q.Vector))); n > 0 {
			s.qinv = 1 / n
		}
	}
	return s, x.parts[hash], nil
}

// invOf returns row i of c's inverse norm (COSINE; else 0).
func (x *vindex) invOf(c *vchunk, i int) float64 {
	if c.inv == nil {
		return 0
	}
	return c.inv[i]
}

// key returns row i of c's key to q (qinv: 1/|q| for COSINE): the score,
// or its negation for DOT_PRODUCT, so smaller is better.
func (x *vindex) key(q []float32, qinv float64, c *vchunk, i int) float64 {
	vec := c.vecs[i*x.dims : (i+1)*x.dims]
	var key float64
	switch x.def.Distance {
	case Cosine:
		key = 1 - float64(dot(q, vec))*qinv*c.inv[i]
		if key < 0 {
			key = 0
		} else if key > 2 {
			key = 2
		}
	case Euclidean:
		key = float64(l2sq(q, vec))
	case DotProduct:
		key = -float64(dot(q, vec))
	}
	if key != key { // NaN: float32 overflow (Inf*0, Inf-Inf)
		key = math.Inf(1)
	}
	return key
}

// score turns a candidate's key back into the score reported.
func (x *vindex) score(key float64) float64 {
	switch x.def.Distance {
	case Euclidean:
		return math.Sqrt(key)
	case DotProduct:
		return -key
	}
	return key
}

// run scores every row of p and returns the best k, best first.
func (s *vscan) run(p *vpart, k int) []vcand {
	workers := 1
	if p.n*s.x.dims >= parallelMinFloats {
		workers = min(runtime.GOMAXPROCS(0), len(p.chunks))
	}
	var cands []vcand
	if workers <= 1 {
		h := newTopK(k)
		for _, c := range p.chunks {
			s.chunk(c, h)
		}
		cands = h.heap
	} else {
		heaps := make([]*topK, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				h := newTopK(k)
				for ci := w; ci < len(p.chunks); ci += workers {
					s.chunk(p.chunks[ci], h)
				}
				heaps[w] = h
			})
		}
		wg.Wait()
		for _, h := range heaps {
			cands = append(cands, h.heap...)
		}
	}
	slices.SortFunc(cands, func(a, b vcand) int {
		switch {
		case a.before(b):
			return -1
		case b.before(a):
			return 1
		}
		return 0
	})
	return cands[:min(k, len(cands))]
}

// chunk offers each row of c that passes the filters to h.
func (s *vscan) chunk(c *vchunk, h *topK) {
	nf := s.x.nf
	for i := 0; i < c.n; i++ {
		if s.any && !s.match(c.codes[i*nf:(i+1)*nf]) {
			continue
		}
		key := s.x.key(s.q, s.qinv, c, i)
		if w, full := h.worst(); full && key > w {
			continue
		}
		h.offer(vcand{key: key, c: c, i: i})
	}
}

// match reports whether a row's filter codes are those required.
func (s *vscan) match(codes []uint32) bool {
	for f, w := range s.want {
		if w != 0 && codes[f] != w {
			return false
		}
	}
	return true
}

// approx asks p's graph for about EfSearch candidates and keeps the best k
// that pass the filters, best first; nil when filters left fewer than k
// (the caller then searches exactly).
func (s *vscan) approx(p *vpart, k int) []vcand {
	h := newTopK(k)
	for _, hit := range p.graph.search(s.q, s.qinv, max(s.x.opts.EfSearch, k)) {
		c, i := p.graph.rowOf(hit.id)
		if s.any && !s.match(c.codes[i*s.x.nf:(i+1)*s.x.nf]) {
			continue
		}
		h.offer(vcand{key: hit.key, c: c, i: i})
	}
	if len(h.heap) < k {
		return nil
	}
	cands := h.heap
	slices.SortFunc(cands, func(a, b vcand) int {
		switch {
		case a.before(b):
			return -1
		case b.before(a):
			return 1
		}
		return 0
	})
	return cands
}
