package service

import (
	"errors"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// UpdateItem's item size limit. UpdateItem refuses, with "Item size to
// update has exceeded the maximum allowed size", an update whose resulting
// item is over 400 KB, or whose statement figure (expr.Update.
// StatementCharge: what the UpdateExpression writes plus a cost per
// clause, the key attributes and untouched attributes left out) is: with
// a short key an item PutItem would take can be too large for UpdateItem.
// The check comes before the ConditionExpression is evaluated: an
// over-size update whose condition fails answers the size error. A
// transaction's Update and PartiQL's UPDATE are measured on the resulting
// item alone, as PutItem is. The figures are AWS's as measured by
// paritysuite/dynamodb-conformance (expr/update_accounting.go names them);
// AWS documents only the 400 KB.

// checkUpdateSize applies the accounting to an update of the item cur
// (nil: absent) whose result is size bytes.
func checkUpdateSize(upd *expr.Update, cur storage.Item, size int) error {
	if size > maxItemBytes || upd.StatementCharge(cur) > maxItemBytes {
		return apierr.Validation(apierr.MsgUpdatedItemTooLarge)
	}
	return nil
}

// isUpdateTooLarge reports whether err is UpdateItem's size refusal.
func isUpdateTooLarge(err error) bool {
	if err == nil {
		return false // before ae, which escapes: no allocation per update
	}
	var ae *apierr.Error
	return errors.As(err, &ae) && ae.Msg == apierr.MsgUpdatedItemTooLarge
}
