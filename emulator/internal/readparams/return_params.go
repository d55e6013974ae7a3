package readparams

import "github.com/dynamoemu/dynamoemu/emulator/internal/apierr"

// The Return... parameters every data-plane operation may carry beside
// its own: what to answer with, checked with AWS's constraint messages.

// ReturnConsumedCapacityViolation is the violation of a
// ReturnConsumedCapacity value ("" for none: INDEXES, TOTAL, NONE or
// absent).
func ReturnConsumedCapacityViolation(mode string) string {
	switch mode {
	case "", "NONE", "TOTAL", "INDEXES":
		return ""
	}
	return apierr.EnumViolation("returnConsumedCapacity", mode, "INDEXES, TOTAL, NONE")
}

// RVOCCFViolation is the violation of a
// ReturnValuesOnConditionCheckFailure value v ("" for none: ALL_OLD,
// NONE or absent); member is the prefix of its constraint path ("" for
// a request's own member).
func RVOCCFViolation(member, v string) string {
	if v == "" {
		return ""
	}
	return apierr.EnumViolation(member+"returnValuesOnConditionCheckFailure", v, "ALL_OLD, NONE")
}
