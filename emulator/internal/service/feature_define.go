package service

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A table's definition as a feature reads it and changes it: the
// settings a feature that follows other tables' definitions (global
// tables keep their replicas' settings the same) reads, and sets
// through Table.Change, the one funnel that records a definition
// (changeMeta). The core's own rules (which UpdateTable admits) are not
// applied here: the feature answers for what it sets.

// DefinitionKey is the storage metadata key of a table's definition
// record: a storage.RecordMeta of this key is a definition changed
// (Definition.Record is its value, ParseDefinition reads it).
const DefinitionKey = metaKeyTable

// Replayed reports whether the definition comes from a record being
// applied (Namespace.Apply: a namespace loaded or replayed), not from a
// change made here.
func (d Definition) Replayed() bool { return d.replay }

// StatusAt is the TableStatus at now (ACTIVE, CREATING, DELETING).
func (d Definition) StatusAt(now time.Time) string { return d.m.StatusAt(now) }

// Deleting reports whether the table is being deleted (DeleteTable
// found it first).
func (d Definition) Deleting() bool { return d.m.Status == statusDeleting }

// Settings are the table's settings, a copy (none for a definition that
// does not exist). Their pointers are shared: read what they point to,
// never change it.
func (d Definition) Settings() tablespec.Settings {
	if d.m == nil {
		return tablespec.Settings{}
	}
	return d.m.Settings
}

// StreamView is the view type of the table's stream ("": no stream).
func (d Definition) StreamView() string {
	if !d.m.StreamOn() {
		return ""
	}
	return *d.m.Stream.StreamViewType
}

// GSI is tablespec's: a feature reads a definition's GSIs through it.
type GSI = tablespec.GSI

// Slot is the feature's slot in the definition (nil: none). The bytes
// are shared: read them, never change them.
func (d Definition) Slot(feature string) json.RawMessage { return d.m.Features[feature] }

// Record is the definition's record, as the table's commit hook records
// it (a storage.RecordMeta of DefinitionKey).
func (d Definition) Record() []byte { return encodeTableMeta(d.t, d.m) }

// ParseDefinition reads rec, a definition record (Definition.Record) of
// a table whose key schema is like's: a definition to read, as one of
// like's.
func ParseDefinition(rec []byte, like Table) (Definition, error) {
	_, m, err := like.t.ns.svc.seams.decodeTableRecord(rec, like.t.schema)
	if err != nil {
		return Definition{}, err
	}
	return Definition{t: like.t, m: m}, nil
}

// Definition is the table's definition now.
func (t Table) Definition() Definition { return Definition{t: t.t, m: t.t.snapshot()} }

// Storage is the table's storage table (its items and indexes), nil
// while the table is being made.
func (t Table) Storage() *storage.Table { return t.t.data }

// Edit is a table's definition being changed (Table.Change, or a copy
// being made: Call.MakeTable): its getters read the change so far, its
// setters change it. Nothing is published until the change is recorded.
type Edit struct {
	Definition
	gsisOwned      bool                  // m.gsis is the edit's own copy
	added, dropped []*tablespec.IndexDef // GSIs whose storage changes once recorded
	pruneAttrs     bool                  // drop the attribute definitions no key uses any more
	deletingOwned  bool                  // m.deleting is the edit's own copy
}

// SetSlot sets the feature's slot (nil: removes it).
func (e *Edit) SetSlot(feature string, slot json.RawMessage) {
	fs := maps.Clone(e.m.Features)
	if slot == nil {
		delete(fs, feature)
	} else {
		if fs == nil {
			fs = map[string]json.RawMessage{}
		}
		fs[feature] = slot
	}
	if len(fs) == 0 {
		fs = nil
	}
	e.m.Features = fs
}

// Settings are the edit's settings, to read and change in place; they
// are recorded with the change. Their pointers (OnDemand, SSE, Restored)
// are shared with the definition before: set them to a new value, never
// change what they point to.
func (e *Edit) Settings() *tablespec.Settings { return &e.m.Settings }

// ownGSIs makes m.gsis the edit's own copy, to change in place.
func (e *Edit) ownGSIs() {
	if !e.gsisOwned {
		e.m.GSIs = slices.Clone(e.m.GSIs)
		e.gsisOwned = true
	}
}

// SetGSICapacity sets the provisioned throughput of the GSI called name
// (nil: none, as on an on-demand table); an unknown name changes
// nothing.
func (e *Edit) SetGSICapacity(name string, c *tablespec.Throughput) {
	i := e.m.GSIIndex(name)
	if i < 0 {
		return
	}
	e.ownGSIs()
	y := *e.m.GSIs[i]
	y.Throughput = nil
	if c != nil {
		tp := *c
		y.Throughput = &tp
	}
	e.m.GSIs[i] = &y
}

// AddGSI adds the GSI called name of definition from (another table's,
// with the same key schema) to the table, with the table's ARN, CREATING
// until activeAt; the attribute definitions its keys use come from
// from. Its entries are built once the change is recorded. An index
// from does not have, or one of that name the table has, changes
// nothing.
func (e *Edit) AddGSI(from Definition, name string, activeAt time.Time) {
	i := from.m.GSIIndex(name)
	if i < 0 || e.m.GSIIndex(name) >= 0 {
		return
	}
	y := *from.m.GSIs[i]
	y.ARN = e.t.arn + "/index/" + y.Name
	y.ActiveAt = activeAt
	e.ownGSIs()
	e.m.GSIs = append(e.m.GSIs, &y)
	e.added = append(e.added, &y)
	defs := slices.Clone(e.m.AttrDefs)
	for _, a := range from.m.AttrDefs {
		if !slices.ContainsFunc(defs, func(b tablespec.AttrDef) bool { return b.Name == a.Name }) {
			defs = append(defs, a)
		}
	}
	e.m.AttrDefs = defs
	e.pruneAttrs = true
}

// DropGSI deletes the GSI called name: it shows as DELETING until
// goneAt, and its entries go once the change is recorded. An unknown
// name changes nothing.
func (e *Edit) DropGSI(name string, goneAt time.Time) {
	i := e.m.GSIIndex(name)
	if i < 0 {
		return
	}
	e.ownGSIs()
	z := *e.m.GSIs[i]
	z.GoneAt = goneAt
	e.m.GSIs = slices.Delete(e.m.GSIs, i, i+1)
	e.ownDeleting()
	e.m.Deleting = append(e.m.Deleting, &z)
	e.dropped = append(e.dropped, &z)
	e.pruneAttrs = true
}

// ownDeleting makes m.deleting the edit's own copy, to change in place.
func (e *Edit) ownDeleting() {
	if !e.deletingOwned {
		e.m.Deleting = slices.Clone(e.m.Deleting)
		e.deletingOwned = true
	}
}

// ForgetDeletedGSIs drops the GSIs deleted and gone by now (no longer
// shown as DELETING).
func (e *Edit) ForgetDeletedGSIs(now time.Time) {
	e.ownDeleting()
	e.m.Deleting = slices.DeleteFunc(e.m.Deleting, func(x *tablespec.IndexDef) bool { return !now.Before(x.GoneAt) })
}

// finish completes the edit's definition: the attribute definitions no
// key uses any more dropped, if GSIs came or went.
func (e *Edit) finish() {
	if e.pruneAttrs {
		e.m.PruneAttrDefs(e.t.keySchema)
	}
}

// storageDone returns what a recorded edit leaves for storage: the GSIs
// added built, those dropped deleted; then done (nil: nothing), the
// caller's.
func (e *Edit) storageDone(done func(recorded bool) error) func(recorded bool) error {
	if len(e.added) == 0 && len(e.dropped) == 0 {
		return done
	}
	t := e.t
	added, dropped := e.added, e.dropped
	return func(recorded bool) error {
		var err error
		if done != nil {
			err = done(recorded)
		}
		if !recorded {
			return err
		}
		for _, x := range added {
			if aerr := t.data.AddIndex(x.StorageDef()); aerr != nil {
				return aerr
			}
		}
		for _, x := range dropped {
			if derr := t.data.DropIndex(x.Name); derr != nil && !errors.Is(derr, storage.ErrNoIndex) {
				return derr
			}
		}
		return err
	}
}

// Change changes the table's definition through the one funnel that
// records it (changeMeta), with the table's lock held throughout: fn
// edits a copy of the definition and returns an error (nothing changes;
// the error is Change's) or done (nil: none), which runs once the copy
// is recorded (true) or was refused (false), before it is published.
// GSIs the edit added or dropped are built or deleted in storage once
// it is recorded, and a stream it turned on or off (Edit.SetStream)
// starts or stops, as UpdateTable's StreamSpecification does. An ErrNotDurable is returned after the change is made,
// as changeMeta returns it.
func (t Table) Change(fn func(e *Edit) (done func(recorded bool) error, err error)) error {
	tt := t.t
	return tt.changeMeta(func(m *tableMeta) (func(bool) error, error) {
		e := &Edit{Definition: Definition{t: tt, m: m}}
		done, err := fn(e)
		if err != nil {
			return nil, err
		}
		e.finish()
		return e.storageDone(e.streamDone(tt.snapshot(), done)), nil
	})
}

// streamDone returns what a recorded edit that turned the table's
// stream on or off (Edit.SetStream; old: the definition it started
// from) leaves for the stream: a new stream is registered now, under
// the region of the table's ARN, and becomes the table's once the
// change is recorded (forgotten if it is refused); a stream turned off
// is closed. Then done (nil: nothing), the caller's.
func (e *Edit) streamDone(old *tableMeta, done func(recorded bool) error) func(recorded bool) error {
	t, m := e.t, e.m
	if m.StreamOn() == old.StreamOn() {
		return done
	}
	c := &call{svc: t.ns.svc, ns: t.ns, now: t.ns.svc.clock(), region: strings.Split(t.arn, ":")[3]}
	s := t.prepareStreamLocked(c, old, m)
	return func(recorded bool) error {
		if recorded {
			t.syncStreamLocked(old, m, s, c.now)
		} else {
			c.forgetStream(s)
		}
		if done == nil {
			return nil
		}
		return done(recorded)
	}
}
