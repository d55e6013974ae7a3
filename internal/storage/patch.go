package storage

import (
	"errors"
	"fmt"
)

// Patching a stored item: a write that changes a few top-level attributes
// and leaves the rest as they are. Write hands its callback the whole item
// decoded into a map and encodes the whole item it returns; an update that
// names one attribute of ten pays for the other nine twice. WritePatch
// hands the callback the stored record (EncodedItem: it decodes only what
// it reads, such as the attributes a condition and an update name) and
// takes back the named attributes' new values only; the new record is the
// old one with those attributes replaced, the others copied as bytes, and
// its size is the old size less the replaced attributes' plus the new
// ones'. The item is decoded whole only for what needs every attribute: an
// item collection size (TrackCollections), a vector index, or an observer
// asked whether a rewrite changed only the order of set members.

// WritePatch is Write for a caller that changes only the top-level
// attributes names: fn runs under the table's write lock with the current
// item as stored (found false: there is none, and old is the zero
// EncodedItem) and returns the names' new values; a name the result lacks
// is removed, and attributes of the result not in names are ignored. The
// written item is the current one (an absent one: just key k's
// attributes) with those attributes replaced. names must be sorted in
// ascending byte order, without repeats, and name no key attribute
// (ErrKeyMismatch). fn may return ErrNoWrite, as Write's may. The Change
// has OldSize and NewSize but no Old or New item. fn must not call back
// into the table.
func (t *Table) WritePatch(k Key, names []string, fn func(old EncodedItem, found bool) (Item, error)) (Change, error) {
	if err := t.ks.checkKey(k); err != nil {
		return Change{}, err
	}
	if err := t.checkPatchNames(names); err != nil {
		return Change{}, err
	}
	ch, res, err := t.commitPatchLocking(k, names, fn)
	if err != nil {
		return Change{}, err
	}
	return ch, res.finish()
}

// checkPatchNames checks WritePatch's names.
func (t *Table) checkPatchNames(names []string) error {
	for i, n := range names {
		if i > 0 && n <= names[i-1] {
			return fmt.Errorf("storage: patch names not sorted: %q after %q", n, names[i-1])
		}
		if n == t.ks.Partition.Name || (t.ks.HasSort() && n == t.ks.Sort.Name) {
			return fmt.Errorf("%w: patch names key attribute %q", ErrKeyMismatch, n)
		}
	}
	return nil
}

// commitPatchLocking is commitOneLocking for WritePatch.
func (t *Table) commitPatchLocking(k Key, names []string, fn func(EncodedItem, bool) (Item, error)) (Change, hookResult, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	ch, err := t.patchItemLocked(k, names, fn)
	if t.scratchLocked().slab.due() {
		t.settleLocked()
	}
	if err != nil {
		return Change{}, hookResult{}, err
	}
	res, err := t.commitWriteLocked(OriginUser, k, &ch)
	if err != nil {
		return Change{}, hookResult{}, err
	}
	return ch, res, nil
}

// patchItemLocked is writeItemLocked for a patch.
func (t *Table) patchItemLocked(k Key, names []string, fn func(EncodedItem, bool) (Item, error)) (Change, error) {
	pk, sk := k.Partition.str, t.sortKeyOf(k)
	var ch Change
	var old EncodedItem
	oldE, found := t.getLocked(pk, sk)
	if found {
		ch.OldSize, ch.oldE = int(oldE.size), oldE
		old = t.encodedOf(k, oldE)
	}
	set, err := fn(old, found)
	if errors.Is(err, ErrNoWrite) {
		ch.NewSize, ch.noop, ch.same = ch.OldSize, true, true
		if t.coll != nil {
			ch.CollectionSize = t.coll.size(pk)
		}
		return ch, nil
	}
	if err != nil {
		return Change{}, err
	}
	e, err := t.encodePatchLocked(k, pk, sk, oldE, found, names, set)
	if err != nil {
		return Change{}, err
	}
	// What needs whole items (rare: local secondary indexes, vector
	// indexes) decodes them.
	var oldItem, newItem Item
	if t.coll != nil || len(t.vindexes) > 0 {
		if found {
			oldItem = t.itemOf(k, oldE)
		}
		newItem = t.itemOf(k, e)
	}
	if t.coll != nil {
		if ch.CollectionSize, err = t.coll.next(pk, oldItem, ch.OldSize, newItem, int(e.size)); err != nil {
			if !sameString(e.rec, oldE.rec) {
				t.scratchLocked().slab.release(e.rec) // stored, never used: dead at once
			}
			return Change{}, err
		}
	}
	t.putLocked(pk, e, oldE, found)
	if t.indexedLocked() {
		var oldIdx Item
		if found {
			oldIdx = t.indexAttrsLocked(0, old)
		}
		t.updateIndexesLocked(oldE, oldIdx, ch.OldSize, e, t.indexAttrsLocked(1, t.encodedOf(k, e)), int(e.size))
	}
	if len(t.vindexes) > 0 {
		t.updateVectorIndexesLocked(ItemRef{pk: e.pk(), e: e}, newItem)
	}
	if t.coll != nil {
		t.setCollectionLocked(pk, ch.CollectionSize)
	}
	ch.NewSize, ch.newE = int(e.size), e
	ch.noop = found && e.rec == oldE.rec
	if found && !sameString(e.rec, oldE.rec) {
		t.releaseLocked(oldE.rec)
	}
	ch.same = ch.noop
	if !ch.same && found && t.obs != nil && len(oldE.rec) == len(e.rec) {
		ch.same = t.sameSetsLocked(k, oldE, nil, e, t.itemOf(k, e))
	}
	return ch, nil
}

// encodePatchLocked stores the record of the item in oldE (found: else
// the empty item) with the attributes names replaced by set's and returns
// its entry; the record is oldE's own when the bytes are the same.
func (t *Table) encodePatchLocked(k Key, pk, sk string, oldE entry, found bool, names []string, set Item) (entry, error) {
	buf := appendRecHeader(t.scratchLocked().buf[:0], pk, sk)
	if len(buf) > maxRecordHeader {
		return entry{}, fmt.Errorf("storage: keys of %d and %d bytes too large to store", len(pk), len(sk))
	}
	var size int
	body := emptyItemBody
	if found {
		size, body = int(oldE.size), oldE.body()
	} else {
		size = len(t.ks.Partition.Name) + ValueSize(k.Partition)
		if t.ks.HasSort() {
			size += len(t.ks.Sort.Name) + ValueSize(k.Sort)
		}
	}
	buf, size, err := appendPatched(buf, body, size, names, set)
	if err != nil {
		return entry{}, err
	}
	return t.storeRecordLocked(buf, size, oldE.rec)
}

// emptyItemBody is the encoding of an item without attributes.
var emptyItemBody = string([]byte{encodingVersion, 0})

// appendPatched appends to dst the encoded item body (a record's body,
// of DynamoDB size size) with its attributes names (sorted) replaced by
// set's values (absent from set: removed), and returns the new item's
// size. The attributes it keeps are copied as bytes.
func appendPatched(dst []byte, body string, size int, names []string, set Item) ([]byte, int, error) {
	d := decoder{s: body}
	if d.byte() != encodingVersion {
		return nil, 0, d.fail("unknown version")
	}
	n := d.count()
	dst, mark := AppendItemStart(dst)
	count, j := 0, 0
	var err error
	// emit writes names[j]'s new value, if it has one.
	emit := func(name string) error {
		v, ok := set[name]
		if !ok {
			return nil
		}
		dst = appendStr(dst, name)
		if dst, err = appendValue(dst, v, 1); err != nil {
			return err
		}
		size += len(name) + ValueSize(v)
		count++
		return nil
	}
	for i := 0; i < n && d.err == nil; i++ {
		start := d.pos
		name := d.str()
		for j < len(names) && names[j] < name {
			if err := emit(names[j]); err != nil {
				return nil, 0, err
			}
			j++
		}
		if j < len(names) && names[j] == name {
			size -= len(name) + d.checkValue(1)
			if err := emit(name); err != nil {
				return nil, 0, err
			}
			j++
			continue
		}
		d.skip(1)
		dst = append(dst, body[start:d.pos]...)
		count++
	}
	if d.err != nil {
		return nil, 0, d.err
	}
	for ; j < len(names); j++ {
		if err := emit(names[j]); err != nil {
			return nil, 0, err
		}
	}
	return FinishCount(dst, mark, count), size, nil
}
