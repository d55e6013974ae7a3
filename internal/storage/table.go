package storage

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
)

// Table is one table's items: a map from partition key to partition (its
// items ordered by sort key), and the partitions ordered by (hash of the
// partition key, partition key) for Scan. All methods are safe for
// concurrent use.
type Table struct {
	ks KeySchema // immutable after NewTable
	id uint64    // creation number, immutable: transactions lock tables in id order (tx.go)

	// mu guards parts, count, size, scr (the slab, the arena and the
	// buffers in it), coll, indexes, indexReads and obs, and the
	// partitions and B-trees they reach.
	// Readers hold it shared for the whole of a Get, Query or Scan
	// including the visits; Write holds it exclusively for the whole
	// read-modify-write, callback included. Helpers named ...Locked
	// expect it held. Lock order (doc.go, "Locks"): a caller's locks held
	// across a call into the table come before mu; code run under mu (a
	// callback, a visit, the observer) takes none of them. Several
	// tables' mu are taken in ascending id only (tx.go).
	mu    sync.RWMutex
	parts ptable        // the partitions, by key and in scan order (ptable.go)
	count int           // items stored
	size  int64         // sum of the stored items' ItemSize
	scr   *tableScratch // what writes keep (the slab, the arena, buffers), made at the first (scratchLocked)
	coll  *collections  // item collection sizes; nil until TrackCollections

	// stamp names what the table holds (items, indexes, metadata) for
	// Unchanged (snapshot.go): 0 once anything changed, a fresh number
	// from stampSeq when a snapshot is taken of it, the snapshot's when
	// it is restored from one. Guarded by mu.
	stamp uint64

	// indexes are the secondary indexes (index.go), replaced (never changed
	// in place) by AddIndex and DropIndex; indexReads is the union of the
	// attributes they read of an item, which a write decodes of the item it
	// replaces.
	indexes    []*index
	indexReads []string
	// idxShared: indexes are a snapshot's frozen ones (the table was
	// restored from it: a branch's), shared with every table restored
	// from it, and indexReads its; ownIndexesLocked copies them before
	// their first change, so a table that is only read pays nothing for
	// them. Guarded by mu.
	idxShared bool
	// deferIdx: the DB defers the secondary indexes' entries
	// (DB.DeferIndexes): writes leave them as they are, FillIndexes
	// rebuilds them. Guarded by mu.
	deferIdx bool
	hookTx   bool // scratch of WriteTx.hookLocked, under mu: the hook wants this commit's writes
	// foreign: the table was restored from a snapshot and stores records
	// that lie in chunks its slab does not count (the snapshot's), which
	// it never compacts; they go as the table rewrites them. Immutable.
	foreign bool
	// metaShared: meta is a snapshot's too (or the table a snapshot's
	// restored copy), so a change copies it first. Guarded by metaMu.
	metaShared bool
	// lagged counts the indexes with a Lag (index_lag.go), and the read
	// lag rlag (read_lag.go) if set: a commit numbers and queues its
	// writes for them when it is not 0. rlag is stored under mu and
	// loaded with or without it.
	lagged int
	rlag   atomic.Pointer[readLag]

	// vindexes are the vector indexes (vector_index.go), replaced (never
	// changed in place) by AddVectorIndex, DropVectorIndex and
	// SetVectorIndexer. They read nothing of the replaced item: an entry
	// is found by its table key. vix builds their entries (nil: none).
	vindexes []vslot
	vix      VectorIndexer

	// obs is told of every committed write (observe.go).
	obs Observer

	// Set when the table belongs to a DB (db.go). name and uid are
	// immutable; db and hook are written under mu and cleared by DropTable
	// (db is atomic: Sibling reads it without mu);
	// hookScr is the scratch record of a single write's hook call
	// (hook.go), used under mu and made at the first: a table restored
	// from a snapshot (a branch's) and never written pays nothing for it.
	name, uid string
	db        atomic.Pointer[DB]
	hook      Hook
	hookSel   CommitSelector // hook, when it selects the item writes it hears of (hook_select.go)
	hookScr   *hookScratch

	// metaMu guards meta, the table's opaque metadata (meta.go), which is
	// changed under mu too so the hook sees it in order with the writes;
	// and metaShared (above).
	metaMu sync.Mutex
	meta   map[string][]byte
}

// tableScratch is what a table's writes keep and reuse from write to
// write, made at the first (scratchLocked): a table that is only read (a
// branch's restored one) holds none.
type tableScratch struct {
	arena partArena // where partitions come from
	slab  slab      // where records are stored (slab.go)
	buf   []byte    // encoding buffer
	// indexAttrs are two maps that writes decode indexReads into (the
	// replaced item's and the new one's): an index's replace keeps
	// neither (indexAttrsLocked).
	indexAttrs [2]Item
	// replayAttrs are the maps DB.Replay reads the indexes' attributes
	// of a commit's writes into, one a write, reused from commit to
	// commit (replay_load.go).
	replayAttrs []Item
}

// scratchLocked returns t's write scratch, made now if need be; t.mu is
// held exclusively.
func (t *Table) scratchLocked() *tableScratch {
	if t.scr == nil {
		t.scr = new(tableScratch)
	}
	return t.scr
}

// NewTable returns an empty table with key schema ks. ks must pass Validate
// (the emulator validates table definitions first); NewTable panics if not.
func NewTable(ks KeySchema) *Table {
	if err := ks.Validate(); err != nil {
		panic(err)
	}
	return &Table{ks: ks, id: tableSeq.Add(1)}
}

// KeySchema returns the table's key schema.
func (t *Table) KeySchema() KeySchema { return t.ks }

// ItemCount returns the number of items stored.
func (t *Table) ItemCount() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.count
}

// SizeBytes returns the sum of the stored items' sizes (ItemSize).
func (t *Table) SizeBytes() int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.size
}

// Change is the record of one committed write: the item before and after.
// Old is nil when the write created the item, New is nil when it deleted it.
// OldSize and NewSize are their ItemSize (0 when absent), which write
// capacity is computed from. Items in a Change are owned by the receiver
// and must not be mutated (New is the item the Write callback returned).
// CollectionSize is the size of the key's item collection after the write
// when the table tracks collections (TrackCollections), else 0.
type Change struct {
	Old, New         Item
	OldSize, NewSize int
	CollectionSize   int64

	// noop: the write left the stored record as it was (ErrNoWrite, or
	// the same bytes stored again), so the hook does not hear of it.
	// same: besides, a record of the same values with set members in
	// another order, which an observer need not hear of either. oldE and
	// newE are the stored records before (when OldSize > 0) and after
	// (when NewSize > 0), for the hook and the observer.
	noop, same bool
	oldE, newE entry
}

// Get returns the item with key k, decoded afresh for the caller, or false
// when there is none (or k does not fit the key schema).
func (t *Table) Get(k Key) (Item, bool) {
	e, ok := t.GetEncoded(k)
	if !ok {
		return nil, false
	}
	// The record is an immutable string, so it decodes safely outside the lock.
	return e.Item(), true
}

// GetEncoded is Get without the decoding: the item as stored.
func (t *Table) GetEncoded(k Key) (EncodedItem, bool) {
	if t.ks.checkKey(k) != nil {
		return EncodedItem{}, false
	}
	sk := t.sortKeyOf(k)
	t.mu.RLock()
	e, ok := t.getLocked(k.Partition.str, sk)
	t.mu.RUnlock()
	if !ok {
		return EncodedItem{}, false
	}
	return t.encodedOf(k, e), true
}

// Write runs fn under the table's write lock with the current item (nil if
// absent). fn returns the new item (nil means delete) or an error, in which
// case nothing is written and Write returns the error. If fn returns
// ErrNoWrite, nothing is written and Write returns no error, with Old and New
// both the current item. The new item must carry key k (ErrKeyMismatch if
// not). fn must not call back into the table.
func (t *Table) Write(k Key, fn func(old Item) (Item, error)) (Change, error) {
	return t.commitOne(OriginUser, k, nil, true, fn)
}

// Put stores item under key k, replacing the item there, or deletes the
// item with key k when item is nil: a Write whose fn ignores the current
// item. The current item is not decoded: the Change's Old is nil whether or
// not there was one, and OldSize (0 when there was none) says what was
// replaced. Use Write to see the current item.
func (t *Table) Put(k Key, item Item) (Change, error) {
	return t.commitOne(OriginUser, k, item, false, nil)
}

// commitOne is Write, Put and WriteFrom: one item write under the table's
// write lock, committed as a transaction of its own. It takes the lock
// itself rather than build a WriteTx, which would cost an allocation on
// the hottest path. With a hook (hook.go) the write is handed to it at
// the commit point and undone if it fails; the hook's wait, if any, runs
// after the lock is released.
func (t *Table) commitOne(origin Origin, k Key, item Item, decodeOld bool, fn func(Item) (Item, error)) (Change, error) {
	if err := t.ks.checkKey(k); err != nil {
		return Change{}, err
	}
	ch, res, err := t.commitOneLocking(origin, k, item, decodeOld, fn)
	if err != nil {
		return Change{}, err
	}
	return ch, res.finish()
}

func (t *Table) commitOneLocking(origin Origin, k Key, item Item, decodeOld bool, fn func(Item) (Item, error)) (Change, hookResult, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	ch, err := t.putItemLocked(k, item, decodeOld, fn)
	if err != nil {
		return Change{}, hookResult{}, err
	}
	res, err := t.commitWriteLocked(origin, k, &ch)
	if err != nil {
		return Change{}, hookResult{}, err
	}
	return ch, res, nil
}

// commitWriteLocked is the commit point of a single write made under
// t.mu (Write, Put, WritePatch): the hook records it (or refuses, and the
// write is undone), the lags number it, the observer sees it.
func (t *Table) commitWriteLocked(origin Origin, k Key, ch *Change) (hookResult, error) {
	var res hookResult
	if ch.recorded() && t.hookWantsLocked() {
		var err error
		if res, err = t.hookWriteLocked(k, ch, origin); err != nil {
			t.restoreLocked(undoEntry{t: t, k: k, old: ch.oldE, found: ch.OldSize > 0})
			if t.lagged != 0 {
				t.dropUnstampedLocked()
			}
			return hookResult{}, err
		}
	}
	if t.lagged != 0 {
		t.commitLagOneLocked(k, ch)
	}
	t.observeLocked(k, ch, origin)
	return res, nil
}

// putItemLocked is Write (decodeOld, fn) and Put (item): the one write
// path. It ends by compacting the slab's chunks that are due.
func (t *Table) putItemLocked(k Key, newItem Item, decodeOld bool, fn func(old Item) (Item, error)) (Change, error) {
	ch, err := t.writeItemLocked(k, newItem, decodeOld, fn)
	if t.scratchLocked().slab.due() {
		t.settleLocked()
	}
	return ch, err
}

func (t *Table) writeItemLocked(k Key, newItem Item, decodeOld bool, fn func(old Item) (Item, error)) (Change, error) {
	pk, sk := k.Partition.str, t.sortKeyOf(k)
	var ch Change
	oldE, found := t.getLocked(pk, sk)
	if found {
		ch.OldSize = int(oldE.size)
		ch.oldE = oldE
		// Collection sizes need the old item to take its weight away.
		if decodeOld || t.coll != nil {
			ch.Old = t.itemOf(k, oldE)
		}
	}
	if fn != nil {
		var err error
		newItem, err = fn(ch.Old)
		if errors.Is(err, ErrNoWrite) {
			ch.New, ch.NewSize, ch.noop, ch.same = ch.Old, ch.OldSize, true, true
			if t.coll != nil {
				ch.CollectionSize = t.coll.size(pk)
			}
			return ch, nil
		}
		if err != nil {
			return Change{}, err
		}
	}
	if newItem == nil {
		t.removeItemLocked(k, pk, sk, oldE, found, &ch)
		return ch, nil
	}
	if err := t.checkItemKey(k, newItem); err != nil {
		return Change{}, err
	}
	e, err := t.encodeLocked(pk, sk, newItem, oldE.rec)
	if err != nil {
		return Change{}, err
	}
	if t.coll != nil {
		if ch.CollectionSize, err = t.coll.next(pk, ch.Old, ch.OldSize, newItem, int(e.size)); err != nil {
			if !sameString(e.rec, oldE.rec) {
				t.scratchLocked().slab.release(e.rec) // stored, never used: dead at once
			}
			return Change{}, err
		}
	}
	if storedAsWas(found, e, oldE) {
		t.stamp = 0
	} else {
		t.placeItemLocked(k, pk, e, oldE, found, newItem, &ch)
	}
	if t.coll != nil {
		t.setCollectionLocked(pk, ch.CollectionSize)
	}
	ch.New, ch.NewSize, ch.newE = newItem, int(e.size), e
	ch.noop = found && e.rec == oldE.rec
	if found && !sameString(e.rec, oldE.rec) {
		t.releaseLocked(oldE.rec)
	}
	ch.same = ch.noop || found && t.obs != nil && t.sameSetsLocked(k, oldE, ch.Old, e, newItem)
	return ch, nil
}

// removeItemLocked is writeItemLocked's delete: the item stored as oldE
// (when found) leaves the partition, the indexes and the collection's
// size, which ch records.
func (t *Table) removeItemLocked(k Key, pk, sk string, oldE entry, found bool, ch *Change) {
	if found {
		t.deleteLocked(pk, sk, oldE)
		if t.indexedLocked() {
			t.updateIndexesLocked(oldE, t.oldIndexedLocked(k, oldE, found, ch.Old), ch.OldSize, entry{}, nil, 0)
		}
		if len(t.vindexes) > 0 {
			t.updateVectorIndexesLocked(ItemRef{pk: pk, e: oldE}, nil)
		}
		t.releaseLocked(oldE.rec)
	}
	if t.coll != nil {
		ch.CollectionSize, _ = t.coll.next(pk, ch.Old, ch.OldSize, nil, 0) // shrinks: never refused
		t.setCollectionLocked(pk, ch.CollectionSize)
	}
}

// placeItemLocked is writeItemLocked's store of newItem, encoded as e,
// in the partition and the indexes in place of oldE (when found).
// An item stored as it was does not come here (storedAsWas).
func (t *Table) placeItemLocked(k Key, pk string, e, oldE entry, found bool, newItem Item, ch *Change) {
	t.putLocked(pk, e, oldE, found)
	if t.indexedLocked() {
		t.updateIndexesLocked(oldE, t.oldIndexedLocked(k, oldE, found, ch.Old), ch.OldSize, e, newItem, int(e.size))
	}
	if len(t.vindexes) > 0 {
		t.updateVectorIndexesLocked(ItemRef{pk: e.pk(), e: e}, newItem)
	}
}

// storedAsWas reports whether the item written is stored as it was
// (storeRecordLocked kept its record, oldE's): the partition and every
// index already hold this very entry, so none is searched again (a
// B-tree search of a large GSI costs a cache and TLB miss a level). It
// is checked, inlined, before the call to placeItemLocked, so an item
// written again as it was (a batch's overwrite, BenchmarkBatchOverwrite)
// makes no call.
//
//gcassert:inline
func storedAsWas(found bool, e, oldE entry) bool {
	return found && sameString(e.rec, oldE.rec) && e.size == oldE.size
}

// oldIndexedLocked returns what the indexes need of the replaced item,
// stored as oldE (nil when not found): old, its decoded image, when the
// write has it (nil: not decoded), else the indexes' reads of its record
// (immutable, so read after the partition let it go as well as before).
func (t *Table) oldIndexedLocked(k Key, oldE entry, found bool, old Item) Item {
	if !found {
		return nil
	}
	if old != nil {
		return old
	}
	return t.indexAttrsLocked(0, t.encodedOf(k, oldE))
}

// indexAttrsLocked decodes the attributes the indexes read of e into
// the table's map indexAttrs[i], emptied first: two maps a table rather
// than two a write, which in a table of millions of items would be fresh
// memory each time. The map is good until the next call with
// i; t.mu is held exclusively.
func (t *Table) indexAttrsLocked(i int, e EncodedItem) Item {
	return e.AttributesInto(t.indexAttrMapLocked(&t.scratchLocked().indexAttrs[i]), t.indexReads)
}

// indexAttrMapLocked returns *m emptied, made first if nil, for the
// attributes the indexes read of an item.
func (t *Table) indexAttrMapLocked(m *Item) Item {
	if *m == nil {
		*m = make(Item, len(t.indexReads))
	} else {
		clear(*m)
	}
	return *m
}

func (t *Table) checkItemKey(k Key, it Item) error {
	if v := it[t.ks.Partition.Name]; !Equal(v, k.Partition) {
		return fmt.Errorf("%w: partition key %q", ErrKeyMismatch, t.ks.Partition.Name)
	}
	if t.ks.HasSort() {
		if v := it[t.ks.Sort.Name]; !Equal(v, k.Sort) {
			return fmt.Errorf("%w: sort key %q", ErrKeyMismatch, t.ks.Sort.Name)
		}
	}
	return nil
}

// maxScratch caps the encoding buffer a table keeps between writes.
const maxScratch = 64 << 10

// encodeLocked builds the stored entry for item with partition key pk
// and encoded sort key sk, stored in the slab; when the record has the
// bytes of old (the record it replaces), old itself.
func (t *Table) encodeLocked(pk, sk string, item Item, old string) (entry, error) {
	buf := appendRecHeader(t.scratchLocked().buf[:0], pk, sk)
	if len(buf) > maxRecordHeader {
		return entry{}, fmt.Errorf("storage: keys of %d and %d bytes too large to store", len(pk), len(sk))
	}
	buf, size, err := appendItemSized(buf, item, t.ks.Partition.Name, t.ks.Sort.Name)
	if err != nil {
		return entry{}, err
	}
	return t.storeRecordLocked(buf, size, old)
}

// storeRecordLocked stores buf, an encoded record of an item of size
// bytes built in t's scratch buffer, in the slab, unless it has the bytes of old
// (the record it replaces), which is then kept; it returns the entry and
// keeps buf as the scratch buffer when it is not too large.
func (t *Table) storeRecordLocked(buf []byte, size int, old string) (entry, error) {
	if size > math.MaxUint32 {
		return entry{}, fmt.Errorf("storage: item of %d bytes too large to store", size)
	}
	rec := old
	if string(buf) != old {
		rec = t.storeLocked(buf)
	}
	e := parseEntry(rec, uint32(size))
	if cap(buf) <= maxScratch {
		t.scratchLocked().buf = buf
	} else {
		t.scratchLocked().buf = nil
	}
	return e, nil
}

func (t *Table) getLocked(pk, sk string) (entry, bool) {
	return t.parts.getEntry(pk, sk)
}

// putLocked stores e in partition pk, replacing old if found. A new
// partition's key is e's record's own, so no request buffer is kept; a
// partition shared with a snapshot is copied first (cow.go).
func (t *Table) putLocked(pk string, e, old entry, found bool) {
	h := partitionHash(pk)
	i, ok := t.parts.locate(h, pk, found)
	if !ok {
		p := t.scratchLocked().arena.alloc()
		p.hash = h
		p.setOne(e)
		t.parts.insert(p)
	} else {
		p := t.ownSlotLocked(i)
		if np := p.set(e); np != p {
			// p moved into an allocation with its entries (partition.set).
			// It is not given back to the arena: it may be one of those,
			// whose reuse as a lone partition would keep its array.
			t.parts.setOwned(i, np)
		}
	}
	t.stamp = 0
	if found {
		t.size -= int64(old.size)
	} else {
		t.count++
	}
	t.size += int64(e.size)
}

// deleteLocked removes the stored entry old from partition pk.
func (t *Table) deleteLocked(pk, sk string, old entry) {
	i, _ := t.parts.locate(partitionHash(pk), pk, true)
	if p := t.parts.part(i); p.len() == 1 {
		// The partition goes: it is not written, so not copied, if shared.
		own := t.parts.ownedAt(i)
		t.parts.removeAt(i)
		if own {
			t.scratchLocked().arena.release(p)
		}
	} else {
		t.ownSlotLocked(i).delete(sk)
	}
	t.count--
	t.size -= int64(old.size)
	t.stamp = 0
}

// sortKeyOf returns k's encoded sort key ("" without a sort key).
func (t *Table) sortKeyOf(k Key) string { return t.ks.sortKeyOf(k) }

func (ks *KeySchema) sortKeyOf(k Key) string {
	if !ks.HasSort() {
		return ""
	}
	return sortKeyBytes(k.Sort)
}

// keyOf rebuilds the key of entry e from its record.
func (t *Table) keyOf(e entry) Key { return t.ks.keyOf(e) }

func (ks *KeySchema) keyOf(e entry) Key {
	k := Key{Partition: Value{kind: ks.Partition.Kind, str: e.pk()}}
	if ks.HasSort() {
		k.Sort = sortKeyValue(ks.Sort.Kind, e.sortKey())
	}
	return k
}

// encodedIn returns the EncodedItem of entry e of a table (or snapshot)
// whose key schema is *ks.
// A number sort key stays encoded (decoded by Key, or written straight
// into a response by HeadLazy and AppendNumber): most visitors never need
// its Value.
func encodedIn(ks *KeySchema, e entry) EncodedItem {
	if ks.HasSort() && ks.Sort.Kind == KindN {
		return EncodedItem{body: e.body(), key: Key{Partition: Value{kind: ks.Partition.Kind, str: e.pk()}}, nsk: e.sortKey(), ks: ks, size: e.size}
	}
	return EncodedItem{body: e.body(), key: ks.keyOf(e), ks: ks, size: e.size}
}

// itemOf decodes entry e, whose key is k, into a new Item.
func (t *Table) itemOf(k Key, e entry) Item { return t.encodedOf(k, e).Item() }

// Check verifies the table's invariants, for tests (as bbolt's Tx.Check):
// its partition table, every record and its size, the count and size,
// the slab, the secondary indexes, the vector indexes' entries and the
// item collection sizes against the stored items, and the same of its
// read lag's shadow. It holds the table's write lock (a lagging index is
// checked with its queued changes), then the shadow's.
func (t *Table) Check() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.checkLocked(); err != nil {
		return err
	}
	if err := t.checkCollectionsLocked(); err != nil {
		return err
	}
	if rl := t.rlag.Load(); rl != nil {
		if err := rl.shadow.Check(); err != nil {
			return fmt.Errorf("read lag's shadow: %w", err)
		}
	}
	return nil
}

// Check is Table.Check of every table of db.
func (db *DB) Check() error {
	for _, t := range db.Tables() {
		if err := t.Check(); err != nil {
			return fmt.Errorf("table %q: %w", t.Name(), err)
		}
	}
	return nil
}

// checkLocked verifies the table's invariants, for tests.
func (t *Table) checkLocked() error {
	if err := t.parts.check(); err != nil {
		return err
	}
	count, size := 0, int64(0)
	var err error
	prev := ""
	t.parts.ascend(0, "", func(p *partition) bool {
		if p.hash != partitionHash(p.pk()) {
			err = fmt.Errorf("partition %q has a stale hash", p.pk())
			return false
		}
		if t.parts.get(p.pk()) != p {
			err = fmt.Errorf("partition %q not found by its key", p.pk())
			return false
		}
		n := p.len()
		if n == 0 || (p.tree != nil && n < 2) {
			err = fmt.Errorf("partition %q: bad shape (len %d, tree %v)", p.pk(), n, p.tree != nil)
			return false
		}
		first := true
		p.walk(bound{}, bound{}, true, func(e entry) bool {
			if !first && e.sortKey() <= prev {
				err = fmt.Errorf("partition %q: sort keys out of order", p.pk())
				return false
			}
			if e.pk() != p.pk() {
				err = fmt.Errorf("partition %q holds a record of partition %q", p.pk(), e.pk())
				return false
			}
			first, prev = false, e.sortKey()
			k := t.keyOf(e)
			if got := ItemSize(t.itemOf(k, e)); got != int(e.size) {
				err = fmt.Errorf("partition %q: kept size %d, item size %d", p.pk(), e.size, got)
				return false
			}
			count++
			size += int64(e.size)
			return true
		})
		return err == nil
	})
	if err != nil {
		return err
	}
	if count != t.count || size != t.size {
		return fmt.Errorf("counted %d items of %d bytes, table says %d items of %d bytes", count, size, t.count, t.size)
	}
	if err := t.checkSlabLocked(); err != nil {
		return err
	}
	if err := t.checkIndexesLocked(); err != nil {
		return err
	}
	return t.checkVectorIndexesLocked()
}
