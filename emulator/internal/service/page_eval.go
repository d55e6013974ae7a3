package service

import (
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Evaluating a Query's or Scan's filter and projection on stored items,
// without decoding them. The filter runs on every item read, most of which
// it may reject: an expr.Matcher reads only the attributes the filter
// names, straight from the record, and allocates nothing per item. A
// projection is copied by an expr.Projector from the record into one
// buffer the page keeps (storage's encoding), and the response is written
// from that buffer as whole items are written from storage: no map per
// item on either side. expr's randomized tests hold Matcher to
// Condition.Eval and Projector to Projection.Apply.

// pageEval is a page's filter and projection (the request's, else the
// attributes an index read keeps), bound to the page (a
// Matcher and a Projector keep scratch space: one page, one goroutine).
type pageEval struct {
	match *expr.Matcher   // nil: no filter
	proj  *expr.Projector // nil: no projection
	buf   []byte          // the projected items, back to back
	ends  []int           // where each projected item ends in buf
}

// newPageEval binds req's filter and projection to one page.
func newPageEval(req *readRequest) pageEval {
	var pe pageEval
	if req.filter != nil {
		pe.match = req.filter.MatcherOver(req.filterOver)
	}
	switch {
	case req.projection != nil:
		pe.proj = req.projection.Projector()
	case req.index != nil && req.index.keep != nil:
		// An index's own projection: the attributes it holds, copied
		// from the table's record as a projection is. Compiled once per
		// index definition (a map, a trie and their slices at every page
		// before).
		if keep := req.t.indexProjection(req.index); keep != nil {
			pe.proj = keep.Projector()
		}
	}
	return pe
}

// projects reports whether the page's items are projected (by the
// request's projection or the index's) into the page's buffer.
func (pe *pageEval) projects() bool { return pe.proj != nil }

// keep reports whether e passes the filter (true without one).
func (pe *pageEval) keep(e storage.EncodedItem) bool {
	return pe.match == nil || pe.match.Match(e)
}

// project appends the projection of e to the page's buffer.
func (pe *pageEval) project(e storage.EncodedItem) {
	pe.buf = pe.proj.Append(pe.buf, e)
	pe.ends = append(pe.ends, len(pe.buf))
}

// projected returns the projected items, read from one copy of the
// buffer, for the response to write out.
func (pe *pageEval) projected() []storage.EncodedItem {
	if len(pe.ends) == 0 {
		return nil
	}
	body := string(pe.buf)
	out := make([]storage.EncodedItem, len(pe.ends))
	start := 0
	for i, end := range pe.ends {
		out[i] = storage.EncodedItemOf(body[start:end])
		start = end
	}
	return out
}

// projectEncoded is the projection of one stored item (GetItem's), as a
// record of its own, copied without decoding.
func projectEncoded(proj *expr.Projection, e storage.EncodedItem) storage.EncodedItem {
	return storage.EncodedItemOf(string(proj.Projector().Append(nil, e)))
}

// indexProjection returns the compiled projection of the attributes
// index read ir keeps (its keep list), from the table's cache
// (table.indexProjections); nil if they do not compile.
func (t *table) indexProjection(ir *indexRead) *expr.Projection {
	if p, ok := t.indexProjections.Load(ir.x); ok {
		return p.(*expr.Projection)
	}
	keep, err := expr.AttributesToGet(ir.keep)
	if err != nil {
		return nil
	}
	p, _ := t.indexProjections.LoadOrStore(ir.x, keep)
	return p.(*expr.Projection)
}
