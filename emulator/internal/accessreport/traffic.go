package accessreport

import (
	"cmp"
	"slices"
	"sort"

	"github.com/dynamoemu/dynamoemu/emulator/report"
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/insights"
)

// costly is a kept request: the report's CostlyRequest and its number,
// which orders requests of one cost.
type costly struct {
	CostlyRequest
	seq int64
}

// costHeap keeps the max costliest requests: a min-heap by cost, the
// later request the lesser on a tie (so the earliest of equals stay).
type costHeap struct {
	max  int
	reqs []costly
}

func (h *costHeap) less(i, j int) bool {
	a, b := &h.reqs[i], &h.reqs[j]
	if a.Cost != b.Cost {
		return a.Cost < b.Cost
	}
	return a.seq > b.seq
}

// offer keeps q if it is among the costliest; it builds the entry's text
// only then.
func (h *costHeap) offer(q *insights.Request, seq int64) {
	cost := q.ReadUnits + report.WritePriceRatio*q.WriteUnits
	if cost <= 0 || len(h.reqs) == h.max && cost <= h.reqs[0].Cost {
		return
	}
	c := costly{CostlyRequest{
		Op: q.Op, Access: q.Access.String(), Table: q.Table, Index: q.Index, Key: insights.KeyText(q.Key),
		Filter: q.Filter, ItemsRead: q.Read, ItemsReturned: q.Returned,
		ReadUnits: q.ReadUnits, WriteUnits: q.WriteUnits, Cost: cost,
	}, seq}
	if len(h.reqs) < h.max {
		h.reqs = append(h.reqs, c)
		for i := len(h.reqs) - 1; i > 0 && h.less(i, (i-1)/2); i = (i - 1) / 2 {
			h.reqs[i], h.reqs[(i-1)/2] = h.reqs[(i-1)/2], h.reqs[i]
		}
		return
	}
	h.reqs[0] = c
	for i := 0; ; {
		l, small := 2*i+1, i
		if l < len(h.reqs) && h.less(l, small) {
			small = l
		}
		if r := l + 1; r < len(h.reqs) && h.less(r, small) {
			small = r
		}
		if small == i {
			return
		}
		h.reqs[i], h.reqs[small] = h.reqs[small], h.reqs[i]
		i = small
	}
}

// sorted returns the kept requests, costliest first, earlier first on a
// tie.
func (h *costHeap) sorted() []CostlyRequest {
	kept := slices.Clone(h.reqs)
	compare := func(a, b costly) int {
		if c := cmp.Compare(b.Cost, a.Cost); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	}
	sort.Slice(kept, func(i, j int) bool { return compare(kept[i], kept[j]) < 0 })
	out := make([]CostlyRequest, len(kept))
	for i := range kept {
		out[i] = kept[i].CostlyRequest
	}
	return out
}

// patternStats is what the requests matched to one pattern did.
type patternStats struct {
	requests, itemsRead, itemsReturned, throttled int64
	readUnits, writeUnits                         float64
}

// shapeKey groups unmatched requests.
type shapeKey struct {
	table, index string
	access       insights.Access
	sortOp       insights.SortOp
	filter       bool
}

// unmatchedStats counts the unmatched requests of one shape.
type unmatchedStats struct {
	requests, itemsRead, itemsReturned int64
	readUnits, writeUnits              float64
	example                            string // the first one's key condition
	op                                 string // the first one's operation
}

// matchLocked checks q against the design (r.mu held).
func (r *Recorder) matchLocked(q *insights.Request) {
	if q.Access == insights.AccessNone || q.Access >= access.Count {
		return
	}
	f := r.design.File(q) // what design_match says (Design.Match)
	t := f.Table
	if f.Bind {
		t.Name = q.Table
		r.static = r.design.Check()
	}
	if f.Unchecked {
		return
	}
	if t != nil {
		i := f.Pattern
		if i < 0 && f.Learned != nil {
			t.Patterns = append(t.Patterns, f.Learned)
			i = len(t.Patterns) - 1
		}
		if i >= 0 {
			pt := t.Patterns[i]
			ps := r.patterns[pt]
			if ps == nil {
				ps = &patternStats{}
				r.patterns[pt] = ps
			}
			ps.requests++
			ps.itemsRead += int64(q.Read)
			ps.itemsReturned += int64(q.Returned)
			ps.readUnits += q.ReadUnits
			ps.writeUnits += q.WriteUnits
			if q.Throttled {
				ps.throttled++
			}
			if c := r.costly.find(r.seq); c != nil {
				c.Pattern = pt.Name
			}
			return
		}
	} else if q.Access.IsWrite() {
		return // a table the design does not declare: only its reads are flagged
	}
	sk := shapeKey{q.Table, q.Index, q.Access, q.Key.SortOp, q.Filter}
	u := r.unmatched[sk]
	if u == nil {
		if len(r.unmatched) >= r.opts.UnmatchedShapes {
			r.dropped++
			return
		}
		u = &unmatchedStats{example: insights.KeyText(q.Key), op: q.Op}
		r.unmatched[sk] = u
	}
	u.requests++
	u.itemsRead += int64(q.Read)
	u.itemsReturned += int64(q.Returned)
	u.readUnits += q.ReadUnits
	u.writeUnits += q.WriteUnits
}

// find returns the kept request numbered seq, or nil.
func (h *costHeap) find(seq int64) *CostlyRequest {
	for i := range h.reqs {
		if h.reqs[i].seq == seq {
			return &h.reqs[i].CostlyRequest
		}
	}
	return nil
}
