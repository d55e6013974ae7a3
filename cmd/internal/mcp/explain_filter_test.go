package mcp

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestKeyedByFilter: explain on a Scan filtered on an index's partition
// key names that index (and the table, for the table's key); a filter
// whose test is under OR or NOT, on another attribute, or not = to a
// value names none.
func TestKeyedByFilter(t *testing.T) {
	var d tableDesc
	require.NoError(t, json.Unmarshal([]byte(`{"TableName":"Orders",
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"GlobalSecondaryIndexes":[{"IndexName":"byStatus","KeySchema":[{"AttributeName":"status","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`), &d))
	for _, tc := range []struct{ req, want string }{
		{`{"FilterExpression":"#s = :s","ExpressionAttributeNames":{"#s":"status"}}`, "GSI byStatus (partition key status)"},
		{`{"FilterExpression":"(total > :t) AND (:s = #s)","ExpressionAttributeNames":{"#s":"status"}}`, "GSI byStatus"},
		{`{"FilterExpression":"pk = :p"}`, "a Query of the table (partition key pk)"},
		{`{"FilterExpression":"#s = :s OR total > :t","ExpressionAttributeNames":{"#s":"status"}}`, ""},
		{`{"FilterExpression":"NOT #s = :s","ExpressionAttributeNames":{"#s":"status"}}`, ""},
		{`{"FilterExpression":"#s <> :s","ExpressionAttributeNames":{"#s":"status"}}`, ""},
		{`{"FilterExpression":"other = :s"}`, ""},
		{`{"FilterExpression":"#s = #s","ExpressionAttributeNames":{"#s":"status"}}`, ""},
		{`{"FilterExpression":"= broken"}`, ""},
		{`{}`, ""},
	} {
		got := keyedByFilter(&d, json.RawMessage(tc.req))
		if tc.want == "" {
			require.Empty(t, got, tc.req)
		} else {
			require.Contains(t, got, tc.want, tc.req)
		}
	}
}
