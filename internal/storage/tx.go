package storage

import (
	"errors"
	"slices"
	"sync/atomic"
)

// Transactions: a set of reads and writes across several tables that
// commits all-or-nothing. A WriteTx holds the write locks of its tables
// from Begin to Commit or Abort; a ReadTx holds their read locks from
// BeginRead to Close. Locks are taken in one fixed order, ascending table
// id (the order tables were created in), so transactions never deadlock
// with each other; single-table operations hold one lock and cannot take
// part in a cycle. Each item write goes through the table's own locked
// write (putItemLocked), the same one Table.Write and Table.Put use, so
// whatever a table maintains inside a write (counts, item collection
// sizes, secondary indexes) is maintained for transactions too, undo
// included.

// tableSeq numbers tables as they are created; see Table.id.
var tableSeq atomic.Uint64

// ErrTxDone is returned by a WriteTx's Write or Put after Commit or Abort.
var ErrTxDone = errors.New("storage: transaction already committed or aborted")

// lockOrder returns the distinct tables of ts in lock order (ascending id).
func lockOrder(ts []*Table) []*Table {
	out := make([]*Table, 0, len(ts))
	for _, t := range ts {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b *Table) int {
		switch {
		case a.id < b.id:
			return -1
		case a.id > b.id:
			return 1
		}
		return 0
	})
	return out
}

// WriteTx is a write transaction over a fixed set of tables, created by
// Begin. Its Get sees its own writes; no one else sees any of them before
// Commit, and after Abort no one ever has. A WriteTx is used by one
// goroutine. Abort is idempotent and a no-op after Commit, so
//
//	tx := storage.Begin(a, b)
//	defer tx.Abort()
//
// is always safe. A write that fails (its callback's error, a key
// mismatch, ErrCollectionTooLarge) writes nothing and leaves the
// transaction usable: the caller decides whether to go on or Abort.
type WriteTx struct {
	tables  []*Table // distinct, ascending id; write-locked until done
	undo    []undoEntry
	changes []Change
	done    bool
}

// undoEntry restores one item to what it was before a write of the
// transaction; origin is the write's, for the hook and the observer.
type undoEntry struct {
	t      *Table
	k      Key
	old    entry // the stored entry before the write; valid when found
	found  bool
	origin Origin
}

// Begin starts a write transaction over tables (duplicates are fine),
// waiting for their write locks. Every table the transaction touches must
// be among them.
func Begin(tables ...*Table) *WriteTx {
	tx := &WriteTx{tables: lockOrder(tables)}
	for _, t := range tx.tables {
		t.mu.Lock()
	}
	return tx
}

// has returns ErrTxDone once the transaction is done, and panics if t is
// not one of its tables: using a table the transaction did not lock is a
// bug in the caller.
func (tx *WriteTx) has(t *Table) error {
	if tx.done {
		return ErrTxDone
	}
	if !slices.Contains(tx.tables, t) {
		panic("storage: table not locked by this transaction")
	}
	return nil
}

// Sibling returns the table of that name in t's DB, nil when there is
// none (or t is in no DB). It takes the DB's lock: call it outside any
// table's write. (t.db is read atomically: DropTable clears it.)
func (t *Table) Sibling(name string) *Table {
	db := t.db.Load() // atomic: the caller holds no lock of t's, and DropTable clears it
	if db == nil || name == "" {
		return nil
	}
	return db.Table(name)
}

// Locked returns the transaction's table of that name (Table.Name), nil
// when it holds none: a write that reads another table it locked (the
// conventions' rule B18 reads a data row's command table) finds it here.
func (tx *WriteTx) Locked(name string) *Table {
	for _, t := range tx.tables {
		if t.name == name {
			return t
		}
	}
	return nil
}

// Get returns the item with key k in t as the transaction sees it, decoded
// afresh, or false when there is none.
func (tx *WriteTx) Get(t *Table, k Key) (Item, bool) {
	e, ok := tx.GetEncoded(t, k)
	if !ok {
		return nil, false
	}
	return e.Item(), true
}

// GetEncoded is Get without the decoding.
func (tx *WriteTx) GetEncoded(t *Table, k Key) (EncodedItem, bool) {
	if err := tx.has(t); err != nil || t.ks.checkKey(k) != nil {
		return EncodedItem{}, false
	}
	return t.getEncodedLocked(k)
}

// Write is Table.Write inside the transaction: fn sees the current item
// (the transaction's own earlier writes included) and returns the new one
// (nil deletes, ErrNoWrite leaves it). A write that changes the item is
// recorded for Commit and for undo.
func (tx *WriteTx) Write(t *Table, k Key, fn func(old Item) (Item, error)) (Change, error) {
	return tx.write(OriginUser, t, k, nil, true, fn)
}

// Put is Table.Put inside the transaction: store item under k, or delete
// the item with key k when item is nil. The Change has no Old.
func (tx *WriteTx) Put(t *Table, k Key, item Item) (Change, error) {
	return tx.write(OriginUser, t, k, item, false, nil)
}

func (tx *WriteTx) write(origin Origin, t *Table, k Key, item Item, decodeOld bool, fn func(Item) (Item, error)) (Change, error) {
	if err := tx.has(t); err != nil {
		return Change{}, err
	}
	if err := t.ks.checkKey(k); err != nil {
		return Change{}, err
	}
	kept := false
	if fn != nil {
		inner := fn
		fn = func(cur Item) (Item, error) {
			it, err := inner(cur)
			kept = errors.Is(err, ErrNoWrite)
			return it, err
		}
	}
	ch, err := t.putItemLocked(k, item, decodeOld, fn)
	// The write looked the stored item up: its entry comes back in
	// ch.oldE, set when there was one (a record is never empty), so it
	// is not looked up (nor its sort key encoded) twice
	// (BenchmarkPreload).
	old, found := ch.oldE, ch.oldE.rec != ""
	if err != nil || kept || (!found && ch.New == nil) { // nothing changed
		return ch, err
	}
	tx.undo = append(tx.undo, undoEntry{t: t, k: k, old: old, found: found, origin: origin})
	tx.changes = append(tx.changes, ch)
	return ch, nil
}

// Commit makes the transaction's writes visible, releases its locks and
// returns one Change per write that changed an item, in the order written.
// When its tables belong to a DB with a hook (hook.go), the hook gets the
// writes first, as one RecordCommit; if it fails, Commit undoes every
// write as Abort does and returns the error (ErrHookFailed). Then each
// table's observer (observe.go) is told of its writes, in order, before
// the locks are released. A hook's wait runs after that; its error
// (ErrNotDurable) comes with the Changes of a commit that did happen.
// After Commit the transaction is done; a second Commit returns ErrTxDone.
func (tx *WriteTx) Commit() ([]Change, error) {
	if tx.done {
		return nil, ErrTxDone
	}
	tx.done = true
	res, err := tx.hookLocked()
	if err != nil {
		tx.rollbackLocked()
		tx.unlock()
		return nil, err
	}
	for _, t := range tx.tables {
		if t.lagged != 0 {
			t.commitLagTxLocked(tx)
		}
	}
	for i, u := range tx.undo { // undo[i] is the write changes[i] records
		u.t.observeLocked(u.k, &tx.changes[i], u.origin)
	}
	tx.unlock()
	changes := tx.changes
	tx.changes, tx.undo = nil, nil
	return changes, res.finish()
}

// hookLocked hands the transaction's recorded writes to its tables' hook
// as one record. The tables of a transaction with a hook must all belong
// to that one DB (tables of no DB are not recorded): a transaction across
// two DBs could not commit atomically, and is a bug in the caller.
func (tx *WriteTx) hookLocked() (hookResult, error) {
	var db *DB
	var h Hook
	for _, t := range tx.tables {
		if t.hook == nil {
			continue
		}
		tdb := t.db.Load()
		if db != nil && tdb != db {
			panic("storage: transaction across tables of two DBs")
		}
		db, h = tdb, t.hook
	}
	if h == nil {
		return hookResult{}, nil
	}
	wanted := false
	for _, t := range tx.tables { // asked once per table (hook_select.go)
		t.hookTx = t.hookWantsLocked()
		wanted = wanted || t.hookTx
	}
	if !wanted {
		return hookResult{}, nil
	}
	writes := make([]ItemWrite, 0, len(tx.undo))
	for i, u := range tx.undo {
		ch := &tx.changes[i]
		if !u.t.hookTx || !ch.recorded() {
			continue
		}
		writes = append(writes, ItemWrite{Table: u.t.uid, Committed: u.t.committedLocked(u.k, ch, u.origin)})
	}
	if len(writes) == 0 {
		return hookResult{}, nil
	}
	return callHook(h, &Record{Kind: RecordCommit, Writes: writes})
}

// Abort undoes the transaction's writes, newest first, through the same
// locked write path, and releases its locks. It does nothing after Commit
// or a first Abort.
func (tx *WriteTx) Abort() {
	if tx.done {
		return
	}
	tx.done = true
	defer tx.unlock()
	tx.rollbackLocked()
}

// rollbackLocked undoes the transaction's writes, newest first.
func (tx *WriteTx) rollbackLocked() {
	for i := len(tx.undo) - 1; i >= 0; i-- {
		u := tx.undo[i]
		u.t.restoreLocked(u)
	}
	for _, t := range tx.tables {
		if t.lagged != 0 {
			t.dropUnstampedLocked()
		}
	}
	tx.changes, tx.undo = nil, nil
}

func (tx *WriteTx) unlock() {
	for i := len(tx.tables) - 1; i >= 0; i-- {
		tx.tables[i].mu.Unlock()
	}
}

// restoreLocked puts back the item u recorded. Restoring earlier states
// must never be refused, so the collection size limit is lifted for it
// (an earlier state may already exceed a limit lowered since).
func (t *Table) restoreLocked(u undoEntry) {
	var item Item
	if u.found {
		item = t.itemOf(u.k, u.old)
	}
	if t.coll != nil {
		limit := t.coll.limit
		t.coll.limit = 0
		defer func() { t.coll.limit = limit }()
	}
	if _, err := t.putItemLocked(u.k, item, false, nil); err != nil {
		panic("storage: undoing a transaction's write: " + err.Error())
	}
}

// getEncodedLocked is GetEncoded with t.mu held (shared or exclusive).
func (t *Table) getEncodedLocked(k Key) (EncodedItem, bool) {
	e, ok := t.getLocked(k.Partition.str, t.sortKeyOf(k))
	if !ok {
		return EncodedItem{}, false
	}
	return t.encodedOf(k, e), true
}

// ReadTx is a consistent snapshot of several tables, created by BeginRead:
// it holds their read locks, in the same order as Begin, until Close, so
// it sees every transaction and single write either wholly or not at all.
// Close is idempotent. Writers to its tables wait while it is open, so keep
// it short.
type ReadTx struct {
	tables []*Table
	done   bool
}

// BeginRead starts a read transaction over tables (duplicates are fine).
func BeginRead(tables ...*Table) *ReadTx {
	tx := &ReadTx{tables: lockOrder(tables)}
	for _, t := range tx.tables {
		t.mu.RLock()
	}
	return tx
}

// Get returns the item with key k in t, decoded afresh, or false.
func (tx *ReadTx) Get(t *Table, k Key) (Item, bool) {
	e, ok := tx.GetEncoded(t, k)
	if !ok {
		return nil, false
	}
	return e.Item(), true
}

// GetEncoded is Get without the decoding. It panics if t is not one of the
// transaction's tables and returns false once the transaction is closed.
func (tx *ReadTx) GetEncoded(t *Table, k Key) (EncodedItem, bool) {
	if tx.done {
		return EncodedItem{}, false
	}
	if !slices.Contains(tx.tables, t) {
		panic("storage: table not locked by this transaction")
	}
	if t.ks.checkKey(k) != nil {
		return EncodedItem{}, false
	}
	return t.getEncodedLocked(k)
}

// Close releases the snapshot's locks.
func (tx *ReadTx) Close() {
	if tx.done {
		return
	}
	tx.done = true
	for i := len(tx.tables) - 1; i >= 0; i-- {
		tx.tables[i].mu.RUnlock()
	}
}
