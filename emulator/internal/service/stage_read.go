package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/faults/lag"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The read side of the stage seam. An eventually consistent read of a
// table or an LSI (GetItem, BatchGetItem, Query, Scan, PartiQL SELECT)
// reads storage's eventual view of the table, and a GSI's reads the
// index: each trails the table's writes while a lag gate (faults/lag)
// holds commits back. Each such read is put to the ReadViewers among its
// use's stages before storage is read; they pick what it sees by moving
// their gates (a gate in fuzz mode counts the read, lag.Gate.Read).
// Strongly consistent reads, transactions and writes read the table
// itself and put nothing to a ReadViewer: they are never stale.

// ReadViewer is a Stage that also picks the view an eventually
// consistent read sees.
type ReadViewer interface {
	// ViewRead is called once per eventually consistent read u of a
	// table, an LSI or a GSI (u.Index, u.OwnIndex), after the stages'
	// Begin and before storage is read.
	ViewRead(u *TableUse)
}

// view returns the storage table a read of t (or of its index x, nil:
// none) by u reads: the table, its eventual view, or for a GSI the table
// whose index lags by its own gate. Nil-safe on u.
func (u *TableUse) view(t *table, x *tablespec.IndexDef, consistent bool) *storage.Table {
	if !consistent && u != nil {
		for _, s := range u.stages[:u.begun] {
			if v, ok := s.(ReadViewer); ok {
				v.ViewRead(u)
			}
		}
	}
	if consistent || x != nil && !x.Local {
		return t.data
	}
	return t.data.Eventual()
}

// ReadLag returns the gate of the table's eventually consistent reads,
// setting one (lagging nothing) if it has none.
func (t Table) ReadLag() *lag.Gate { return t.t.ns.svc.tableGate(t.t) }

// IndexLag returns the gate of the table's GSI called name, setting one
// (lagging nothing) if it has none; ErrNoGSI when there is no such GSI.
func (t Table) IndexLag(name string) (*lag.Gate, error) { return t.t.ns.svc.indexGate(t.t, name) }

// StreamLag returns the gate of the table's enabled stream, setting one
// if it has none, and base: the gate's commit k is the record numbered
// base + k. False when the table has no enabled stream.
func (t Table) StreamLag() (g *lag.Gate, base uint64, ok bool) {
	t.t.mu.Lock()
	st := t.t.liveStream
	t.t.mu.Unlock()
	if st == nil {
		return nil, 0, false
	}
	g = t.t.ns.svc.streamGateOf(st)
	return g, st.lag.Load().base, true
}

// Keys are the names of the index's first HASH and RANGE attributes
// (sort "": none).
func (g GSI) Keys() (partition, sort string) {
	return g.x.Schema.Partition.Name, g.x.Schema.Sort.Name
}
