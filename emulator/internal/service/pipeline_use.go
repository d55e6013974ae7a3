package service

import (
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// What the pipeline's entry points share: the capacity mode of a
// watched write, the key conditions a use is put to the stages with
// (stage.go). Which refusals a batch or a transaction treats apart is
// apierr's (Unprocessable, CancellationCode).

// capMode is the capacity mode a write reports in: the request's, or
// INDEXES when the use is watched and the table has indexes, so that the
// write decodes the item it replaces and its GSI units can be charged.
func (u *TableUse) capMode(mode string) string {
	if u == nil {
		return mode
	}
	return watchedCapMode(mode)
}

// watchedCapMode is the capacity mode of a watched write: INDEXES when
// the request asks for none.
func watchedCapMode(mode string) string {
	if mode == "" || mode == capacityNone {
		return capacityIndexes
	}
	return mode
}

// itemKey is the key condition of an item operation on t.
func itemKey(t *table, k storage.Key) access.KeyCondition {
	kc := access.KeyCondition{Partition: k.Partition}
	if t.schema.HasSort() {
		kc.SortOp, kc.Sort = access.SortEQ, k.Sort
	}
	return kc
}

// queryKey is the key condition of a Query.
func queryKey(pk storage.Value, sc storage.SortCondition) access.KeyCondition {
	return access.KeyCondition{Partition: pk, SortOp: access.SortOp(sc.Op), Sort: sc.Values[0], Sort2: sc.Values[1]}
}
