package storage

// Changes of a lag's mode, ordered with the table's commits, and writes
// that pass a lag that lags nothing.
//
// A Lag may say that it lags nothing now (Idler): a commit it would
// number now is visible at once. A lagged index then takes the writes of
// a commit straight into its tree, queueing nothing and numbering
// nothing, as an index without a lag does, once the changes queued
// before (all visible) are applied. The choice is made once per commit,
// at its first write to the index, and holds for all of the commit's
// writes and its undo (so a transaction is never half queued); the
// commit point (stampLagLocked) and an undone commit
// (dropUnstampedLocked) clear it.
//
// A lag's owner changes its mode between two commits of the table with
// SwitchLag or SwitchReadLag: the change runs under the table's write
// lock, so every commit is made whole under the mode before or the mode
// after, and a commit after the change returns sees the new mode. A read
// lag switched on starts its shadow at that same point: every commit
// before it is in the shadow, every commit after it is numbered on the
// lag, none falls between. Lock order: Table.mu, then what the Lag
// locks (as for Stamp and Visible).

// Idler is a Lag that can say whether it lags nothing now.
type Idler interface {
	// Idle reports that a commit numbered now would be visible at once.
	Idle() bool
}

// passLocked reports whether a write of the commit in progress goes
// straight to x's tree rather than to its lag's queue; t.mu is held
// exclusively and x has a lag.
func (x *index) passLocked() bool {
	l := x.lag
	if l.direct == 0 {
		l.direct = -1
		if l.idle != nil && l.idle.Idle() {
			if l.head < l.unstamped {
				x.drainLocked(l.lag.Visible())
			}
			if l.head == len(l.pending) {
				l.direct = 1
			}
		}
	}
	return l.direct == 1
}

// SwitchLag runs change, a change of the mode of one of t's Lags, under
// t's write lock: between two commits of t. The lagged indexes choose
// afresh at their next commit whether it passes or is queued.
func (t *Table) SwitchLag(change func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	change()
	t.undecideLagsLocked()
}

// SwitchReadLag runs change, a change of lag's mode, under t's write
// lock, then makes lag t's read lag if on reports that it lags, and
// takes it out (dropping the shadow) if not: so the shadow starts, or
// ends, at the point of t's commits where the mode changed. A read lag
// other than lag is left as it is.
func (t *Table) SwitchReadLag(lag Lag, change func(), on func() bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	change()
	t.undecideLagsLocked()
	cur := t.rlag.Load()
	switch lagging := on(); {
	case lagging && cur == nil:
		t.setReadLagLocked(lag)
	case !lagging && cur != nil && cur.lag == lag:
		t.rlag.Store(nil)
		t.recountLagLocked()
	}
}

// undecideLagsLocked has each lagged index choose afresh at its next
// write; t.mu is held exclusively.
func (t *Table) undecideLagsLocked() {
	for _, x := range t.indexes {
		if x.lag != nil {
			x.lag.direct = 0
		}
	}
}
