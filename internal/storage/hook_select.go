package storage

// CommitSelector is an optional interface of a Hook whose interest in item
// writes comes and goes: a recorder that logs only the tables that have
// point-in-time recovery, a tap that queues only the writes of tables
// with replicas. Before it builds a RecordCommit for an item write of a
// table, storage asks WantsCommits; when it says no, the write is not
// recorded at all (no Record is built, Commit is not called), which saves
// a write the hook's work when nothing listens. Catalog records (every
// kind but RecordCommit) always reach the hook.
//
// A Hook that does not implement CommitSelector hears of every write. A
// selector that wraps another hook must answer true whenever the hook it
// wraps would (a hook that is no selector wants everything).
//
// WantsCommits is called at the commit point, under the write lock of
// the table (for a transaction, under the write locks of all its
// tables), once per table per commit: it must be quick, safe for
// concurrent use and take no lock storage holds. The ordering rule for a
// selector that starts wanting a table's writes (the reason its answer
// may be read without a lock): make the change that turns WantsCommits to
// true visible first (an atomic store), then take whatever must include
// the writes it did not hear of from the table under its lock
// (Table.Snapshot). A write that was asked before the store held the
// table's write lock from before its question until after it committed,
// so the snapshot, which takes that lock after the store, includes it;
// every write that takes the lock after the snapshot is asked after the
// store and hears true.
type CommitSelector interface {
	// WantsCommits reports whether the hook must hear of the item
	// writes of table id (its storage ID) committed now.
	WantsCommits(id string) bool
}

// setHookLocked makes h the hook of t, remembering whether it selects the
// item writes it hears of. t.mu is held, or t is not shared yet.
func (t *Table) setHookLocked(h Hook) {
	t.hook = h
	t.hookSel, _ = h.(CommitSelector)
}

// hookWantsLocked reports whether t's hook must hear of an item write of
// t committed now (CommitSelector). t.mu is held exclusively.
func (t *Table) hookWantsLocked() bool {
	if t.hook == nil {
		return false
	}
	return t.hookSel == nil || t.hookSel.WantsCommits(t.uid)
}
