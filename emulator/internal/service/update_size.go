package service

import (
	"errors"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/expr"
	"github.com/dynamoemu/dynamoemu/storage"
)

// UpdateItem's item size limit. UpdateItem refuses, with "Item size to
// update has exceeded the maximum allowed size", an update whose resulting
// item is over 400 KB, or whose resulting item less its key attributes plus
// the update's charges (expr.Update.SizeCharge) is: with a short key an
// item PutItem would take can be too large for UpdateItem. The check comes
// before the ConditionExpression is evaluated: an over-size update whose
// condition fails answers the size error. A transaction's Update and
// PartiQL's UPDATE are measured on the resulting item alone, as PutItem is.
// The figures are AWS's as captured against DynamoDB by other projects
// (expr.Update.SizeCharge names them); AWS documents only the 400 KB.

// checkUpdateSize applies the accounting to an update of the item with
// key whose result is size bytes.
func (t *table) checkUpdateSize(key storage.Key, upd *expr.Update, size int) error {
	if size-t.keyBytes(key)+upd.SizeCharge() > maxItemBytes {
		return apierr.Validation(apierr.MsgUpdatedItemTooLarge)
	}
	return nil
}

// keyBytes is the size of the key attributes of key, names included.
func (t *table) keyBytes(key storage.Key) int {
	n := len(t.schema.Partition.Name) + storage.ValueSize(key.Partition)
	if t.schema.HasSort() {
		n += len(t.schema.Sort.Name) + storage.ValueSize(key.Sort)
	}
	return n
}

// isUpdateTooLarge reports whether err is UpdateItem's size refusal.
func isUpdateTooLarge(err error) bool {
	if err == nil {
		return false // before ae, which escapes: no allocation per update
	}
	var ae *apierr.Error
	return errors.As(err, &ae) && ae.Msg == apierr.MsgUpdatedItemTooLarge
}
