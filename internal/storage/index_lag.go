package storage

import "fmt"

// Index propagation lag (faults/lag's design, faults/WIRING.md §5): a
// secondary index given a Lag (SetIndexLag) is read as it was some
// commits ago, as a DynamoDB global secondary index is while a write
// propagates to it.
//
// One write path stays. The write that changes an item still computes
// its index changes under the table's write lock, from the item's old
// and new images (index.replace); for a lagged index it queues them
// (an ichange: the old and new index keys, entries and projected sizes)
// instead of applying them. At the commit point (Table.Write and Put
// after the hook, WriteTx.Commit) the changes the commit queued take one
// number from the index's Lag (Stamp); a write undone (a hook that
// fails, WriteTx.Abort) drops the changes it queued before they are
// numbered. A reader of the index (QueryIndex, ScanIndex, IndexStats)
// first applies the queued changes numbered up to the Lag's Visible(),
// oldest first, under the write lock: so it sees whole commits, in
// commit order, and never half of a transaction.
//
// A table whose indexes have no Lag pays one nil check per index write
// and one integer test per commit. Snapshots (and so backups, exports
// and persistence) hold every committed change: the queued changes are
// applied to the snapshot's copy of the tree, never to the table's. Lag
// is a view of reads: the hook, Apply and replay do not see it.
//
// Lock order: Table.mu, then whatever the Lag locks inside Stamp and
// Visible (a faults/lag Gate's own mutex, which is never held across a
// call into storage).

// Lag numbers the commits of one lagged view and says up to which number
// its readers see them. faults/lag's *Gate satisfies it.
type Lag interface {
	// Stamp numbers one commit (ascending) at its commit point.
	Stamp() uint64
	// Visible returns the highest commit number readers see now.
	Visible() uint64
}

// ichange is one item write's change to a lagged index: what
// index.replace would have done to the tree. seq is the commit's number,
// 0 until the commit point.
type ichange struct {
	seq              uint64
	oldKey, newKey   string
	oldIn, newIn     bool
	oldE, e          entry
	oldSize, newSize int64 // projected sizes of the old and new entries
}

// ilag is a lagged index's state, guarded by its table's mu.
type ilag struct {
	lag       Lag
	pending   []ichange // oldest first, from head
	head      int
	unstamped int // pending[unstamped:] await their commit's number
	// idle is lag as an Idler (nil: it cannot say); direct is the choice
	// of the commit in progress: 0 not made yet, 1 its writes pass to
	// the tree, -1 they are queued (lag_switch.go).
	idle   Idler
	direct int8
}

// SetIndexLag makes the secondary index called name lag behind the
// table's writes as lag says (nil: no lag, today's behaviour). Changes
// queued under a previous lag are applied first, so the index starts
// from every commit made so far.
func (t *Table) SetIndexLag(name string, lag Lag) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.ownIndexesLocked() // x.lag is about to change
	x := t.indexLocked(name)
	if x == nil {
		return fmt.Errorf("%w: %q", ErrNoIndex, name)
	}
	if x.lag != nil {
		x.drainLocked(^uint64(0))
	}
	if lag == nil {
		x.lag = nil
	} else {
		x.lag = &ilag{lag: lag}
		x.lag.idle, _ = lag.(Idler)
	}
	t.recountLagLocked()
	return nil
}

// IndexLagPending returns the number of item writes queued for the index
// called name and not yet visible to its readers (0 without a lag).
func (t *Table) IndexLagPending(name string) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	x := t.indexLocked(name)
	if x == nil || x.lag == nil {
		return 0
	}
	return len(x.lag.pending) - x.lag.head
}

// recountLagLocked counts the lagged indexes and the read lag, which
// commits look at.
func (t *Table) recountLagLocked() {
	t.lagged = 0
	for _, x := range t.indexes {
		if x.lag != nil {
			t.lagged++
		}
	}
	if t.rlag.Load() != nil {
		t.lagged++
	}
}

// change computes what replace does: the old and new index keys, whether
// the item is in the index before and after, and the projected sizes.
func (x *index) change(oldE entry, old Item, oldSize int, e entry, nu Item, nuSize int) ichange {
	c := ichange{oldE: oldE, e: e}
	if old != nil {
		var k []byte
		if k, c.oldIn = x.indexKey(nil, old); c.oldIn {
			c.oldKey, c.oldSize = string(k), x.entrySize(old, oldSize)
		}
	}
	if nu != nil {
		var k []byte
		if k, c.newIn = x.indexKey(nil, nu); c.newIn {
			c.newKey, c.newSize = string(k), x.entrySize(nu, nuSize)
		}
	}
	return c
}

// queueLocked queues a write's change of a lagged index, unnumbered.
func (x *index) queueLocked(c ichange) {
	if c.oldIn || c.newIn {
		x.lag.pending = append(x.lag.pending, c)
	}
}

// apply makes change c in x's tree, count and size.
func (x *index) apply(c *ichange) {
	if c.oldIn && c.newIn && c.oldKey == c.newKey {
		x.tree.Put(c.newKey, c.e)
		x.size += c.newSize - c.oldSize
		return
	}
	if c.oldIn {
		x.tree.Delete(newIentry(c.oldKey, c.oldE))
		x.count--
		x.size -= c.oldSize
	}
	if c.newIn {
		x.tree.Put(c.newKey, c.e)
		x.count++
		x.size += c.newSize
	}
}

// stampLagLocked gives the changes a commit queued on t's lagged
// indexes the commit's number, one per index: the commit point.
func (t *Table) stampLagLocked() {
	for _, x := range t.indexes {
		l := x.lag
		if l == nil {
			continue
		}
		l.direct = 0
		if l.unstamped == len(l.pending) {
			continue
		}
		seq := l.lag.Stamp()
		for i := l.unstamped; i < len(l.pending); i++ {
			l.pending[i].seq = seq
		}
		l.unstamped = len(l.pending)
	}
}

// dropUnstampedLocked forgets the changes queued since the last commit
// point: a write, or a transaction, undone (its undo queued the inverse
// changes after them, so together they change nothing).
func (t *Table) dropUnstampedLocked() {
	for _, x := range t.indexes {
		if l := x.lag; l != nil {
			l.direct = 0
			clear(l.pending[l.unstamped:])
			l.pending = l.pending[:l.unstamped]
		}
	}
}

// due reports whether x has changes visible now that are not applied;
// under t.mu, shared or exclusive.
func (x *index) due() bool {
	l := x.lag
	if l == nil || l.head == l.unstamped {
		return false
	}
	return l.pending[l.head].seq <= l.lag.Visible()
}

// drainLocked applies the changes numbered up to upTo, oldest first.
// t.mu is held exclusively.
func (x *index) drainLocked(upTo uint64) {
	l := x.lag
	for l.head < l.unstamped && l.pending[l.head].seq <= upTo {
		x.apply(&l.pending[l.head])
		l.pending[l.head] = ichange{} // let its records go
		l.head++
	}
	switch {
	case l.head == len(l.pending):
		l.pending, l.head, l.unstamped = l.pending[:0], 0, 0
	case l.head > 1024 && l.head*2 > len(l.pending):
		n := copy(l.pending, l.pending[l.head:])
		clear(l.pending[n:])
		l.pending, l.unstamped, l.head = l.pending[:n], l.unstamped-l.head, 0
	}
}

// readIndexLocking takes t's read lock for a read of the index called
// name, having first applied that index's due changes under the write
// lock; it returns the index (nil when there is none) with the read lock
// held. A reader of an index with nothing due pays one comparison.
func (t *Table) readIndexLocking(name string) *index {
	for {
		t.mu.RLock()
		x := t.indexLocked(name)
		if x == nil || !x.due() {
			return x
		}
		t.mu.RUnlock()
		t.mu.Lock()
		if x = t.indexLocked(name); x != nil && x.lag != nil {
			x.drainLocked(x.lag.lag.Visible())
		}
		t.mu.Unlock()
	}
}

// snapshotIndex is a frozen copy of x holding every committed change,
// the queued ones included; t.mu is held exclusively.
func (x *index) snapshotIndex() *index {
	s := &index{def: x.def, tree: x.tree.Copy(), count: x.count, size: x.size, sized: x.sized}
	if l := x.lag; l != nil {
		for i := l.head; i < l.unstamped; i++ {
			s.apply(&l.pending[i])
		}
	}
	return s
}

// IndexLag returns the Lag of the index called name (nil: none, or no
// such index).
func (t *Table) IndexLag(name string) Lag {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if x := t.indexLocked(name); x != nil && x.lag != nil {
		return x.lag.lag
	}
	return nil
}
