package storage

import (
	"slices"
	"strings"
	"sync/atomic"
	"unsafe"
)

// itree is the B+tree of an index's entries, in ientryLess order.
//
// It replaces a general B-tree (tidwall/btree) for one reason: the reads
// of a search. In an index of millions of entries nearly every node a
// search reads is a cache miss and a TLB miss (about 0.4-0.5 µs each on
// the VM the scale benchmarks were measured on), and a general
// B-tree's node is a header, a slice of up to 255 entries of 48 bytes (12 KB, three pages)
// and a pointer to a slice of children: its binary search reads seven or
// eight lines of the entries one after another, then the children's
// slice header, then the child. Here a node keeps the 8-byte prefixes of
// its keys (ientry.pre) in one array beside its header, 856 bytes that
// are asked for at once (prefetch.go) when the node's address is known,
// so a search reads a node in about the time of one miss, then the one
// line of the entry or child it chose. Ties of prefixes fall back to the
// full comparison, as ientryLess does.
//
// Leaves hold the entries; a branch holds its children and, for each
// child but the first, a separator: an entry no greater than any entry
// below that child and greater than every entry below the children
// before it (the least entry below it when it was made; deleting entries
// keeps that true). Searches never read a branch's first slot. An
// insert into a full leaf evens it out with a neighbour with room before
// it splits the leaf (spill). A node
// that falls below a quarter full after a delete is merged with a
// neighbour, or takes entries from it.
//
// Copy-on-write: Copy gives both trees new owner ids, so every node is
// then shared; a write copies the nodes on its path that are not its
// tree's own (own), as the general B-tree did with its isoid. Readers
// never read or write owner ids, so they may run beside a Copy; two
// Copies of one tree must not (cowMu, cow.go).
type itree struct {
	root  *inode
	count int
	owner uint64
}

// inode is an itree node; header and pres first, the lines a search
// reads (prefetchNode). An entry is kept in parts, its index key as a
// place in keys: entries of one key lie side by side and share it, so a
// slot is 29 bytes where an ientry is 48 (docs/performance.md).
type inode struct {
	owner uint64
	n     int32
	leaf  bool
	kids  *[itreeWidth]*inode // a branch's children
	pres  [itreeWidth]uint64  // pres[i] is entry i's prefix (ientry.pre)
	keys  []string            // the index keys of the node's entries
	kix   [itreeWidth]uint8   // entry i's index key is keys[kix[i]]
	recs  [itreeWidth]string  // entry i's record
	sizes [itreeWidth]uint32  // entry i's size
}

const (
	// itreeWidth is a node's most entries or children: the node (48 bytes
	// of header, 29 a slot, the allocator's 8 of header) fills the
	// 3,072-byte class. At 1M items with one GSI (dynamoemu-bench -memory
	// 1000000 -gsi) 68 in the 2,048 class kept 380-387 resident bytes an
	// item, 90 in the 2,688 class 392-396, this 369-372.
	itreeWidth = 104
	// itreeMin is the fewest entries or children a node keeps after a
	// delete, unless it is the root.
	itreeMin = itreeWidth / 4
)

// itreeFirstKeys is the room for index keys a node is first given: for
// 1M entries 10 a key, 8 left room for 178,430 keys at the end, 12 for
// 189,828.
const itreeFirstKeys = 8

// itreeOwners hands out owner ids.
var itreeOwners atomic.Uint64

// newItree returns an empty tree.
func newItree() *itree { return &itree{owner: itreeOwners.Add(1)} }

// Len returns the number of entries.
func (t *itree) Len() int { return t.count }

// Copy returns a copy of t in O(1): both share t's nodes, and each
// copies a node before its first write to it.
func (t *itree) Copy() *itree {
	t.owner = itreeOwners.Add(1)
	return &itree{root: t.root, count: t.count, owner: itreeOwners.Add(1)}
}

// copyShared is Copy of a tree that other tables or snapshots may hold
// too (cowMu, cow.go).
func (t *itree) copyShared() *itree {
	cowMu.Lock()
	defer cowMu.Unlock()
	return t.Copy()
}

// prefetchNode asks for n's header and prefixes, and its children's
// array, at once (prefetch.go).
func prefetchNode(n *inode) {
	if noPrefetch.Load() {
		return
	}
	prefetchLines(unsafe.Pointer(n), unsafe.Offsetof(n.keys))
}

// keyAt returns entry i's index key.
func (n *inode) keyAt(i int) string { return n.keys[n.kix[i]] }

// at returns entry i; a branch's first slot may hold none (zero).
func (n *inode) at(i int) ientry {
	if n.recs[i] == "" {
		return ientry{}
	}
	return ientry{key: n.keyAt(i), pre: n.pres[i], e: parseEntry(n.recs[i], n.sizes[i])}
}

// less reports whether entry i is less than k, by prefix when they differ.
func (n *inode) less(i int, k *ientry) bool {
	if p := n.pres[i]; p != k.pre {
		return p < k.pre
	}
	return n.tie(i, k) < 0
}

// greater reports whether entry i is greater than k.
func (n *inode) greater(i int, k *ientry) bool {
	if p := n.pres[i]; p != k.pre {
		return p > k.pre
	}
	return n.tie(i, k) > 0
}

// tie compares entry i with k, of the same prefix, as ientryCmp does:
// it reads the entry's record only when their index keys are equal.
func (n *inode) tie(i int, k *ientry) int {
	if k.leastOfPrefix() {
		return 1
	}
	if c := ikeyCmp(n.keyAt(i), k.key); c != 0 {
		return c
	}
	return tkeyCmp(parseEntry(n.recs[i], 0), k.e)
}

// lower returns the first i in [from, n) whose entry is not less than k,
// or n.
func (n *inode) lower(k *ientry, from int) int {
	lo, hi := from, int(n.n)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if n.less(m, k) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// upper returns the first i in [from, n) whose entry is greater than k,
// or n.
func (n *inode) upper(k *ientry, from int) int {
	lo, hi := from, int(n.n)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if n.greater(m, k) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// child returns the index of the branch's child below which k belongs:
// the last whose separator is not greater than k, or the first.
func (n *inode) child(k *ientry) int {
	i := n.upper(k, 1) - 1
	if n.kids[i] != nil {
		prefetchNode(n.kids[i])
	}
	return i
}

// Get returns the entry equal to k.
func (t *itree) Get(k ientry) (ientry, bool) {
	n := t.root
	if n == nil {
		return ientry{}, false
	}
	prefetchNode(n)
	for !n.leaf {
		n = n.kids[n.child(&k)]
	}
	if i := n.lower(&k, 0); i < int(n.n) && !n.greater(i, &k) {
		return n.at(i), true
	}
	return ientry{}, false
}

// Ascend calls fn on the entries not less than pivot, in ascending order,
// until fn returns false.
func (t *itree) Ascend(pivot ientry, fn func(ientry) bool) {
	if t.root != nil {
		prefetchNode(t.root)
		ascend(t.root, &pivot, fn)
	}
}

// Scan calls fn on every entry in ascending order until fn returns false.
func (t *itree) Scan(fn func(ientry) bool) {
	if t.root != nil {
		ascend(t.root, nil, fn)
	}
}

// Descend calls fn on the entries not greater than pivot, in descending
// order, until fn returns false.
func (t *itree) Descend(pivot ientry, fn func(ientry) bool) {
	if t.root != nil {
		prefetchNode(t.root)
		descend(t.root, &pivot, fn)
	}
}

// Reverse calls fn on every entry in descending order until fn returns
// false.
func (t *itree) Reverse(fn func(ientry) bool) {
	if t.root != nil {
		descend(t.root, nil, fn)
	}
}

// Items returns every entry in ascending order.
func (t *itree) Items() []ientry {
	out := make([]ientry, 0, t.count)
	t.Scan(func(ie ientry) bool {
		out = append(out, ie)
		return true
	})
	return out
}

// ascend is Ascend below n, from k (nil: from the first); false when fn
// stopped it.
func ascend(n *inode, k *ientry, fn func(ientry) bool) bool {
	if n.leaf {
		i := 0
		if k != nil {
			i = n.lower(k, 0)
		}
		for ; i < int(n.n); i++ {
			if !fn(n.at(i)) {
				return false
			}
		}
		return true
	}
	i := 0
	if k != nil {
		i = n.child(k)
	}
	if !ascend(n.kids[i], k, fn) {
		return false
	}
	for i++; i < int(n.n); i++ {
		if !ascend(n.kids[i], nil, fn) {
			return false
		}
	}
	return true
}

// descend is Descend below n, from k (nil: from the last); false when fn
// stopped it.
func descend(n *inode, k *ientry, fn func(ientry) bool) bool {
	if n.leaf {
		i := int(n.n) - 1
		if k != nil {
			i = n.upper(k, 0) - 1
		}
		for ; i >= 0; i-- {
			if !fn(n.at(i)) {
				return false
			}
		}
		return true
	}
	i := int(n.n) - 1
	if k != nil {
		i = n.child(k)
	}
	if !descend(n.kids[i], k, fn) {
		return false
	}
	for i--; i >= 0; i-- {
		if !descend(n.kids[i], nil, fn) {
			return false
		}
	}
	return true
}

// newNode returns an empty node of t's own.
func (t *itree) newNode(leaf bool) *inode {
	n := &inode{owner: t.owner, leaf: leaf}
	if !leaf {
		n.kids = new([itreeWidth]*inode)
	}
	return n
}

// own returns *cn, first replaced by a copy of t's own if it is not.
func (t *itree) own(cn **inode) *inode {
	n := *cn
	if n.owner == t.owner {
		return n
	}
	c := new(inode)
	*c = *n
	c.owner = t.owner
	c.keys = slices.Clone(n.keys)
	if !n.leaf {
		kids := *n.kids
		c.kids = &kids
	}
	*cn = c
	return c
}

// ownKey returns k's key, for leaf n's place i, as a string the tree
// may keep: its neighbour's equal key, else a copy.
func (n *inode) ownKey(i int, k *ientry) string {
	for j := max(i-1, 0); j <= i && j < int(n.n); j++ {
		if n.pres[j] == k.pre && n.keyAt(j) == k.key {
			return n.keyAt(j)
		}
	}
	return strings.Clone(k.key)
}

// put sets entry i (and child i) to e (and kid); n.n counts slot i.
func (n *inode) put(i int, e ientry, kid *inode) {
	n.pres[i], n.recs[i], n.sizes[i] = e.pre, e.e.rec, e.e.size
	n.kix[i] = n.keyPlace(i, e.key, e.pre)
	if kid != nil {
		n.kids[i] = kid
	}
}

// keyPlace returns the place in n.keys of key, of prefix pre, about to
// be entry i's: the one slot i or a neighbour holds it at (any slot's
// place of an equal key will do), else a new one at the end.
func (n *inode) keyPlace(i int, key string, pre uint64) uint8 {
	for j := max(i-1, 0); j <= i+1 && j < itreeWidth; j++ {
		if k := n.kix[j]; n.pres[j] == pre && int(k) < len(n.keys) && n.keys[k] == key {
			return k
		}
	}
	if len(n.keys) == cap(n.keys) {
		n.tidyKeys(i)
		if c := len(n.keys); c == cap(n.keys) { // grown by half, not doubled
			n.keys = append(make([]string, 0, min(max(c+c/2+2, itreeFirstKeys), itreeWidth+1)), n.keys...)
		}
	}
	n.keys = append(n.keys, key)
	return uint8(len(n.keys) - 1)
}

// tidyKeys drops the places of n.keys no entry but skip (-1: none) holds.
func (n *inode) tidyKeys(skip int) {
	var held [256]bool
	for i := range int(n.n) {
		if k := int(n.kix[i]); i != skip && k < len(n.keys) {
			held[k] = true
		}
	}
	var place [256]uint8
	kept := 0
	for k := range n.keys {
		if held[k] {
			n.keys[kept], place[k] = n.keys[k], uint8(kept)
			kept++
		}
	}
	clear(n.keys[kept:])
	n.keys = n.keys[:kept]
	for i := range int(n.n) {
		n.kix[i] = place[n.kix[i]]
	}
}

// shift moves count entries (and children) of n from from to to.
func (n *inode) shift(from, to, count int) {
	copy(n.pres[to:to+count], n.pres[from:from+count])
	copy(n.kix[to:to+count], n.kix[from:from+count])
	copy(n.recs[to:to+count], n.recs[from:from+count])
	copy(n.sizes[to:to+count], n.sizes[from:from+count])
	if !n.leaf {
		copy(n.kids[to:to+count], n.kids[from:from+count])
	}
}

// clearSlots empties slots from to to of n.
func (n *inode) clearSlots(from, to int) {
	clear(n.pres[from:to])
	clear(n.kix[from:to])
	clear(n.recs[from:to])
	clear(n.sizes[from:to])
	if !n.leaf {
		clear(n.kids[from:to])
	}
}

// moveSlots copies count entries (and children) of src from si to dst
// from di, in order; dst.n counts them already.
func moveSlots(dst *inode, di int, src *inode, si, count int) {
	copy(dst.pres[di:di+count], src.pres[si:si+count])
	copy(dst.recs[di:di+count], src.recs[si:si+count])
	copy(dst.sizes[di:di+count], src.sizes[si:si+count])
	if !src.leaf {
		copy(dst.kids[di:di+count], src.kids[si:si+count])
	}
	for j := range count {
		dst.kix[di+j] = dst.keyPlace(di+j, src.keyAt(si+j), src.pres[si+j])
	}
}

// insertAt shifts entries (and children) i.. one right and puts e (and
// kid) at i; n has room.
func (n *inode) insertAt(i int, e ientry, kid *inode) {
	n.shift(i, i+1, int(n.n)-i)
	n.n++
	n.put(i, e, kid)
}

// removeAt removes entry (and child) i.
func (n *inode) removeAt(i int) {
	m := int(n.n)
	n.shift(i+1, i, m-i-1)
	n.clearSlots(m-1, m)
	n.n--
}

// moveTail moves n's entries (and children) from i on to the start of
// the empty node r, with room for about half of n's keys.
func (n *inode) moveTail(i int, r *inode) {
	m := int(n.n)
	r.keys = make([]string, 0, max(len(n.keys)/2+2, itreeFirstKeys))
	r.n = int32(m - i)
	moveSlots(r, 0, n, i, m-i)
	n.clearSlots(i, m)
	n.n = int32(i)
	n.tidyKeys(-1)
}

// Put inserts the entry of index key key for e, or replaces the entry
// equal to it. It keeps no reference to key (ownKey): its caller may
// convert a buffer it reuses, on the stack for a key of up to 32 bytes
// (index.replace).
func (t *itree) Put(key string, e entry) {
	k := newIentry(key, e)
	if t.root == nil {
		n := t.newNode(true)
		n.insertAt(0, ientry{key: strings.Clone(key), pre: k.pre, e: e}, nil)
		t.root, t.count = n, 1
		return
	}
	prefetchNode(t.root)
	right, sep, added := t.set(&t.root, &k, e)
	if right != nil {
		r := t.newNode(false)
		r.n = 2
		r.kids[0] = t.root
		r.put(1, sep, right)
		t.root = r
	}
	if added {
		t.count++
	}
}

// set inserts or replaces the entry of k (for searches only) below *cn,
// made of e and a key the tree owns. When the node splits, it returns
// the new node to its right and that node's separator.
func (t *itree) set(cn **inode, k *ientry, e entry) (right *inode, sep ientry, added bool) {
	n := t.own(cn)
	var i int
	var kid *inode
	if n.leaf {
		i = n.lower(k, 0)
		if i < int(n.n) && !n.greater(i, k) {
			n.put(i, ientry{key: n.keyAt(i), pre: k.pre, e: e}, nil) // equal: its key's place is kept
			return nil, ientry{}, false
		}
		sep = ientry{key: n.ownKey(i, k), pre: k.pre, e: e}
	} else {
		c := n.child(k)
		if l := n.kids[c]; l.leaf && l.n == itreeWidth && t.spill(n, c, k) {
			c = n.child(k) // the leaf, or its neighbour, now has room
		}
		kid, sep, added = t.set(&n.kids[c], k, e)
		if kid == nil {
			return nil, ientry{}, added
		}
		i = c + 1
	}
	added = added || n.leaf
	if int(n.n) < itreeWidth {
		n.insertAt(i, sep, kid)
		return nil, ientry{}, added
	}
	// Full: split (splitAt), then insert into the side that i falls in.
	// An entry or child at the split point goes to the left side's end
	// (it is less than the right's first), or to the right's start
	// (greater than the left's last) when splitAt says.
	h, toRight := n.splitAt(i, &sep)
	right = t.newNode(n.leaf)
	n.moveTail(h, right)
	if i < h || i == h && !toRight {
		n.insertAt(i, sep, kid)
	} else {
		right.insertAt(i-h, sep, kid)
	}
	return right, right.at(0), added
}

// spill makes room in the full leaf that is child c of n for e, without
// a split, when a neighbour of the leaf under n has room for two or more:
// it evens the two out (mend), the leaf's first entries going to the
// left neighbour's end or its last to the right's start, from the
// emptier of the two, and n's separator between them follows. It returns
// false, having written nothing, when e is in the leaf (set replaces it)
// or neither neighbour has the room. A leaf is split only when its
// neighbours are about full too, which leaves the leaves of inserts in
// no order 87% full where splits alone left them 69%
// (TestItreeOrderedFill).
func (t *itree) spill(n *inode, c int, e *ientry) bool {
	leaf := n.kids[c]
	if i := leaf.lower(e, 0); i < itreeWidth && !leaf.greater(i, e) {
		return false
	}
	room := func(j int) int {
		if j < 0 || j >= int(n.n) {
			return 0
		}
		return itreeWidth - int(n.kids[j].n)
	}
	l, r := room(c-1), room(c+1)
	switch {
	case max(l, r) < 2:
		return false
	case l >= r:
		t.mend(n, c-1)
	default:
		t.mend(n, c)
	}
	return true
}

// splitAt returns where full node n splits for an entry (or child) that
// goes to i, and whether an entry at the split point goes to the right
// side: in halves, unless n is a leaf and e is the new last (or first)
// entry of an index partition with entries in n, one that is written in
// the order of its sort key, as an index on a time or a version is. Then
// it splits at i, kept at least itreeMin from either end, e going to the
// side of its partition: halves left every node of such a partition half
// empty, as each entry goes after the last (or before the first) and the
// other half never grows again; split at i, the nodes of the partition
// keep at least three quarters (BenchmarkIndexMemory/ascending,
// TestItreeOrderedFill). Entries are told to be of one partition by the
// hash that starts their keys (index_entry.go); two partitions of one
// hash only split at another place.
func (n *inode) splitAt(i int, e *ientry) (h int, toRight bool) {
	same := func(j int) bool { return j >= 0 && j < int(n.n) && n.pres[j]>>32 == e.pre>>32 }
	before, after := same(i-1), same(i)
	if !n.leaf || before == after {
		return itreeWidth / 2, false
	}
	return min(max(i, itreeMin), itreeWidth-itreeMin), after
}

// Delete removes the entry equal to k and returns it.
func (t *itree) Delete(k ientry) (ientry, bool) {
	if t.root == nil {
		return ientry{}, false
	}
	prefetchNode(t.root)
	old, ok := t.del(&t.root, &k)
	if !ok {
		return ientry{}, false
	}
	t.count--
	switch r := t.root; {
	case r.leaf && r.n == 0:
		t.root = nil
	case !r.leaf && r.n == 1:
		t.root = r.kids[0]
	}
	return old, true
}

// del removes the entry equal to k below *cn.
func (t *itree) del(cn **inode, k *ientry) (ientry, bool) {
	n := t.own(cn)
	if n.leaf {
		i := n.lower(k, 0)
		if i == int(n.n) || n.greater(i, k) {
			return ientry{}, false
		}
		old := n.at(i)
		n.removeAt(i)
		return old, true
	}
	c := n.child(k)
	old, ok := t.del(&n.kids[c], k)
	if ok && n.kids[c].n < itreeMin && n.n > 1 {
		t.refill(n, c)
	}
	return old, ok
}

// refill mends child c of n, below itreeMin after a delete: merged with a
// neighbour when both fit one node, else evened out with it.
func (t *itree) refill(n *inode, c int) {
	if c+1 == int(n.n) {
		c--
	}
	t.mend(n, c)
}

// mend merges children l and l+1 of n when both fit one node, else
// evens them out.
func (t *itree) mend(n *inode, l int) {
	r := l + 1
	left, right := t.own(&n.kids[l]), t.own(&n.kids[r])
	// A branch's first child has no separator of its own: the parent's
	// separator of the right node stands for it while the two are mended.
	if !right.leaf {
		right.put(0, n.at(r), nil)
	}
	ln, rn := int(left.n), int(right.n)
	total := ln + rn
	if total <= itreeWidth {
		left.n = int32(total)
		moveSlots(left, ln, right, 0, rn)
		n.removeAt(r)
		return
	}
	h := total / 2
	if ln < h {
		// The first h-ln of right move to left's end.
		k := h - ln
		left.n = int32(h)
		moveSlots(left, ln, right, 0, k)
		right.shift(k, 0, rn-k)
		right.clearSlots(rn-k, rn)
		right.n = int32(rn - k)
		right.tidyKeys(-1)
	} else {
		// left's entries from h on move to right's start.
		k := ln - h
		right.shift(0, k, rn)
		right.n = int32(k + rn)
		moveSlots(right, 0, left, h, k)
		left.clearSlots(h, ln)
		left.n = int32(h)
		left.tidyKeys(-1)
	}
	n.put(r, right.at(0), nil)
}

// itreeLoadFill is how many entries (or children) load puts in a node:
// most of it, leaving room for inserts before the first splits.
const itreeLoadFill = itreeWidth * 7 / 8

// itreeLoadRun is the most leaves a load allocates together: a run
// stays in memory while any of its leaves is in the tree.
const itreeLoadRun = 64

// load fills t, which must be empty, with ents, which must be in
// ientryLess order without two equal: leaves of about itreeLoadFill
// entries each, then each level of branches above them likewise, in one
// pass per level. Inserting them one at a time costs a search and an
// insert into a node each (BenchmarkIndexBackfill).
func (t *itree) load(ents []ientry) {
	t.loadLeaves(len(ents), func(n *inode, from, to int) bool {
		for i, e := range ents[from:to] {
			n.put(i, e, nil)
		}
		return true
	})
}

// loadGather is load of the entries *at(perm[0]), *at(perm[1]), ...,
// which need not be in order: it checks they are, and when they are not
// leaves t empty and returns false. at(k) is the entry numbered k.
// Taking each entry where perm says while the leaves are made writes
// them once, where placing them in an array first, then loading it,
// wrote them twice, the first time in no order (TableBuilder.IndexOrder).
// The entries, and their keys the check reads, lie in no order in
// memory: each is asked for gatherAhead entries before it is needed.
func (t *itree) loadGather(perm []uint32, at func(k uint32) *ientry) bool {
	var prev ientry
	ok := t.loadLeaves(len(perm), func(n *inode, from, to int) bool {
		for i, k := range perm[from:to] {
			if j := from + i + gatherAhead; j < len(perm) {
				prefetchLines(unsafe.Pointer(at(perm[j])), unsafe.Sizeof(ientry{}))
				prefetchString(at(perm[j-gatherAhead/2]).key)
			}
			e := *at(k)
			if from+i > 0 && ientryCmp(prev, e) >= 0 {
				return false
			}
			n.put(i, e, nil)
			prev = e
		}
		return true
	})
	if !ok {
		t.root, t.count = nil, 0
	}
	return ok
}

// gatherAhead is how many entries before it loadGather asks for an
// entry; its key is asked for half as many before.
const gatherAhead = 16

// loadLeaves is load of n entries that fill puts into each new leaf,
// those numbered from to to; it stops, false, when fill does.
func (t *itree) loadLeaves(count int, fill func(n *inode, from, to int) bool) bool {
	if count == 0 {
		return true
	}
	type built struct {
		n     *inode
		least ientry // the least entry below it: its separator in the parent
	}
	var level []built
	ok := true
	// The leaves are allocated in runs of itreeLoadRun, each backed by
	// the kernel at once (populateSlice), not a page fault at a time.
	var run []inode
	leaves := loadChunkCount(count)
	loadChunks(count, func(from, to int) {
		if !ok {
			return
		}
		if len(run) == 0 {
			run = make([]inode, min(leaves-len(level), itreeLoadRun))
			populateSlice(run)
		}
		n := &run[0]
		run = run[1:]
		n.owner, n.leaf, n.n = t.owner, true, int32(to-from)
		if ok = fill(n, from, to); ok {
			level = append(level, built{n, n.at(0)})
		}
	})
	if !ok {
		return false
	}
	for len(level) > 1 {
		var up []built
		loadChunks(len(level), func(from, to int) {
			n := t.newNode(false)
			n.kids[0], n.n = level[from].n, int32(to-from)
			for i := from + 1; i < to; i++ {
				n.put(i-from, level[i].least, level[i].n)
			}
			up = append(up, built{n, level[from].least})
		})
		level = up
	}
	t.root, t.count = level[0].n, count
	return true
}

// loadChunkCount is how many runs loadChunks splits n things into.
func loadChunkCount(n int) int { return (n + itreeLoadFill - 1) / itreeLoadFill }

// loadChunks splits n things into runs of about itreeLoadFill, as even
// as they can be (so each holds at least itreeMin when there are two or
// more), and calls fn with each run's bounds in order.
func loadChunks(n int, fn func(from, to int)) {
	k := loadChunkCount(n)
	for i := range k {
		fn(i*n/k, (i+1)*n/k)
	}
}
