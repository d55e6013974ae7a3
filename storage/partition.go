package storage

import "github.com/tidwall/btree"

// entry is one stored item: rec holds the encoded sort key (rec[:skLen], see
// keyenc.go) followed by the encoded item without its key attributes (see
// encode.go), in one allocation. size is the item's DynamoDB size.
type entry struct {
	rec   string
	skLen uint32
	size  uint32
}

func (e entry) sortKey() string { return e.rec[:e.skLen] }
func (e entry) body() string    { return e.rec[e.skLen:] }

func entryLess(a, b entry) bool { return a.sortKey() < b.sortKey() }

// pivot is an entry usable only as a B-tree search key.
func pivot(sk string) entry { return entry{rec: sk, skLen: uint32(len(sk))} }

// partition holds the items of one partition key, ordered by sort key. Most
// partitions of most tables hold one item (every partition of a table
// without a sort key does), so a lone item is kept inline in one and the
// B-tree exists only while the partition holds two or more items.
type partition struct {
	pk   string // the partition key's Value.Str(): text, canonical number text or raw bytes
	hash uint32 // partitionHash(pk)
	one  entry  // the only item when tree == nil; zero when the partition is empty
	tree *btree.BTreeG[entry]
}

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
	if p.one.rec != "" {
		return 1
	}
	return 0
}

func (p *partition) get(sk string) (entry, bool) {
	if p.tree != nil {
		return p.tree.Get(pivot(sk))
	}
	if p.one.rec != "" && p.one.sortKey() == sk {
		return p.one, true
	}
	return entry{}, false
}

// set inserts or replaces e.
func (p *partition) set(e entry) {
	switch {
	case p.tree != nil:
		p.tree.Set(e)
	case p.one.rec == "" || p.one.sortKey() == e.sortKey():
		p.one = e
	default:
		p.tree = btree.NewBTreeGOptions(entryLess, btree.Options{NoLocks: true})
		p.tree.Set(p.one)
		p.tree.Set(e)
		p.one = entry{}
	}
}

// delete removes the item with sort key sk, which must be present.
func (p *partition) delete(sk string) {
	if p.tree == nil {
		p.one = entry{}
		return
	}
	p.tree.Delete(pivot(sk))
	if p.tree.Len() == 1 {
		p.one, _ = p.tree.Min()
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
		if p.one.rec == "" {
			return true
		}
		sk := p.one.sortKey()
		if lo.below(sk) || hi.above(sk) {
			return true
		}
		return iter(p.one)
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
