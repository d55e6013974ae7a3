package service

import (
	"context"
	"github.com/dynamoemu/dynamoemu/emulator/internal/capacity"
	"sync"

	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/lease"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The stage seam: the instruments' way into the request pipeline (pipeline.go), as feature.go is
// the features'. A Stage takes part in every use of a table or index by a data-plane operation:
// Begin before storage is touched (it may refuse the use, or hold it), End once the use is over,
// with what it did. The pipeline's entry points (beginItem, beginRead, beginBatchItem, beginTx,
// beginTxGets, beginSearch; wrote, readItem, readPage, searched, txApplied, txRead, finishItem)
// loop over the stages that watch the table, in the order they were installed. Watches is asked
// once per table definition: a request on a table no stage watches runs none, allocating nothing.

// Stage is one instrument of the request pipeline.
type Stage interface {
	// Watches reports whether the stage takes part in the uses of t.
	// It is asked once per definition of t (CreateTable, UpdateTable,
	// tags, a restore or a load publish a new one), never per request.
	Watches(t Table) bool
	// Begin puts the use u to the stage before storage is touched. An
	// error refuses the use with it (an error of AWS's).
	Begin(u *TableUse) error
	// End tells the stage what the use did (o.Refused: it was refused by
	// this stage or one before it). It is called once per Begin, and on
	// the stage that refused the use.
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

	scratch [useSlots]float64 // the stages' UseSlots (stage_state.go)

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
	// Refused is the error a stage refused the use with (nil: it ran).
	Refused error
}

// CallChecker is a Stage that also takes part in every call of an operation that is not a
// data-plane one (the control plane, the Streams API): CheckCall runs once per call, with op the
// operation's name and in its decoded input, before the operation validates it; an error fails the
// call with it.
type CallChecker interface {
	CheckCall(c Call, op string, in any) error
}

// installed are the stages UseStage installed, in its order; callCheckers are those that implement
// CallChecker. Filled by init functions only; read-only afterwards.
var (
	installed    []Stage
	callCheckers []CallChecker
)

// UseStage installs a stage. Call it from an init function (the
// emulator's, emulator/features.go), before any service is made.
func UseStage(s Stage) {
	installed = append(installed, s)
	if d, ok := s.(Dropper); ok {
		droppers = append(droppers, d) // told of a deleted table (feature_table.go)
	}
	if d, ok := s.(IndexDropper); ok {
		indexDroppers = append(indexDroppers, d) // told of a deleted GSI (feature_table.go)
	}
	if l, ok := s.(Loader); ok {
		loaders = append(loaders, l) // told of a namespace loaded (feature_state.go)
	}
	if cc, ok := s.(CallChecker); ok {
		callCheckers = append(callCheckers, cc)
	}
	useChecks(s) // stage_check.go
}

// checkCall runs the installed CallCheckers on a call of op, a
// non-data-plane operation, with in its decoded input.
func (c *call) checkCall(op string, in any) error {
	for _, cc := range callCheckers {
		if err := cc.CheckCall(Call{c: c}, op, in); err != nil {
			return err
		}
	}
	return nil
}

// stageSet is the stages watching a table and the KeyGuards guarding it, for one of its
// definitions. Its watchSet is shared by the tables the same stages watch and guards guard.
type stageSet struct {
	meta *tableMeta
	*watchSet
}

type watchSet struct {
	stages []Stage
	always bool     // a stage that is not a Switch watches
	sw     []Switch // else the switches, one of which must be on
	guards []KeyGuard
}

// noWatch stands for a set to compute again (Reask); watchSets holds the shared watchSets
// by the lists of stages and guards and which of them watch and guard (a bit each).
var (
	noWatch   = &watchSet{}
	watchSets sync.Map // [4]any{*Stage, *KeyGuard, uint64, uint64} -> *watchSet
)

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
	ws, watch, guard := &watchSet{}, uint64(0), uint64(0)
	if t.ns != nil && m != nil {
		for i, s := range installed {
			if !s.Watches(Table{t: t}) {
				continue
			}
			ws.stages, watch = append(ws.stages, s), watch|1<<i
			if sw, ok := s.(Switch); ok {
				ws.sw = append(ws.sw, sw)
			} else {
				ws.always = true
			}
		}
		for i, g := range keyGuards {
			if g.GuardsKeys(Table{t: t}) {
				ws.guards, guard = append(ws.guards, g), guard|1<<i
			}
		}
	}
	if v, ok := watchSets.LoadOrStore([4]any{first(installed), first(keyGuards), watch, guard}, ws); ok {
		ws = v.(*watchSet)
	}
	ss := &stageSet{meta: m, watchSet: ws}
	t.stageSet.CompareAndSwap(old, ss)
	return ss
}

// Reask has the stages asked again whether they watch and guard t: a stage calls it once
// it stored what decides that for t's published definition.
func (t Table) Reask() { t.t.stageSet.Store(&stageSet{watchSet: noWatch}) }

// first is s's first element's address, or nil.
func first[T any](s []T) *T {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

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
		write: acc.IsWrite(), access: acc, key: kc, parts: parts, stages: ss}
	for i, s := range ss {
		if err := s.Begin(u); err != nil {
			u.begun = i + 1
			u.parts = nil
			for _, s := range ss[:i+1] {
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
	for _, s := range u.stages[:u.begun] {
		s.End(u, o)
	}
	usePool.Put(u)
}

// usePool recycles uses: a use is put back, zeroed, by end, after which
// nothing refers to it (a use never ended, of a request that failed, is
// left to the collector; under the race detector a second end panics).
// So a watched request allocates nothing for its stages.
//
// The pool pays on every watched operation: pool on -> off, a PutItem
// of a watched table 817 -> 1105 B/op (+35%), 10 -> 11 allocs, a GetItem
// 233 -> 521 B/op (+124%), 6 -> 7 allocs (the benchmark and its run are
// this file's row of docs/architecture.md's performance budget).
var usePool = lease.NewPool(lease.Config[*TableUse]{
	New:   func() *TableUse { return new(TableUse) },
	Reset: func(u *TableUse) bool { *u = TableUse{}; return true },
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
