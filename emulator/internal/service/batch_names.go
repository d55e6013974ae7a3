package service

import (
	"encoding/json"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// AWS's answers to a batch whose RequestItems map names a table that is no
// valid table name (or ARN), or holds nothing, as recorded against AWS in
// paritysuite/dynamodb-conformance (tests/tier3/error-messages/
// batchGetItem.test.ts, batchWriteItem.test.ts, validation-ordering/
// batchOperations.test.ts). DynamoDB Local answers "Invalid table/index
// name. ..." and its own sentences instead.

// mapKeysConstraint is the constraint AWS reports for a RequestItems key
// that is no table name: all three name rules, listed in AWS's order.
// It is worded when needed, not at the server's start.
func mapKeysConstraint() string {
	return "Map keys must satisfy constraint: [" + apierr.LenLE(255) + ", " + apierr.LenGE(3) + ", " + apierr.NamePatternConstraint + "]"
}

// badRequestItemsName reports whether one of names is neither a table name
// nor a table ARN.
func badRequestItemsName[V any](items map[string]V) bool {
	for name := range items {
		if !tablespec.BatchTableName(name) {
			return true
		}
	}
	return false
}

// batchGetNamesConstraint is the violation of a BatchGetItem RequestItems
// map with a malformed table name, or "": AWS echoes the map as JSON (cut
// at apierr.MaxEcho, as no record shows AWS's answer for a long one),
//
//	Value '{"bad!name":{"Keys":[{"pk":{"S":"a"}}]}}' at 'requestItems' failed to satisfy
//	constraint: Map keys must satisfy constraint: [...]
func batchGetNamesConstraint(items map[string]*KeysAndAttributes) string {
	if !badRequestItemsName(items) {
		return ""
	}
	echo, err := json.Marshal(items)
	if err != nil {
		echo = []byte("{}")
	}
	return apierr.Violation(apierr.Quote(apierr.CapEchoText(string(echo))), "requestItems", mapKeysConstraint())
}

// batchWriteNamesConstraint is the violation of a BatchWriteItem
// RequestItems map with a malformed table name, or "": the map echoed
// Java-style, as for a table with too many requests.
func batchWriteNamesConstraint(in *BatchWriteItemInput) string {
	if !badRequestItemsName(in.RequestItems) {
		return ""
	}
	return apierr.Violation(apierr.Quote(apierr.CapEchoText(writeRequestsEcho(in))), "requestItems", mapKeysConstraint())
}

// batchGetEmptyConstraint is the violation of RequestItems {} of a
// BatchGetItem, in the wording of AWS's validation framework (no echo,
// the member in PascalCase), which AWS answers in us-east-1 since 2026-09
// (the older sentence "The requestItems parameter is required for
// BatchGetItem" is kept by BatchWriteItem, which most regions still
// answer).
func batchGetEmptyConstraint(items map[string]*KeysAndAttributes) string {
	if items == nil || len(items) > 0 {
		return ""
	}
	return apierr.Violation("", "RequestItems", apierr.LenGE(1))
}
