package service

import (
	"cmp"
	"errors"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The stages in BatchGetItem and BatchWriteItem: each item is a use of
// its own in a managed scope (pipeline_item.go; bbolt's DB.Batch):
// useBatchItem, and useBatchWrites for the writes begun before the lock.
// An item refused for throughput or by an internal failure goes back in
// UnprocessedKeys or UnprocessedItems, as AWS's references say, the call
// failing with that error only when no item was admitted; any other
// refusal (an injected TransactionConflict, ...) fails the call.

// batchItemUse is a BatchGetItem's use of one key (useBatchItem).
type batchItemUse scope

// useBatchItem runs fn in the use of key k of t as a batch's item (a
// stage may take its units at Begin, so the items after it see them; the
// tenant guard ran when the batch was validated), and ends the use.
func (c *call) useBatchItem(t *table, k storage.Key, acc access.Access, fn func(u *batchItemUse) error) (err error) {
	u, err := c.beginUse(t, useOf{batch: true}, itemKey(t, k), nil, acc)
	if err != nil {
		return err
	}
	s := c.openScope(u, t, k)
	defer s.end(&err)
	return fn((*batchItemUse)(s))
}

// errLeftUnprocessed is useBatchItem's fn's error for a key it left
// unprocessed (past the answer's 16 MB): its use ends refused, uncharged.
var errLeftUnprocessed = errors.New("service: a batch's key left unprocessed past the answer's size")

// answered reports the read of the key: ru units, returned 1 when an item
// was answered.
func (u *batchItemUse) answered(ru float64, returned int) {
	(*scope)(u).endWith(Outcome{ReadUnits: ru, Read: returned, Returned: returned})
}

// batchUses are a BatchWriteItem's uses, per table and write (refusedUse
// for a refused write, nil once ended); nil when nothing watches.
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

// useBatchWrites runs fn with the uses of a BatchWriteItem's writes,
// each put to the stages (beginBatchWrites), and ends, as refused by
// fn's error (or a panic), each that fn did not end (written).
func (c *call) useBatchWrites(tables []batchWriteTable, reqs map[string][]WriteRequest, names []string, out *BatchWriteItemOutput, fn func(uses batchUses) error) (err error) {
	uses, slots, err := c.beginBatchWrites(tables, reqs, names, out)
	s := c.openScope(nil, nil, storage.Key{})
	s.txUses = slots // uses' slots: an ended use's is nil (endActions)
	defer s.endActions(&err)
	if err != nil {
		return err
	}
	return fn(uses)
}

// written ends the use of table ti's write wi (if watched, not refused):
// wu write units, ixUnits those of its indexes.
func (b batchUses) written(ti, wi int, wu float64, ixUnits map[*tablespec.IndexDef]float64) {
	if u := b[ti][wi]; u != nil && u != refusedUse {
		b[ti][wi] = nil
		u.end(Outcome{WriteUnits: wu, IndexUnits: ixUnits})
	}
}

// beginBatchWrites puts each write of a BatchWriteItem to the stages: it
// returns the uses (refusedUse for a write refused, put in out's
// UnprocessedItems; slots: theirs, one array), and the error that
// fails the call.
func (c *call) beginBatchWrites(tables []batchWriteTable, reqs map[string][]WriteRequest, names []string, out *BatchWriteItemOutput) (uses batchUses, slots []*TableUse, err error) {
	var refused error
	processed := false
	for ti, bt := range tables {
		for wi, w := range bt.writes {
			acc := access.Put
			if w.item == nil {
				acc = access.Delete
			}
			u, err := c.beginUse(bt.t, useOf{batch: true}, itemKey(bt.t, w.key), nil, acc)
			if err != nil && !apierr.Unprocessable(err) {
				return uses, slots, err
			}
			if u == nil && err == nil {
				processed = true
				continue
			}
			if uses == nil {
				uses, slots = make(batchUses, len(tables)), make([]*TableUse, 0, maxBatchWrites) // no more: checkBatchWrite
				for i := range uses {
					slots = append(slots, make([]*TableUse, len(tables[i].writes))...)
					uses[i] = slots[len(slots)-len(tables[i].writes):]
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
		return uses, slots, refused
	}
	return uses, slots, nil
}
