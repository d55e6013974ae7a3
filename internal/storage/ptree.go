package storage

import (
	"slices"
	"strings"
	"unsafe"

	"github.com/tidwall/btree"
)

// ptree is the entries of a partition of two or more items, in sort key
// order: a sorted slice while there are few, a B-tree beyond.
//
// Most partitions with a sort key hold a few items. A B-tree of ten costs
// 528 bytes besides its entries' records: the tree (96), its one node
// (48) and the node's items grown by doubling to 16 places (384), six of
// them empty; and the arrays it grew through are garbage among the
// table's long-lived memory. A slice of ten grown a quarter at a time,
// in one allocation with the ptree (withSentries), costs 288 in all; a
// write makes the partition, its ptree and the slice one allocation
// (partWithSentries, partition.set), so that a read goes from the slot
// to the partition's entries in one cache and TLB miss, not two. A
// partition past ptreeSmallMax entries
// moves to a B-tree, where inserting in the middle costs a logarithm, not
// a copy of the entries after it; it stays one until a single item is left
// (the partition then holds it inline, as before).
//
// Copy-on-write: a ptree a snapshot may share is copied before it is
// written (copyShared: the slice whole, a B-tree in O(1) as before); a
// slice is never written in place once shared.
//
// The slice holds sentries, not entries: in place of the record's offsets
// (which the record's header gives again), the first 4 bytes of the sort
// key, so that a search compares prefixes in the slice and reads a
// record only to tell apart sort keys with the same 4 first bytes, and
// the one it finds. Each record is elsewhere in memory; in a table of
// millions of items each read is a cache miss and often a TLB miss
// (the search was most of what GetItem's cost grew by from 10k
// to 10M items). Same size as an entry: 24 bytes.
type ptree struct {
	small []sentry             // the entries, sorted, while big is nil
	big   *btree.BTreeG[entry] // the entries once there are more than ptreeSmallMax
}

// sentry is an entry in a ptree's slice: its record, its item's size and
// skPrefix of its sort key.
type sentry struct {
	rec  string
	pre  uint32
	size uint32
}

func toSentry(e entry) sentry { return sentry{rec: e.rec, pre: skPrefix(e.sortKey()), size: e.size} }

func (s sentry) entry() entry { return parseEntry(s.rec, s.size) }

// sortKey returns the sort key, read from the record.
func (s sentry) sortKey() string { return s.entry().sortKey() }

// skPrefix is the first 4 bytes of sk as a big-endian number, zero bytes
// standing in for those past its end (the upper half of keyPrefix, in
// index_entry.go): if a <= b then skPrefix(a) <= skPrefix(b), so
// different prefixes order two keys alone.
func skPrefix(sk string) uint32 { return uint32(keyPrefix(sk) >> 32) }

// ptreeSmallMax is the most entries kept in a slice: inserting copies up
// to this many 24-byte sentries (768 bytes), about what a B-tree insert
// costs.
const ptreeSmallMax = 32

// newPtree returns the ptree of entries a and b, a's sort key the lower.
func newPtree(a, b entry) *ptree {
	t := smallPtree(2, 4)
	t.small[0], t.small[1] = toSentry(a), toSentry(b)
	return t
}

// A small ptree and its slice's array are one allocation (withSentries),
// so that a read of the partition goes from the ptree to its first
// sentries without a second cache and TLB miss in a table of millions of
// partitions (the slice in an allocation of its own took
// BenchmarkScaleOps at 1M items from 1.84 to 2.33 µs of CPU a Get and
// 2.51 to 2.87 a Query, medians of 3 interleaved runs: go test -run '^$'
// -bench 'ScaleOps/1000000/(Get|Query)$' -benchtime 200000x
// ./internal/storage). Its capacity is one of these, the sizes the
// slice grows through (a quarter at a time); growing past it makes a new
// ptree, which the partition keeps (Set and Load return it).
type sentryArray interface {
	[4]sentry | [6]sentry | [8]sentry | [10]sentry | [12]sentry | [15]sentry | [18]sentry | [22]sentry | [27]sentry | [ptreeSmallMax]sentry
}

// withSentries returns a ptree of n zero sentries whose array, of type A,
// is in the ptree's own allocation.
func withSentries[A sentryArray](n int) *ptree {
	b := new(struct {
		ptree
		arr A
	})
	b.small = unsafe.Slice((*sentry)(unsafe.Pointer(&b.arr)), len(b.arr))[:n]
	return &b.ptree
}

// smallPtreeClass is a capacity of small ptrees and what makes one.
type smallPtreeClass struct {
	cap  int
	make func(n int) *ptree
	part func(n int) *partition
}

// smallPtrees are the capacities of small ptrees, ascending, and what
// makes each.
var smallPtrees = []smallPtreeClass{
	{4, withSentries[[4]sentry], partWithSentries[[4]sentry]}, {6, withSentries[[6]sentry], partWithSentries[[6]sentry]},
	{8, withSentries[[8]sentry], partWithSentries[[8]sentry]}, {10, withSentries[[10]sentry], partWithSentries[[10]sentry]},
	{12, withSentries[[12]sentry], partWithSentries[[12]sentry]}, {15, withSentries[[15]sentry], partWithSentries[[15]sentry]},
	{18, withSentries[[18]sentry], partWithSentries[[18]sentry]}, {22, withSentries[[22]sentry], partWithSentries[[22]sentry]},
	{27, withSentries[[27]sentry], partWithSentries[[27]sentry]}, {ptreeSmallMax, withSentries[[ptreeSmallMax]sentry], partWithSentries[[ptreeSmallMax]sentry]},
}

// partWithSentries returns a partition whose ptree holds n zero
// sentries, the partition, the ptree and the array in one allocation.
func partWithSentries[A sentryArray](n int) *partition {
	b := new(struct {
		partition
		ptree
		arr A
	})
	b.small = unsafe.Slice((*sentry)(unsafe.Pointer(&b.arr)), len(b.arr))[:n]
	b.tree = &b.ptree
	return &b.partition
}

// smallClass returns the least capacity that holds c sentries (the
// largest, ptreeSmallMax, for more).
func smallClass(c int) smallPtreeClass {
	for _, s := range smallPtrees[:len(smallPtrees)-1] {
		if c <= s.cap {
			return s
		}
	}
	return smallPtrees[len(smallPtrees)-1]
}

// smallPtree returns a ptree of n zero sentries and room for at least c
// (at most ptreeSmallMax).
func smallPtree(n, c int) *ptree { return smallClass(c).make(n) }

// smallPart is smallPtree's partition (partWithSentries).
func smallPart(n, c int) *partition { return smallClass(c).part(n) }

// grownCap is the capacity a full slice of n sentries grows to: a
// quarter more (at least 2), not double, since a partition's entries are
// long-lived and most partitions stop growing.
func grownCap(n int) int { return n + max(2, n/4) }

// copyShared returns a copy of t that may be written while t is read.
func (t *ptree) copyShared() *ptree {
	if t.big != nil {
		return &ptree{big: copyShared(t.big)}
	}
	c := smallPtree(len(t.small), len(t.small))
	copy(c.small, t.small)
	return c
}

// Len returns the number of entries.
func (t *ptree) Len() int {
	if t.big != nil {
		return t.big.Len()
	}
	return len(t.small)
}

// search returns the index of the first entry whose sort key is not below
// sk, and whether that entry's sort key is sk.
func (t *ptree) search(sk string) (int, bool) {
	pre := skPrefix(sk)
	return slices.BinarySearchFunc(t.small, sk, func(e sentry, sk string) int {
		switch {
		case e.pre < pre:
			return -1
		case e.pre > pre:
			return 1
		}
		return strings.Compare(e.sortKey(), sk)
	})
}

// Get returns the entry with sort key sk.
func (t *ptree) Get(sk string) (entry, bool) {
	if t.big != nil {
		return t.big.Get(pivot(sk))
	}
	if i, ok := t.search(sk); ok {
		return t.small[i].entry(), true
	}
	return entry{}, false
}

// Set inserts or replaces e, and returns the ptree to keep: t, or the
// one that replaces it when it grows.
func (t *ptree) Set(e entry) *ptree {
	if t.big != nil {
		t.big.Set(e)
		return t
	}
	i, ok := t.search(e.sortKey())
	if ok {
		t.small[i] = toSentry(e)
		return t
	}
	if len(t.small) == ptreeSmallMax {
		big := &ptree{big: btree.NewBTreeGOptions(entryLess, btree.Options{NoLocks: true})}
		for _, x := range t.small {
			big.big.Load(x.entry())
		}
		big.big.Set(e)
		return big
	}
	if len(t.small) == cap(t.small) {
		n := len(t.small)
		grown := smallPtree(n, grownCap(n))
		copy(grown.small, t.small)
		t = grown
	}
	t.small = slices.Insert(t.small, i, toSentry(e))
	return t
}

// Load adds e, whose sort key is greater than every other's, and returns
// the ptree to keep (as Set).
func (t *ptree) Load(e entry) *ptree {
	if t.big == nil && len(t.small) < ptreeSmallMax && len(t.small) < cap(t.small) {
		t.small = append(t.small, toSentry(e))
		return t
	}
	return t.Set(e)
}

// Delete removes the entry with sort key sk, if there is one.
func (t *ptree) Delete(sk string) {
	if t.big != nil {
		t.big.Delete(pivot(sk))
		return
	}
	if i, ok := t.search(sk); ok {
		t.small = slices.Delete(t.small, i, i+1)
	}
}

// Min and Max return the entries with the lowest and the greatest sort
// key; the ptree is not empty.
func (t *ptree) Min() entry {
	if t.big != nil {
		e, _ := t.big.Min()
		return e
	}
	return t.small[0].entry()
}

func (t *ptree) Max() entry {
	if t.big != nil {
		e, _ := t.big.Max()
		return e
	}
	return t.small[len(t.small)-1].entry()
}

// Ascend calls fn on the entries from the first whose sort key is not
// below from (every entry when from is nil), in ascending order, until
// fn returns false.
func (t *ptree) Ascend(from *string, fn func(entry) bool) {
	if t.big != nil {
		if from != nil {
			t.big.Ascend(pivot(*from), fn)
		} else {
			t.big.Scan(fn)
		}
		return
	}
	i := 0
	if from != nil {
		i, _ = t.search(*from)
	}
	t.prefetchAhead(i, 1, recordsAhead)
	for ; i < len(t.small); i++ {
		t.prefetchAhead(i+recordsAhead, 1, 1)
		if !fn(t.small[i].entry()) {
			return
		}
	}
}

// recordsAhead is how many records a walk of a small ptree asks for
// before it reads them (prefetch.go): a Query's page of 10 items reads
// them in the time of about one miss, not ten.
const recordsAhead = 8

// prefetchAhead asks for the records of n entries from entry i in
// direction step (1 or -1), those that exist.
func (t *ptree) prefetchAhead(i, step, n int) {
	for ; n > 0 && i >= 0 && i < len(t.small); n, i = n-1, i+step {
		prefetchString(t.small[i].rec)
	}
}

// Descend calls fn on the entries from the last whose sort key is not
// above from (every entry when from is nil), in descending order, until
// fn returns false.
func (t *ptree) Descend(from *string, fn func(entry) bool) {
	if t.big != nil {
		if from != nil {
			t.big.Descend(pivot(*from), fn)
		} else {
			t.big.Reverse(fn)
		}
		return
	}
	i := len(t.small) - 1
	if from != nil {
		j, found := t.search(*from)
		if i = j - 1; found {
			i = j
		}
	}
	t.prefetchAhead(i, -1, recordsAhead)
	for ; i >= 0; i-- {
		t.prefetchAhead(i-recordsAhead, -1, 1)
		if !fn(t.small[i].entry()) {
			return
		}
	}
}
