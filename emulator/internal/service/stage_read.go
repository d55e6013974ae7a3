package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The read side of the stage seam. An eventually consistent read of a
// table or an LSI (GetItem, BatchGetItem, Query, Scan, PartiQL SELECT)
// reads storage's eventual view of the table, and a GSI's reads the
// index: each trails the table's writes while a stage's gate holds
// commits back. Each such read is put to the ReadViewers among its
// use's stages before storage is read; they pick what it sees by moving
// their gates (a gate in fuzz mode counts the read). A stage may hold a
// stream's records back from GetRecords the same way (HoldStream).
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
// whose index trails by its own gate. Nil-safe on u.
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

// StreamHold is a stage's hold on the records of a table's stream: it
// numbers each record as it is committed (Stamp, under storage's lock,
// in commit order), and GetRecords returns only the records numbered up
// to Visible, stopping at the first it does not show: the shard iterator
// does not move past it, and the record is delivered, in order, once the
// hold shows it (streamrec.Hold).
type StreamHold = streamrec.Hold

// HoldStream returns the hold on the table's enabled stream, setting the
// one mk makes if it has none (mk nil: setting none), and base: the
// hold's record k is the record numbered base + k. False when the table
// has no enabled stream, or it has no hold and mk is nil. A stream
// enabled again (after a disable) starts without one.
func (t Table) HoldStream(mk func() StreamHold) (h StreamHold, base uint64, ok bool) {
	t.t.mu.Lock()
	st := t.t.liveStream
	t.t.mu.Unlock()
	if st.IsZero() {
		return nil, 0, false
	}
	return st.HoldWith(mk, t.t.ns.svc.clock())
}
