package service

import "sync/atomic"

// What a stage (stage.go) keeps, and what it is configured with: its
// settings (Config.Settings, the emulator's options for it), its state
// in each namespace (NewStageState), its state on each table
// (TableSlot) and its scratch on each use (UseSlot). The core keeps
// these slots for whatever stage asks for one and names none of them.

// Setting returns the value of type T among the service's
// Config.Settings (the first one), or false when there is none.
func Setting[T any](s Space) (T, bool) { return ServiceSetting[T](s.ns.svc) }

// ServiceSetting returns the value of type T among the service's
// Config.Settings (the first one), or false when there is none.
func ServiceSetting[T any](s *Service) (T, bool) {
	for _, v := range s.cfg.Settings {
		if t, ok := v.(T); ok {
			return t, true
		}
	}
	var zero T
	return zero, false
}

// NewStageState declares a stage's per-namespace state of type T, zero
// in a new namespace (State.In reads it). Call it from an init function
// (a package variable's), before any service is made.
func NewStageState[T any]() State[T] { return NewState[T](Registrar{}) }

// tableSlots is how many TableSlots stages may declare.
const tableSlots = 4

// TableSlot is a stage's state on each table: a *T per table, nil until
// the stage stores one. Loads and stores are atomic; the table made
// anew (a table of the same name after a DeleteTable, a restore) starts
// with none.
type TableSlot[T any] struct{ i int }

// tableSlotsUsed is how many TableSlots were declared (init only).
var tableSlotsUsed int

// NewTableSlot declares a stage's per-table state of type T. Call it
// from an init function (a package variable's).
func NewTableSlot[T any]() TableSlot[T] {
	if tableSlotsUsed == tableSlots {
		panic("service: more than tableSlots table slots")
	}
	tableSlotsUsed++
	return TableSlot[T]{i: tableSlotsUsed - 1}
}

// Load returns the stage's state on t (nil: none stored).
func (s TableSlot[T]) Load(t Table) *T {
	v, _ := t.t.slots[s.i].Load().(*T)
	return v
}

// Store sets the stage's state on t.
func (s TableSlot[T]) Store(t Table, v *T) { t.t.slots[s.i].Store(v) }

// LoadOrStore returns the stage's state on t, storing v first when
// there is none: of concurrent callers, one stores and all get its v.
func (s TableSlot[T]) LoadOrStore(t Table, v *T) *T {
	if t.t.slots[s.i].CompareAndSwap(nil, v) {
		return v
	}
	return s.Load(t)
}

// SpaceFor is the namespace an access key and region select (the shared
// one with Config.SharedDB), made on first use, as a stage's admin calls
// find it.
func (s *Service) SpaceFor(accessKey, region string) Space {
	return Space{ns: s.namespaceOf(accessKey, region)}
}

// namespaceOf returns the registered namespace of an access key and region.
func (s *Service) namespaceOf(accessKey, region string) *Namespace {
	if s.cfg.SharedDB {
		return s.dbs.get(nsKey{shared: true})
	}
	return s.dbs.get(nsKey{accessKey: accessKey, region: region})
}

// useSlots is how many UseSlots stages may declare.
const useSlots = 2

// UseSlot is a stage's scratch number on each use, zero at its Begin:
// what its Begin tells its End.
type UseSlot struct{ i int }

// useSlotsUsed is how many UseSlots were declared (init only).
var useSlotsUsed int

// NewUseSlot declares a stage's scratch number on each use. Call it from
// an init function (a package variable's).
func NewUseSlot() UseSlot {
	if useSlotsUsed == useSlots {
		panic("service: more than useSlots use slots")
	}
	useSlotsUsed++
	return UseSlot{i: useSlotsUsed - 1}
}

// Value is the use's number in slot s.
func (u *TableUse) Value(s UseSlot) float64 { return u.scratch[s.i] }

// SetValue sets the use's number in slot s.
func (u *TableUse) SetValue(s UseSlot, v float64) { u.scratch[s.i] = v }

// Batch reports whether the use is an item of a batch, whose items are
// separate requests on AWS.
func (u *TableUse) Batch() bool { return u.batch }

// Same reports whether d and o are the same definition (the same
// publication of the same table).
func (d Definition) Same(o Definition) bool { return d.t == o.t && d.m == o.m }

// VectorIndexes are the names of the table's vector indexes.
func (d Definition) VectorIndexes() []string {
	out := make([]string, len(d.m.Vectors))
	for i, x := range d.m.Vectors {
		out[i] = x.Name
	}
	return out
}

// slotValues are a table's TableSlots' values.
type slotValues [tableSlots]atomic.Value
