package service

import (
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/shapes"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Capacity accounting, the pipeline's last stage (pipeline.go): the units
// a read or a write consumes and the ConsumedCapacity member of a
// data-plane answer, per table and, in INDEXES mode, per index.

// ReturnConsumedCapacity values.
const (
	capacityNone    = "NONE"
	capacityTotal   = "TOTAL"
	capacityIndexes = "INDEXES"
)

// ConsumedCapacity is the ConsumedCapacity member of a data-plane
// response, and Capacity a table's or one index's part of it (INDEXES
// mode): internal/shapes declares them.
type (
	ConsumedCapacity = shapes.ConsumedCapacity[*float64]
	Capacity         = shapes.Capacity[*float64]
	VectorCapacity   = shapes.VectorCapacity
)

// validateReturnConsumedCapacity returns the constraint violation text for a
// bad ReturnConsumedCapacity value, or "" (for use with constraintErrors).
func validateReturnConsumedCapacity(mode string) string {
	switch mode {
	case "", capacityNone, capacityTotal, capacityIndexes:
		return ""
	}
	return apierr.EnumViolation(paramReturnConsumedCap, mode, enumReturnConsumedCap)
}

// readUnits is the read capacity of reading sizeBytes: one unit per 4 KB
// (rounded up, at least one), half that when eventually consistent.
func readUnits(sizeBytes int, consistent bool) float64 {
	units := float64(max(1, (sizeBytes+4095)/4096))
	if !consistent {
		units /= 2
	}
	return units
}

// writeUnits is the write capacity of writing sizeBytes: one unit per 1 KB,
// rounded up, at least one.
func writeUnits(sizeBytes int) float64 {
	return float64(max(1, (sizeBytes+1023)/1024))
}

// readCapacity is the ConsumedCapacity of reading sizeBytes from t (the
// item's size for GetItem, 0 when absent; the total of the items read for
// Query and Scan), or nil when mode asks for none.
func readCapacity(t *table, mode string, sizeBytes int, consistent bool) *ConsumedCapacity {
	return consumed(t, mode, readUnits(sizeBytes, consistent))
}

func consumed(t *table, mode string, units float64) *ConsumedCapacity {
	switch mode {
	case capacityTotal:
		return &ConsumedCapacity{TableName: t.name, CapacityUnits: units}
	case capacityIndexes:
		return &ConsumedCapacity{TableName: t.name, CapacityUnits: units, Table: &Capacity{CapacityUnits: units}}
	}
	return nil
}

// readIndexCapacity is the ConsumedCapacity of an index read of
// indexUnits, plus the table reads of the items an LSI read fetched.
func readIndexCapacity(t *table, x *tablespec.IndexDef, mode string, indexUnits, tableUnits float64) *ConsumedCapacity {
	cp := capacity{table: tableUnits, indexes: map[*tablespec.IndexDef]float64{x: indexUnits}}
	return cp.report(t, mode)
}

// capacity adds up the units one request consumes on a table and on each
// of its indexes.
type capacity struct {
	table   float64
	indexes map[*tablespec.IndexDef]float64
}

// add adds units consumed on indexes.
func (cp *capacity) add(units map[*tablespec.IndexDef]float64) {
	for x, u := range units {
		if cp.indexes == nil {
			cp.indexes = make(map[*tablespec.IndexDef]float64)
		}
		cp.indexes[x] += u
	}
}

// report is the ConsumedCapacity member for mode (nil for NONE).
func (cp capacity) report(t *table, mode string) *ConsumedCapacity {
	total := cp.table
	for _, u := range cp.indexes {
		total += u
	}
	switch mode {
	case capacityTotal:
		return &ConsumedCapacity{TableName: t.name, CapacityUnits: total}
	case capacityIndexes:
		cc := &ConsumedCapacity{TableName: t.name, CapacityUnits: total, Table: &Capacity{CapacityUnits: cp.table}}
		for x, u := range cp.indexes {
			m := &cc.GlobalSecondaryIndexes
			if x.Local {
				m = &cc.LocalSecondaryIndexes
			}
			if *m == nil {
				*m = make(map[string]Capacity)
			}
			(*m)[x.Name] = Capacity{CapacityUnits: u}
		}
		return cc
	}
	return nil
}

// writeChangeCapacity is the ConsumedCapacity of a write of sizeBytes to
// t whose Change is ch, its index writes included; ch.Old must be decoded
// when t has indexes (see needOld).
func writeChangeCapacity(t *table, mode string, sizeBytes int, ch storage.Change) *ConsumedCapacity {
	if mode == "" || mode == capacityNone {
		return nil
	}
	cp := capacity{table: writeUnits(billedWriteSize(t, sizeBytes, ch))}
	if gsis, lsis := t.indexes(); len(gsis)+len(lsis) > 0 {
		cp.add(indexWriteUnits(t.schema, slices.Concat(gsis, lsis), ch))
	}
	cc := cp.report(t, mode)
	if xs := t.vectorIndexes(); len(xs) > 0 && mode == capacityIndexes {
		addVectorBytes(cc, tablespec.VectorWriteBytes(t.schema, xs, ch))
	}
	return cc
}

// needOld reports whether a write to t must decode the item it replaces
// to report capacity in mode: when t has indexes, their writes depend on
// the old image, and a vector counts four bytes a dimension of it.
func needOld(t *table, mode string) bool {
	if mode == "" || mode == capacityNone {
		return false
	}
	gsis, lsis := t.indexes()
	return len(gsis)+len(lsis)+len(t.vectorIndexes()) > 0
}
