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

// Observer receives a table's committed item writes. Observe is given the
// item's key, its Change and the origin its writer declared (OriginUser
// unless it wrote with WriteFrom). A write that changed nothing (the same
// item stored again, a delete of a missing item, ErrNoWrite) is not
// observed. The Change's items are shared and must not be mutated.
type Observer interface {
	Observe(k Key, ch Change, origin Origin)
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
)

// SetObserver installs o (nil removes it). needOld says whether o needs
// the old image in every Change: then every write decodes the item it
// replaces (Put included), as Write does; otherwise a Put's Change has no
// Old, and o sees only OldSize (0 when the write created the item).
func (t *Table) SetObserver(o Observer, needOld bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.obs, t.obsOld = o, needOld && o != nil
}

// WriteFrom is Write with the origin the observer is told of.
func (t *Table) WriteFrom(origin Origin, k Key, fn func(old Item) (Item, error)) (Change, error) {
	if err := t.ks.checkKey(k); err != nil {
		return Change{}, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	ch, err := t.writeLocked(k, fn)
	if err == nil {
		t.observeLocked(k, ch, origin)
	}
	return ch, err
}

// observeLocked hands one committed write to the observer, if there is
// one and the write changed the item.
func (t *Table) observeLocked(k Key, ch Change, origin Origin) {
	if t.obs == nil || !ch.changed() {
		return
	}
	t.obs.Observe(k, ch, origin)
}

// changed reports whether the write the Change records changed the item:
// it created, replaced with a different item, or deleted one.
func (ch Change) changed() bool {
	switch {
	case ch.same:
		return false
	case ch.NewSize == 0: // a delete (or a delete of nothing)
		return ch.OldSize > 0
	}
	return true
}
