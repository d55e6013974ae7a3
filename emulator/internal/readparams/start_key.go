package readparams

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// CheckStartKeyShape checks that a Query's ExclusiveStartKey names the
// table's key attributes, no other, each of its type: "The provided
// starting key is invalid" for a missing or extra attribute, "The provided
// key element does not match the schema" for a wrong type (dynalite's
// AWS-derived tests).
func CheckStartKeyShape(ks storage.KeySchema, esk storage.Item) error {
	attrs := []storage.KeyAttr{ks.Partition}
	if ks.HasSort() {
		attrs = append(attrs, ks.Sort)
	}
	if len(esk) != len(attrs) {
		return apierr.Validation(apierr.MsgStartKeyInvalid)
	}
	for _, a := range attrs {
		v, ok := esk[a.Name]
		if !ok {
			return apierr.Validation(apierr.MsgStartKeyInvalid)
		}
		if v.Kind() != a.Kind {
			return apierr.Validation(apierr.MsgKeySchemaMismatch)
		}
	}
	return nil
}

// NoSortKeyStart is AWS's answer to a Query of a table without a sort key
// that has an ExclusiveStartKey k, whichever partition k names: such a
// partition holds one item, and nothing follows it. The message shows the
// key: "The provided exclusive start key is invalid: ExclusiveStartKey:
// {pk=AttributeValue: {S:a}}" (ScyllaDB Alternator's test_query.py
// test_query_no_sort_key_exclusive_start_key, run against AWS).
func NoSortKeyStart(ks storage.KeySchema, k storage.Key) error {
	return apierr.Validationf(apierr.MsgStartKeyNoSortKey, ks.Partition.Name, expr.DescribeValue(k.Partition))
}
