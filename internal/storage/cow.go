package storage

import (
	"sync"

	"github.com/tidwall/btree"
)

// Copy-on-write: how a table shares what it stores with its snapshots
// (snapshot.go) and with the tables restored from them (restore.go),
// and what a write pays for it.
//
// What a table stores is reached through its partition table (ptable.go:
// the partitions by key and in scan order), each partition (a lone item
// inline, or a B-tree of its items, github.com/tidwall/btree) and each
// index's B-tree of entries. Records themselves (slab.go) are immutable
// once stored, so sharing them costs nothing. The rest is shared so:
//
//   - B-trees copy in O(1): Copy shares every node, and either copy then
//     copies a node before it first changes it (path copying).
//   - The partition table's slots are shared by a snapshot as they are
//     (ptable.share, O(1)); they are held in pages of 128, and the table
//     copies a page (1.7 KB) before it first changes a slot in it after
//     the snapshot, and the page directory (8 bytes a page) once.
//   - Partitions are small structs that the table changes in place (a
//     lone item kept inline, the pointer to the partition's B-tree). The
//     partition table keeps, per slot, whether the partition there is
//     the table's own (made or copied since its page was last copied);
//     one that is not may be a snapshot's too and is never written: a
//     write copies it first (ownPartLocked), its B-tree in O(1), and puts
//     the copy in its slot. A copied page has no slot owned, and a
//     snapshot makes every page shared, so every partition becomes
//     shared at once.
//
// A table restored from a snapshot starts with the snapshot's partition
// table, shared. A table never snapshotted pays one flag test per write
// and no allocation for all this.
//
// What the table does to its own memory respects the sharing: a
// partition goes back to the table's arena (partition.go) only when it
// was the table's own, and slab compaction (slab.go), which moves live
// records to a new chunk, points the table's own copies at them (copying
// a shared partition as any write does; the index B-trees copy their
// path), never a structure a snapshot may hold: the snapshot keeps the
// old records, whose chunk stays in memory while it is referenced.
//
// Nothing shared is ever written, with one exception the B-tree library
// imposes: Copy sets a new copy id in the tree it copies. A table copies
// its own trees under its write lock; a tree that may be shared (a
// snapshot's, a shared partition's) is copied under cowMu (copyShared),
// since two tables restored from one snapshot may copy it at once.
// Readers of a tree never read that id, so they may run meanwhile.

// cowMu serializes Copy of B-trees that may be shared; see above.
var cowMu sync.Mutex

// copyShared returns an O(1) copy-on-write copy of tr, a tree that other
// tables or snapshots may hold too.
func copyShared[T any](tr *btree.BTreeG[T]) *btree.BTreeG[T] {
	cowMu.Lock()
	defer cowMu.Unlock()
	return tr.Copy()
}

// ownPartLocked returns partition pk for writing, or nil when there is
// none: when the partition may be shared with a snapshot, it is copied
// first, and the copy replaces it in the table. present says the caller
// knows pk is in the table (ptable.locate). t.mu is held exclusively.
func (t *Table) ownPartLocked(pk string, present bool) *partition {
	i, ok := t.parts.locate(partitionHash(pk), pk, present)
	if !ok {
		return nil
	}
	return t.ownSlotLocked(i)
}

// ownSlotLocked is ownPartLocked of the partition in slot i.
func (t *Table) ownSlotLocked(i int) *partition {
	p := t.parts.part(i)
	if t.parts.ownedAt(i) {
		return p
	}
	c := t.scratchLocked().arena.alloc()
	c.rec, c.size, c.hash = p.rec, p.size, p.hash
	if p.tree != nil {
		c.tree = p.tree.copyShared()
	}
	t.parts.setOwned(i, c)
	return c
}
