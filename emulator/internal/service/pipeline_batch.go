package service

import (
	"cmp"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The stages (stage.go) in BatchGetItem and BatchWriteItem
// (stage.go): each item is a use of its own. An item a
// stage refuses for throughput or by an internal failure goes back in
// UnprocessedKeys or UnprocessedItems, as AWS's references say, and the
// call fails with that error only when no item was admitted; any other
// refusal (an injected TransactionConflict, ConditionalCheckFailed)
// fails the call.

// refusedUse marks an item of a batch that was refused.
var refusedUse = &TableUse{}

// beginBatchItem is the pipeline's per-item stage of a batch: the
// stages' Begin for one item (the tenant guard ran when the batch was
// validated), as a batch's item (a stage may take its units at once,
// so that the items after it in the same batch see the capacity it
// used); endBatchItem ends it.
func (c *call) beginBatchItem(t *table, k storage.Key, acc access.Access) (*TableUse, error) {
	return c.beginUse(t, useOf{batch: true}, itemKey(t, k), nil, acc)
}

// endBatchItem is end for one item of a batch: returned is 1 when an
// item was read. Nil-safe.
func (u *TableUse) endBatchItem(ru, wu float64, ixUnits map[*tablespec.IndexDef]float64, returned int) {
	u.end(Outcome{ReadUnits: ru, WriteUnits: wu, IndexUnits: ixUnits, Read: returned, Returned: returned})
}

// batchUses are a BatchWriteItem's uses, per table and write (refusedUse
// for a refused write); nil when nothing watches.
type batchUses [][]*TableUse

// ofTable returns the uses of table ti's writes (nil: none watched).
func (b batchUses) ofTable(ti int) []*TableUse {
	if b == nil {
		return nil
	}
	return b[ti]
}

// capMode is the capacity mode the batch's writes report in: the
// request's, or INDEXES when its uses are watched (TableUse.capMode).
func (b batchUses) capMode(mode string) string {
	if b == nil {
		return mode
	}
	return watchedCapMode(mode)
}

// beginBatchWrites decides each write of a BatchWriteItem through the
// pipeline's per-item stage: it returns the uses per table and write
// (refusedUse for a refused write, which it puts in out's
// UnprocessedItems; nil when nothing watches), or the error that fails
// the call.
func (c *call) beginBatchWrites(tables []batchWriteTable, reqs map[string][]WriteRequest, names []string, out *BatchWriteItemOutput) (batchUses, error) {
	var uses batchUses
	var refused error
	processed := false
	for ti, bt := range tables {
		for wi, w := range bt.writes {
			acc := access.Put
			if w.item == nil {
				acc = access.Delete
			}
			u, err := c.beginBatchItem(bt.t, w.key, acc)
			if err != nil && !apierr.Unprocessable(err) {
				return nil, err
			}
			if u == nil && err == nil {
				processed = true
				continue
			}
			if uses == nil {
				uses = make([][]*TableUse, len(tables))
				for i := range uses {
					uses[i] = make([]*TableUse, len(tables[i].writes))
				}
			}
			if err != nil {
				refused = cmp.Or(refused, err)
				uses[ti][wi] = refusedUse
				name := names[ti]
				out.UnprocessedItems[name] = append(out.UnprocessedItems[name], reqs[name][wi])
				continue
			}
			processed = true
			uses[ti][wi] = u
		}
	}
	if refused != nil && !processed {
		return nil, refused
	}
	return uses, nil
}
