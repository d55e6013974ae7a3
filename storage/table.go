package storage

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/tidwall/btree"
)

// Table is one table's items: a map from partition key to partition (its
// items ordered by sort key), and the partitions ordered by (hash of the
// partition key, partition key) for Scan. All methods are safe for
// concurrent use.
type Table struct {
	ks KeySchema // immutable after NewTable
	id uint64    // creation number, immutable: transactions lock tables in id order (tx.go)

	// mu guards parts, order, count, size, scratch, coll, gen, indexes,
	// indexReads and obs, and the partitions and B-trees they reach.
	// Readers hold it shared for the whole of a Get, Query or Scan
	// including the visits; Write holds it exclusively for the whole
	// read-modify-write, callback included. Helpers named ...Locked
	// expect it held. Lock order (doc.go, "Locks"): a caller's locks held
	// across a call into the table come before mu; code run under mu (a
	// callback, a visit, the observer) takes none of them. Several
	// tables' mu are taken in ascending id only (tx.go).
	mu      sync.RWMutex
	parts   map[string]partRef        // partition key (Value.Str()) -> partition and its generation
	order   *btree.BTreeG[*partition] // the same partitions, by partitionLess
	count   int                       // items stored
	size    int64                     // sum of the stored items' ItemSize
	scratch []byte                    // encoding buffer reused by writes
	coll    *collections              // item collection sizes; nil until TrackCollections

	// gen is the table's generation (cow.go): the partitions of parts
	// whose generation is gen are the table's own, the others may be
	// shared with a snapshot and are copied before a write. Guarded by mu.
	gen uint64

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

	// vindexes are the vector indexes (vector_index.go), replaced (never
	// changed in place) by AddVectorIndex and DropVectorIndex. They read
	// nothing of the replaced item: a row is found by its table key.
	vindexes []*vindex

	// obs is told of every committed write (observe.go).
	obs Observer

	// Set when the table belongs to a DB (db.go). name and uid are
	// immutable; db and hook are guarded by mu and cleared by DropTable;
	// hookRec and hookW are the scratch record of a single write's hook
	// call (hook.go), used under mu.
	name, uid string
	db        *DB
	hook      Hook
	hookRec   Record
	hookW     [1]ItemWrite

	// metaMu guards meta, the table's opaque metadata (meta.go), which is
	// changed under mu too so the hook sees it in order with the writes.
	metaMu sync.Mutex
	meta   map[string][]byte
}

// NewTable returns an empty table with key schema ks. ks must pass Validate
// (the emulator validates table definitions first); NewTable panics if not.
func NewTable(ks KeySchema) *Table {
	if err := ks.Validate(); err != nil {
		panic(err)
	}
	return &Table{
		ks:    ks,
		id:    tableSeq.Add(1),
		parts: make(map[string]partRef),
		order: btree.NewBTreeGOptions(partitionLess, btree.Options{NoLocks: true}),
	}
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
	var res hookResult
	if t.hook != nil && ch.recorded() {
		if res, err = t.hookWriteLocked(k, &ch, origin); err != nil {
			t.restoreLocked(undoEntry{t: t, k: k, old: ch.oldE, found: ch.OldSize > 0})
			return Change{}, hookResult{}, err
		}
	}
	t.observeLocked(k, &ch, origin)
	return ch, res, nil
}

// putItemLocked is Write (decodeOld, fn) and Put (item).
func (t *Table) putItemLocked(k Key, newItem Item, decodeOld bool, fn func(old Item) (Item, error)) (Change, error) {
	pk, sk := k.Partition.str, t.sortKeyOf(k)
	var ch Change
	var oldIdx Item // what the indexes need of the replaced item
	oldE, found := t.getLocked(pk, sk)
	if found {
		ch.OldSize = int(oldE.size)
		ch.oldE = oldE
		// Collection sizes need the old item to take its weight away.
		if decodeOld || t.coll != nil {
			ch.Old = t.itemOf(k, oldE)
		}
		if oldIdx = ch.Old; oldIdx == nil && len(t.indexes) > 0 {
			oldIdx = t.encodedOf(k, oldE).Attributes(t.indexReads)
		}
	}
	if fn != nil {
		var err error
		newItem, err = fn(ch.Old)
		if errors.Is(err, ErrNoWrite) {
			ch.New, ch.NewSize, ch.noop, ch.same = ch.Old, ch.OldSize, true, true
			if t.coll != nil {
				ch.CollectionSize = t.coll.sizes[pk]
			}
			return ch, nil
		}
		if err != nil {
			return Change{}, err
		}
	}
	if newItem == nil {
		if found {
			t.deleteLocked(pk, sk, oldE)
			if len(t.indexes) > 0 {
				t.updateIndexesLocked(pk, oldE, oldIdx, ch.OldSize, entry{}, nil, 0)
			}
			if len(t.vindexes) > 0 {
				t.updateVectorIndexesLocked(pk, sk, entry{}, nil, 0)
			}
		}
		if t.coll != nil {
			ch.CollectionSize, _ = t.coll.next(pk, ch.Old, ch.OldSize, nil, 0) // shrinks: never refused
			t.setCollectionLocked(pk, ch.CollectionSize)
		}
		return ch, nil
	}
	if err := t.checkItemKey(k, newItem); err != nil {
		return Change{}, err
	}
	e, err := t.encodeLocked(sk, newItem)
	if err != nil {
		return Change{}, err
	}
	if t.coll != nil {
		if ch.CollectionSize, err = t.coll.next(pk, ch.Old, ch.OldSize, newItem, int(e.size)); err != nil {
			return Change{}, err
		}
	}
	p := t.putLocked(pk, e, oldE, found)
	if len(t.indexes) > 0 {
		t.updateIndexesLocked(p.pk, oldE, oldIdx, ch.OldSize, e, newItem, int(e.size))
	}
	if len(t.vindexes) > 0 {
		t.updateVectorIndexesLocked(p.pk, sk, e, newItem, int(e.size))
	}
	if t.coll != nil {
		t.setCollectionLocked(pk, ch.CollectionSize)
	}
	ch.New, ch.NewSize, ch.newE = newItem, int(e.size), e
	ch.noop = found && e.rec == oldE.rec
	ch.same = ch.noop || found && t.obs != nil && t.sameSetsLocked(k, oldE, ch.Old, e, newItem)
	return ch, nil
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

// encodeLocked builds the stored entry for item with encoded sort key sk.
func (t *Table) encodeLocked(sk string, item Item) (entry, error) {
	buf := appendRecHeader(t.scratch[:0], sk)
	buf, err := appendItem(buf, item, t.ks.Partition.Name, t.ks.Sort.Name)
	if err != nil {
		return entry{}, err
	}
	size := ItemSize(item)
	if size > math.MaxUint32 || len(sk) > maxSortKeyLen {
		return entry{}, fmt.Errorf("storage: item of %d bytes or sort key of %d bytes too large to store", size, len(sk))
	}
	e := parseEntry(string(buf), uint32(size))
	if cap(buf) <= maxScratch {
		t.scratch = buf
	} else {
		t.scratch = nil
	}
	return e, nil
}

func (t *Table) getLocked(pk, sk string) (entry, bool) {
	p := t.partLocked(pk)
	if p == nil {
		return entry{}, false
	}
	return p.get(sk)
}

// putLocked stores e in partition pk, replacing old if found, and
// returns the partition (the table's own: cow.go).
func (t *Table) putLocked(pk string, e, old entry, found bool) *partition {
	p := t.ownPartLocked(pk)
	if p == nil {
		// Clone: the key may share memory with a large request buffer.
		pk = strings.Clone(pk)
		p = &partition{pk: pk, hash: partitionHash(pk)}
		t.parts[pk] = partRef{p: p, gen: t.gen}
		t.order.Set(p)
	}
	p.set(e)
	t.stamp = 0
	if found {
		t.size -= int64(old.size)
	} else {
		t.count++
	}
	t.size += int64(e.size)
	return p
}

// deleteLocked removes the stored entry old from partition pk.
func (t *Table) deleteLocked(pk, sk string, old entry) {
	if p := t.partLocked(pk); p.len() == 1 {
		// The partition goes: it is not written, so not copied, if shared.
		delete(t.parts, pk)
		t.order.Delete(p)
	} else {
		t.ownPartLocked(pk).delete(sk)
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

// keyOf rebuilds the key of entry e in partition p.
func (t *Table) keyOf(p *partition, e entry) Key { return t.ks.keyOf(p, e) }

func (ks *KeySchema) keyOf(p *partition, e entry) Key {
	k := Key{Partition: Value{kind: ks.Partition.Kind, str: p.pk}}
	if ks.HasSort() {
		k.Sort = sortKeyValue(ks.Sort.Kind, e.sortKey())
	}
	return k
}

// encodedIn returns the EncodedItem of entry e of partition p of a table
// (or snapshot) whose key schema is *ks.
func encodedIn(ks *KeySchema, p *partition, e entry) EncodedItem {
	return EncodedItem{body: e.body(), key: ks.keyOf(p, e), ks: ks, size: e.size}
}

// itemOf decodes entry e, whose key is k, into a new Item.
func (t *Table) itemOf(k Key, e entry) Item { return t.encodedOf(k, e).Item() }

// checkLocked verifies the table's invariants, for tests.
func (t *Table) checkLocked() error {
	count, size := 0, int64(0)
	if len(t.parts) != t.order.Len() {
		return fmt.Errorf("%d partitions in the map, %d in the scan order", len(t.parts), t.order.Len())
	}
	var err error
	prev := ""
	t.order.Scan(func(p *partition) bool {
		if r := t.parts[p.pk]; r.p != p || r.gen > t.gen {
			err = fmt.Errorf("partition %q in the scan order but not the map (or of a later generation)", p.pk)
			return false
		}
		if p.hash != partitionHash(p.pk) {
			err = fmt.Errorf("partition %q has a stale hash", p.pk)
			return false
		}
		n := p.len()
		if n == 0 || (p.tree != nil && n < 2) || (p.tree != nil && p.oneRec != "") {
			err = fmt.Errorf("partition %q: bad shape (len %d, tree %v)", p.pk, n, p.tree != nil)
			return false
		}
		first := true
		p.walk(bound{}, bound{}, true, func(e entry) bool {
			if !first && e.sortKey() <= prev {
				err = fmt.Errorf("partition %q: sort keys out of order", p.pk)
				return false
			}
			first, prev = false, e.sortKey()
			k := t.keyOf(p, e)
			if got := ItemSize(t.itemOf(k, e)); got != int(e.size) {
				err = fmt.Errorf("partition %q: kept size %d, item size %d", p.pk, e.size, got)
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
	if err := t.checkIndexesLocked(); err != nil {
		return err
	}
	return t.checkVectorIndexesLocked()
}
