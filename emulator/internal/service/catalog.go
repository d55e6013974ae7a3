package service

import (
	"cmp"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/catalog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

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
