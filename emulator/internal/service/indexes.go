package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Secondary index data: each index definition has its entries in the
// table's storage (storage.Table.AddIndex), maintained by storage inside
// every item write. The definition, its storage form and its projection
// are tablespec.IndexDef's; an index write's units are the Meter's.

// indexWriteUnits returns the write units a change costs each of defs
// that it touches (the Meter's, stage_capacity.go).
func indexWriteUnits(t *table, defs []*tablespec.IndexDef, ch storage.Change) map[*tablespec.IndexDef]float64 {
	return meter.IndexUnits(Table{t: t}, defs, ch)
}
