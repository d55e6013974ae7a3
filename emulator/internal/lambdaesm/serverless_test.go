package lambdaesm

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParseServerless: a service file's DynamoDB stream events become
// mappings by table name, to the function as serverless-offline names
// it, with their settings; ${env:...} comes from the environment or
// .env, ${self:...} and ${opt:stage, ...} from the file; events that
// name no table, or another kind of stream, are left out with a warning.
func TestParseServerless(t *testing.T) {
	maps, warnings, err := ParseServerless("testdata/sls/serverless.yml", func(string) string { return "" })
	require.NoError(t, err)
	require.Len(t, warnings, 2, warnings)
	require.Contains(t, warnings[0], "not a DynamoDB stream")
	require.Contains(t, warnings[1], "names no table")
	got := map[string]string{}
	for _, m := range maps {
		b, err := json.Marshal(m.Spec)
		require.NoError(t, err)
		got[*m.Spec.TableName] = string(b)
	}
	require.Equal(t, map[string]string{
		"local-shop-orders": `{"FunctionName":"shop-local-main","StartingPosition":"TRIM_HORIZON",` +
			`"FilterCriteria":{"Filters":[{"Pattern":"{\"eventName\":[\"INSERT\"]}"}]},"MaximumRetryAttempts":10,"TableName":"local-shop-orders"}`,
		"shop-audit": `{"FunctionName":"audit-fn","StartingPosition":"TRIM_HORIZON","TableName":"shop-audit"}`,
		"shop-invoices": `{"FunctionName":"audit-fn","BatchSize":5,"MaximumBatchingWindowInSeconds":2,"StartingPosition":"LATEST",` +
			`"BisectBatchOnFunctionError":true,"FunctionResponseTypes":["ReportBatchItemFailures"],` +
			`"DestinationConfig":{"OnFailure":{"Destination":"file:///tmp/shop-failures.jsonl"}},"TableName":"shop-invoices"}`,
	}, got)
	for _, m := range maps {
		var st settings
		require.NoError(t, st.apply(&m.Spec, true), m.Function)
	}
}

// TestParseServerlessEnvWins: the environment wins over .env.
func TestParseServerlessEnvWins(t *testing.T) {
	maps, _, err := ParseServerless("testdata/sls/serverless.yml", func(k string) string {
		if k == "SHOP_ORDERS_STREAM" {
			return "arn:aws:dynamodb:us-east-1:000000000000:table/prod-orders/stream/x"
		}
		return ""
	})
	require.NoError(t, err)
	var tables []string
	for _, m := range maps {
		if m.Function == "main" {
			tables = append(tables, *m.Spec.TableName)
		}
	}
	require.Equal(t, []string{"prod-orders"}, tables)
}
