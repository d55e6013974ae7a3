package readparams

import (
	"iter"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// EnumComparisonOp is the ComparisonOperator enum of AWS's model, in the
// order AWS lists it in a constraint violation (dynalite's tests, taken
// from AWS's answers: "Member must satisfy enum value set: [IN, NULL,
// BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE,
// CONTAINS]").
const EnumComparisonOp = "IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS"

// ComparisonOpViolation is the member constraint violation of an unknown
// ComparisonOperator in one of the legacy condition maps (param is its
// lower-camel wire name: keyConditions, queryFilter, scanFilter,
// expected), or "". AWS answers it as a model constraint ("Value 'DOG'
// at 'queryFilter.i.member.comparisonOperator' failed to satisfy
// constraint: Member must satisfy enum value set: [...]"): ScyllaDB's
// AWS-verified test_query_filter.py (test_query_filter_unknown_operator)
// and test_key_conditions.py expect "comparison" in lower case there,
// dynalite's AWS-derived tests give the path and the set. DynamoDB Local
// answers "Comparison type does not exist in DynamoDB". The attributes
// are taken in name order, so one answer is the same every time.
//
// No conditions (every write without Expected) returns before the
// iterator is made: its closure escapes to the heap, an allocation every
// PutItem would pay (BenchmarkOps/PutItem/handler's allocs/op).
func ComparisonOpViolation[C any](param string, conds map[string]C, op func(C) string) string {
	if len(conds) == 0 {
		return ""
	}
	return ComparisonOpViolationOf(param, func(yield func(string, string) bool) {
		for n, c := range conds {
			if !yield(n, op(c)) {
				return
			}
		}
	})
}

// ComparisonOpViolationOf is ComparisonOpViolation of conditions given
// as (attribute, operator) pairs in any order: a list (Query's
// KeyConditions, wire.KeyConditions.Ops) as well as a map.
func ComparisonOpViolationOf(param string, ops iter.Seq2[string, string]) string {
	name, bad, found := "", "", false
	for n, v := range ops {
		if v != "" && !apierr.EnumContains(EnumComparisonOp, v) && (!found || n < name) {
			name, bad, found = n, v, true
		}
	}
	if !found {
		return ""
	}
	return apierr.Violation(apierr.Quote(bad), param+"."+name+".member.comparisonOperator",
		apierr.EnumConstraint(EnumComparisonOp))
}
