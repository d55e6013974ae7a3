package vector

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Search: an exact search. Every row of the partition searched is scored
// (no approximation: the true nearest neighbours, which makes the
// emulator a test oracle for an approximate service) with the loops of
// kernel.go, the TopK kept by a bounded heap (topk.go).

// MaxTopK bounds a query's TopK: 1..MaxTopK (VECTOR_SPEC.md).
const MaxTopK = 100

// ErrQuery: a Query does not fit its index (dimension, TopK, a missing or
// extra HASH value, a filter on an attribute that is not an INLINE_FILTER
// element). Like storage's sentinels it marks misuse of the API; the
// emulator validates requests with AWS's wording first.
var ErrQuery = errors.New("vector: query does not fit the index")

// Query is one search of a vector index.
type Query struct {
	// Vector is the search vector: Dimensions finite float32 values.
	Vector []float32
	// TopK is how many results at most: 1..MaxTopK.
	TopK int
	// Hash is the value of the search schema's HASH element, which the
	// search is restricted to: required when the index has one, else
	// invalid (the zero Value). A value of another kind matches nothing.
	Hash storage.Value
	// Filters are equalities on INLINE_FILTER elements, all of which a
	// result satisfies. An item lacking the attribute never satisfies one;
	// a value of another kind matches nothing.
	Filters []Filter
	// Exact asks an approximate index (Options) for the exact answer.
	// Exact indexes always give it.
	Exact bool
}

// Filter is one equality on an inline filter attribute.
type Filter struct {
	Name  string
	Value storage.Value
}

// Result is one search result: the table's item as stored, whole (the
// index's projection is the reader's to apply), and its score.
type Result struct {
	Item  storage.EncodedItem
	Score float64
}

// parallelMinFloats is the partition size, in floats, from which a search
// splits its chunks among GOMAXPROCS goroutines (8 MiB of vectors: below
// that the goroutines cost more than they save).
const parallelMinFloats = 1 << 21

// Search returns the q.TopK items of t's vector index called name
// nearest q.Vector by the index's distance function, best first: COSINE
// and EUCLIDEAN by smallest score, DOT_PRODUCT by largest; equal scores in
// the table's scan order (topk.go). Scores: COSINE 1 - cosine
// similarity, clamped to [0, 2] (a zero vector, stored or searched, scores
// 1 against everything); EUCLIDEAN the distance; DOT_PRODUCT the dot
// product. Sums run in float32 as the vectors are stored; a score whose
// float32 arithmetic overflows ranks last (±Inf, or +Inf for COSINE).
//
// It holds the table's read lock while searching (storage's
// ReadVectorIndex); the EncodedItems stay valid after.
// storage.ErrNoVectorIndex if there is no such index; ErrQuery (wrapped,
// with the reason) if q does not fit it.
func Search(t *storage.Table, name string, q Query) ([]Result, error) {
	var out []Result
	var err error
	if rerr := t.ReadVectorIndex(name, func(vi storage.VectorIndex) {
		x, ok := vi.(*index)
		if !ok {
			err = fmt.Errorf("vector: index %q was not built by this package", name)
			return
		}
		out, err = x.search(t, q)
	}); rerr != nil {
		return nil, rerr
	}
	return out, err
}

// search is Search over x, an index of t, under t's read lock.
func (x *index) search(t *storage.Table, q Query) ([]Result, error) {
	s, p, err := x.prepare(q)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return []Result{}, nil
	}
	var cands []vcand
	if p.graph != nil && !q.Exact && p.n >= approxMinRows {
		cands = s.approx(p, q.TopK)
	}
	if cands == nil {
		cands = s.run(p, q.TopK)
	}
	out := make([]Result, len(cands))
	for i, c := range cands {
		out[i] = Result{Item: t.ItemAt(c.c.refs[c.i]), Score: x.score(c.key)}
	}
	return out, nil
}

// vscan is one search's query, prepared.
type vscan struct {
	x    *index
	q    []float32
	qinv float64  // COSINE: 1/|q| (0 for a zero vector)
	want []uint32 // per inline filter, the code required (0: none)
	any  bool     // some filter is required
}

// prepare checks q against the index and returns the scan and the
// partition to scan (nil when nothing can match).
func (x *index) prepare(q Query) (*vscan, *vpart, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrQuery, fmt.Sprintf(format, args...))
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
		i := slices.IndexFunc(x.def.Filters, func(a storage.KeyAttr) bool { return a.Name == f.Name })
		if i < 0 {
			return nil, nil, bad("%q is not an inline filter", f.Name)
		}
		code, ok := x.codes[i].ids[f.Value.Str()]
		switch {
		case !ok || f.Value.Kind() != x.def.Filters[i].Kind:
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
		if q.Hash.Kind() != x.def.Hash.Kind {
			return nil, nil, nil
		}
		hash = q.Hash.Str()
	}
	if x.def.Distance == storage.Cosine {
		if n := math.Sqrt(float64(dot(q.Vector, q.Vector))); n > 0 {
			s.qinv = 1 / n
		}
	}
	return s, x.parts[hash], nil
}

// invOf returns row i of c's inverse norm (COSINE; else 0).
func (x *index) invOf(c *vchunk, i int) float64 {
	if c.inv == nil {
		return 0
	}
	return c.inv[i]
}

// key returns row i of c's key to q (qinv: 1/|q| for COSINE): the score,
// or its negation for DOT_PRODUCT, so smaller is better.
func (x *index) key(q []float32, qinv float64, c *vchunk, i int) float64 {
	vec := c.vecs[i*x.dims : (i+1)*x.dims]
	var key float64
	switch x.def.Distance {
	case storage.Cosine:
		key = 1 - float64(dot(q, vec))*qinv*c.inv[i]
		if key < 0 {
			key = 0
		} else if key > 2 {
			key = 2
		}
	case storage.Euclidean:
		key = float64(l2sq(q, vec))
	case storage.DotProduct:
		key = -float64(dot(q, vec))
	}
	if key != key { // NaN: float32 overflow (Inf*0, Inf-Inf)
		key = math.Inf(1)
	}
	return key
}

// score turns a candidate's key back into the score reported.
func (x *index) score(key float64) float64 {
	switch x.def.Distance {
	case storage.Euclidean:
		return math.Sqrt(key)
	case storage.DotProduct:
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
