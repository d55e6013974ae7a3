package emulator

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/lag"
	"github.com/dynamoemu/dynamoemu/internal/faults"
)

// fieldNames lists a struct type's exported fields.
func fieldNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() {
			out = append(out, f.Name)
		}
	}
	return out
}

// TestPublicTypesMirrorInternal: the package's own types carry every
// field of the internal ones they stand for, so that a field added
// there is not silently dropped here. (The report's types are one
// declaration, package report's, and need no mirror.)
func TestPublicTypesMirrorInternal(t *testing.T) {
	tests := []struct {
		name          string
		public, inner any
	}{
		{"FaultRule", FaultRule{}, faults.Rule{}},
		{"FaultRuleStats", FaultRuleStats{}, faults.RuleStats{}},
		{"FaultStats", FaultStats{}, faults.Stats{}},
		{"LagSetting", LagSetting{}, lag.LagSetting{}},
		{"LagState", LagState{}, lag.LagState{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, fieldNames(reflect.TypeOf(tt.inner)), fieldNames(reflect.TypeOf(tt.public)))
		})
	}
	// The event log's operation is Op inside, Operation here.
	inner, public := fieldNames(reflect.TypeOf(faults.Event{})), fieldNames(reflect.TypeOf(FaultEvent{}))
	for i, n := range inner {
		if n == "Op" {
			inner[i] = "Operation"
		}
	}
	require.Equal(t, inner, public, "FaultEvent")
}

// TestFaultRuleRoundTrip: a rule with every field set survives the trip
// to the injector's form and back, and an unknown kind is refused.
func TestFaultRuleRoundTrip(t *testing.T) {
	r := FaultRule{Name: "n", Table: "t", Index: "i", Operations: []string{"GetItem"},
		PartitionKey: "pk", PartitionKeyPrefix: "p", SortKey: "sk", SortKeyPrefix: "s",
		Probability: 0.5, Every: 2, Count: 3, Fault: FaultThrottling, Delay: time.Millisecond, Message: "m"}
	require.Equal(t, r, faultRuleOf(r.internal()))
	for _, k := range []FaultKind{FaultTransactionConflict, FaultTransactionInProgress, FaultConditionalCheckFailed,
		FaultInternalServerError, FaultRequestLimitExceeded, FaultThrottling, FaultProvisionedThroughputExceeded, FaultDelay} {
		got, ok := faults.KindOf(string(k))
		require.True(t, ok, "kind %s", k)
		require.Equal(t, string(k), got.String())
	}

	e, err := New(Options{})
	require.NoError(t, err)
	defer e.Close()
	require.Error(t, e.Faults().SetRules(1, []FaultRule{{Fault: "NoSuchFault"}}))
	require.False(t, e.Faults().Active())
}
