package readparams

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Pagination at an inclusive bound. When a key condition has an inclusive
// bound at the end of the walk (sk <= :b or BETWEEN's upper bound going
// forward, sk >= :b or BETWEEN's lower bound going backward), the item at
// that bound is the last one the condition can match. DynamoDB Local, AWS's
// own implementation of the query engine, then:
//
//   - answers without LastEvaluatedKey when a page stops (Limit or the 1 MB
//     page size) exactly on that item: the query is exhausted;
//   - refuses that key as ExclusiveStartKey: "The provided starting key does
//     not match the range key predicate";
//   - answers without LastEvaluatedKey when a page of a table without a sort
//     key stops on its item (pk = :p matches one item at most).
//
// The two rules go together: a client that paginates is never refused the
// key it was given. AWS documents only that an absent LastEvaluatedKey
// means the last page; the emulator follows DynamoDB Local's rule.
// An equality (sk = :v) is not treated as a range, as DynamoDB Local does not:
// its page keeps LastEvaluatedKey and accepts it back.

// InclusiveEnd returns the sort key value at which the condition's range
// ends inclusively in the walk's direction, if it has one.
func InclusiveEnd(kc *expr.KeyCondition, forward bool) (storage.Value, bool) {
	s := kc.Sort
	switch {
	case s.Op == storage.SortLE && forward:
		return s.Values[0], true
	case s.Op == storage.SortGE && !forward:
		return s.Values[0], true
	case s.Op == storage.SortBetween && forward:
		return s.Values[1], true
	case s.Op == storage.SortBetween && !forward:
		return s.Values[0], true
	}
	return storage.Value{}, false
}

// AtInclusiveEnd reports whether k sits on the condition's inclusive end.
func AtInclusiveEnd(kc *expr.KeyCondition, forward bool, k storage.Key) bool {
	end, ok := InclusiveEnd(kc, forward)
	if !ok {
		return false
	}
	c, comparable := storage.Compare(k.Sort, end)
	return comparable && c == 0
}

// CheckStartBeforeEnd refuses an ExclusiveStartKey on the inclusive end of
// the key condition: nothing can follow it.
func CheckStartBeforeEnd(kc *expr.KeyCondition, forward bool, start storage.Key) error {
	if AtInclusiveEnd(kc, forward, start) {
		return apierr.Validation(apierr.MsgStartKeyRangePred)
	}
	return nil
}

// QueryExhausted reports whether a page that stopped on last has nothing
// after it: the last key the condition can match, or the one item of a
// partition of a table without a sort key.
func QueryExhausted(ks storage.KeySchema, kc *expr.KeyCondition, forward bool, last storage.Key) bool {
	return !ks.HasSort() || AtInclusiveEnd(kc, forward, last)
}
