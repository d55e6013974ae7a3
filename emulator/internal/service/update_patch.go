package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// UpdateItem on the stored record. The map path (updateItem's Write)
// decodes the whole item into a map, applies the update to a copy of it,
// sizes the copy and encodes it whole again. Most updates name a few
// attributes of many; this path decodes only the attributes the update
// and the condition read (expr.Update.Reads, expr.Condition.Reads), applies
// the update to those (which gives the same values for the attributes it
// writes: expr/update_reads.go), and hands the new values of the written
// attributes to storage.WritePatch, which copies the others as bytes. The
// item's size is the stored size less the written attributes' old sizes
// plus their new ones. Answers, errors and their order are the map path's;
// TestUpdatePatchMatchesMap holds the two together.
//
// The path is taken when nothing needs the whole item: no WriteChecker
// stage (it sees whole items), no secondary or vector index (their
// key checks and write capacity read both images whole), and ReturnValues
// NONE or UPDATED_* (which project the written paths, all among the
// attributes decoded). ALL_OLD on a failed condition decodes the item
// then.

// canPatch reports whether the update of t can take the patch path.
func canPatch(t *table, upd *expr.Update, returnValues string, wc WriteCheck) bool {
	if upd == nil || wc != NoWriteCheck {
		return false
	}
	switch returnValues {
	case "", returnNone, returnUpdatedOld, returnUpdatedNew:
	default:
		return false
	}
	m := t.meta.Load()
	return len(m.GSIs) == 0 && len(m.LSIs) == 0 && len(m.Vectors) == 0
}

// patchUpdate is updateItem's write on the patch path: it returns the
// Change, the new item's size and the update's old and new values of the
// attributes read (for UPDATED_OLD and UPDATED_NEW), which are sc's maps
// (update_scratch.go).
func (t *table) patchUpdate(key storage.Key, upd *expr.Update, cond *expr.Condition, rvoccf string, sc *patchScratch) (ch storage.Change, newSize int, old, next storage.Item, err error) {
	var buf [8]string
	reads := mergeSorted(buf[:0], upd.Reads(), cond)
	ch, err = t.data.WritePatch(key, upd.SortedAttributes(), func(enc storage.EncodedItem, found bool) (storage.Item, error) {
		old, next = nil, nil
		clear(sc.old)
		clear(sc.next)
		var start storage.Item
		var base int
		if found {
			old = enc.AttributesInto(sc.old, reads)
			start, base = old, enc.Size()
		} else {
			start = t.schema.KeyItem(key)
			base = storage.ItemSize(start)
		}
		// As updatedItem and updateItem's callback, in their order.
		var size int
		next, size, err = t.patchedItem(upd, start, base, sc.next)
		if err == nil {
			err = checkUpdateSize(upd, old, size) // old holds what an ADD's target had
		}
		if isUpdateTooLarge(err) {
			return nil, err
		}
		if cerr := checkConditionPatch(cond, old, found, enc, rvoccf); cerr != nil {
			newSize = size // charged when the condition refuses the write (pipeline_condfail.go)
			return nil, cerr
		}
		if !found && upd.OnlyRemoves() {
			next = nil                     // the item stays absent
			return nil, storage.ErrNoWrite // AWS does not create the item (expr.Update.OnlyRemoves)
		}
		newSize = size
		return next, err
	})
	return ch, newSize, old, next, err
}

// patchedItem is updatedItem on the attributes start holds of an item of
// size base: the update applied (into out, an empty map), its nesting and
// index keys checked, and the item's size afterwards.
func (t *table) patchedItem(upd *expr.Update, start storage.Item, base int, out storage.Item) (storage.Item, int, error) {
	next, err := upd.ApplyInto(out, start)
	if err != nil {
		return nil, 0, err
	}
	if err := checkUpdatedNesting(upd, next); err != nil {
		return nil, 0, err
	}
	if err := t.checkIndexKeys(next, true); err != nil {
		return nil, 0, err
	}
	size := base
	for _, name := range upd.SortedAttributes() {
		if v, ok := start[name]; ok {
			size -= len(name) + storage.ValueSize(v)
		}
		if v, ok := next[name]; ok {
			size += len(name) + storage.ValueSize(v)
		}
	}
	if size > maxItemBytes {
		return nil, 0, apierr.Validation(apierr.MsgUpdatedItemTooLarge)
	}
	return next, size, nil
}

// checkConditionPatch is checkCondition on the attributes old holds of
// the stored item enc (found: else there is none); the item is decoded
// whole only for ALL_OLD on a failed condition.
func checkConditionPatch(cond *expr.Condition, old storage.Item, found bool, enc storage.EncodedItem, rvoccf string) error {
	if cond == nil {
		return nil
	}
	ok, err := cond.Eval(old)
	if err != nil {
		return err
	}
	if ok {
		return nil
	}
	if rvoccf == returnAllOld && found {
		return apierr.ConditionalCheckFailed(enc.Item())
	}
	return apierr.ConditionalCheckFailed(nil)
}

// mergeSorted appends to dst the union of a and, when cond is not nil,
// its Reads (both sorted, distinct), sorted and distinct.
func mergeSorted(dst, a []string, cond *expr.Condition) []string {
	if cond == nil {
		return append(dst, a...)
	}
	b := cond.Reads()
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			dst = append(dst, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			dst = append(dst, b[j])
			j++
		default:
			dst = append(dst, a[i])
			i, j = i+1, j+1
		}
	}
	return dst
}

// updateItemPatched is the rest of updateItem on the patch path.
func updateItemPatched(u *itemUse, t *table, in *UpdateItemInput, key storage.Key, upd *expr.Update, cond *expr.Condition) (*UpdateItemOutput, error) {
	sc := newPatchScratch()
	defer sc.put() // old and next die here: the answer copies what it returns
	change, newSize, old, next, err := t.patchUpdate(key, upd, cond, in.ReturnValuesOnConditionCheckFailure, &sc)
	u.patched(change, newSize, err)
	if err != nil {
		return nil, err // a refusal by the condition is charged by the scope
	}
	out := &UpdateItemOutput{ConsumedCapacity: u.answerCapacity(in.ReturnConsumedCapacity)}
	// The Change has no items: UPDATED_* project the attributes decoded.
	change.Old, change.New = old, next
	out.Attributes = updateReturnValues(in.ReturnValues, upd, change)
	out.ItemCollectionMetrics = u.answerCollection(in.ReturnItemCollectionMetrics)
	return out, nil
}
