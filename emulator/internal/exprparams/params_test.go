package exprparams

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// TestCheck walks each rule in AWS's order: the first one broken answers.
func TestCheck(t *testing.T) {
	values := wire.ExpressionValues{":v": {}}
	cases := []struct {
		name string
		p    Params
		want string // "": no error
	}{
		{"nothing", Params{}, ""},
		{"an expression with its maps", Params{Expressions: []string{"ConditionExpression"}, Names: map[string]string{"#n": "n"}, Values: values}, ""},
		{"legacy with an expression", Params{Expressions: []string{"ProjectionExpression", "FilterExpression"}, Legacy: []string{"AttributesToGet", "ScanFilter"}},
			"Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet, ScanFilter} Expression parameters: {ProjectionExpression, FilterExpression}"},
		{"a lone ConditionalOperator", Params{Legacy: []string{"ConditionalOperator"}, LoneConditionalOp: true}, "ConditionalOperator cannot be used without Filter or Expected"},
		{"names without an expression", Params{Names: map[string]string{"#n": "n"}}, "ExpressionAttributeNames can only be specified when using expressions"},
		{"values without the one expression", Params{Values: values, ValueExprs: []string{"ConditionExpression"}},
			"ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null"},
		{"values without either expression", Params{Values: values, ValueExprs: []string{"FilterExpression", "KeyConditionExpression"}},
			"ExpressionAttributeValues can only be specified when using expressions: FilterExpression and KeyConditionExpression are null"},
		{"empty names", Params{Expressions: []string{"UpdateExpression"}, Names: map[string]string{}}, "ExpressionAttributeNames must not be empty"},
		{"empty values", Params{Expressions: []string{"UpdateExpression"}, Values: wire.ExpressionValues{}}, "ExpressionAttributeValues must not be empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.p.Check()
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorContains(t, err, tc.want)
		})
	}
}

// TestAppendExpected: Expected then ConditionalOperator, and whether the
// operator came alone.
func TestAppendExpected(t *testing.T) {
	got, lone := AppendExpected(nil, true, "AND")
	require.Equal(t, []string{"Expected", "ConditionalOperator"}, got)
	require.False(t, lone)
	got, lone = AppendExpected(nil, false, "OR")
	require.Equal(t, []string{"ConditionalOperator"}, got)
	require.True(t, lone)
	got, lone = AppendExpected(nil, false, "")
	require.Empty(t, got)
	require.False(t, lone)
}

// TestValuesNeedValueExpr: values are refused only when every expression
// that may use them is absent.
func TestValuesNeedValueExpr(t *testing.T) {
	f := "a = :v"
	values := wire.ExpressionValues{":v": {}}
	require.NoError(t, ValuesNeedValueExpr(nil))
	require.NoError(t, ValuesNeedValueExpr(values, nil, &f))
	require.ErrorContains(t, ValuesNeedValueExpr(values, nil), "FilterExpression is null")
	require.ErrorContains(t, ValuesNeedValueExpr(values, nil, nil), "FilterExpression and KeyConditionExpression are null")
}
