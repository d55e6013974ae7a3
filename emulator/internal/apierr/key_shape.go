package apierr

import (
	"errors"
	"hash/crc32"
	"iter"
	"strconv"
)

// Key shape faults and the cancellations of transactions: which faults a
// transaction makes an action's cancellation reason, and the answers
// that list the actions.

// ErrKeyShape marks the ValidationException of a key (or an item's key
// attributes) that does not fit the table's key schema: an attribute
// missing, of another type, or extra. Single-item operations and batches
// answer it as it is; the transactions make it the ValidationError
// cancellation reason of the action that carries it (AWS's answers as
// recorded in paritysuite/dynamodb-conformance,
// tests/tier3/error-messages/transactWriteItems.test.ts and
// transactGetItems.test.ts), where an empty or over-long key value stays a
// request-level ValidationException. A secondary index key value of
// another type is one too (transactIndexKeys.test.ts in that suite's
// history, captured against AWS), and so is one over the index key limits
// (2048 bytes hash, 1024 range): AWS's API reference lists among the
// cancellation reasons "a similar validation error occurs because of
// changes made by the transaction" (API_TransactWriteItems), no record of
// the answer found; the reason's message is PutItem's.
var ErrKeyShape = errors.New("key does not fit the key schema")

// ErrUpdateIndexKeyEmpty marks the ValidationException of an update that
// sets a secondary index key to an empty value: a transaction's Update
// answers it as a request-level ValidationException, not a cancellation
// reason (AWS's record: dynamodb-conformance transactIndexKeys.test.ts,
// "Update empty-string index key: top-level ValidationException").
var ErrUpdateIndexKeyEmpty = errors.New("update sets an index key to an empty value")

// KeyShape is the ValidationException msg, marked as a key shape fault.
func KeyShape(msg string) error {
	return &Error{Class: ErrValidation, Msg: msg, Cause: ErrKeyShape}
}

// KeyShapeReason is the cancellation reason of a key shape fault, and
// whether err is one.
func KeyShapeReason(err error) (CancellationReason, bool) {
	var ae *Error
	if !errors.Is(err, ErrKeyShape) || !errors.As(err, &ae) {
		return CancellationReason{}, false
	}
	return CancellationReason{Code: ReasonValidation, Message: ae.Msg}, true
}

// CancelForReasons is the TransactionCanceledException of n actions of
// which those in found have a validation fault, or nil when found is
// empty. Validation stops at the first fault: that action's reason is
// reported and every other action gets None, even one whose own key is
// wrong too (AWS's answer [ValidationError, None, None] for two wrong
// keys then a false condition: scylladb test/alternator/test_transact.py,
// test_transact_write_cancellation_reasons_validationerror).
func CancelForReasons(n int, found map[int]CancellationReason) error {
	if len(found) == 0 {
		return nil
	}
	first := n
	for i := range found {
		first = min(first, i)
	}
	reasons := make([]CancellationReason, n)
	for i := range reasons {
		reasons[i].Code = ReasonNone
	}
	reasons[first] = found[first]
	return TransactionCanceled(reasons)
}

// TransactItemsLimit is the violation of a TransactItems list longer than
// limit (AWS: 100) entries, or "": AWS echoes the list Java-style, each entry as an
// object identity of its model class (class: "TransactWriteItem" or
// "TransactGetItem"),
//
//	Value '[com.amazonaws.dynamodb.v20120810.TransactWriteItem@6d3a1f0b, ...]' at 'transactItems'
//	failed to satisfy constraint: Member must have length less than or equal to 100
//
// (the form recorded in paritysuite/dynamodb-conformance,
// tests/tier3/error-messages/transactWriteItems.test.ts, matches
// "Value '[...]' at 'transactItems'"; DynamoDB Local answers the bare
// constraint). The emulator prints a stable hash of each position in
// place of an identity.
func TransactItemsLimit(n, limit int, class string) string {
	if n <= limit {
		return ""
	}
	return join(TransactItemsLimitPieces(n, limit, class))
}

// TransactItemsLimitPieces is TransactItemsLimit in pieces, for
// Constraints.AddLong, or nil: with tens of thousands of actions the
// echo is as large as the request, and is written once, into the
// answer's body.
func TransactItemsLimitPieces(n, limit int, class string) iter.Seq[string] {
	if n <= limit {
		return nil
	}
	echo := CapEcho(func(yield func(string) bool) {
		id := "com.amazonaws.dynamodb.v20120810." + class + "@"
		sep := ", " + id
		crcClass := crc32.ChecksumIEEE([]byte(class))
		var digits [20]byte
		if !yield("[" + id) {
			return
		}
		for i := range n {
			if i > 0 && !yield(sep) {
				return
			}
			// The hash of class followed by i's digits.
			crc := crc32.Update(crcClass, crc32.IEEETable, strconv.AppendInt(digits[:0], int64(i), 10))
			if !yield(strconv.FormatUint(uint64(crc), 16)) {
				return
			}
		}
		yield("]")
	})
	return func(yield func(string) bool) {
		if !yield("Value '") {
			return
		}
		for p := range echo {
			if !yield(p) {
				return
			}
		}
		yield("' at 'transactItems' failed to satisfy constraint: " + LenLE(limit))
	}
}
