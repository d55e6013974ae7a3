package service

import (
	"context"

	"github.com/dynamoemu/dynamoemu/emulator/internal/capacity"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/lease"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The stage seam: the instruments' way into the request pipeline (pipeline.go), as feature.go is
// the features'. The stages are values handed to the service (Config.Stages). A Stage takes part
// in every use of a table or index by a data-plane operation: Begin before storage is touched (it
// may refuse the use, or hold it), End once the use is over, with what it did; what its Begin
// tells its End it keeps on the use (TableUse.SetValue). The pipeline's scopes (useItem,
// useRead, useTx, useTxGets, useSearch: pipeline_item.go) and a batch's items (beginBatchItem)
// loop over the stages that watch the table, in Config's order, and end each use they began. Watches is asked once per table definition: a request on a table no stage watches runs
// none, allocating nothing. Beside the uses, a stage may be a KeyGuard or a WriteChecker
// (stage_check.go), a ReadViewer (stage_read.go), and a Hooker (feature_lifecycle.go), as a
// feature may.

// Stage is one instrument of the request pipeline.
type Stage interface {
	// Watches reports whether the stage takes part in the uses of t.
	// It is asked once per definition of t (CreateTable, UpdateTable,
	// tags, a restore or a load publish a new one), never per request.
	Watches(t Table) bool
	// Begin puts the use u to the stage before storage is touched. An
	// error refuses the use with it (an error of AWS's).
	Begin(u *TableUse) error
	// End tells the stage what the use did (o.Refused: refused by it or a
	// stage before it, or failed after its Begin), once per Begin and on
	// the stage that refused the use. It may run under storage's locks:
	// it takes leaves only (doc.go).
	End(u *TableUse, o Outcome)
}

// Switch is a Stage that watches a table only while it is on (a rule set, a report
// collecting), which can change between two definitions of the table: On is asked on every use of a
// table the stage watches, and the use runs no stage when every stage watching the table is a
// Switch that is off. On must be cheap (an atomic load).
type Switch interface {
	On(t Table) bool
}

// TableUse is one use of a table or index by a data-plane request, between
// the stages' Begin and End.
type TableUse struct {
	c      *call
	t      *table
	index  string // the index read ("": the table; an LSI is named but charged to the table)
	gsi    bool
	vector bool // a search of the vector index index, in VectorSearchRequestBytes
	write  bool
	batch  bool // an item of a batch, whose items are separate requests on AWS
	access access.Access
	// key is the use's key condition: a full key for an item, the
	// partition for a Query, none for a Scan; a stage that refuses one
	// partition of parts narrows it to that partition's.
	key    access.KeyCondition
	parts  []*expr.KeyCondition // the partitions of a read of several (nil: key's)
	filter bool                 // a filter drops items read

	stages []Stage // the stages watching the table, in order
	begun  int     // how many of stages began
	cur    int     // the stage being called (SetValue, Value)
	vals   []any   // each stage's value (SetValue), by its place in stages

	lease.Owned // lent by usePool until its End
}

// Outcome is what a use did, as the stages' End sees it.
type Outcome struct {
	// ReadUnits and WriteUnits are the units the use consumed on the
	// table (or the GSI it read).
	ReadUnits, WriteUnits float64
	// IndexUnits are the write units of each index the write updated
	// (nil: see Change).
	IndexUnits map[*tablespec.IndexDef]float64
	// Change is what the write did, when HasChange (a single-item write
	// or a transaction's action): IndexWriteUnits derives the indexes'
	// units from it.
	Change    storage.Change
	HasChange bool
	// Read and Returned are the items read and answered.
	Read, Returned int
	// SearchBytes are the VectorSearchRequestBytes of a search.
	SearchBytes float64
	// Refused is the error a stage refused the use with, or the one the
	// request failed with after the use began (a check after Begin, a
	// panic; nil: it ran).
	Refused error
}

// checkCall runs the CheckCall hooks on a call of op, a non-data-plane
// operation, with in its decoded input.
func (c *call) checkCall(op string, in any) error {
	for _, cc := range c.svc.seams.checkCalls {
		if err := cc(Call{c: c}, op, in); err != nil {
			return err
		}
	}
	return nil
}

// stageSet is the stages watching a table and the KeyGuards guarding it,
// for one of its definitions.
type stageSet struct {
	meta   *tableMeta
	stages []Stage    // the stages watching it, in order
	always bool       // a stage that is not a Switch watches
	sw     []Switch   // else the switches, one of which must be on
	guards []KeyGuard // the KeyGuards guarding it
}

// watchers returns the stages watching a use of t now (nil: none).
func (t *table) watchers() []Stage {
	ss := t.stages()
	if ss.always {
		return ss.stages
	}
	for _, s := range ss.sw {
		if s.On(Table{t: t}) {
			return ss.stages
		}
	}
	return nil
}

// stages returns the set computed for t's definition, afresh when it changed (or Reask ran)
// since: two atomic loads when nothing changed. A set computed as Reask ran is not kept.
func (t *table) stages() *stageSet {
	m, old := t.meta.Load(), t.stageSet.Load()
	if old != nil && old.meta == m {
		return old
	}
	ss := &stageSet{meta: m}
	if t.ns != nil && m != nil {
		for _, s := range t.ns.svc.seams.stages {
			if !s.Watches(Table{t: t}) {
				continue
			}
			ss.stages = append(ss.stages, s)
			if sw, ok := s.(Switch); ok {
				ss.sw = append(ss.sw, sw)
			} else {
				ss.always = true
			}
		}
		for _, g := range t.ns.svc.seams.guards {
			if g.GuardsKeys(Table{t: t}) {
				ss.guards = append(ss.guards, g)
			}
		}
	}
	t.stageSet.CompareAndSwap(old, ss)
	return ss
}

// Reask has the stages asked again whether they watch and guard t: a stage calls it once
// it stored what decides that for t's published definition.
func (t Table) Reask() { t.t.stageSet.Store(nil) }

// useOf describes a use before the stages see it.
type useOf struct {
	index       string
	gsi, vector bool
	batch       bool
	filter      bool
}

// beginUse puts a use of t to the stages watching it: kc is its key
// condition, parts the partitions of a read of several (nil: kc's),
// access what it does. It returns nil and no error when no stage
// watches, and the error of the stage that refused the use.
func (c *call) beginUse(t *table, r useOf, kc access.KeyCondition, parts []*expr.KeyCondition, acc access.Access) (*TableUse, error) {
	ss := t.watchers()
	if ss == nil {
		return nil, nil
	}
	return c.beginStages(ss, t, r, kc, parts, acc)
}

// beginStages is beginUse with the stages watching t, ss (not empty).
func (c *call) beginStages(ss []Stage, t *table, r useOf, kc access.KeyCondition, parts []*expr.KeyCondition, acc access.Access) (*TableUse, error) {
	u := c.newUse()
	*u = TableUse{c: c, t: t, index: r.index, gsi: r.gsi, vector: r.vector, batch: r.batch, filter: r.filter,
		write: acc.IsWrite(), access: acc, key: kc, parts: parts, stages: ss, vals: u.vals}
	for i, s := range ss {
		u.cur = i
		if err := s.Begin(u); err != nil {
			u.begun = i + 1
			u.parts = nil
			for j, s := range ss[:i+1] {
				u.cur = j
				s.End(u, Outcome{Refused: err})
			}
			return nil, err
		}
	}
	u.begun = len(ss)
	u.parts = nil
	return u, nil
}

// end tells the stages that began u what it did, and gives u back.
// Nil-safe.
func (u *TableUse) end(o Outcome) {
	if u == nil {
		return
	}
	for i, s := range u.stages[:u.begun] {
		u.cur = i
		s.End(u, o)
	}
	usePool.Put(u)
}

// usePool recycles uses: a use is put back, zeroed (its stages' values
// cleared, their slice kept), by end, after which nothing refers to it (a
// use never ended, of a request that failed, is left to the collector;
// under the race detector a second end panics). So a watched request
// allocates nothing for its stages.
//
// The pool pays on every watched operation: pool on -> off, a PutItem
// of a watched table 817 -> 1105 B/op (+35%), 10 -> 11 allocs, a GetItem
// 233 -> 521 B/op (+124%), 6 -> 7 allocs (the benchmark and its run are
// this file's row of docs/architecture.md's performance budget).
var usePool = lease.NewPool(lease.Config[*TableUse]{
	New: func() *TableUse { return new(TableUse) },
	Reset: func(u *TableUse) bool {
		clear(u.vals)
		*u = TableUse{vals: u.vals[:0]}
		return true
	},
})

// newUse returns a zero use from the pool.
func (c *call) newUse() *TableUse {
	lease.Check(c)
	return usePool.Get()
}

// Op is the operation the use is part of.
func (u *TableUse) Op() string { return u.c.op }

// Table is the table used.
func (u *TableUse) Table() Table { return Table{t: u.t} }

// Index is the index used ("": the table).
func (u *TableUse) Index() string { return u.index }

// Access is what the use does.
func (u *TableUse) Access() access.Access { return u.access }

// Key is the use's key condition: a full key for an item, the
// partition (and sort condition) for a Query, none for a Scan.
func (u *TableUse) Key() access.KeyCondition { return u.key }

// Parts are the key conditions of the partitions a read of several
// reads one by one (a PartiQL IN list), in Begin; nil: Key's one.
func (u *TableUse) Parts() []access.KeyCondition {
	if u.parts == nil {
		return nil
	}
	out := make([]access.KeyCondition, len(u.parts))
	for i, p := range u.parts {
		out[i] = queryKey(p.Partition, p.Sort)
	}
	return out
}

// Narrow narrows the use's key condition to kc, one of its Parts: the
// partition a stage refuses, for the stages' End.
func (u *TableUse) Narrow(kc access.KeyCondition) { u.key = kc }

// Filter reports whether a filter drops items the use reads.
func (u *TableUse) Filter() bool { return u.filter }

// Vector reports whether the use is a search of a vector index, charged
// in VectorSearchRequestBytes (Outcome.SearchBytes).
func (u *TableUse) Vector() bool { return u.vector }

// Write reports whether the use writes.
func (u *TableUse) Write() bool { return u.write }

// OwnIndex reports whether the use is of an index with capacity of its
// own (a GSI, a vector index), not of the table.
func (u *TableUse) OwnIndex() bool { return u.gsi || u.vector }

// Call is the request the use is part of.
func (u *TableUse) Call() Call { return Call{c: u.c} }

// SetValue keeps v on the use for the stage being called: what its Begin
// tells its End (Value). v should be a pointer or a small value (a byte,
// a bool), which the interface holds without allocating.
func (u *TableUse) SetValue(v any) {
	for len(u.vals) <= u.cur {
		u.vals = append(u.vals, nil)
	}
	u.vals[u.cur] = v
}

// Value is what the stage being called kept on the use (SetValue), or
// nil.
func (u *TableUse) Value() any {
	if u.cur < len(u.vals) {
		return u.vals[u.cur]
	}
	return nil
}

// Context is the request's context (never nil): done when its client
// has gone.
func (c Call) Context() context.Context {
	if c.c.ctx == nil {
		return context.Background()
	}
	return c.c.ctx
}

// IndexWriteUnits are the write units of each index the write o
// updated: o.IndexUnits, or the GSIs' derived from o.Change (nil: none,
// or not a write).
func (u *TableUse) IndexWriteUnits(o Outcome) map[*tablespec.IndexDef]float64 {
	if o.IndexUnits != nil || !o.HasChange {
		return o.IndexUnits
	}
	if gsis, _ := u.t.indexes(); len(gsis) > 0 {
		return capacity.IndexUnits(u.t.schema, gsis, o.Change)
	}
	return nil
}
