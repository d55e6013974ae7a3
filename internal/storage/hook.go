package storage

import (
	"errors"
	"fmt"
)

// The commit hook: the one seam through which everything that changes a
// DB's state leaves it, in order, as Records. Persistence (a write-ahead
// log), backups and replicas hang off it; storage.DB.Apply puts Records
// back.
//
// A DB has at most one Hook, fixed by NewDB. It is called:
//
//   - once per committed storage transaction that changed something:
//     Table.Write, Table.Put and Table.WriteFrom (one write),
//     WriteTx.Commit (every write of the transaction, in the order
//     written), with a RecordCommit;
//   - once per catalog change: DB.CreateTable, DB.RestoreTable,
//     DB.DropTable, Table.AddIndex, Table.DropIndex,
//     Table.AddVectorIndex, Table.DropVectorIndex, Table.SetMeta and
//     DB.SetMeta, with the record of that change.
//
// It is called at the commit point, under the write locks of the tables
// the change touches (and the DB's catalog lock for CreateTable,
// DropTable and DB-level meta), after the change is made and before
// anyone else can see it: so for any one table the hook sees its changes
// in the order they become visible, and a transaction over several tables
// is ordered against every write to any of them. Changes to different
// tables may reach the hook concurrently, in either order: they commute.
// The hook must therefore be safe for concurrent use, must be quick (it
// delays every reader and writer of the tables), and must not call back
// into the DB (it would deadlock).
//
// If Commit returns an error, the change is undone (items, indexes,
// counts, collection sizes and observers are left as if it never
// happened) and the writer gets the error wrapped in ErrHookFailed. If it
// returns a non-zero wait token, the writer calls Wait(token) once it has
// released every lock, and returns Wait's error wrapped in ErrNotDurable:
// the change is then applied and visible, but the hook could not finish
// with it (an fsync failed). This is where group commit goes: Commit
// appends to a log under the hook's own lock and returns the record's
// position, Wait blocks until that position is on disk.
//
// A Record handed to Commit, and its Writes slice, are valid only during
// the call: the hook encodes what it needs (AppendRecord) or copies it.
// A RecordRestoreTable's From is an immutable snapshot the hook may keep.
// The item images inside it (Committed.Old and New) are immutable records
// the hook may keep as long as it likes; a Key's strings may share memory
// with the writer's request, so clone them to keep them.
//
// Writes that change nothing (ErrNoWrite, the same record stored again,
// a delete of a missing item) are not recorded, and a transaction that
// changed nothing calls nothing. Neither are the item writes of a table
// a CommitSelector hook does not want now (hook_select.go). Changes to a
// table after DropTable are not recorded either: the table has left its
// DB. SetObserver and
// TrackCollections are not recorded: they hold the caller's functions,
// which the caller installs again (from its metadata, in DB.Apply's
// callback) on a DB it rebuilds.
//
// DB.Apply goes through the same paths as the calls above, so a record
// applied to a DB reaches that DB's hook too.
//
// A DB without a hook pays one nil check per commit: no record is built
// and nothing allocates.

// Hook receives a DB's committed changes; see above.
type Hook interface {
	// Commit is called with each change at its commit point. A non-nil
	// error undoes the change. A non-zero wait is handed to Wait after
	// the locks are released.
	Commit(r *Record) (wait uint64, err error)
	// Wait is called, outside every lock, with a non-zero token Commit returned.
	Wait(wait uint64) error
}

// Hook errors.
var (
	// ErrHookFailed: the DB's hook refused a change (Commit returned an
	// error, which is wrapped too); the change was undone.
	ErrHookFailed = errors.New("storage: commit hook failed, change undone")
	// ErrNotDurable: the change was applied and is visible, but the hook's
	// Wait failed (its error is wrapped too).
	ErrNotDurable = errors.New("storage: change applied but the commit hook's wait failed")
)

// RecordKind says what a Record records.
type RecordKind uint8

// Record kinds.
const (
	// RecordCommit: one committed storage transaction (Writes).
	RecordCommit RecordKind = 1 + iota
	// RecordCreateTable: DB.CreateTable (Def; Table is Def.ID).
	RecordCreateTable
	// RecordDropTable: DB.DropTable (Table).
	RecordDropTable
	// RecordAddIndex: Table.AddIndex (Table, Index).
	RecordAddIndex
	// RecordDropIndex: Table.DropIndex (Table, Index.Name).
	RecordDropIndex
	// RecordMeta: DB.SetMeta (Table, "" for the DB's own; Key; Value,
	// nil when the key was deleted).
	RecordMeta
	// RecordRestoreTable: DB.RestoreTable (Def: the new table's name and
	// ID, the snapshot's key schema, indexes and metadata; From: the
	// snapshot, its items and index entries; Table is Def.ID).
	RecordRestoreTable
	// RecordAddVectorIndex: Table.AddVectorIndex (Table, VectorIndex).
	RecordAddVectorIndex
	// RecordDropVectorIndex: Table.DropVectorIndex (Table,
	// VectorIndex.Name).
	RecordDropVectorIndex
)

var recordKindNames = [...]string{"", "commit", "create-table", "drop-table", "add-index", "drop-index", "meta", "restore-table",
	"add-vector-index", "drop-vector-index"}

func (k RecordKind) String() string {
	if int(k) < len(recordKindNames) && k != 0 {
		return recordKindNames[k]
	}
	return fmt.Sprintf("RecordKind(%d)", uint8(k))
}

// Record is one change of a DB as its hook sees it and DB.Apply takes it
// back. Which fields are set depends on Kind (see the kinds).
type Record struct {
	Kind   RecordKind
	Table  string         // the table's ID (catalog records)
	Writes []ItemWrite    // RecordCommit, in the order written
	Def    *TableDef      // RecordCreateTable, RecordRestoreTable
	From   *TableSnapshot // RecordRestoreTable
	Index  *IndexDef      // RecordAddIndex; only Name for RecordDropIndex
	// VectorIndex: RecordAddVectorIndex; only Name for RecordDropVectorIndex.
	VectorIndex *VectorIndexDef
	Key         string // RecordMeta
	Value       []byte // RecordMeta; nil: the key was deleted

	// unchecked: a commit's item images were not checked when it was
	// parsed (ParseRecordInto, ParseRecordTransient); Apply checks each
	// as it applies it.
	unchecked bool
}

// ItemWrite is one item write of a RecordCommit: the ID of the table it
// went to and the write as an observer sees it (key, stored records
// before and after, origin).
type ItemWrite struct {
	Table string
	Committed
}

// Committers that take a lock and call the hook under it are split in
// two: a helper named ...Locking takes and releases the lock itself and
// returns the hookResult, which the caller finishes outside the lock.

// hookResult is what a committer keeps of a hook call to finish it
// outside the locks: the hook to Wait on and the token, if any.
type hookResult struct {
	h    Hook
	wait uint64
}

// callHook hands r to h: the token to wait on, or the hook's error
// wrapped in ErrHookFailed.
func callHook(h Hook, r *Record) (hookResult, error) {
	wait, err := h.Commit(r)
	if err != nil {
		return hookResult{}, fmt.Errorf("%w: %w", ErrHookFailed, err)
	}
	return hookResult{h: h, wait: wait}, nil
}

// finish calls Wait when the hook asked for it, after the locks are
// released, and returns its error wrapped in ErrNotDurable.
func (r hookResult) finish() error {
	if r.wait == 0 {
		return nil
	}
	if err := r.h.Wait(r.wait); err != nil {
		return fmt.Errorf("%w: %w", ErrNotDurable, err)
	}
	return nil
}

// recorded reports whether write ch changed what the table stores, so
// the hook must hear of it: it stored a different record, created or
// deleted an item. (A record of equal values with set members in another
// order is recorded, since its bytes differ: a replay must store the same
// bytes.)
func (ch *Change) recorded() bool {
	return !ch.noop && (ch.OldSize > 0 || ch.NewSize > 0)
}

// hookWriteLocked hands one committed item write of t to t's hook, as a
// RecordCommit of one write built in t's scratch record (no allocation).
// t.mu is held exclusively and t.hook is not nil.
func (t *Table) hookWriteLocked(k Key, ch *Change, origin Origin) (hookResult, error) {
	sc := t.hookScr
	if sc == nil {
		sc = new(hookScratch)
		t.hookScr = sc
	}
	sc.w[0] = ItemWrite{Table: t.uid, Committed: t.committedLocked(k, ch, origin)}
	sc.rec = Record{Kind: RecordCommit, Writes: sc.w[:]}
	res, err := callHook(t.hook, &sc.rec)
	sc.w[0], sc.rec = ItemWrite{}, Record{} // keep no references
	return res, err
}

// hookScratch is a table's scratch record of one write for its hook.
type hookScratch struct {
	rec Record
	w   [1]ItemWrite
}
