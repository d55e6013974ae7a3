package service

import (
	"errors"
	"slices"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A table as it was, for a feature that keeps one (a backup), a table
// made of a snapshot (a restore: emulator/internal/restore); and a table
// just deleted, as a Dropped hook sees it.

// TableCopy is a table as it was: its fixed fields, its definition and a
// copy-on-write snapshot of its items and indexes (storage's
// Table.Snapshot, O(1)), whose metadata holds the definition record.
type TableCopy struct {
	snap *storage.TableSnapshot
	t    *table
	m    *tableMeta
}

// Copy returns the table as it is now.
func (t Table) Copy() (TableCopy, error) { return t.Space().CopyOf(t.t.data.Snapshot()) }

// CopyOf reads the table a snapshot holds (one Copy took, or one read
// back from a file), as the namespace's service reads definitions.
func (s Space) CopyOf(snap *storage.TableSnapshot) (TableCopy, error) {
	def, dm, err := s.ns.svc.seams.decodeTableRecord(snap.Meta(metaKeyTable), snap.KeySchema())
	if err != nil {
		return TableCopy{}, err
	}
	return TableCopy{snap: snap, t: def, m: dm}, nil
}

// Snapshot is the copy's items, indexes and definition record.
func (tc TableCopy) Snapshot() *storage.TableSnapshot { return tc.snap }

// Info is the table's identity as it was.
func (tc TableCopy) Info() tablespec.Identity { return tc.t.identity() }

// Definition is the table's definition as it was.
func (tc TableCopy) Definition() Definition { return Definition{t: tc.t, m: tc.m} }

// MakeTable makes table name in the request's namespace with from's key
// schema, of the items and indexes snapshot returns for the derivation
// it is handed (the new table's indexes and definition record): storage's
// DB.RestoreTable shares them, nothing is copied, and records the table
// in one RecordRestoreTable. Its definition starts as from's billing
// mode and its history, capacity, on-demand limits, warm throughput,
// encryption and table class, ACTIVE (CREATING for the transient delay),
// and edit changes it (its indexes: Edit.SetIndexes; a stream of its own,
// with a new label: Edit.SetStream). Its items are put to the stages'
// checks of its writes first (checkRestored), and the source as copied
// to the CheckDefinition hooks before that (DefinitionCopied): one
// refused, the table is not made. A table of that name is
// TableAlreadyExistsException; an ErrNotDurable comes back with it made.
func (c Call) MakeTable(name string, from Definition, edit func(e *Edit) error,
	snapshot func(storage.Derivation) (*storage.TableSnapshot, error)) (Table, error) {
	cc, src, sm := c.c, from.t, from.m
	if _, err := cc.checkDefinition(src, DefinitionCopied, tagDescs(sm.Tags)); err != nil {
		return Table{}, err
	}
	now := cc.now
	t := &table{name: name, schema: src.schema, keySchema: src.keySchema,
		arn: cc.tableARN(name), id: tablespec.NewUUID(), created: now, clock: cc.clock}
	m := &tableMeta{Status: statusActive, Settings: tablespec.Settings{Billing: sm.Billing,
		Capacity: tablespec.Throughput{Read: sm.Capacity.Read, Write: sm.Capacity.Write},
		OnDemand: sm.OnDemand, Warm: sm.Warm, SSE: sm.SSE, TableClass: sm.TableClass}}
	if d := cc.svc.cfg.TransientDelay; d > 0 {
		m.ActiveAt = now.Add(d)
	}
	if err := edit(&Edit{Definition: Definition{t: t, m: m}}); err != nil {
		return Table{}, err
	}
	var s Stream
	if m.StreamOn() {
		s = t.registerStream(cc, m, *m.Stream.StreamViewType, "")
	}
	t.meta.Store(m)
	vdefs := tablespec.VectorStorageDefs(m.Vectors)
	if vdefs == nil {
		vdefs = []storage.VectorIndexDef{} // not nil: exactly these, none
	}
	snap, err := snapshot(storage.Derivation{
		Indexes:       tablespec.StorageDefs(slices.Concat(m.LSIs, m.GSIs)),
		VectorIndexes: vdefs,
		Meta:          map[string][]byte{metaKeyTable: encodeTableMeta(t, m)},
	})
	if err != nil {
		cc.forgetStream(s)
		return Table{}, err
	}
	ns, cat := cc.ns, cc.ns.own()
	ns.loadedDefinition(t, nil) // the stages' state of t, which its items' checks read
	if err := cc.checkRestored(t, snap); err != nil {
		cc.forgetStream(s)
		return Table{}, err
	}
	st, err := cat.DB.RestoreTable(name, t.id, snap)
	if err != nil && !errors.Is(err, storage.ErrNotDurable) {
		cc.forgetStream(s)
		if errors.Is(err, storage.ErrTableExists) {
			err = apierr.New(apierr.ErrTableAlreadyExists, apierr.MsgTableAlreadyExists(name))
		}
		return Table{}, err
	}
	ns.publishTable(cat, t, st, m, s)
	return Table{t: t}, err
}

// Indexes are the definition's secondary and vector indexes and its
// attribute definitions. Read them, never change them.
func (d Definition) Indexes() *tablespec.Indexes { return &d.m.Indexes }

// SetIndexes sets the definition's indexes and attribute definitions.
func (e *Edit) SetIndexes(ix tablespec.Indexes) { e.m.Indexes = ix }

// SetStream gives the table a stream of view type view ("": none): a
// table being made (Call.MakeTable), or a table changed (Table.Change:
// turned on, a new stream with a new label; turned off, the stream
// closed; a view type changed while on is not a new stream).
func (e *Edit) SetStream(view string) {
	e.m.Stream = nil
	if view != "" {
		on := true
		e.m.Stream = &StreamSpecification{StreamEnabled: &on, StreamViewType: &view}
	}
}

// Dropped is a table just deleted.
type Dropped struct {
	t   *table
	m   *tableMeta
	now time.Time
}

// Table is the table.
func (d Dropped) Table() Table { return Table{t: d.t} }

// Now is when it was deleted.
func (d Dropped) Now() time.Time { return d.now }

// PointInTimeRecovery reports whether the table had point-in-time
// recovery on when it was deleted.
func (d Dropped) PointInTimeRecovery() bool { return d.m.Recovery.On }

// Keep returns the Keeper of the namespace's side directory sub (files
// beside its DB: Config.Keep), or nil when the namespace is not kept on
// disk.
func (s Space) Keep(sub string) (Keeper, error) {
	keep := s.ns.svc.cfg.Keep
	if keep == nil || !s.ns.persisted() {
		return nil, nil
	}
	return keep(s.ns.key, sub)
}

// ID is the namespace's ID.
func (s Space) ID() string { return s.ns.key }
