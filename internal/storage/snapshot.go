package storage

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"weak"
)

// Snapshots: a table, or every table of a DB, frozen at one instant, in
// O(1) per table and index, while writes go on (copy-on-write, cow.go).
// A snapshot is read-only and safe for concurrent use without locks: it
// holds items, index entries, counts and sizes and metadata as they were,
// and a table can be made from it again (DB.RestoreTable, restore.go).
// Log compaction writes one out in the background (the persist package);
// backups keep them.
//
// Memory. Taking a snapshot allocates a few small structs per table and
// index and copies the metadata maps (their values are shared). It
// copies no item, no partition and no B-tree node. From then on the table
// and the snapshot share everything until the table writes: the table's
// first change after a snapshot copies its partition table's page
// directory (8 bytes per 128 slots), the first change in a page of 128
// slots copies the page (1.7 KB), the first write to a partition copies
// the partition's 32-byte header, and a write copies each B-tree node on
// its path the first time it changes it (in the partition's tree and each
// index touched; a node holds up to 63 entries). An item replaced or
// deleted while a snapshot holds it stays in memory for the snapshot, and
// so does a slab chunk the table compacts (slab.go) while a snapshot
// holds records in it: the table copies its live records out, the
// snapshot keeps the chunk. So a snapshot costs, beyond the small structs
// and the partition table, the nodes and records the table has changed
// since it was taken: at most about the table's own size when every item
// is rewritten, nothing when none is. Dropping the last reference to a
// snapshot frees whatever only it held; the table does not keep it
// alive. The item collection sizes of TrackCollections and the observer
// are not in a snapshot: they are the caller's, which it
// installs again on a restored table.

// TableSnapshot is one table frozen at one instant: see above.
type TableSnapshot struct {
	ks       KeySchema
	name, id string
	parts    ptable // shared with the table (ptable.share)
	count    int
	size     int64
	indexes  []*index // frozen copies
	reads    []string // the indexes' reads (readsOf), for the tables restored from it
	// vectors are the vector indexes' definitions: a snapshot does not
	// share their entries (they are not copy-on-write), so a table made
	// of it (DB.RestoreTable, the read lag's shadow) builds them anew from
	// the items, a pass over them that costs what AddVectorIndex's
	// backfill costs. vix is the indexer of the table it is of.
	vectors []VectorIndexDef
	vix     VectorIndexer
	meta    map[string][]byte
	stamp   uint64 // what it holds (Table.stamp); 0: no table is known to hold it
}

// Snapshot is every table of a DB and the DB's metadata at one instant:
// no transaction is in it by halves.
type Snapshot struct {
	tables  []*TableSnapshot // in name order
	meta    map[string][]byte
	metaGen uint64 // DB.metaGen when taken: DB.reuseLocked
}

// Snapshot returns the table as it is now. It holds the table's write
// lock for O(1) work per index.
func (t *Table) Snapshot() *TableSnapshot {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.snapshotLocked()
}

// snapshotLocked freezes t: the snapshot takes copies of its B-trees and
// shares its partition table, which t copies before its next change, and
// from then on t copies a partition before writing it (cow.go). t.mu is
// held exclusively.
func (t *Table) snapshotLocked() *TableSnapshot {
	s := &TableSnapshot{ks: t.ks, name: t.name, id: t.uid, parts: t.parts.share(), count: t.count, size: t.size}
	if t.idxShared {
		s.indexes = t.indexes // frozen already, and no index lags
	} else {
		for _, x := range t.indexes {
			s.indexes = append(s.indexes, x.snapshotIndex())
		}
	}
	s.reads = t.indexReads
	s.vectors, s.vix = t.vectorDefsLocked(), t.vix
	t.metaMu.Lock()
	s.meta, t.metaShared = t.meta, true // copied at t's next change (setMetaLocking)
	t.metaMu.Unlock()
	if t.stamp == 0 {
		t.stamp = stampSeq.Add(1)
	}
	s.stamp = t.stamp
	return s
}

// stampSeq numbers the contents of tables for Unchanged.
var stampSeq atomic.Uint64

// Unchanged reports whether t holds exactly what s holds (items,
// indexes, metadata): s was taken of t, or t restored from s, and
// nothing has changed t since; its name and ID are not compared. False
// does not mean that they differ. It holds t's read lock for O(1) work,
// and a write pays for it one store: a rewind to a snapshot may leave
// alone the tables that have not changed since.
func (t *Table) Unchanged(s *TableSnapshot) bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return s.stamp != 0 && t.stamp == s.stamp
}

// Snapshot returns every table of the DB and its metadata as they are
// now, consistent across tables: a transaction is in it wholly or not at
// all. It takes the write locks of all the tables (in lock order) and the
// DB's catalog lock for O(1) work per table and index, so writers pause
// for about as long as it takes to get the locks: a long Query or Scan
// of one table delays it, and so every writer of the tables already
// locked. If at is not nil, it is called while every lock is held, when
// no change is in flight: every change the DB's hook has been given is in
// the snapshot and no other, so a hook reads its position there (the
// persist package marks the log there). at must not call into the DB.
func (db *DB) Snapshot(at func()) *Snapshot {
	for {
		db.mu.RLock()
		tables := lockOrder(slices.Clone(db.tables))
		db.mu.RUnlock()
		for _, t := range tables {
			t.mu.Lock()
		}
		db.mu.RLock()
		same := len(db.tables) == len(tables)
		for _, t := range tables {
			same = same && db.tableLocked(t.name) == t
		}
		var s *Snapshot
		if same {
			s = db.snapshotLocked(tables)
			if at != nil {
				at()
			}
		}
		db.mu.RUnlock()
		for i := len(tables) - 1; i >= 0; i-- {
			tables[i].mu.Unlock()
		}
		if s != nil {
			return s
		}
		// A table was created or dropped meanwhile: again.
	}
}

// snapshotLocked returns the snapshot of tables, every table of db, all
// locked exclusively, with db.mu held: the snapshot taken last when it is
// still held somewhere and nothing has changed since (reuseLocked), a new
// one otherwise, which is then the one kept.
func (db *DB) snapshotLocked(tables []*Table) *Snapshot {
	db.lastMu.Lock()
	defer db.lastMu.Unlock()
	if s := db.reuseLocked(tables); s != nil {
		return s
	}
	s := &Snapshot{meta: maps.Clone(db.meta), metaGen: db.metaGen}
	for _, t := range tables {
		s.tables = append(s.tables, t.snapshotLocked())
	}
	slices.SortFunc(s.tables, func(a, b *TableSnapshot) int { return strings.Compare(a.name, b.name) })
	db.last = weak.Make(s)
	return s
}

// reuseLocked returns the snapshot taken last, if something still holds
// it and it holds exactly what tables (every table of db, locked) and
// db's metadata hold now: the same tables by name and ID, each with the
// stamp it had then (Table.stamp: nothing has changed it since), and the
// same metadata. Giving it again is then as good as taking a new one:
// what a snapshot holds is frozen and read-only, and each table still
// copies before it writes what that snapshot made shared. A thousand
// forks of a base that does not change cost one snapshot, not a
// thousand. db.mu and db.lastMu are held.
func (db *DB) reuseLocked(tables []*Table) *Snapshot {
	s := db.last.Value()
	if s == nil || s.metaGen != db.metaGen || len(s.tables) != len(tables) {
		return nil
	}
	for _, t := range tables {
		ts := s.Table(t.name)
		if ts == nil || ts.id != t.uid || ts.stamp == 0 || ts.stamp != t.stamp {
			return nil
		}
	}
	return s
}

// Tables returns the snapshot's tables in name order.
func (s *Snapshot) Tables() []*TableSnapshot { return slices.Clone(s.tables) }

// Table returns the snapshot's table called name, or nil.
func (s *Snapshot) Table(name string) *TableSnapshot {
	i, ok := slices.BinarySearchFunc(s.tables, name, func(t *TableSnapshot, name string) int { return strings.Compare(t.name, name) })
	if !ok {
		return nil
	}
	return s.tables[i]
}

// With returns a snapshot holding what s holds but with each of tables
// in place of s's table of its name (added where s has none); s is not
// changed. It costs O(tables).
func (s *Snapshot) With(tables ...*TableSnapshot) *Snapshot {
	out := &Snapshot{tables: slices.Clone(s.tables), meta: s.meta}
	for _, ts := range tables {
		i, ok := slices.BinarySearchFunc(out.tables, ts.name, func(t *TableSnapshot, name string) int { return strings.Compare(t.name, name) })
		if ok {
			out.tables[i] = ts
		} else {
			out.tables = slices.Insert(out.tables, i, ts)
		}
	}
	return out
}

// Meta returns the value of the DB's metadata key (nil: none). It is
// shared: the caller must not modify it.
func (s *Snapshot) Meta(key string) []byte { return s.meta[key] }

// MetaKeys returns the DB's metadata keys in order.
func (s *Snapshot) MetaKeys() []string { return slices.Sorted(maps.Keys(s.meta)) }

// Name returns the table's name ("" for a table of no DB).
func (s *TableSnapshot) Name() string { return s.name }

// ID returns the table's ID ("" for a table of no DB).
func (s *TableSnapshot) ID() string { return s.id }

// KeySchema returns the table's key schema.
func (s *TableSnapshot) KeySchema() KeySchema { return s.ks }

// ItemCount returns the number of items.
func (s *TableSnapshot) ItemCount() int { return s.count }

// SizeBytes returns the sum of the items' sizes (ItemSize).
func (s *TableSnapshot) SizeBytes() int64 { return s.size }

// Indexes returns the definitions of the table's secondary indexes, in
// the order they were added.
func (s *TableSnapshot) Indexes() []IndexDef {
	defs := make([]IndexDef, len(s.indexes))
	for i, x := range s.indexes {
		defs[i] = x.def
		defs[i].Projection.NonKey = slices.Clone(x.def.Projection.NonKey)
	}
	return defs
}

// VectorIndexes returns the definitions of the table's vector indexes, in
// the order they were added.
func (s *TableSnapshot) VectorIndexes() []VectorIndexDef {
	defs := make([]VectorIndexDef, len(s.vectors))
	for i, d := range s.vectors {
		defs[i] = d.clone()
	}
	return defs
}

// IndexStats is Table.IndexStats of the snapshot.
func (s *TableSnapshot) IndexStats(name string) (count int, size int64, err error) {
	for _, x := range s.indexes {
		if x.def.Name == name {
			return x.count, x.size, nil
		}
	}
	return 0, 0, fmt.Errorf("%w: %q", ErrNoIndex, name)
}

// Meta returns the value of the table's metadata key (nil: none). It is
// shared: the caller must not modify it.
func (s *TableSnapshot) Meta(key string) []byte { return s.meta[key] }

// MetaKeys returns the table's metadata keys in order.
func (s *TableSnapshot) MetaKeys() []string { return slices.Sorted(maps.Keys(s.meta)) }

// GetEncoded is Table.GetEncoded of the snapshot.
func (s *TableSnapshot) GetEncoded(k Key) (EncodedItem, bool) {
	if s.ks.checkKey(k) != nil {
		return EncodedItem{}, false
	}
	e, ok := s.parts.getEntry(k.Partition.str, s.ks.sortKeyOf(k))
	if !ok {
		return EncodedItem{}, false
	}
	return encodedIn(&s.ks, e), true
}

// QueryEncoded is Table.QueryEncoded of the snapshot.
func (s *TableSnapshot) QueryEncoded(r QueryRange, visit func(EncodedItem) bool) {
	lo, hi, ok := s.ks.queryBounds(r)
	if !ok {
		return
	}
	s.parts.walk(r.Partition.str, lo, hi, r.Forward, func(e entry) bool { return visit(encodedIn(&s.ks, e)) })
}

// ScanEncoded is Table.ScanEncoded of the snapshot: the same order.
func (s *TableSnapshot) ScanEncoded(r ScanRange, visit func(EncodedItem) bool) {
	scanOrder(&s.ks, &s.parts, r, visit)
}
