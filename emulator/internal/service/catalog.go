package service

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/catalog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The table catalog of a Namespace is package catalog's (namespace.go:
// tableCatalog): its DB holds the tables and their definition records
// (catalog_record.go), its list the tables below, by name. Each table
// keeps its own definition (an immutable snapshot, changed under
// table.mu through changeMeta, the one funnel that records it) and
// storage.Table guards its items. A namespace holds its catalog under
// one pointer (Namespace.cat), so that forks share one until a fork's
// first change gives it its own (Namespace.own, ns_snapshot.go).

// getTable returns the namespace's table called name, or nil.
func (ns *Namespace) getTable(name string) *table { return ns.cat.Load().Get(name) }

// createTable creates t in the namespace's DB with its definition m and
// stream s (zero: none), records it (one RecordCreateTable carrying the
// definition), and makes t visible. It fails with ResourceInUseException
// when a table of that name exists, and with the hook's error when the
// record is refused (nothing is created then).
func (ns *Namespace) createTable(t *table, m *tableMeta, s streamrec.Stream) error {
	c := ns.own()
	st, err := c.DB.CreateTable(storage.TableDef{
		Name:          t.name,
		ID:            t.id,
		Schema:        t.schema,
		Indexes:       tablespec.StorageDefs(slices.Concat(m.LSIs, m.GSIs)),
		VectorIndexes: tablespec.VectorStorageDefs(m.Vectors),
		Meta:          map[string][]byte{metaKeyTable: encodeTableMeta(t, m)},
	})
	if errors.Is(err, storage.ErrTableExists) {
		// DynamoDB Local: "Cannot create preexisting table".
		return apierr.ResourceInUse(apierr.MsgTableExistsPrefix + t.name)
	}
	if err != nil && !errors.Is(err, storage.ErrNotDurable) {
		return err
	}
	ns.publishTable(c, t, st, m, s)
	return err
}

// publishTable attaches t to its storage table st (item collection
// tracking for LSIs, stream s as the observer; zero: none) and puts it in
// c (ns's catalog, or its new one), replacing a table of that name still
// being deleted: st's DB has just accepted it, so no live table has it.
func (ns *Namespace) publishTable(c *tableCatalog, t *table, st *storage.Table, m *tableMeta, s streamrec.Stream) {
	t.data, t.ns = st, ns
	t.trackCollections(m.LSIs)
	if !s.IsZero() {
		t.attachStreamLocked(s)
	}
	c.Put(t.name, t)
}

// removeTable deletes t from the catalog if it is still there (a
// concurrent DeleteTable + CreateTable must not remove the new table).
func (ns *Namespace) removeTable(t *table) { ns.cat.Load().Remove(t.name, t) }

// tableNames returns the table names in ascending (UTF-8 byte) order.
func (ns *Namespace) tableNames() []string { return ns.cat.Load().Names() }

// table is one table: its key schema and items, plus everything
// DescribeTable reports. name, schema, keySchema, data, arn, id, created
// and clock never change after creation and may be read without a lock.
//
// Its definition (meta) is an immutable snapshot that readers load
// without any lock: the data-plane operations read it while they hold
// storage's lock on the table's items (the index key checks of an update,
// the capacity and item collection metrics of a batch), so reading it must
// not wait for anything. A change of the definition (UpdateTable,
// DeleteTable, UpdateTimeToLive, TagResource, UntagResource) holds mu,
// copies the snapshot, changes the copy, makes the storage changes it
// implies (an index added or dropped, the stream's observer attached or
// detached) and then publishes the copy. See "Locks" in doc.go for the
// order of every lock.
type table struct {
	name      string
	schema    storage.KeySchema
	keySchema []tablespec.KeyElem // as given, for DescribeTable
	data      *storage.Table
	arn       string // arn:aws:dynamodb:<region>:<account>:table/<name>
	id        string // TableId, a UUID
	created   time.Time
	clock     func() time.Time // the emulator's clock, for transient states
	ns        *Namespace       // the namespace whose catalog holds it (a shared catalog's reader)

	// meta is the table's definition; never nil once the table is
	// published. A *tableMeta, once stored, is never modified: load it
	// with meta.Load() (or snapshot) anywhere, holding any lock or none.
	meta atomic.Pointer[tableMeta]

	// indexProjections holds each KEYS_ONLY or INCLUDE index's own
	// projection, compiled at its first read (page_eval.go): an
	// *tablespec.IndexDef's *expr.Projection. An index definition never changes
	// its key schema or projection; one replaced by UpdateTable leaves
	// its entry until the table goes.
	indexProjections sync.Map

	// mu serializes the changes of meta and guards liveStream. It comes
	// first in the lock order: a holder may take storage's table locks
	// (AddIndex, DropIndex, SetObserver, ItemCount), the namespace's
	// catalog and stream locks, and a stream's lock; nothing that holds
	// any of those, and nothing running inside a storage callback, takes
	// mu. Helpers named ...Locked expect it held.
	mu sync.Mutex
	// liveStream is the enabled stream (streams.go), the observer of data; nil without one.
	liveStream streamrec.Stream
	// states are the features' and stages' TableStates (stage_state.go).
	states slots

	// stageSet is the stages watching the table, for the definition
	// they were asked on (stage.go).
	stageSet atomic.Pointer[stageSet]
}

// tableMeta is the part of a table's definition that may change
// (catalog.Def); a published one is immutable: a change copies it and
// stores the copy in table.meta (changeMeta).
type tableMeta = catalog.Def

// TableStatus values.
const (
	statusActive   = catalog.StatusActive
	statusDeleting = catalog.StatusDeleting
	statusCreating = catalog.StatusCreating
)

// readClock reads the clock of the emulator that created t.
func (t *table) readClock() time.Time {
	if t.clock == nil {
		return time.Now()
	}
	return t.clock()
}

// snapshot returns the table's current definition, which the caller must
// not modify. It takes no lock, so it may be called anywhere, inside a
// storage callback included.
func (t *table) snapshot() *tableMeta { return t.meta.Load() }

// changeMeta is the one funnel through which every change of a table's
// definition goes (UpdateTable, DeleteTable, UpdateTimeToLive,
// TagResource, UntagResource): it applies fn to a copy of t's definition,
// records the copy in the namespace's DB (one RecordMeta holding the
// whole definition, or the table's RecordDropTable when fn marked it
// DELETING), then lets fn's done finish the work the new definition
// implies (storage indexes, the stream's observer, the stages'
// state on the table) and publishes the copy. It holds t.mu throughout, so fn and
// done may use the ...Locked helpers.
//
// fn's done (nil: none) is called once: with recorded false when fn's
// definition could not be recorded (the hook refused it: done undoes what
// fn prepared, such as a stream it registered, and nothing changed), or
// with true once it is recorded. Its error is returned; the definition is
// published anyway, since it is recorded (an index whose storage change
// the hook then refused is answered as a missing index). An ErrNotDurable
// from the record is returned after the change is made and published.
func (t *table) changeMeta(fn func(m *tableMeta) (done func(recorded bool) error, err error)) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	old := t.meta.Load()
	m := *old
	done, err := fn(&m)
	if err != nil {
		return err
	}
	rerr := t.recordLocked(old, &m)
	if rerr != nil && !errors.Is(rerr, storage.ErrNotDurable) {
		if done != nil {
			_ = done(false)
		}
		return rerr
	}
	if done != nil {
		err = done(true)
	}
	t.meta.Store(&m)
	return cmp.Or(err, rerr)
}

// recordLocked records t's new definition m (old before the change):
// the RecordMeta of its definition or, when m marks the table DELETING,
// its RecordDropTable. A table already DELETING has left its DB (its
// name may be another table's already) and records nothing more: a
// TagResource or UpdateTimeToLive that found it before DeleteTable took
// it out of the catalog changes only the definition it answers with. A
// table that belongs to no DB (tests make some) records nothing.
func (t *table) recordLocked(old, m *tableMeta) error {
	switch {
	case t.ns == nil || old.Status == statusDeleting:
		return nil
	case m.Status == statusDeleting:
		return t.ns.cat.Load().DB.DropTable(t.name)
	}
	return t.data.SetMeta(metaKeyTable, encodeTableMeta(t, m))
}

// lookupTable resolves a TableName request parameter (a name, or a table
// ARN of this namespace) to the table, with AWS's validation and
// ResourceNotFoundException. Tables being deleted are not found.
//
// A table still CREATING (with a transient delay: a new table, or a
// restore in progress: Call.MakeTable) serves no item request: AWS answers a data-plane request to a table being
// created ResourceNotFoundException "Requested resource not found", as
// its API reference describes the exception ("The operation tried to
// access a nonexistent table or index. The resource might not be
// specified correctly, or its status might not be ACTIVE.") and public
// records of AWS's answers show (github.com/cirello-io/dynamolock/issues/120: a
// PutItem right after CreateTable). DynamoDB Local has no
// such state (its tables are ACTIVE at once, even with
// -delayTransientStatuses).
func (c *call) lookupTable(name string) (*table, error) {
	t, err := c.lookupTableMsg(name, apierr.MsgResourceNotFound)
	if err != nil {
		return nil, err
	}
	if m := t.meta.Load(); !m.ActiveAt.IsZero() && m.StatusAt(c.now) == statusCreating {
		return nil, apierr.ResourceNotFound(apierr.MsgResourceNotFound)
	}
	return t, nil
}

// lookupTableMsg is lookupTable with the ResourceNotFoundException message
// notFound (control-plane operations name the table in it).
func (c *call) lookupTableMsg(name, notFound string) (*table, error) {
	var cs apierr.Constraints
	tablespec.TableNameConstraints(&cs, name)
	if err := cs.Err(); err != nil {
		return nil, err
	}
	if err := c.valuesLayer(); err != nil {
		return nil, err // a value's error comes before the table (value_order.go)
	}
	if strings.HasPrefix(name, "arn:") {
		n, ok := c.tableNameFromARN(name)
		if !ok {
			return nil, apierr.ResourceNotFound(notFound)
		}
		name = n
	}
	t := c.ns.getTable(name)
	if t != nil && t.ns != c.ns && t.watchers() != nil { // a fork's shared table, which a stage watches: the fork gets its own
		c.ns.own()
		t = c.ns.getTable(name)
	}
	if t == nil {
		return nil, apierr.ResourceNotFound(notFound)
	}
	return t, nil
}

// tableARN returns the ARN of the table called name in this call's
// namespace.
func (c *call) tableARN(name string) string {
	return "arn:aws:dynamodb:" + c.region + ":" + c.account + ":table/" + name
}

// tableNameFromARN returns the table name in a table ARN if the ARN belongs
// to this call's region and account.
func (c *call) tableNameFromARN(arn string) (string, bool) {
	prefix := c.tableARN("")
	if !strings.HasPrefix(arn, prefix) {
		return "", false
	}
	name := arn[len(prefix):]
	if !tablespec.ValidTableName(name) {
		return "", false
	}
	return name, true
}

// backupSourceTable resolves the TableName of the backup and recovery
// operations (a name or an ARN, at constraint path path): a missing
// table is TableNotFoundException, as AWS's reference lists for them,
// and so is a table still CREATING (a restore in progress), as AWS
// answers CreateBackup, UpdateContinuousBackups and
// DescribeContinuousBackups for one (ack-api-quirks DDB-BACKUP-001,
// DDB-TABLE-217: "Table not found: <name>").
func (c *call) backupSourceTable(name *string, path string) (*table, error) {
	var cs apierr.Constraints
	if apierr.NotNull(&cs, name, path) {
		tablespec.TableNameConstraints(&cs, *name)
	}
	if err := cs.Err(); err != nil {
		return nil, err
	}
	n := *name
	if strings.HasPrefix(n, "arn:") {
		var ok bool
		if n, ok = c.tableNameFromARN(n); !ok {
			return nil, apierr.New(apierr.ErrTableNotFound, apierr.MsgTableNotFoundBackup(*name))
		}
	}
	t := c.ns.getTable(n)
	if t == nil || t.meta.Load().StatusAt(c.now) == statusCreating {
		return nil, apierr.New(apierr.ErrTableNotFound, apierr.MsgTableNotFoundBackup(n))
	}
	return t, nil
}
