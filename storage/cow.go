package storage

import (
	"sync"
	"sync/atomic"

	"github.com/tidwall/btree"
)

// Copy-on-write: how a table shares what it stores with its snapshots
// (snapshot.go) and with the tables restored from them (restore.go),
// and what a write pays for it.
//
// What a table stores is reached through B-trees (github.com/tidwall/btree):
// the scan order of its partitions, each partition's items, each index's
// entries. Those copy in O(1): Copy shares every node, and either copy
// then copies a node before it first changes it (path copying), so a
// snapshot is O(1) per tree. The partitions themselves are small structs
// that the table changes in place (a lone item kept inline, the pointer
// to the partition's B-tree), so they are shared by generation:
//
//   - A table has a generation, gen. Its partition map holds, beside each
//     partition, the generation in which the table made it or last
//     copied it. A partition whose generation is the table's is the
//     table's own; any other may be shared with a snapshot and is never
//     written: a write copies it first (ownPartLocked), copying its
//     B-tree in O(1) too, and puts the copy in the map and the scan order.
//   - A snapshot moves the table to a new generation (genSeq), so every
//     partition it has becomes shared at once, in O(1). A table restored
//     from a snapshot starts in a new generation with every partition
//     shared.
//
// Generations come from one counter for all tables, so a generation is
// never reused: a partition made by one table is never mistaken for
// another's own. A table that was never snapshotted stays in generation
// 0 with all its partitions, and a write pays one comparison for all
// this; the partitions are the same 48 bytes, the generation lives in the
// table's map, where the write looks the partition up anyway.
//
// Nothing shared is ever written, with one exception the B-tree library
// imposes: Copy sets a new copy id in the tree it copies. A table copies
// its own trees under its write lock; a tree that may be shared (a
// snapshot's, a shared partition's) is copied under cowMu (copyShared),
// since two tables restored from one snapshot may copy it at once.
// Readers of a tree never read that id, so they may run meanwhile.

// genSeq numbers generations; see above.
var genSeq atomic.Uint64

// cowMu serializes Copy of B-trees that may be shared; see above.
var cowMu sync.Mutex

// copyShared returns an O(1) copy-on-write copy of tr, a tree that other
// tables or snapshots may hold too.
func copyShared[T any](tr *btree.BTreeG[T]) *btree.BTreeG[T] {
	cowMu.Lock()
	defer cowMu.Unlock()
	return tr.Copy()
}

// partRef is a partition in its table's map: the partition and the
// generation in which the table made or copied it (see above).
type partRef struct {
	p   *partition
	gen uint64
}

// partLocked returns partition pk for reading, or nil. t.mu is held,
// shared or exclusive.
func (t *Table) partLocked(pk string) *partition {
	return t.parts[pk].p
}

// ownPartLocked returns partition pk for writing, or nil when there is
// none: when the partition may be shared with a snapshot, it is copied
// first, and the copy replaces it in the table. t.mu is held exclusively.
func (t *Table) ownPartLocked(pk string) *partition {
	r := t.parts[pk]
	if r.p == nil || r.gen == t.gen {
		return r.p
	}
	c := r.p.clone()
	t.parts[c.pk] = partRef{p: c, gen: t.gen}
	t.order.Set(c) // replaces r.p: the same hash and key
	return c
}

// clone copies a partition that may be shared: its B-tree in O(1).
func (p *partition) clone() *partition {
	c := &partition{pk: p.pk, oneRec: p.oneRec, oneSize: p.oneSize, hash: p.hash}
	if p.tree != nil {
		c.tree = copyShared(p.tree)
	}
	return c
}
