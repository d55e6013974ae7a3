package storage

// Stale eventually consistent reads (faults/WIRING.md §5): a table given
// a read Lag (SetReadLag) answers its eventually consistent readers from
// a copy of itself as of the Lag's watermark, which trails its writes.
//
// The copy (the shadow) is made in O(1) from a snapshot of the table
// (copy-on-write, as DB.RestoreTable makes one) when the lag is set. At
// each commit point (Table.Write and Put after the hook, WriteTx.Commit)
// the table's committed item writes, the key and the record stored or
// none, are queued under one number from the Lag (Stamp): the same
// locked write, never a second pass. Eventual applies the commits the
// Lag shows (Visible) to the shadow, oldest first, under the table's
// write lock and the shadow's, all of them in one hold of the shadow's
// lock, so a reader of the shadow sees whole commits in commit order,
// never half of a transaction. The shadow keeps the table's local and
// global secondary indexes; only its local ones are meant to be read
// (a global secondary index lags by SetIndexLag instead), and its vector
// indexes as they were when the lag was set.
//
// Strongly consistent reads, transactions and writes read the table
// itself, as on DynamoDB. A table without a read lag pays one integer
// test per commit (Table.lagged) and one atomic load per Eventual.
// Lock order: Table.mu, then the shadow's mu, then what the Lag locks.

// readLag is a table's read lag: the Lag, the shadow and the queued
// commits. pending is guarded by the table's mu; the shadow has its own.
type readLag struct {
	lag     Lag
	shadow  *Table
	pending []rchange // oldest first, from head
	head    int
}

// rchange is one committed item write queued for the shadow: the key
// and the stored entry after it (has false: the item was deleted).
type rchange struct {
	seq uint64
	k   Key
	e   entry
	has bool
}

// SetReadLag makes t's eventually consistent reads (Eventual) lag behind
// its writes as lag says (nil: no lag). Setting a lag starts a shadow
// from what t holds now; what an earlier lag had queued is dropped with
// its shadow.
func (t *Table) SetReadLag(lag Lag) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if lag == nil {
		t.rlag.Store(nil)
		t.recountLagLocked()
		return
	}
	t.setReadLagLocked(lag)
}

// setReadLagLocked makes lag t's read lag, with a shadow of what t holds
// now; t.mu is held exclusively.
func (t *Table) setReadLagLocked(lag Lag) {
	snap := t.snapshotLocked()
	shadow := snap.newTable()
	shadow.name, shadow.uid = t.name, t.uid
	// The vector indexes too, built from the shadow's items (O(items) once
	// per lag set): a search reads the eventual view. An index added or
	// dropped later is not the shadow's.
	shadow.vix = t.vix
	shadow.buildVectorIndexes(snap.vectors)
	t.rlag.Store(&readLag{lag: lag, shadow: shadow})
	t.recountLagLocked()
}

// ReadLagPending returns the number of item writes t's eventually
// consistent readers do not see yet (0 without a read lag).
func (t *Table) ReadLagPending() int {
	rl := t.rlag.Load()
	if rl == nil {
		return 0
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(rl.pending) - rl.head
}

// Eventual returns the table an eventually consistent read of t reads:
// t itself without a read lag, else t's shadow with every commit the
// lag shows applied. The shadow is read-only for its caller: a write to
// it is lost at the next SetReadLag and never recorded. Eventual may take
// t's write lock and then the shadow's: it must not be called while
// holding the shadow's read lock (inside a visit of a read of it).
func (t *Table) Eventual() *Table {
	rl := t.rlag.Load()
	if rl == nil {
		return t
	}
	t.mu.RLock()
	due := rl.head < len(rl.pending) && rl.pending[rl.head].seq <= rl.lag.Visible()
	t.mu.RUnlock()
	if due {
		t.mu.Lock()
		if t.rlag.Load() == rl {
			rl.drainLocked(t, rl.lag.Visible())
		}
		t.mu.Unlock()
	}
	return rl.shadow
}

// queueLocked queues write ch of key k, part of a commit whose number
// *seq holds (0: none taken yet, taken now); writes that changed nothing
// are left out. t.mu is held exclusively.
func (rl *readLag) queueLocked(seq *uint64, k Key, ch *Change) {
	if ch.noop || ch.OldSize == 0 && ch.NewSize == 0 {
		return
	}
	if *seq == 0 {
		*seq = rl.lag.Stamp()
	}
	rl.pending = append(rl.pending, rchange{seq: *seq, k: k, e: ch.newE, has: ch.NewSize > 0})
}

// commitLagOneLocked is the commit point of a single write for t's lags.
func (t *Table) commitLagOneLocked(k Key, ch *Change) {
	t.stampLagLocked()
	if rl := t.rlag.Load(); rl != nil {
		var seq uint64
		rl.queueLocked(&seq, k, ch)
	}
}

// commitLagTxLocked is the commit point of tx for t's lags.
func (t *Table) commitLagTxLocked(tx *WriteTx) {
	t.stampLagLocked()
	if rl := t.rlag.Load(); rl != nil {
		var seq uint64
		for i, u := range tx.undo { // undo[i] is the write changes[i] records
			if u.t == t {
				rl.queueLocked(&seq, u.k, &tx.changes[i])
			}
		}
	}
}

// drainLocked applies to the shadow the commits numbered up to upTo, in
// one hold of the shadow's lock; t.mu is held exclusively.
func (rl *readLag) drainLocked(t *Table, upTo uint64) {
	s := rl.shadow
	s.mu.Lock()
	for rl.head < len(rl.pending) && rl.pending[rl.head].seq <= upTo {
		c := &rl.pending[rl.head]
		var it Item
		if c.has {
			it = t.itemOf(c.k, c.e)
		}
		if _, err := s.putItemLocked(c.k, it, false, nil); err != nil {
			panic("storage: applying a committed write to a read lag's shadow: " + err.Error())
		}
		*c = rchange{} // let its record go
		rl.head++
	}
	s.mu.Unlock()
	switch {
	case rl.head == len(rl.pending):
		rl.pending, rl.head = rl.pending[:0], 0
	case rl.head > 1024 && rl.head*2 > len(rl.pending):
		n := copy(rl.pending, rl.pending[rl.head:])
		clear(rl.pending[n:])
		rl.pending, rl.head = rl.pending[:n], 0
	}
}

// ReadLag returns t's read lag (nil: none).
func (t *Table) ReadLag() Lag {
	if rl := t.rlag.Load(); rl != nil {
		return rl.lag
	}
	return nil
}
