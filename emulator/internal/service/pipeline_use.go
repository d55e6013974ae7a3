package service

import (
	"errors"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// What the pipeline's entry points share: the capacity mode of a
// watched write, the key conditions a use is put to the stages with
// (stage.go), and the errors a batch or a transaction treats apart.

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

// unprocessable reports whether a batch item refused with err goes back
// in UnprocessedItems or UnprocessedKeys (AWS's BatchWriteItem reference:
// the items that fail because the provisioned throughput is exceeded or
// an internal processing failure) rather than failing the call.
func unprocessable(err error) bool {
	return errors.Is(err, apierr.ErrProvisionedThroughputExceeded) || errors.Is(err, apierr.ErrThrottling) ||
		errors.Is(err, apierr.ErrRequestLimitExceeded) || errors.Is(err, apierr.ErrInternalServer)
}

// cancellationCode is the CancellationReason code of a transaction's
// action refused with err, or "" when err fails the whole call.
func cancellationCode(err error) string {
	switch {
	case errors.Is(err, apierr.ErrTransactionConflict):
		return "TransactionConflict"
	case errors.Is(err, apierr.ErrConditionalCheckFailed):
		return "ConditionalCheckFailed"
	case errors.Is(err, apierr.ErrProvisionedThroughputExceeded):
		return "ProvisionedThroughputExceeded"
	case errors.Is(err, apierr.ErrThrottling):
		return "ThrottlingError"
	}
	return ""
}
