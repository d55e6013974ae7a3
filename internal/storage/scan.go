package storage

// ScanRange selects what Scan visits.
type ScanRange struct {
	// Segment of TotalSegments for a parallel scan; TotalSegments 0 (or 1)
	// scans the whole table.
	Segment, TotalSegments int
	// ExclusiveStart, when set, continues after this key in scan order. The
	// key need not exist any more.
	ExclusiveStart *Key
}

// Scan visits items in scan order until visit returns false. Scan order is
// deterministic: partitions ordered by a fixed hash of the partition key
// (then by the key itself), items within a partition by sort key. Segment i
// of N is the contiguous run of partitions whose hash h has h*N>>32 == i
// (see SegmentOf). Scan holds the table's read lock while visiting: visit
// must not call back into the table. Each visit gets a freshly decoded item
// it may keep.
//
// An out-of-range segment, or an ExclusiveStart that does not fit the key
// schema, visits nothing; an ExclusiveStart in an earlier segment starts at
// the segment's beginning, one in a later segment visits nothing (the
// emulator rejects both first).
func (t *Table) Scan(r ScanRange, visit func(k Key, it Item) bool) {
	t.ScanEncoded(r, func(e EncodedItem) bool { return visit(e.Key(), e.Item()) })
}

// ScanEncoded is Scan without the decoding: each visit gets the item as stored.
func (t *Table) ScanEncoded(r ScanRange, visit func(EncodedItem) bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	scanOrder(&t.ks, &t.parts, r, visit)
}

// scanOrder is ScanEncoded over parts, a table's or a snapshot's
// partitions, whose key schema is ks.
func scanOrder(ks *KeySchema, parts *ptable, r ScanRange, visit func(EncodedItem) bool) {
	lo, hi, ok := segmentRange(r.Segment, r.TotalSegments)
	if !ok {
		return
	}
	startHash, startPK := uint32(lo), ""
	var after bound
	if s := r.ExclusiveStart; s != nil {
		if ks.checkKey(*s) != nil {
			return
		}
		pk := s.Partition.str
		if h := partitionHash(pk); uint64(h) >= lo {
			startHash, startPK = h, pk
			after = bound{key: ks.sortKeyOf(*s), set: true, excl: true}
		}
	}
	parts.ascend(startHash, startPK, func(p *partition) bool {
		if uint64(p.hash) >= hi {
			return false
		}
		var from bound
		if after.set && p.hash == startHash && p.pk() == startPK {
			from = after
		}
		return p.walk(from, bound{}, true, func(e entry) bool {
			return visit(encodedIn(ks, e))
		})
	})
}

// SegmentOf returns the parallel scan segment (of totalSegments) holding the
// items of partition key pk. It is 0 when totalSegments <= 1.
func SegmentOf(pk Value, totalSegments int) int {
	if totalSegments <= 1 {
		return 0
	}
	return int(uint64(partitionHash(pk.str)) * uint64(totalSegments) >> 32)
}

// segmentRange returns the hashes [lo, hi) of segment seg of total.
func segmentRange(seg, total int) (lo, hi uint64, ok bool) {
	if total <= 1 {
		return 0, 1 << 32, seg == 0
	}
	if seg < 0 || seg >= total {
		return 0, 0, false
	}
	n := uint64(total)
	lo = (uint64(seg)<<32 + n - 1) / n
	hi = (uint64(seg+1)<<32 + n - 1) / n
	return lo, hi, true
}
