package capacity

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// ReadUnits is the read capacity of reading size bytes: one unit per 4 KB
// (rounded up, at least one), half that when eventually consistent.
func (Stage) ReadUnits(size int, consistent bool) float64 {
	units := float64(max(1, (size+4095)/4096))
	if !consistent {
		units /= 2
	}
	return units
}

// WriteUnits is the write capacity of writing size bytes: one unit per
// 1 KB, rounded up, at least one.
func (Stage) WriteUnits(size int) float64 { return writeUnits(size) }

// TxReadUnits and TxWriteUnits are the capacity of reading and writing
// size bytes in a transaction: twice a strongly consistent read's, and
// twice a write's, as the transactions guide's capacity section bills
// (a prepare and a commit for each item).
func (s Stage) TxReadUnits(size int) float64 { return 2 * s.ReadUnits(size, true) }
func (Stage) TxWriteUnits(size int) float64  { return 2 * writeUnits(size) }

// AddRead is units with a read of size bytes added: an LSI read that
// fetches an item from its table reads it apart, at its own size rounded
// up, and its page adds the index's read on top.
func (s Stage) AddRead(units float64, size int, consistent bool) float64 {
	return units + s.ReadUnits(size, consistent)
}

func writeUnits(size int) float64 { return float64(max(1, (size+1023)/1024)) }

// IndexUnits returns the write units ch costs each of defs that it
// touches, as AWS documents for secondary indexes: a new entry or a
// removed one is one write of its size, an entry whose key changes is a
// delete and a put, one whose projected attributes change is one write,
// and an unchanged entry costs nothing (and is not reported).
func (Stage) IndexUnits(t service.Table, defs []*tablespec.IndexDef, ch storage.Change) map[*tablespec.IndexDef]float64 {
	if len(defs) == 0 {
		return nil
	}
	ks := t.Schema()
	var out map[*tablespec.IndexDef]float64
	for _, x := range defs {
		oldIn, newIn := x.InIndex(ch.Old), x.InIndex(ch.New)
		var units float64
		switch {
		case oldIn && newIn && x.SameKey(ch.Old, ch.New):
			if !x.SameEntry(ks, ch.Old, ch.New) {
				units = writeUnits(max(x.EntrySize(ks, ch.Old), x.EntrySize(ks, ch.New)))
			}
		default:
			if oldIn {
				units += writeUnits(x.EntrySize(ks, ch.Old))
			}
			if newIn {
				units += writeUnits(x.EntrySize(ks, ch.New))
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

// Written is what a write to t of size bytes (the larger of the old and
// new item) that made ch consumed: the table's write units at its billed
// size (billedSize), twice that in a transaction (tx), each index's when
// indexes (ch.Old decoded), and each vector index's
// VectorWriteRequestBytes.
func (s Stage) Written(t service.Table, size int, ch storage.Change, indexes, tx bool) service.Usage {
	xs := t.VectorIndexes()
	u := service.Usage{Table: writeUnits(billedSize(xs, size, ch))}
	if tx {
		u.Table *= 2
	}
	if indexes {
		gsis, lsis := t.Indexes()
		u.Indexes = s.IndexUnits(t, gsis, ch)
		u.Add(service.Usage{Indexes: s.IndexUnits(t, lsis, ch)})
	}
	if len(xs) > 0 {
		u.Vectors = tablespec.VectorWriteBytes(t.Schema(), xs, ch)
	}
	return u
}
