package tablespec

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The rules of a table's key values, a function of its key schema alone:
// what every key value obeys, what a key condition may compare keys
// with, and that an update leaves the key attributes alone. The service
// and PartiQL's statements apply them alike.

// CheckKeyValue applies the rules every key value obeys once its type is
// right: S and B non-empty, at most MaxPartitionKeyBytes (partition) or
// MaxSortKeyBytes (sort). name is the key attribute's.
func CheckKeyValue(name string, v storage.Value, partition bool) error {
	if v.Kind() == storage.KindN {
		return nil // canonical numbers are far below the limits
	}
	n := len(v.Str())
	switch {
	case n == 0 && v.Kind() == storage.KindS:
		return apierr.Validationf(apierr.MsgKeyEmptyString, name)
	case n == 0:
		return apierr.Validationf(apierr.MsgKeyEmptyBinary, name)
	case partition && n > MaxPartitionKeyBytes:
		return apierr.Validation(apierr.MsgHashKeyTooLong)
	case !partition && n > MaxSortKeyBytes:
		return apierr.Validation(apierr.MsgRangeKeyTooLong)
	}
	return nil
}

// CheckKeyConditionValues applies CheckKeyValue to the values a key
// condition on key schema ks compares keys with.
func CheckKeyConditionValues(kc *expr.KeyCondition, ks storage.KeySchema) error {
	if err := CheckKeyValue(ks.Partition.Name, kc.Partition, true); err != nil {
		return err
	}
	n := 0
	switch kc.Sort.Op {
	case storage.SortAny:
	case storage.SortBetween:
		n = 2
	default:
		n = 1
	}
	for _, v := range kc.Sort.Values[:n] {
		if err := CheckKeyValue(ks.Sort.Name, v, false); err != nil {
			return err
		}
	}
	return nil
}

// CheckKeyNotUpdated refuses an update (nil: none) that sets or removes
// a key attribute of key schema ks.
func CheckKeyNotUpdated(ks storage.KeySchema, upd *expr.Update) error {
	if upd == nil {
		return nil
	}
	for _, name := range upd.Attributes() {
		if name == ks.Partition.Name || (ks.HasSort() && name == ks.Sort.Name) {
			return apierr.Validationf(apierr.MsgCannotUpdateKey, name)
		}
	}
	return nil
}
