package storage

import (
	"encoding/binary"
	"math"
)

// IndexQuery selects entries of one index partition for QueryIndex.
type IndexQuery struct {
	// Partition holds the value of every index partition key attribute,
	// in the index schema's order.
	Partition []Value
	// SortPrefix fixes the first len(SortPrefix) sort key attributes by
	// equality; Sort then restricts the next one (SortAny: none).
	SortPrefix []Value
	Sort       SortCondition
	Forward    bool // ascending index key order
	// ExclusiveStart, when set, holds the index's and the table's key
	// attributes of the entry to continue strictly after, in the walk
	// direction. The entry need not exist any more.
	ExclusiveStart Item
}

// IndexScanRange selects what ScanIndex visits: as ScanRange, with the
// start given as the index's and the table's key attributes.
type IndexScanRange struct {
	Segment, TotalSegments int
	ExclusiveStart         Item
}

// QueryIndex visits the items in one partition of the index called name
// that satisfy q, in index key order (then table key order), until visit
// returns false. It seeks to the partition and never walks others. Each
// visit gets the table's item as stored, whole: applying the index's
// projection is the reader's. It holds the table's read lock while
// visiting, as Query does. A query that does not fit the index schema
// (wrong kinds or counts) matches nothing; ErrNoIndex if there is no such
// index.
func (t *Table) QueryIndex(name string, q IndexQuery, visit func(EncodedItem) bool) error {
	x := t.readIndexLocking(name)
	defer t.mu.RUnlock()
	if x == nil {
		return ErrNoIndex
	}
	lo, hi, hiSet, ok := x.queryBounds(q)
	if !ok {
		return nil
	}
	var start *ientry
	if q.ExclusiveStart != nil {
		s, ok := t.indexPivot(x, q.ExclusiveStart)
		if !ok {
			return nil
		}
		start = &s
	}
	whole := q.Sort.Op == SortAny && len(q.SortPrefix) == 0
	x.walk(lo, hi, hiSet, whole, start, q.Forward, func(ie ientry) bool { return visit(t.encodedOfEntry(ie)) })
	return nil
}

// ScanIndex visits the entries of the index called name in scan order
// (index partitions by hash, then index key, then table key) until visit
// returns false; segment i of N is a contiguous hash range, as for Scan.
// Each visit gets the table's item as stored, whole.
func (t *Table) ScanIndex(name string, r IndexScanRange, visit func(EncodedItem) bool) error {
	x := t.readIndexLocking(name)
	defer t.mu.RUnlock()
	if x == nil {
		return ErrNoIndex
	}
	loH, hiH, ok := segmentRange(r.Segment, r.TotalSegments)
	if !ok {
		return nil
	}
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], uint32(loH))
	lo := string(b[:])
	hi, hiSet := "", false
	if hiH < 1<<32 {
		binary.BigEndian.PutUint32(b[:], uint32(hiH))
		hi, hiSet = string(b[:]), true
	}
	var start *ientry
	if r.ExclusiveStart != nil {
		s, ok := t.indexPivot(x, r.ExclusiveStart)
		if !ok {
			return nil
		}
		if hiSet && s.key >= hi {
			return nil
		}
		start = &s
	}
	x.walk(lo, hi, hiSet, false, start, true, func(ie ientry) bool { return visit(t.encodedOfEntry(ie)) })
	return nil
}

// IndexSegmentOf returns the parallel scan segment (of totalSegments) of
// the index called name that holds the entry with the key attributes in
// start; false when start lacks one of them or there is no such index.
func (t *Table) IndexSegmentOf(name string, start Item, totalSegments int) (int, bool) {
	t.mu.RLock()
	x := t.indexLocked(name)
	t.mu.RUnlock()
	if x == nil {
		return 0, false
	}
	key, ok := x.indexKey(nil, start)
	if !ok {
		return 0, false
	}
	if totalSegments <= 1 {
		return 0, true
	}
	h := binary.BigEndian.Uint32(key)
	return int(uint64(h) * uint64(totalSegments) >> 32), true
}

// encodedOfEntry returns the table item an index entry points at.
func (t *Table) encodedOfEntry(ie ientry) EncodedItem {
	return t.encodedOf(t.keyOf(ie.e), ie.e)
}

// indexPivot is the search key of the entry whose index and table key
// attributes are in it; false if one is missing or of another kind.
func (t *Table) indexPivot(x *index, it Item) (ientry, bool) {
	key, ok := x.indexKey(nil, it)
	if !ok {
		return ientry{}, false
	}
	pv, ok := it[t.ks.Partition.Name]
	if !ok || pv.kind != t.ks.Partition.Kind {
		return ientry{}, false
	}
	sk := ""
	if t.ks.HasSort() {
		sv, ok := it[t.ks.Sort.Name]
		if !ok || sv.kind != t.ks.Sort.Kind {
			return ientry{}, false
		}
		sk = sortKeyBytes(sv)
	}
	return newIentry(string(key), keyPivot(pv.str, sk)), true
}

// queryBounds turns q into the half-open range [lo, hi) of index keys
// (hi unbounded when !hiSet); ok is false when q does not fit the schema.
func (x *index) queryBounds(q IndexQuery) (lo, hi string, hiSet, ok bool) {
	s := x.def.Schema
	if len(q.Partition) != len(s.Partition) || len(q.SortPrefix) > len(s.Sort) {
		return "", "", false, false
	}
	buf := make([]byte, 4, 64)
	for i, v := range q.Partition {
		if v.kind != s.Partition[i].Kind {
			return "", "", false, false
		}
		buf = appendTupleComponent(buf, v)
	}
	binary.BigEndian.PutUint32(buf, partitionHash(buf[4:]))
	for i, v := range q.SortPrefix {
		if v.kind != s.Sort[i].Kind {
			return "", "", false, false
		}
		buf = appendTupleComponent(buf, v)
	}
	if q.Sort.Op == SortAny {
		// The prefix and its end in one string (one allocation, not two:
		// this is every index Query of a whole partition).
		n := len(buf)
		buf = append(buf, buf...)
		end, hiSet := bytesPrefixEnd(buf[n:])
		both := string(buf[:n+len(end)])
		return both[:n], both[n:], hiSet, true
	}
	prefix := string(buf)
	end := func(p string) (string, bool) { return prefixEnd(p) }
	if len(q.SortPrefix) >= len(s.Sort) {
		return "", "", false, false
	}
	kind := s.Sort[len(q.SortPrefix)].Kind
	withValue := func(v Value) (string, bool) {
		if v.kind != kind {
			return "", false
		}
		return string(appendTupleComponent([]byte(prefix), v)), true
	}
	v0, ok := withValue(q.Sort.Values[0])
	if !ok {
		return "", "", false, false
	}
	switch q.Sort.Op {
	case SortEQ:
		hi, hiSet = end(v0)
		return v0, hi, hiSet, true
	case SortLT:
		return prefix, v0, true, true
	case SortLE:
		hi, hiSet = end(v0)
		return prefix, hi, hiSet, true
	case SortGT:
		lo, ok := end(v0)
		if !ok {
			return "", "", false, false
		}
		hi, hiSet = end(prefix)
		return lo, hi, hiSet, true
	case SortGE:
		hi, hiSet = end(prefix)
		return v0, hi, hiSet, true
	case SortBetween:
		v1, ok := withValue(q.Sort.Values[1])
		if !ok {
			return "", "", false, false
		}
		hi, hiSet = end(v1)
		return v0, hi, hiSet, true
	case SortBeginsWith:
		if kind == KindN {
			return "", "", false, false
		}
		p := string(appendEscaped([]byte(prefix), q.Sort.Values[0].str))
		hi, hiSet = end(p)
		return p, hi, hiSet, true
	}
	return "", "", false, false
}

// walk visits the entries with lo <= key < hi (hi unbounded when !hiSet),
// strictly after start in the walk direction when start is set, ascending
// or descending, until visit returns false. whole says that [lo, hi) is a
// whole index partition (its prefix and the prefix's end), which lets the
// search start at the first entry of lo's prefix (keyPrefix) or the last
// of hi's: the entries about the partition's first or last then sort by
// their prefixes alone, and the search reads no key of them.
func (x *index) walk(lo, hi string, hiSet, whole bool, start *ientry, forward bool, visit func(ientry) bool) {
	b := ientryWalk{lo: lo, hi: hi, hiSet: hiSet, start: start, forward: forward,
		loPre: keyPrefix(lo), hiPre: keyPrefix(hi)}
	// visit is passed to each call, not kept in b: a function kept in a
	// struct whose entries are handed to it counts as escaping, and the
	// caller's visit (a Query's page reader) would be allocated.
	add := func(ie ientry) bool { return b.add(ie, visit) }
	if forward {
		from := newIentry(lo, minKeyEntry)
		if start != nil && ientryLess(from, *start) {
			from = *start
		} else if whole {
			from, b.skipLow = ientry{pre: b.loPre, e: minKeyEntry}, true
		}
		x.tree.Ascend(from, add)
		b.flush(visit)
		return
	}
	var from ientry
	fromSet := hiSet
	if hiSet {
		from = newIentry(hi, minKeyEntry)
		if whole && b.hiPre < math.MaxUint64 {
			from = ientry{pre: b.hiPre + 1, e: minKeyEntry}
		}
	}
	if start != nil && (!fromSet || ientryLess(*start, from)) {
		from, fromSet = *start, true
	}
	if fromSet {
		x.tree.Descend(from, add)
	} else {
		x.tree.Reverse(add)
	}
	b.flush(visit)
}

// ientryWalk is index.walk's visit of the entries the tree gives it, a
// batch at a time: it collects up to walkBatch entries, asks for their
// keys and records at once (prefetch.go), and then checks and visits
// them. In an index of millions of entries each key and record is a
// cache miss; read one entry at a time, a page of 10 entries costs ten
// misses one after another, and asked for together about one.
type ientryWalk struct {
	lo, hi       string
	loPre, hiPre uint64 // keyPrefix(lo), keyPrefix(hi)
	hiSet        bool
	skipLow      bool // the walk starts before lo: skip the entries below it
	start        *ientry
	forward      bool
	n            int
	batch        [walkBatch]ientry
}

// walkBatch is how many entries ientryWalk collects: a Query's page of
// 10 entries and the one that ends it.
const walkBatch = 16

// add collects ie, and checks and visits the batch when it is full. It
// stops the tree's walk at an entry past the range by its prefix alone:
// keyPrefix is monotone, so a prefix above hi's (forward) or below lo's
// (backward) means a key outside the range.
func (w *ientryWalk) add(ie ientry, visit func(ientry) bool) bool {
	if w.forward && w.hiSet && ie.pre > w.hiPre || !w.forward && ie.pre < w.loPre {
		return false
	}
	w.batch[w.n] = ie
	if w.n++; w.n < walkBatch {
		return true
	}
	return w.flush(visit)
}

// flush checks and visits the collected entries; false when the walk is
// over (the tree then gives no more, so a later flush finds none).
func (w *ientryWalk) flush(visit func(ientry) bool) bool {
	batch := w.batch[:w.n]
	w.n = 0
	for i := range batch {
		prefetchString(batch[i].key)
		prefetchString(batch[i].e.rec)
	}
	for _, ie := range batch {
		if !w.check(ie, visit) {
			return false
		}
	}
	return true
}

// check visits ie if it is in the range and after start; false when the
// walk is over. A key is read only when its prefix cannot decide.
func (w *ientryWalk) check(ie ientry, visit func(ientry) bool) bool {
	if w.forward {
		if w.start != nil && !ientryLess(*w.start, ie) {
			return true // the start entry itself
		}
		if w.skipLow && ie.pre == w.loPre && ie.key < w.lo {
			return true
		}
		if w.hiSet && ie.pre >= w.hiPre && ie.key >= w.hi {
			return false
		}
		return visit(ie)
	}
	if w.start != nil && !ientryLess(ie, *w.start) {
		return true
	}
	if w.hiSet && ie.pre >= w.hiPre && ie.key >= w.hi {
		return true
	}
	if ie.pre <= w.loPre && ie.key < w.lo {
		return false
	}
	return visit(ie)
}
