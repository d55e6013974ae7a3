package capacity

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// ReadUnits is the read capacity of reading size bytes: one unit per 4 KB
// (rounded up, at least one), half that when eventually consistent.
func ReadUnits(size int, consistent bool) float64 {
	units := float64(max(1, (size+4095)/4096))
	if !consistent {
		units /= 2
	}
	return units
}

// WriteUnits is the write capacity of writing size bytes: one unit per
// 1 KB, rounded up, at least one.
func WriteUnits(size int) float64 { return float64(max(1, (size+1023)/1024)) }

// TxReadUnits and TxWriteUnits are the capacity of reading and writing
// size bytes in a transaction: twice a strongly consistent read's, and
// twice a write's, as the transactions guide's capacity section bills
// (a prepare and a commit for each item).
func TxReadUnits(size int) float64  { return 2 * ReadUnits(size, true) }
func TxWriteUnits(size int) float64 { return 2 * WriteUnits(size) }

// IndexUnits returns the write units ch costs each of defs, indexes of
// a table of key schema ks, that it touches, as AWS documents for
// secondary indexes: a new entry or a removed one is one write of its
// size, an entry whose key changes is a delete and a put, one whose
// projected attributes change is one write, and an unchanged entry
// costs nothing (and is not reported).
func IndexUnits(ks storage.KeySchema, defs []*tablespec.IndexDef, ch storage.Change) map[*tablespec.IndexDef]float64 {
	var out map[*tablespec.IndexDef]float64
	for _, x := range defs {
		oldIn, newIn := x.InIndex(ch.Old), x.InIndex(ch.New)
		var units float64
		switch {
		case oldIn && newIn && x.SameKey(ch.Old, ch.New):
			if !x.SameEntry(ks, ch.Old, ch.New) {
				units = WriteUnits(max(x.EntrySize(ks, ch.Old), x.EntrySize(ks, ch.New)))
			}
		default:
			if oldIn {
				units += WriteUnits(x.EntrySize(ks, ch.Old))
			}
			if newIn {
				units += WriteUnits(x.EntrySize(ks, ch.New))
			}
		}
		if units > 0 {
			if out == nil {
				out = make(map[*tablespec.IndexDef]float64)
			}
			out[x] = units
		}
	}
	return out
}

// Table is what a write's units depend on of its table: its key schema,
// its secondary indexes (nil when their units are not asked for) and its
// vector indexes.
type Table struct {
	Schema     storage.KeySchema
	GSIs, LSIs []*tablespec.IndexDef
	Vectors    []*tablespec.VectorIndexDef
}

// Written is what a write to t of size bytes (the larger of the old and
// new item) that made ch consumed: the table's write units at its billed
// size (billedSize), twice that in a transaction (tx), each secondary
// index's (ch.Old decoded), and each vector index's
// VectorWriteRequestBytes.
func Written(t Table, size int, ch storage.Change, tx bool) Usage {
	u := Usage{Table: WriteUnits(billedSize(t.Vectors, size, ch))}
	if tx {
		u.Table *= 2
	}
	if len(t.GSIs)+len(t.LSIs) > 0 {
		u.Indexes = IndexUnits(t.Schema, t.GSIs, ch)
		u.Add(Usage{Indexes: IndexUnits(t.Schema, t.LSIs, ch)})
	}
	if len(t.Vectors) > 0 {
		u.Vectors = tablespec.VectorWriteBytes(t.Schema, t.Vectors, ch)
	}
	return u
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

// Tally is a Usage summed in 16 bytes when no index has units, as in
// most requests: a transaction keeps one per table (48 B with a whole
// Usage in line, BenchmarkOps/TransactGet2 1,944 B against 1,896).
type Tally struct {
	Table float64
	split *Usage // Indexes and Vectors; nil while both are
}

// Add adds v's units to t's.
func (t *Tally) Add(v Usage) {
	t.Table += v.Table
	if v.Indexes == nil && v.Vectors == nil {
		return
	}
	if t.split == nil {
		t.split = new(Usage)
	}
	t.split.Add(Usage{Indexes: v.Indexes, Vectors: v.Vectors})
}

// Usage is t's units as a Usage.
func (t Tally) Usage() Usage {
	u := Usage{Table: t.Table}
	if t.split != nil {
		u.Indexes, u.Vectors = t.split.Indexes, t.split.Vectors
	}
	return u
}

// Add adds v's units to u's.
func (u *Usage) Add(v Usage) {
	u.Table += v.Table
	for x, units := range v.Indexes {
		if u.Indexes == nil {
			u.Indexes = make(map[*tablespec.IndexDef]float64)
		}
		u.Indexes[x] += units
	}
	u.Vectors = tablespec.AddBytes(u.Vectors, v.Vectors)
}
