package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Capacity accounting behind the stage seam: the operations report what
// they read and wrote (sizes, consistency, a write's Change, per table
// and per index) and the installed Meter turns that into units (for the
// stages' Outcome) and into the answer's
// ConsumedCapacity member, asked only when the request asks for one
// (TOTAL or INDEXES). With no Meter installed a request consumes nothing
// and answers no ConsumedCapacity.

// Meter is a Stage that meters capacity. UseStage makes the last one
// installed the service's meter.
type Meter interface {
	// ReadUnits are the units of reading size bytes, consistently or not,
	// WriteUnits of writing them; the Tx ones of doing so in a transaction.
	ReadUnits(size int, consistent bool) float64
	WriteUnits(size int) float64
	TxReadUnits(size int) float64
	TxWriteUnits(size int) float64
	// AddRead is units plus a read of size bytes: it tallies the items an
	// LSI read fetches from the table, each its own read, then its page.
	AddRead(units float64, size int, consistent bool) float64
	// IndexUnits are the write units ch costs each of defs, indexes of
	// t, that it touches (nil: none).
	IndexUnits(t Table, defs []*tablespec.IndexDef, ch storage.Change) map[*tablespec.IndexDef]float64
	// Written is what a write to t of size bytes (the larger of the old
	// and new item) that made ch consumed, in a transaction when tx: the
	// table's units as billed, each index's units when indexes (ch.Old
	// decoded), each vector index's VectorWriteRequestBytes.
	Written(t Table, size int, ch storage.Change, indexes, tx bool) Usage
	// Consumed is the ConsumedCapacity member, in mode (TOTAL or
	// INDEXES), of u on the table called table.
	Consumed(table, mode string, u *Usage) *ConsumedCapacity
}

// Usage is what a request consumed on one table.
type Usage struct {
	Table   float64                         // units on the table (an LSI's included)
	Indexes map[*tablespec.IndexDef]float64 // units on each index (INDEXES mode)
	Vectors map[string]float64              // VectorWriteRequestBytes by vector index (INDEXES mode)
	// Tx says the units are a transaction's, which AWS also reports as
	// ReadCapacityUnits, or WriteCapacityUnits when Write.
	Tx, Write bool
}

// Add adds v's units to u's.
func (u *Usage) Add(v Usage) {
	u.Table += v.Table
	u.Indexes = addIndexUnits(u.Indexes, v.Indexes)
	u.Vectors = tablespec.AddBytes(u.Vectors, v.Vectors)
}

// addIndexUnits adds units to m, made when needed.
func addIndexUnits(m, units map[*tablespec.IndexDef]float64) map[*tablespec.IndexDef]float64 {
	for x, v := range units {
		if m == nil {
			m = make(map[*tablespec.IndexDef]float64)
		}
		m[x] += v
	}
	return m
}

// VectorIndexes are t's vector indexes.
func (t Table) VectorIndexes() []*tablespec.VectorIndexDef { return t.t.vectorIndexes() }

// meter is the installed Meter (unmetered: none).
var meter Meter = unmetered{}

// unmetered is the meter of a service with none installed: nothing is
// consumed.
type unmetered struct{}

func (unmetered) ReadUnits(int, bool) float64              { return 0 }
func (unmetered) WriteUnits(int) float64                   { return 0 }
func (unmetered) TxReadUnits(int) float64                  { return 0 }
func (unmetered) TxWriteUnits(int) float64                 { return 0 }
func (unmetered) AddRead(u float64, _ int, _ bool) float64 { return u }
func (unmetered) IndexUnits(Table, []*tablespec.IndexDef, storage.Change) map[*tablespec.IndexDef]float64 {
	return nil
}
func (unmetered) Written(Table, int, storage.Change, bool, bool) Usage { return Usage{} }
func (unmetered) Consumed(string, string, *Usage) *ConsumedCapacity    { return nil }

// useMeter makes s the meter if it is one (UseStage).
func useMeter(s Stage) {
	if m, ok := s.(Meter); ok {
		meter = m
	}
}

// asked reports whether mode, a ReturnConsumedCapacity, asks for the
// answer's ConsumedCapacity.
//
//gcassert:inline
func asked(mode string) bool { return mode == capacityTotal || mode == capacityIndexes }
