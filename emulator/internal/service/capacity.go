package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/capacity"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/shapes"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The ConsumedCapacity member of a data-plane answer, per table and, in
// INDEXES mode, per index: what the operations read and wrote, in
// DynamoDB's units (package capacity), when the request asks for it.

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

// readCapacity is the ConsumedCapacity of reading sizeBytes from t (the
// item's size for GetItem, 0 when absent; the total of the items read for
// Query and Scan), or nil when mode asks for none.
func readCapacity(t *table, mode string, sizeBytes int, consistent bool) *ConsumedCapacity {
	if !asked(mode) { //gcassert:inline
		return nil
	}
	return meteredRead(t, mode, sizeBytes, consistent)
}

func meteredRead(t *table, mode string, sizeBytes int, consistent bool) *ConsumedCapacity {
	return capacity.Consumed(t.name, mode, &capacity.Usage{Table: capacity.ReadUnits(sizeBytes, consistent)})
}

// consumed is the ConsumedCapacity of units read from t, or nil when
// mode asks for none.
func consumed(t *table, mode string, units float64) *ConsumedCapacity {
	if !asked(mode) {
		return nil
	}
	return capacity.Consumed(t.name, mode, &capacity.Usage{Table: units})
}

// readIndexCapacity is the ConsumedCapacity of reading sizeBytes of index
// x, and fetched, the units (AddRead) of the items an LSI read fetched.
func readIndexCapacity(t *table, x *tablespec.IndexDef, mode string, sizeBytes int, consistent bool, fetched float64) *ConsumedCapacity {
	if !asked(mode) {
		return nil
	}
	return capacity.Consumed(t.name, mode, &capacity.Usage{Table: fetched, Indexes: map[*tablespec.IndexDef]float64{x: capacity.ReadUnits(sizeBytes, consistent)}})
}

// writeChangeCapacity is the ConsumedCapacity of a write of sizeBytes to
// t whose Change is ch, its index writes included; ch.Old must be decoded
// when t has indexes (see needOld).
func writeChangeCapacity(t *table, mode string, sizeBytes int, ch storage.Change) *ConsumedCapacity {
	if !asked(mode) { //gcassert:inline
		return nil
	}
	return meteredWrite(t, mode, sizeBytes, ch)
}

func meteredWrite(t *table, mode string, sizeBytes int, ch storage.Change) *ConsumedCapacity {
	gsis, lsis := t.indexes()
	u := capacity.Written(capacityOf(t, len(gsis)+len(lsis) > 0), sizeBytes, ch, false)
	return capacity.Consumed(t.name, mode, &u)
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

// asked reports whether mode, a ReturnConsumedCapacity, asks for the
// answer's ConsumedCapacity.
func asked(mode string) bool { return mode == capacityTotal || mode == capacityIndexes }

// capacityOf is what the units of a write to t depend on: its key
// schema, its vector indexes and, when indexes (the write's ch.Old
// decoded), its secondary indexes.
func capacityOf(t *table, indexes bool) capacity.Table {
	ct := capacity.Table{Schema: t.schema, Vectors: t.vectorIndexes()}
	if indexes {
		ct.GSIs, ct.LSIs = t.indexes()
	}
	return ct
}
