package storage

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"weak"
)

// DB is the tables of one namespace: each has a name, unique among the
// tables that exist, and an ID the caller chooses, unique forever (the
// emulator's TableId), so that records name a table across a drop and a
// re-creation under the same name and across restarts (Table's own lock
// order number is process-local). A DB has the one commit hook (hook.go)
// through which every change of its tables and its catalog leaves it, and
// Apply (apply.go), which takes those changes back.

// DB errors.
var (
	// ErrNoTable: the DB has no table of that name or ID.
	ErrNoTable = errors.New("storage: no such table")
	// ErrTableExists: CreateTable was given a name or an ID in use.
	ErrTableExists = errors.New("storage: table already exists")
)

// TableDef defines a table of a DB: its name and ID, key schema, the
// secondary and vector indexes it starts with and its initial metadata
// (meta.go).
type TableDef struct {
	Name          string
	ID            string
	Schema        KeySchema
	Indexes       []IndexDef
	VectorIndexes []VectorIndexDef
	Meta          map[string][]byte
}

// Validate checks the name and ID (not empty), the key schema and the
// index definitions (valid, names distinct). Errors wrap ErrInvalidSchema.
func (d *TableDef) Validate() error {
	if d.Name == "" || d.ID == "" {
		return fmt.Errorf("%w: table name %q, ID %q", ErrInvalidSchema, d.Name, d.ID)
	}
	if err := d.Schema.Validate(); err != nil {
		return err
	}
	for i, x := range d.Indexes {
		if err := x.Schema.Validate(); err != nil {
			return fmt.Errorf("index %q: %w", x.Name, err)
		}
		if x.Name == "" || slices.ContainsFunc(d.Indexes[:i], func(y IndexDef) bool { return y.Name == x.Name }) {
			return fmt.Errorf("%w: index name %q empty or twice", ErrInvalidSchema, x.Name)
		}
	}
	for i, x := range d.VectorIndexes {
		if err := x.Validate(); err != nil {
			return fmt.Errorf("%w: vector index %q: %w", ErrInvalidSchema, x.Name, err)
		}
		if slices.ContainsFunc(d.VectorIndexes[:i], func(y VectorIndexDef) bool { return y.Name == x.Name }) {
			return fmt.Errorf("%w: vector index name %q twice", ErrInvalidSchema, x.Name)
		}
	}
	return nil
}

// DB is a namespace's tables; see above. All methods are safe for
// concurrent use.
type DB struct {
	hook Hook // nil: none; changed only by WrapHook, under mu

	// mu guards tables, byID and meta, the DB's own metadata (meta.go).
	// CreateTable, DropTable and DB.SetMeta hold it exclusively across
	// their hook call, so catalog records are ordered; lookups hold it
	// shared. Lock order: Table.mu (ascending id, as in Begin), then
	// DB.mu, then Table.metaMu.
	mu sync.RWMutex
	// tables are the DB's tables in name order (UTF-8 bytes), found by
	// binary search (tableLocked): a DB holds few tables (a branch's
	// often one), for which a map's smallest table of slots costs 25
	// times a slice's one pointer.
	tables []*Table
	// byID holds the tables by ID once they are more than byIDFrom;
	// until then it is nil and tableByIDLocked looks through tables.
	byID map[string]*Table
	meta map[string][]byte // nil until set
	vix  VectorIndexer     // what builds new tables' vector indexes (SetVectorIndexer); nil: nothing
	// deferIdx: tables made now defer their indexes' entries
	// (DeferIndexes).
	deferIdx bool
	// metaGen counts the changes of meta, under mu: a snapshot is given
	// again only while it is the same (snapshot.go, reuseLocked).
	metaGen uint64

	// lastMu guards last, the snapshot taken last, held weakly: taken
	// again of tables that have not changed since, Snapshot gives it
	// again, so forks of one base share one (snapshot.go). A leaf of the
	// lock order.
	lastMu sync.Mutex
	last   weak.Pointer[Snapshot]
}

// NewDB returns an empty DB whose changes go to hook (nil: nowhere). The
// hook is copied into every table, where a write reads it under the
// table's lock alone; only WrapHook changes it.
func NewDB(hook Hook) *DB {
	return &DB{hook: hook}
}

// findLocked returns where the table called name is in db.tables, or
// would go; db.mu is held.
func (db *DB) findLocked(name string) (int, bool) {
	return slices.BinarySearchFunc(db.tables, name, func(t *Table, name string) int { return strings.Compare(t.name, name) })
}

// tableLocked returns the table called name, or nil; db.mu is held.
func (db *DB) tableLocked(name string) *Table {
	if i, ok := db.findLocked(name); ok {
		return db.tables[i]
	}
	return nil
}

// byIDFrom is how many tables a DB holds before it keeps a map by ID.
const byIDFrom = 8

// tableByIDLocked returns the table with ID id, or nil; db.mu is held.
func (db *DB) tableByIDLocked(id string) *Table {
	if db.byID != nil {
		return db.byID[id]
	}
	for _, t := range db.tables {
		if t.uid == id {
			return t
		}
	}
	return nil
}

// CreateTable creates the table def defines, empty, with its indexes and
// metadata, and records it (RecordCreateTable). It fails with
// ErrInvalidSchema (def.Validate) or ErrTableExists when the name or the
// ID is in use.
func (db *DB) CreateTable(def TableDef) (*Table, error) {
	if err := def.Validate(); err != nil {
		return nil, err
	}
	t := NewTable(def.Schema)
	t.vix = db.vectorIndexer()
	for _, x := range def.Indexes {
		if err := t.AddIndex(x); err != nil { // no hook yet: not recorded apart
			return nil, err
		}
	}
	for _, x := range def.VectorIndexes {
		if err := t.AddVectorIndex(x); err != nil { // likewise
			return nil, err
		}
	}
	t.name, t.uid = strings.Clone(def.Name), strings.Clone(def.ID)
	t.meta = cloneMeta(def.Meta)
	t, res, err := db.createLocking(t, &Record{Kind: RecordCreateTable, Table: t.uid, Def: &def})
	if err != nil {
		return nil, err
	}
	return t, res.finish()
}

// createLocking adds t, a new table not yet shared, to the DB, recording
// r (a RecordCreateTable or RecordRestoreTable).
func (db *DB) createLocking(t *Table, r *Record) (*Table, hookResult, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	i, found := db.findLocked(t.name)
	if found || db.tableByIDLocked(t.uid) != nil {
		return nil, hookResult{}, fmt.Errorf("%w: name %q, ID %q", ErrTableExists, t.name, t.uid)
	}
	var res hookResult
	if db.hook != nil {
		var err error
		if res, err = callHook(db.hook, r); err != nil {
			return nil, hookResult{}, err
		}
	}
	t.db.Store(db)
	t.setHookLocked(db.hook) // t is not shared yet: no lock needed
	t.deferIdx = db.deferIdx
	db.tables = slices.Insert(db.tables, i, t)
	switch {
	case db.byID != nil:
		db.byID[t.uid] = t
	case len(db.tables) > byIDFrom:
		db.byID = make(map[string]*Table, len(db.tables))
		for _, t := range db.tables {
			db.byID[t.uid] = t
		}
	}
	return t, res, nil
}

// DropTable removes the table called name and records it
// (RecordDropTable), after the writes in progress on it are done. The
// Table leaves the DB: whoever still holds it may go on using it, but
// nothing done to it any more is recorded.
func (db *DB) DropTable(name string) error {
	return db.drop(func() *Table { return db.tableLocked(name) })
}

// drop drops the table find returns (called under db.mu), taking the
// table's lock first as the lock order asks, and checking after that it
// is still the one find returns.
func (db *DB) drop(find func() *Table) error {
	for {
		db.mu.RLock()
		t := find()
		db.mu.RUnlock()
		if t == nil {
			return ErrNoTable
		}
		res, ok, err := db.dropLocking(t, find)
		if err != nil {
			return err
		}
		if ok {
			return res.finish()
		}
		// Dropped, or dropped and re-created, while we waited: look again.
	}
}

func (db *DB) dropLocking(t *Table, find func() *Table) (hookResult, bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	db.mu.Lock()
	defer db.mu.Unlock()
	if find() != t {
		return hookResult{}, false, nil
	}
	var res hookResult
	if db.hook != nil {
		var err error
		if res, err = callHook(db.hook, &Record{Kind: RecordDropTable, Table: t.uid}); err != nil {
			return hookResult{}, false, err
		}
	}
	if i, ok := db.findLocked(t.name); ok {
		db.tables = slices.Delete(db.tables, i, i+1)
	}
	delete(db.byID, t.uid) // nil: a no-op
	t.db.Store(nil)
	t.setHookLocked(nil)
	return res, true, nil
}

// Table returns the table called name, or nil.
func (db *DB) Table(name string) *Table {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.tableLocked(name)
}

// TableByID returns the table with ID id, or nil.
func (db *DB) TableByID(id string) *Table {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.tableByIDLocked(id)
}

// Tables returns the DB's tables in name order.
func (db *DB) Tables() []*Table {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return slices.Clone(db.tables)
}

// Name returns the table's name in its DB ("" for a table made by NewTable).
func (t *Table) Name() string { return t.name }

// ID returns the table's ID in its DB ("" for a table made by NewTable).
func (t *Table) ID() string { return t.uid }

// WrapHook makes wrap(the DB's hook) the hook of the DB and of every table
// in it: for a layer that must see every record of a DB someone else
// opened (point-in-time recovery over a DB persistence loaded). Call it
// before the DB is shared: a change already past its hook keeps the old
// one. Lock order as everywhere: DB.mu is released before any Table.mu is
// taken.
func (db *DB) WrapHook(wrap func(Hook) Hook) {
	db.mu.Lock()
	db.hook = wrap(db.hook)
	h := db.hook
	tables := slices.Clone(db.tables)
	db.mu.Unlock()
	for _, t := range tables {
		t.mu.Lock()
		if t.db.Load() == db {
			t.setHookLocked(h)
		}
		t.mu.Unlock()
	}
}
