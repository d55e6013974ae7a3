package storage

import (
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
// its keys (ientry.pre) in one array beside its header, 528 bytes that
// are asked for at once (prefetch.go) when the node's address is known,
// so a search reads a node in about the time of one miss, then the one
// line of the entry or child it chose. Ties of prefixes fall back to the
// full comparison, as ientryLess does.
//
// Leaves hold the entries; a branch holds its children and, for each
// child but the first, a separator: an entry no greater than any entry
// below that child and greater than every entry below the children
// before it (the least entry below it when it was made; deleting entries
// keeps that true). Searches never read a branch's ents[0] and pres[0]. An
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

// inode is an itree node. The header and pres come first, so that
// prefetchNode's 528 bytes are the lines a search reads.
type inode struct {
	owner uint64
	n     int32
	leaf  bool
	kids  *[itreeWidth]*inode // a branch's children
	pres  [itreeWidth]uint64  // pres[i] is entry i's prefix (ientry.pre)
	ents  [itreeWidth]islot
}

// islot is an entry as a node stores it: an ientry without its prefix,
// which the node's pres holds (40 bytes, not 48); at rebuilds the ientry.
type islot struct {
	key string
	e   entry
}

const (
	// itreeWidth is a node's most entries or children: its prefixes are
	// 504 bytes, and the node (24 bytes of header, then 48 a slot: 3,048
	// bytes) fills 99% of the allocator's 3,072-byte class, whose spans
	// hold 8 nodes with no bytes left over (48.8 bytes a slot; 60 slots
	// were 2,904 bytes in that class, 51.2 a slot; 66 fill 3,200 but its
	// spans leave 384 bytes of 16 KB).
	itreeWidth = 63
	// itreeMin is the fewest entries or children a node keeps after a
	// delete, unless it is the root.
	itreeMin = itreeWidth / 4
)

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
	prefetchLines(unsafe.Pointer(n), unsafe.Offsetof(n.ents))
}

// at returns entry i.
func (n *inode) at(i int) ientry {
	return ientry{key: n.ents[i].key, pre: n.pres[i], e: n.ents[i].e}
}

// less reports whether entry i is less than k, by prefix when they differ.
func (n *inode) less(i int, k *ientry) bool {
	if p := n.pres[i]; p != k.pre {
		return p < k.pre
	}
	if k.leastOfPrefix() {
		return false
	}
	return ientryLess(n.at(i), *k)
}

// greater reports whether entry i is greater than k.
func (n *inode) greater(i int, k *ientry) bool {
	if p := n.pres[i]; p != k.pre {
		return p > k.pre
	}
	if k.leastOfPrefix() {
		return true
	}
	return ientryLess(*k, n.at(i))
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
	if !n.leaf {
		kids := *n.kids
		c.kids = &kids
	}
	*cn = c
	return c
}

// shareKey makes e, about to go to leaf n's place i, hold the string of
// its neighbour's index key when the two keys are equal (entries of one
// index partition): one copy of a partition's key is kept, not one an
// entry (a GSI of 10 entries a partition keyed by 25-byte emails added
// 114 bytes an item, 30 of them its own copy of the key).
func (n *inode) shareKey(i int, e *ientry) {
	switch {
	case i > 0 && n.pres[i-1] == e.pre && n.ents[i-1].key == e.key:
		e.key = n.ents[i-1].key
	case i < int(n.n) && n.pres[i] == e.pre && n.ents[i].key == e.key:
		e.key = n.ents[i].key
	}
}

// put sets entry i (and, in a branch, child i) to e (and kid).
func (n *inode) put(i int, e ientry, kid *inode) {
	n.ents[i], n.pres[i] = islot{e.key, e.e}, e.pre
	if kid != nil {
		n.kids[i] = kid
	}
}

// insertAt shifts entries (and children) i.. one right and puts e (and
// kid) at i; n has room.
func (n *inode) insertAt(i int, e ientry, kid *inode) {
	m := int(n.n)
	copy(n.ents[i+1:m+1], n.ents[i:m])
	copy(n.pres[i+1:m+1], n.pres[i:m])
	if !n.leaf {
		copy(n.kids[i+1:m+1], n.kids[i:m])
	}
	n.put(i, e, kid)
	n.n++
}

// removeAt removes entry (and child) i.
func (n *inode) removeAt(i int) {
	m := int(n.n)
	copy(n.ents[i:m-1], n.ents[i+1:m])
	copy(n.pres[i:m-1], n.pres[i+1:m])
	n.ents[m-1] = islot{}
	if !n.leaf {
		copy(n.kids[i:m-1], n.kids[i+1:m])
		n.kids[m-1] = nil
	}
	n.n--
}

// moveTail moves n's entries (and children) from i on to the start of
// the empty node r.
func (n *inode) moveTail(i int, r *inode) {
	m := int(n.n)
	copy(r.ents[:], n.ents[i:m])
	copy(r.pres[:], n.pres[i:m])
	clear(n.ents[i:m])
	if !n.leaf {
		copy(r.kids[:], n.kids[i:m])
		clear(n.kids[i:m])
	}
	r.n, n.n = int32(m-i), int32(i)
}

// Set inserts e, or replaces the entry equal to it.
func (t *itree) Set(e ientry) {
	if t.root == nil {
		n := t.newNode(true)
		n.insertAt(0, e, nil)
		t.root, t.count = n, 1
		return
	}
	prefetchNode(t.root)
	right, sep, added := t.set(&t.root, &e)
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

// set inserts or replaces e below *cn. When the node splits, it returns
// the new node to its right and that node's separator.
func (t *itree) set(cn **inode, e *ientry) (right *inode, sep ientry, added bool) {
	n := t.own(cn)
	var i int
	var kid *inode
	if n.leaf {
		i = n.lower(e, 0)
		if i < int(n.n) && !n.greater(i, e) {
			e.key = n.ents[i].key // equal: the new string is let go
			n.put(i, *e, nil)
			return nil, ientry{}, false
		}
		n.shareKey(i, e)
		sep = *e
	} else {
		c := n.child(e)
		if k := n.kids[c]; k.leaf && k.n == itreeWidth && t.spill(n, c, e) {
			c = n.child(e) // the leaf, or its neighbour, now has room
		}
		kid, sep, added = t.set(&n.kids[c], e)
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
	total := int(left.n) + int(right.n)
	if total <= itreeWidth {
		m := int(left.n)
		copy(left.ents[m:total], right.ents[:right.n])
		copy(left.pres[m:total], right.pres[:right.n])
		if !left.leaf {
			copy(left.kids[m:total], right.kids[:right.n])
		}
		left.n = int32(total)
		n.removeAt(r)
		return
	}
	h := total / 2
	if int(left.n) < h {
		// The first h-len(left) of right move to left's end.
		k := h - int(left.n)
		m := int(left.n)
		copy(left.ents[m:h], right.ents[:k])
		copy(left.pres[m:h], right.pres[:k])
		if !left.leaf {
			copy(left.kids[m:h], right.kids[:k])
		}
		left.n = int32(h)
		rn := int(right.n)
		copy(right.ents[:rn-k], right.ents[k:rn])
		copy(right.pres[:rn-k], right.pres[k:rn])
		clear(right.ents[rn-k : rn])
		if !right.leaf {
			copy(right.kids[:rn-k], right.kids[k:rn])
			clear(right.kids[rn-k : rn])
		}
		right.n = int32(rn - k)
	} else {
		// left's entries from h on move to right's start.
		k := int(left.n) - h
		m := int(right.n)
		copy(right.ents[k:k+m], right.ents[:m])
		copy(right.pres[k:k+m], right.pres[:m])
		copy(right.ents[:k], left.ents[h:left.n])
		copy(right.pres[:k], left.pres[h:left.n])
		clear(left.ents[h:left.n])
		if !right.leaf {
			copy(right.kids[k:k+m], right.kids[:m])
			copy(right.kids[:k], left.kids[h:left.n])
			clear(left.kids[h:left.n])
		}
		left.n, right.n = int32(h), int32(k+m)
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
		n.owner, n.leaf = t.owner, true
		if ok = fill(n, from, to); ok {
			n.n = int32(to - from)
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
			n.kids[0] = level[from].n
			for i := from + 1; i < to; i++ {
				n.put(i-from, level[i].least, level[i].n)
			}
			n.n = int32(to - from)
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
