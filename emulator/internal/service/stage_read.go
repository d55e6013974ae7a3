package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/faults/lag"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The read side of the stage seam: which view of a table an eventually
// consistent read sees. A table's eventually consistent reads (GetItem,
// BatchGetItem, Query and Scan with ConsistentRead false, of the table or
// an LSI) read storage's eventual view of it, and a GSI's reads the
// index, each of which trails the table's writes when a lag gate (faults/lag)
// holds commits back. A ReadViewer is put every such read before storage
// is read, and picks what it sees by moving the gates it installed: a
// gate in fuzz mode counts the read (lag.Gate.Read) and shows it the
// commits whose reads are done. Strongly consistent reads,
// transactions and writes read the table itself and put nothing to a
// ReadViewer: they are never stale.

// ReadViewer is a Stage that also picks the view an eventually
// consistent read sees.
type ReadViewer interface {
	// ViewRead is called once per eventually consistent read u of a
	// table, an LSI or a GSI (u.Index, u.OwnIndex), after the stages'
	// Begin and before storage is read.
	ViewRead(u *TableUse)
}

// view returns the storage table a read of t by u reads, having put an
// eventually consistent read to the stages' ReadViewers. Nil-safe on u.
func (u *TableUse) view(t *table, consistent bool) *storage.Table {
	if !consistent && u != nil {
		u.viewRead()
	}
	return t.readData(consistent)
}

// indexView is view for a read of t's index x.
func (u *TableUse) indexView(t *table, x *tablespec.IndexDef, consistent bool) *storage.Table {
	if !consistent && u != nil {
		u.viewRead()
	}
	return t.indexData(x, consistent)
}

// viewRead puts u, an eventually consistent read, to the ReadViewers
// among the stages that began it.
func (u *TableUse) viewRead() {
	for _, s := range u.stages[:u.begun] {
		if v, ok := s.(ReadViewer); ok {
			v.ViewRead(u)
		}
	}
}

// StageOption returns what the service's Config.StageOptions holds
// under name (nil: nothing): one stage's settings for one service.
func (s Space) StageOption(name string) any { return s.ns.svc.cfg.StageOptions[name] }

// ReadLag returns the gate of the table's eventually consistent reads,
// setting one (lagging nothing) if it has none.
func (t Table) ReadLag() *lag.Gate { return t.t.ns.svc.tableGate(t.t) }

// IndexLag returns the gate of the table's GSI called name, setting one
// (lagging nothing) if it has none; ErrNoGSI when there is no such GSI.
func (t Table) IndexLag(name string) (*lag.Gate, error) { return t.t.ns.svc.indexGate(t.t, name) }

// StreamLag returns the gate of the table's enabled stream, setting one
// (lagging nothing) if it has none, and the sequence number of the last
// record taken before it was set (the gate's commit k is the record
// numbered base + k); false when the table has no enabled stream.
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

// IndexKey is the name of a GSI and of its key attributes (the first
// HASH and RANGE ones; Sort "" when it has none).
type IndexKey struct{ Name, Partition, Sort string }

// GlobalIndexKeys returns the table's GSIs with their key attributes.
func (t Table) GlobalIndexKeys() []IndexKey {
	gsis, _ := t.t.indexes()
	out := make([]IndexKey, len(gsis))
	for i, x := range gsis {
		out[i] = IndexKey{Name: x.Name, Partition: x.Schema.Partition.Name}
		if x.Schema.HasSort() {
			out[i].Sort = x.Schema.Sort.Name
		}
	}
	return out
}
