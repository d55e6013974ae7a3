package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Secondary index data: each index definition has its entries in the
// table's storage (storage.Table.AddIndex), maintained by storage inside
// every item write. The definition, its storage form and its projection
// are tablespec.IndexDef's; this file holds an index write's capacity.

// indexWriteUnits returns the write units a change costs each index it
// touches, as AWS documents for secondary indexes: a new entry or a
// removed one is one write of its size, an entry whose key changes is a
// delete and a put, one whose projected attributes change is one write,
// and an unchanged entry costs nothing (and is not reported).
func indexWriteUnits(ks storage.KeySchema, defs []*tablespec.IndexDef, ch storage.Change) map[*tablespec.IndexDef]float64 {
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
