package storage

import (
	"encoding/binary"
	"math"
)

// entry is one stored item. rec is its record, in one allocation (or one
// place in a slab, slab.go):
//
//	record = uvarint(len(pk)) pk uvarint(len(sk)) sk body
//
// pk is the partition key's Value.Str(), sk the encoded sort key
// (keyenc.go; empty without a sort key), body the encoded item without
// its key attributes (encode.go). A record names its own key, so it is
// found again from itself (index entries, compaction). size is the item's
// DynamoDB size; skOff and bodyOff cache where sk and the body start
// (they fit the padding of the struct), so B-tree comparisons do not
// parse the header; bodyOff 0 marks a pivot, whose rec is a bare sort key.
type entry struct {
	rec     string
	size    uint32
	skOff   uint16
	bodyOff uint16
}

// maxRecordHeader bounds the key part of a record (lengths, pk and sk) so
// its offsets fit entry's fields. DynamoDB's own limits (2048 bytes of
// partition key, 1024 of sort key) are enforced by the emulator.
const maxRecordHeader = math.MaxUint16

// pivot is an entry usable only as a B-tree search key: rec is the bare
// encoded sort key, so building one does not allocate.
func pivot(sk string) entry { return entry{rec: sk} }

// appendRecHeader starts a record: its partition and sort keys.
func appendRecHeader(dst []byte, pk, sk string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(pk)))
	dst = append(dst, pk...)
	dst = binary.AppendUvarint(dst, uint64(len(sk)))
	return append(dst, sk...)
}

// recUvarint reads the uvarint at rec[i:] (a record's, well formed).
func recUvarint(rec string, i int) (n, next int) {
	for shift := 0; ; shift += 7 {
		b := rec[i]
		i++
		n |= int(b&0x7f) << shift
		if b < 0x80 {
			return n, i
		}
	}
}

// parseEntry rebuilds an entry from a record built by appendRecHeader.
func parseEntry(rec string, size uint32) entry {
	pkLen, i := recUvarint(rec, 0)
	skLen, j := recUvarint(rec, i+pkLen)
	return entry{rec: rec, size: size, skOff: uint16(j), bodyOff: uint16(j + skLen)}
}

// recPK returns the partition key of a record (of an entry or a
// partition's key record).
func recPK(rec string) string {
	n, i := recUvarint(rec, 0)
	return rec[i : i+n]
}

func (e entry) sortKey() string {
	if e.bodyOff == 0 {
		return e.rec
	}
	return e.rec[e.skOff:e.bodyOff]
}

func (e entry) body() string { return e.rec[e.bodyOff:] }

// pk returns the entry's partition key.
func (e entry) pk() string { return recPK(e.rec) }

func entryLess(a, b entry) bool { return a.sortKey() < b.sortKey() }

// partition holds the items of one partition key, ordered by sort key. Most
// partitions of most tables hold one item (every partition of a table
// without a sort key does), so a lone item is kept inline in one and the
// B-tree exists only while the partition holds two or more items. The lone
// item's fields are inlined, and its record names the partition key, so
// that a partition is 32 bytes and nothing else. With a tree, rec is a
// record of the partition key alone.
type partition struct {
	rec  string // the only item's record when tree == nil ("" when empty); else the key record
	size uint32 // the only item's size
	hash uint32 // partitionHash(pk)
	tree *ptree // the items when there are two or more (ptree.go)
}

// pk returns the partition key (its Value.Str()).
func (p *partition) pk() string { return recPK(p.rec) }

func (p *partition) one() entry { return parseEntry(p.rec, p.size) }

func (p *partition) setOne(e entry) { p.rec, p.size = e.rec, e.size }

// partitionLess orders partitions for Scan: by hash, then by key.
func partitionLess(a, b *partition) bool { return scanLess(a.hash, a.pk(), b.hash, b.pk()) }

// scanLess is Scan's order of partitions given their hashes and keys.
func scanLess(ha uint32, pka string, hb uint32, pkb string) bool {
	if ha != hb {
		return ha < hb
	}
	return pka < pkb
}

func (p *partition) len() int {
	if p.tree != nil {
		return p.tree.Len()
	}
	if p.rec != "" {
		return 1
	}
	return 0
}

func (p *partition) get(sk string) (entry, bool) {
	if p.tree != nil {
		return p.tree.Get(sk)
	}
	if p.rec != "" {
		if e := p.one(); e.sortKey() == sk {
			return e, true
		}
	}
	return entry{}, false
}

// set inserts or replaces e, and returns the partition to keep: p, or
// the one that replaces it when its entries no longer fit (a partition
// of several items shares an allocation with its ptree).
func (p *partition) set(e entry) *partition {
	switch {
	case p.tree != nil:
		t := p.tree
		if t.big == nil && len(t.small) == cap(t.small) && len(t.small) < ptreeSmallMax {
			if _, ok := t.search(e.sortKey()); !ok {
				n := len(t.small)
				np := smallPart(n, grownCap(n))
				np.rec, np.size, np.hash = p.rec, p.size, p.hash
				copy(np.tree.small, t.small)
				np.tree.Set(e) // there is room: np.tree stays
				return np
			}
		}
		p.tree = t.Set(e)
	case p.rec == "" || p.one().sortKey() == e.sortKey():
		p.setOne(e)
	default:
		np := smallPart(2, 4)
		if one := p.one(); one.sortKey() < e.sortKey() {
			np.tree.small[0], np.tree.small[1] = toSentry(one), toSentry(e)
		} else {
			np.tree.small[0], np.tree.small[1] = toSentry(e), toSentry(one)
		}
		// The key record: the partition key alone, a copy that keeps no
		// item's record alive.
		np.rec, np.size, np.hash = keyRecord(e.pk()), 0, p.hash
		return np
	}
	return p
}

// keyRecord is the record of a partition key alone.
func keyRecord(pk string) string {
	b := binary.AppendUvarint(make([]byte, 0, len(pk)+binary.MaxVarintLen64), uint64(len(pk)))
	return string(append(b, pk...))
}

// delete removes the item with sort key sk, which must be present.
func (p *partition) delete(sk string) {
	if p.tree == nil {
		p.setOne(entry{})
		return
	}
	p.tree.Delete(sk)
	if p.tree.Len() == 1 {
		p.setOne(p.tree.Min())
		p.tree = nil
	}
}

// bound is one end of a sort key range; a zero bound is open.
type bound struct {
	key  string
	set  bool
	excl bool
}

// below reports whether sk lies before the lower bound b.
func (b bound) below(sk string) bool {
	return b.set && (sk < b.key || (b.excl && sk == b.key))
}

// above reports whether sk lies after the upper bound b.
func (b bound) above(sk string) bool {
	return b.set && (sk > b.key || (b.excl && sk == b.key))
}

// walk visits the entries with lo <= sort key <= hi in ascending order, or in
// descending order when !forward, until iter returns false. It returns false
// when iter stopped it.
func (p *partition) walk(lo, hi bound, forward bool, iter func(entry) bool) bool {
	if p.tree == nil {
		if p.rec == "" {
			return true
		}
		e := p.one()
		sk := e.sortKey()
		if lo.below(sk) || hi.above(sk) {
			return true
		}
		return iter(e)
	}
	more := true
	if forward {
		fn := func(e entry) bool {
			sk := e.sortKey()
			if lo.below(sk) { // only an exclusive lower bound's own key
				return true
			}
			if hi.above(sk) {
				return false
			}
			more = iter(e)
			return more
		}
		var from *string
		if lo.set {
			from = &lo.key
		}
		p.tree.Ascend(from, fn)
		return more
	}
	fn := func(e entry) bool {
		sk := e.sortKey()
		if hi.above(sk) {
			return true
		}
		if lo.below(sk) {
			return false
		}
		more = iter(e)
		return more
	}
	var from *string
	if hi.set {
		from = &hi.key
	}
	p.tree.Descend(from, fn)
	return more
}

// partArena hands out a table's partitions from chunks of partChunk,
// doubling to partChunkMax (backed by the kernel at once, not a page
// fault at a time: populateSlice), reusing freed ones, so that a table's partitions are a few large
// allocations of their own rather than one small allocation each among
// the garbage of requests (which leaves the heap's spans half empty once
// the garbage is collected). A freed partition is zeroed before reuse;
// nothing may keep a pointer to a partition the table has removed.
type partArena struct {
	chunk []partition  // the unused tail of the newest chunk
	free  []*partition // freed partitions
	next  int          // the length of the next chunk (0: partChunk)
}

const (
	partChunk    = 256
	partChunkMax = 8192
)

func (a *partArena) alloc() *partition {
	if n := len(a.free); n > 0 {
		p := a.free[n-1]
		a.free = a.free[:n-1]
		return p
	}
	if len(a.chunk) == 0 {
		n := max(a.next, partChunk)
		a.next = min(2*n, partChunkMax)
		a.chunk = make([]partition, n)
		populateSlice(a.chunk)
	}
	p := &a.chunk[0]
	a.chunk = a.chunk[1:]
	return p
}

func (a *partArena) release(p *partition) {
	*p = partition{}
	a.free = append(a.free, p)
}
