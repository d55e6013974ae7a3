package storage

import (
	"fmt"
)

// Apply applies r, a Record of a DB's hook (this DB's or another's: a log
// being replayed, a backup being restored, a replica's changes), through
// the paths the change first took: a RecordCommit is one WriteTx over its
// tables, a catalog record the call that made it. So this DB's own hook
// is called with it (a replica's log records what it applied; a log being
// loaded into a DB whose hook is that log must skip its own records
// itself), observers see its writes, and a failure leaves nothing half
// applied.
//
// Then, if applied is not nil, Apply calls it with r, outside every lock,
// so the caller can act on what storage keeps opaque: rebuild its own
// table state from a RecordCreateTable's or a RecordMeta's metadata,
// reinstall what a record does not carry (TrackCollections, SetObserver).
// Its error is Apply's.
//
// Records name tables by ID; a RecordCommit's images are stored as they
// are, their key attributes named by the table's key schema. Apply fails
// with ErrNoTable when a table is missing, ErrTableExists,
// ErrIndexExists, ErrNoIndex, ErrVectorIndexExists or ErrNoVectorIndex when the catalog does not fit the record,
// and ErrCorrupt when an image does not fit its table (key kinds, size).
func (db *DB) Apply(r *Record, applied func(*Record) error) error {
	var err error
	switch r.Kind {
	case RecordCommit:
		err = db.applyCommit(r)
	case RecordCreateTable:
		if r.Def == nil {
			return fmt.Errorf("%w: create-table record without a definition", ErrCorrupt)
		}
		_, err = db.CreateTable(*r.Def)
	case RecordRestoreTable:
		if r.Def == nil || r.From == nil {
			return fmt.Errorf("%w: restore-table record without a definition or a snapshot", ErrCorrupt)
		}
		_, err = db.RestoreTable(r.Def.Name, r.Def.ID, r.From)
	case RecordDropTable:
		err = db.drop(func() *Table { return db.tableByIDLocked(r.Table) })
	case RecordAddIndex, RecordDropIndex:
		t := db.TableByID(r.Table)
		switch {
		case t == nil:
			err = fmt.Errorf("%w: ID %q", ErrNoTable, r.Table)
		case r.Index == nil:
			err = fmt.Errorf("%w: %s record without an index", ErrCorrupt, r.Kind)
		case r.Kind == RecordAddIndex:
			err = t.AddIndex(*r.Index)
		default:
			err = t.DropIndex(r.Index.Name)
		}
	case RecordAddVectorIndex, RecordDropVectorIndex:
		t := db.TableByID(r.Table)
		switch {
		case t == nil:
			err = fmt.Errorf("%w: ID %q", ErrNoTable, r.Table)
		case r.VectorIndex == nil:
			err = fmt.Errorf("%w: %s record without a vector index", ErrCorrupt, r.Kind)
		case r.Kind == RecordAddVectorIndex:
			err = t.AddVectorIndex(*r.VectorIndex)
		default:
			err = t.DropVectorIndex(r.VectorIndex.Name)
		}
	case RecordMeta:
		if r.Table == "" {
			err = db.SetMeta(r.Key, r.Value)
		} else if t := db.TableByID(r.Table); t == nil {
			err = fmt.Errorf("%w: ID %q", ErrNoTable, r.Table)
		} else {
			err = t.SetMeta(r.Key, r.Value)
		}
	default:
		return fmt.Errorf("%w: record kind %d", ErrCorrupt, r.Kind)
	}
	if err != nil {
		return err
	}
	if applied != nil {
		return applied(r)
	}
	return nil
}

// applyCommit applies a RecordCommit as one transaction.
func (db *DB) applyCommit(r *Record) error {
	tables := make([]*Table, len(r.Writes))
	db.mu.RLock()
	for i, w := range r.Writes {
		tables[i] = db.tableByIDLocked(w.Table)
	}
	db.mu.RUnlock()
	for i, t := range tables {
		if t == nil {
			return fmt.Errorf("%w: ID %q", ErrNoTable, r.Writes[i].Table)
		}
	}
	tx := Begin(tables...)
	defer tx.Abort()
	// Sized once: grown a write at a time, these were a third of
	// replaying a log of BatchWriteItems (BenchmarkLoadDir on a
	// killed server's directory).
	tx.undo = make([]undoEntry, 0, len(r.Writes))
	tx.changes = make([]Change, 0, len(r.Writes))
	for i, w := range r.Writes {
		t := tables[i]
		if w.HasNew && t.coll == nil && t.obs == nil && len(t.vindexes) == 0 {
			if _, err := tx.writeImage(w.Origin, t, w.Key, w.New); err != nil {
				return fmt.Errorf("%w: write %d of the record: %w", ErrCorrupt, i, err)
			}
			continue
		}
		var item Item
		if w.HasNew {
			if r.unchecked {
				if _, err := checkImage(w.New.body, "", ""); err != nil {
					return fmt.Errorf("%w: write %d of the record: %w", ErrCorrupt, i, err)
				}
			}
			var err error
			if item, err = w.New.itemOf(t.ks, w.Key); err != nil {
				return err
			}
		}
		ch, err := tx.write(w.Origin, t, w.Key, item, false, nil)
		if err != nil {
			return fmt.Errorf("%w: write %d of the record: %w", ErrCorrupt, i, err)
		}
		if w.HasNew && ch.NewSize != w.New.Size() {
			return fmt.Errorf("%w: write %d: item of %d bytes recorded as %d", ErrCorrupt, i, ch.NewSize, w.New.Size())
		}
	}
	_, err := tx.Commit()
	return err
}

// itemOf decodes the image e of an item with key k into a new Item of a
// table with key schema ks: e's attributes and k's values under ks's key
// attribute names. It is Item for an image that may come from elsewhere
// (a parsed record knows its key values, not their names).
func (e EncodedItem) itemOf(ks KeySchema, k Key) (Item, error) {
	it, err := decodeItem(e.body, 2)
	if err != nil {
		return nil, err
	}
	if _, ok := it[ks.Partition.Name]; ok || (ks.HasSort() && it[ks.Sort.Name].IsValid()) {
		return nil, fmt.Errorf("%w: image holds a key attribute", ErrCorrupt)
	}
	ks.SetKey(it, k)
	return it, nil
}

// writeImage is WriteTx.Put of an item given as its image (a record
// being applied) to a table that keeps no item collection sizes and has
// no observer, which would need the item decoded: the image is checked
// (checkImageWrite, its size verified) and stored as it is, not decoded
// and encoded again; only the attributes the indexes read are decoded.
func (tx *WriteTx) writeImage(origin Origin, t *Table, k Key, img EncodedItem) (Change, error) {
	if err := tx.has(t); err != nil {
		return Change{}, err
	}
	var nu Item
	if t.indexedLocked() {
		nu = t.indexAttrMapLocked(&t.scratchLocked().indexAttrs[1])
	}
	sk, size, err := t.checkImageWrite(k, img, nu)
	if err != nil {
		return Change{}, err
	}
	ch, found := t.storeImageLocked(k, sk, img, size, nu)
	tx.undo = append(tx.undo, undoEntry{t: t, k: k, old: ch.oldE, found: found, origin: origin})
	tx.changes = append(tx.changes, ch)
	return ch, nil
}

// checkImageWrite checks a write of the image img under key k to t
// before anything is stored: the key's kinds, the image (checkImage),
// its recorded size, the length of the keys. It returns k's encoded sort
// key and the item's size. When pick is not nil, the attributes the
// indexes read are put in it as the image is checked (checkImagePick),
// their values viewing img: one walk of the image where checking it,
// then reading them, took two. t.mu is held, shared at least.
func (t *Table) checkImageWrite(k Key, img EncodedItem, pick Item) (sk string, size int, err error) {
	if err := t.ks.checkKey(k); err != nil {
		return "", 0, err
	}
	var readsKey [2]bool // the key attributes the indexes read
	if pick != nil {
		readsKey = [2]bool{contains(t.indexReads, t.ks.Partition.Name), t.ks.HasSort() && contains(t.indexReads, t.ks.Sort.Name)}
	}
	if size, err = t.ks.imageSize(k, img.body, t.indexReads, readsKey, pick); err != nil {
		return "", 0, err
	}
	sk = t.sortKeyOf(k)
	if size != int(img.size) {
		return "", 0, fmt.Errorf("%w: item of %d bytes recorded as %d", ErrCorrupt, size, img.size)
	}
	pk := k.Partition.str
	if n := uvarintLen(len(pk)) + len(pk) + uvarintLen(len(sk)) + len(sk); n > maxRecordHeader {
		return "", 0, fmt.Errorf("%w: keys of %d and %d bytes", ErrCorrupt, len(pk), len(sk))
	}
	return sk, size, nil
}

// storeImageLocked stores the image img of size bytes, checked
// (checkImageWrite), under key k (sort key sk encoded) in t, keeping its
// indexes, unless they are deferred: a write that cannot fail. nu holds
// the attributes the indexes read of the image (nil: read here). It
// returns the Change and whether an item was replaced.
func (t *Table) storeImageLocked(k Key, sk string, img EncodedItem, size int, nu Item) (Change, bool) {
	pk := k.Partition.str
	var ch Change
	var oldIdx Item
	oldE, found := t.getLocked(pk, sk)
	if found {
		ch.OldSize, ch.oldE = int(oldE.size), oldE
		if t.indexedLocked() {
			oldIdx = t.indexAttrsLocked(0, t.encodedOf(k, oldE))
		}
	}
	buf := appendRecHeader(t.scratchLocked().buf[:0], pk, sk)
	buf = append(buf, img.body...)
	rec := oldE.rec
	if string(buf) != rec {
		rec = t.storeLocked(buf)
	}
	e := parseEntry(rec, uint32(size))
	if cap(buf) <= maxScratch {
		t.scr.buf = buf
	}
	t.putLocked(pk, e, oldE, found)
	if t.indexedLocked() {
		if nu == nil {
			nu = t.indexAttrsLocked(1, t.encodedOf(k, e))
		}
		t.updateIndexesLocked(oldE, oldIdx, ch.OldSize, e, nu, size)
	}
	if found && !sameString(e.rec, oldE.rec) {
		t.releaseLocked(oldE.rec)
	}
	if t.scratchLocked().slab.due() {
		t.settleLocked()
	}
	ch.NewSize, ch.newE = size, e
	ch.noop = found && e.rec == oldE.rec
	ch.same = ch.noop
	return ch, found
}
