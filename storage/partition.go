package storage

import (
	"encoding/binary"
	"math"

	"github.com/tidwall/btree"
)

// entry is one stored item. rec holds, in one allocation, the length of the
// encoded sort key as a uvarint, the encoded sort key (see keyenc.go), and
// the encoded item without its key attributes (see encode.go); rec is
// self-describing so a partition's lone item needs no more than rec and size.
// size is the item's DynamoDB size. skLen and hdr cache where the sort key
// lies in rec (they fit the padding of the struct), so B-tree comparisons
// do not parse the header.
type entry struct {
	rec   string
	size  uint32
	skLen uint16 // len of the encoded sort key
	hdr   uint8  // len of the uvarint header; 0 marks a pivot
}

// maxSortKeyLen bounds an encoded sort key so its length fits entry.skLen.
// DynamoDB's own limit, 1024 bytes, is enforced by the emulator.
const maxSortKeyLen = math.MaxUint16

// pivot is an entry usable only as a B-tree search key: rec is the bare
// encoded sort key, so building one does not allocate.
func pivot(sk string) entry { return entry{rec: sk} }

// appendRecHeader starts the stored form of an entry: len(sk), then sk.
func appendRecHeader(dst []byte, sk string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(sk)))
	return append(dst, sk...)
}

// parseEntry rebuilds an entry from a rec built by appendRecHeader.
func parseEntry(rec string, size uint32) entry {
	n, i := 0, 0
	for shift := 0; ; shift += 7 {
		b := rec[i]
		i++
		n |= int(b&0x7f) << shift
		if b < 0x80 {
			break
		}
	}
	return entry{rec: rec, size: size, skLen: uint16(n), hdr: uint8(i)}
}

func (e entry) sortKey() string {
	if e.hdr == 0 {
		return e.rec
	}
	return e.rec[e.hdr : int(e.hdr)+int(e.skLen)]
}

func (e entry) body() string { return e.rec[int(e.hdr)+int(e.skLen):] }

func entryLess(a, b entry) bool { return a.sortKey() < b.sortKey() }

// partition holds the items of one partition key, ordered by sort key. Most
// partitions of most tables hold one item (every partition of a table
// without a sort key does), so a lone item is kept inline in one and the
// B-tree exists only while the partition holds two or more items. The lone
// item's fields are inlined so that a partition is 48 bytes.
type partition struct {
	pk      string // the partition key's Value.Str(): text, canonical number text or raw bytes
	oneRec  string // the only item's rec when tree == nil; "" when the partition is empty
	oneSize uint32 // the only item's size
	hash    uint32 // partitionHash(pk)
	tree    *btree.BTreeG[entry]
}

func (p *partition) one() entry { return parseEntry(p.oneRec, p.oneSize) }

func (p *partition) setOne(e entry) { p.oneRec, p.oneSize = e.rec, e.size }

// partitionLess orders partitions for Scan: by hash, then by key.
func partitionLess(a, b *partition) bool {
	if a.hash != b.hash {
		return a.hash < b.hash
	}
	return a.pk < b.pk
}

func (p *partition) len() int {
	if p.tree != nil {
		return p.tree.Len()
	}
	if p.oneRec != "" {
		return 1
	}
	return 0
}

func (p *partition) get(sk string) (entry, bool) {
	if p.tree != nil {
		return p.tree.Get(pivot(sk))
	}
	if p.oneRec != "" {
		if e := p.one(); e.sortKey() == sk {
			return e, true
		}
	}
	return entry{}, false
}

// set inserts or replaces e.
func (p *partition) set(e entry) {
	switch {
	case p.tree != nil:
		p.tree.Set(e)
	case p.oneRec == "" || p.one().sortKey() == e.sortKey():
		p.setOne(e)
	default:
		p.tree = btree.NewBTreeGOptions(entryLess, btree.Options{NoLocks: true})
		p.tree.Set(p.one())
		p.tree.Set(e)
		p.setOne(entry{})
	}
}

// delete removes the item with sort key sk, which must be present.
func (p *partition) delete(sk string) {
	if p.tree == nil {
		p.setOne(entry{})
		return
	}
	p.tree.Delete(pivot(sk))
	if p.tree.Len() == 1 {
		e, _ := p.tree.Min()
		p.setOne(e)
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
		if p.oneRec == "" {
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
		if lo.set {
			p.tree.Ascend(pivot(lo.key), fn)
		} else {
			p.tree.Scan(fn)
		}
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
	if hi.set {
		p.tree.Descend(pivot(hi.key), fn)
	} else {
		p.tree.Reverse(fn)
	}
	return more
}
