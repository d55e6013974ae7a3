package service

import (
	"errors"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/capacity"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A write refused by its condition is charged and counted.
//
// AWS's developer guide, "Capacity units consumed by conditional writes"
// (WorkingWithItems.html#WorkingWithItems.ConditionalWrites.ReturnConsumedCapacity):
// "If a ConditionExpression evaluates to false during a conditional write,
// DynamoDB still consumes write capacity from the table": one unit when
// the item does not exist, else by the item's size. Its "Read and write
// operations" page (read-write-operations.html) says which item: "This
// item can be an existing item in the table or a new one you're attempting
// to create or update. For example, say that an existing item is 300 KB.
// The new item you're trying to create or update is 310 KB. The write
// capacity units consumed will be 310 KB for the new item": the larger of
// the two, as a successful write, at least one unit. So the stages' End
// hears of the units (a loop of failing optimistic-locking retries on a
// table with little capacity runs out of it as on AWS), with the request
// and its key. Writes consume no read
// units, failed or not.
//
// The ConditionalCheckFailedException body carries no ConsumedCapacity,
// whatever ReturnConsumedCapacity asks: its shape in the API reference
// (and every SDK's model) has only message and Item.
//
// A PartiQL INSERT over an existing item (DuplicateItemException) is a
// write refused by its condition that the item not exist, and is charged
// the same way; AWS documents no separate rule for it.
//
// The existing item's size is read after the refusal (the write's callback
// does not hand it out): a write to the same item in between would make
// the charge that item's, which only concurrent writers to one key can
// see. Nothing here runs when no hook watches the write (u is nil).

// endRefused ends u for a write to key that failed with err: when err is
// a refusal by the write's condition, u is charged and recorded as a write
// of the larger of newSize (the item the write would have stored, 0 for a
// delete or when unknown) and the existing item. Any other error leaves u
// as it is (no use is charged for a request that failed validation or
// that a stage refused). Nil-safe.
func (u *TableUse) endRefused(err error, key storage.Key, newSize int) {
	if u == nil || !conditionRefused(err) {
		return
	}
	old := 0
	if e, ok := u.t.data.GetEncoded(key); ok {
		old = e.Size()
	}
	u.end(Outcome{WriteUnits: capacity.WriteUnits(max(newSize, old))})
}

// conditionRefused reports whether err refuses a write by its condition.
func conditionRefused(err error) bool {
	return errors.Is(err, apierr.ErrConditionalCheckFailed) || errors.Is(err, apierr.ErrDuplicateItem)
}

// endTxCancelled ends the uses of a write transaction cancelled after its
// actions were evaluated: each admitted action is charged what it would
// have cost. The transactions guide's capacity section says a
// transactional write performs two underlying writes per item (prepare and
// commit); the most specific record of a cancelled transaction is the
// "Read and write operations" page as fetched and quoted by a public design
// note (actingweb, 2026): "This capacity is consumed even when the
// transaction is canceled (for example, because a condition check
// fails)". AWS's transaction reference states no other rule. So a
// ConditionCheck is charged as when it passes, and a write as a
// transactional write of the larger of its current item and the item it
// would have written (its Put, or its Update when the update was computed).
func endTxCancelled(uses []*TableUse, acts []*txAction) {
	for i, u := range uses {
		if u == nil {
			continue
		}
		a := acts[i]
		if a.kind == txCheck {
			u.end(Outcome{ReadUnits: capacity.TxReadUnits(a.cur)})
			continue
		}
		size := a.cur
		switch {
		case a.kind == txPut:
			size = max(size, a.size)
		case a.kind == txUpdate && a.item != nil:
			size = max(size, storage.ItemSize(a.item))
		}
		u.end(Outcome{WriteUnits: capacity.TxWriteUnits(size)})
	}
}
