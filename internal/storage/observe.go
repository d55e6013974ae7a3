package storage

// Observers: the hook through which streams (and anything else that must
// see every committed item write) consume a table's Changes.
//
// An observer is called under the table's write lock, right after the
// write commits: for Table.Write and Table.Put after the item is stored,
// for a WriteTx at Commit, with that table's changes in the order they
// were written (an aborted transaction calls nothing). So observers see a
// table's writes in commit order, and a reader that takes the table's lock
// after a write has returned finds it already observed. The call must be
// cheap and must not call back into the table.
//
// A table without an observer pays one nil check per write.

// Observer receives a table's committed item writes. A write that changed
// nothing (the same item stored again, a delete of a missing item,
// ErrNoWrite) is not observed.
type Observer interface {
	Observe(w Committed)
}

// Committed is one committed item write as an observer sees it: the
// item's key, its stored records before (when HadOld) and after (when
// HasNew), and the origin its writer declared (OriginUser unless it wrote
// with WriteFrom). The records are the immutable strings the table stores,
// so keeping them costs no copy and no decoding, whatever the write
// decoded: an observer may hold them as long as it likes.
type Committed struct {
	Key            Key
	Old, New       EncodedItem
	HadOld, HasNew bool
	Origin         Origin
}

// Origin is an opaque tag a writer gives a write (WriteFrom), handed to
// the observer: who asked for it. Ordinary writes are OriginUser.
type Origin uint8

// Origins.
const (
	// OriginUser is a write a client asked for.
	OriginUser Origin = iota
	// OriginService is a write the service made on its own (TTL expiry).
	OriginService
	// OriginReplica is a write replicated from another replica of a
	// global table (the service's global tables): not replicated again.
	OriginReplica
)

// SetObserver installs o (nil removes it).
func (t *Table) SetObserver(o Observer) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.obs = o
}

// WriteFrom is Write with the origin the observer is told of.
func (t *Table) WriteFrom(origin Origin, k Key, fn func(old Item) (Item, error)) (Change, error) {
	return t.commitOne(origin, k, nil, true, fn)
}

// observeLocked hands one committed write to the observer, if there is
// one and the write changed the item.
func (t *Table) observeLocked(k Key, ch *Change, origin Origin) {
	if t.obs == nil || ch.same || (ch.OldSize == 0 && ch.NewSize == 0) {
		return
	}
	t.obs.Observe(t.committedLocked(k, ch, origin))
}

// committedLocked is write ch of key k as the observer and the hook see it.
func (t *Table) committedLocked(k Key, ch *Change, origin Origin) Committed {
	w := Committed{Key: k, HadOld: ch.OldSize > 0, HasNew: ch.NewSize > 0, Origin: origin}
	if w.HadOld {
		w.Old = t.encodedOf(k, ch.oldE)
	}
	if w.HasNew {
		w.New = t.encodedOf(k, ch.newE)
	}
	return w
}

// sameSetsLocked reports whether a write whose record differs from the one
// it replaced still stored the same item: the same values with set members
// in another order, which encode differently but are equal. Only an
// observer cares (a write that changes nothing is not observed), and only
// records of equal length that hold sets are decoded to find out.
func (t *Table) sameSetsLocked(k Key, oldE entry, old Item, e entry, nu Item) bool {
	if len(oldE.rec) != len(e.rec) || !itemHasSet(nu) {
		return false
	}
	if old == nil {
		old = t.itemOf(k, oldE)
	}
	if len(old) != len(nu) {
		return false
	}
	for name, v := range nu {
		if w, ok := old[name]; !ok || !Equal(v, w) {
			return false
		}
	}
	return true
}

// itemHasSet reports whether any value of it, nested ones included, is a set.
func itemHasSet(it Item) bool {
	for _, v := range it {
		if valueHasSet(v) {
			return true
		}
	}
	return false
}

func valueHasSet(v Value) bool {
	switch v.kind {
	case KindSS, KindNS, KindBS:
		return true
	case KindL:
		for _, e := range v.List() {
			if valueHasSet(e) {
				return true
			}
		}
	case KindM:
		for _, e := range v.Map() {
			if valueHasSet(e) {
				return true
			}
		}
	}
	return false
}
