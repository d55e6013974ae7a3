package storage

import "encoding/binary"

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
	x.walk(lo, hi, hiSet, start, q.Forward, func(ie ientry) bool { return visit(t.encodedOfEntry(ie)) })
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
	x.walk(lo, hi, hiSet, start, true, func(ie ientry) bool { return visit(t.encodedOfEntry(ie)) })
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
	prefix := string(buf)
	end := func(p string) (string, bool) { return prefixEnd(p) }
	if q.Sort.Op == SortAny {
		hi, hiSet = end(prefix)
		return prefix, hi, hiSet, true
	}
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
// or descending, until visit returns false.
func (x *index) walk(lo, hi string, hiSet bool, start *ientry, forward bool, visit func(ientry) bool) {
	if forward {
		from := newIentry(lo, minKeyEntry)
		if start != nil && ientryLess(from, *start) {
			from = *start
		}
		x.tree.Ascend(from, func(ie ientry) bool {
			if start != nil && !ientryLess(*start, ie) {
				return true // the start entry itself
			}
			if hiSet && ie.key >= hi {
				return false
			}
			return visit(ie)
		})
		return
	}
	var from ientry
	fromSet := hiSet
	if hiSet {
		from = newIentry(hi, minKeyEntry)
	}
	if start != nil && (!fromSet || ientryLess(*start, from)) {
		from, fromSet = *start, true
	}
	iter := func(ie ientry) bool {
		if start != nil && !ientryLess(ie, *start) {
			return true
		}
		if hiSet && ie.key >= hi {
			return true
		}
		if ie.key < lo {
			return false
		}
		return visit(ie)
	}
	if fromSet {
		x.tree.Descend(from, iter)
	} else {
		x.tree.Reverse(iter)
	}
}
