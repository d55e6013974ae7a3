package readparams

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestComparisonOpViolation: the first attribute by name whose operator
// AWS's enum lacks is echoed at its member path; known operators and
// absent ones ("") are no violation.
func TestComparisonOpViolation(t *testing.T) {
	op := func(s string) string { return s }
	require.Empty(t, ComparisonOpViolation("scanFilter", map[string]string{"a": "EQ", "b": "", "c": "BEGINS_WITH"}, op))
	require.Empty(t, ComparisonOpViolation("scanFilter", map[string]string(nil), op))
	got := ComparisonOpViolation("queryFilter", map[string]string{"z": "CAT", "i": "DOG", "a": "EQ"}, op)
	require.Equal(t, "Value 'DOG' at 'queryFilter.i.member.comparisonOperator' failed to satisfy constraint: "+
		"Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]", got)
}

// TestComparisonOpViolationNoneAllocates: a request without legacy
// conditions (every PutItem without Expected) costs the check no
// allocation; its iterator's closure escapes when it is made.
func TestComparisonOpViolationNoneAllocates(t *testing.T) {
	op := func(s string) string { return s }
	var none map[string]string
	allocs := testing.AllocsPerRun(100, func() {
		if ComparisonOpViolation("expected", none, op) != "" {
			t.Fatal("a violation of no conditions")
		}
	})
	require.Zero(t, allocs)
}
