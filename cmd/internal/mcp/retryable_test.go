package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// TestRetryable: a tool error DynamoDB answered carries its type and
// whether the same call may succeed if made again: a throttled or
// conflicted call may, a transaction cancelled by a conflict may, a
// validation error or a failed condition may not.
func TestRetryable(t *testing.T) {
	f := newFixture(t, "memory", Options{})
	f.ok("create_table", `{"TableName":"Tab","BillingMode":"PAY_PER_REQUEST","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]}`)
	put := `{"TableName":"Tab","Item":{"pk":{"S":"a"}}}`
	verdict := func(tool, args string) (string, string, bool) {
		t.Helper()
		res, err := f.session.CallTool(testCtx(t), &sdk.CallToolParams{Name: tool, Arguments: jsonArgs(t, args)})
		require.NoError(t, err)
		require.True(t, res.IsError, "%s %s: %v", tool, args, res.Content)
		text := res.Content[0].(*sdk.TextContent).Text
		sc, ok := res.StructuredContent.(map[string]any)
		require.True(t, ok, "%s: no structured content: %#v", tool, res.StructuredContent)
		e := sc["error"].(map[string]any)
		require.Contains(t, text, e["type"].(string))
		return text, e["type"].(string), e["retryable"].(bool)
	}
	for _, tc := range []struct {
		fault, want string
		retry       bool
	}{
		{"Throttling", "ThrottlingException", true},
		{"ProvisionedThroughputExceeded", "ProvisionedThroughputExceededException", true},
		{"RequestLimitExceeded", "RequestLimitExceeded", true},
		{"InternalServerError", "InternalServerError", true},
		{"TransactionConflict", "TransactionConflictException", true},
		{"ConditionalCheckFailed", "ConditionalCheckFailedException", false},
	} {
		f.ok("faults_set", `{"rules":{"rules":[{"table":"Tab","operations":["PutItem"],"fault":"`+tc.fault+`","count":1}]}}`)
		text, typ, retry := verdict("put_item", put)
		require.Equal(t, tc.want, typ, tc.fault)
		require.Equal(t, tc.retry, retry, "%s: %s", tc.fault, text)
		require.Equal(t, tc.retry, strings.Contains(text, "retryable:"), "%s: the text says so: %s", tc.fault, text)
	}
	f.ok("faults_clear", `{}`)
	_, typ, retry := verdict("put_item", `{"TableName":"Tab","Item":{"nokey":{"S":"a"}}}`)
	require.Equal(t, "ValidationException", typ)
	require.False(t, retry)

	f.ok("put_item", put)
	cancel := `{"TransactItems":[{"Put":{"TableName":"Tab","Item":{"pk":{"S":"a"}},"ConditionExpression":"attribute_not_exists(pk)"}}]}`
	_, typ, retry = verdict("transact_write_items", cancel)
	require.Equal(t, "TransactionCanceledException", typ)
	require.False(t, retry, "a transaction cancelled by a failed condition fails again")
	f.ok("faults_set", `{"rules":{"rules":[{"table":"Tab","operations":["TransactWriteItems"],"fault":"TransactionConflict","count":1}]}}`)
	_, typ, retry = verdict("transact_write_items", `{"TransactItems":[{"Put":{"TableName":"Tab","Item":{"pk":{"S":"b"}}}}]}`)
	require.Equal(t, "TransactionCanceledException", typ)
	require.True(t, retry, "a transaction cancelled by a conflict may succeed again")
}

// jsonArgs decodes a tool's arguments.
func jsonArgs(t *testing.T, args string) any {
	t.Helper()
	var a any
	require.NoError(t, json.Unmarshal([]byte(args), &a))
	return a
}
