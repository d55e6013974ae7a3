package emulator

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestStreamRetentionBytes: writes to a stream-enabled table keep its
// records within Options.StreamRetentionBytes; a reader whose position
// the trim horizon passed gets AWS's TrimmedDataAccessException, and a
// reader from the horizon reads on. A deleted table's stream records go
// when the bound needs their room.
func TestStreamRetentionBytes(t *testing.T) {
	const bound = 256 << 10
	e := newTestEmulator(t, Options{StreamRetentionBytes: bound})
	call := func(op, body string) (int, map[string]any) {
		t.Helper()
		target := "DynamoDB_20120810." + op
		if strings.HasPrefix(op, "Streams.") {
			target = "DynamoDBStreams_20120810." + strings.TrimPrefix(op, "Streams.")
		}
		res, out := do(t, e, target, testkit.DefaultAuth, body)
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &m), out)
		return res.StatusCode, m
	}
	create := func(name string) string {
		status, out := call("CreateTable", `{"TableName":"`+name+`","BillingMode":"PAY_PER_REQUEST",
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
			"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}`)
		require.Equal(t, 200, status, out)
		return out["TableDescription"].(map[string]any)["LatestStreamArn"].(string)
	}
	iterator := func(arn, kind string) string {
		status, out := call("Streams.DescribeStream", `{"StreamArn":"`+arn+`"}`)
		require.Equal(t, 200, status, out)
		shard := out["StreamDescription"].(map[string]any)["Shards"].([]any)[0].(map[string]any)["ShardId"].(string)
		status, out = call("Streams.GetShardIterator", `{"StreamArn":"`+arn+`","ShardId":"`+shard+`","ShardIteratorType":"`+kind+`"}`)
		require.Equal(t, 200, status, out)
		return out["ShardIterator"].(string)
	}
	write := func(table string, n int) {
		pad := strings.Repeat("x", 1000)
		for i := range n {
			status, out := call("PutItem", fmt.Sprintf(`{"TableName":"%s","Item":{"pk":{"S":"k%d"},"v":{"S":"%s-%d"}}}`, table, i%50, pad, i))
			require.Equal(t, 200, status, out)
			used, max := streamBytes(e)
			require.LessOrEqual(t, used, max, "after write %d", i)
		}
	}
	gone := create("gone")
	write("gone", 100)
	usedGone, _ := streamBytes(e)
	require.Positive(t, usedGone)
	status, out := call("DeleteTable", `{"TableName":"gone"}`)
	require.Equal(t, 200, status, out)

	arn := create("kept")
	early := iterator(arn, "TRIM_HORIZON")
	write("kept", 2000) // about 4 MB of images through a 256 KB bound
	used, max := streamBytes(e)
	require.LessOrEqual(t, used, max)
	require.Greater(t, used, int64(bound/2), "the bound keeps the newest records, not none")

	status, out = call("Streams.GetRecords", `{"ShardIterator":"`+early+`"}`)
	require.Equal(t, 400, status, out)
	require.Equal(t, "com.amazonaws.dynamodb.v20120810#TrimmedDataAccessException", out["__type"])
	require.Contains(t, out["message"], "trimmed")

	status, out = call("Streams.GetRecords", `{"ShardIterator":"`+iterator(arn, "TRIM_HORIZON")+`","Limit":5}`)
	require.Equal(t, 200, status, out)
	require.Len(t, out["Records"], 5)

	// The deleted table's stream kept nothing: its records were the
	// oldest, the first to go.
	status, out = call("Streams.GetRecords", `{"ShardIterator":"`+iterator(gone, "TRIM_HORIZON")+`"}`)
	require.Equal(t, 200, status, out)
	require.Empty(t, out["Records"])
}

// streamBytes returns what e's stream records hold and their bound.
func streamBytes(e *Emulator) (used, bound int64) {
	return e.streamBudget.Used(), e.streamBudget.Max()
}
