package emulator

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestConventionsDeletedStreamSnapshot: a deleted table's stream read
// back from a snapshot (taken after the DeleteTable, so no definition
// of the table is left in the data directory) is still guarded by that
// table's opt-in (its tags) after a restart, also with a table made
// again under its name without the opt-in: the key bound to tenant002
// is refused DescribeStream and GetShardIterator with the conventions
// layer's AccessDeniedException, the cross-tenant key reads both
// tenants' records.
func TestConventionsDeletedStreamSnapshot(t *testing.T) {
	cfg := &conventions.Config{Callers: map[string]string{"AKIDTENANT002": "tenant002"}, CrossTenant: []string{"AKIDADMIN"}}
	dir := t.TempDir()
	open := func() *Emulator {
		e, err := New(Options{Conventions: cfg, SharedDB: true, DataDir: dir})
		require.NoError(t, err)
		return e
	}
	admin, hostile := testkit.Auth("AKIDADMIN", "us-east-1"), testkit.Auth("AKIDTENANT002", "us-east-1")
	call := func(e *Emulator, auth, op, body string) (int, string) {
		t.Helper()
		res, out := do(t, e, op, auth, body)
		return res.StatusCode, out
	}
	const create = `{"TableName":"orders","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"}`
	e := open()
	code, out := call(e, admin, "DynamoDB_20120810.CreateTable", create+`,"Tags":[{"Key":"`+conventions.TagRoles+`","Value":"command"}]}`)
	require.Equal(t, http.StatusOK, code, out)
	for _, tenant := range []string{"tenant001", "tenant002"} {
		code, out = call(e, admin, "DynamoDB_20120810.PutItem", `{"TableName":"orders","Item":{"pk":{"S":"ORDER#`+tenant+
			`"},"sk":{"S":"ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT2M@1"},"id":{"S":"ORDER#`+tenant+`#ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT2M"},`+
			`"code":{"S":"01HX7MBJK3V9WQBZ7XNDK5ZT2M"},"name":{"S":"o"},"version":{"N":"1"},"tenantCode":{"S":"`+tenant+`"},"type":{"S":"ORDER"}},`+
			`"ConditionExpression":"attribute_not_exists(pk)"}`)
		require.Equal(t, http.StatusOK, code, out)
	}
	code, out = call(e, admin, "DynamoDBStreams_20120810.ListStreams", `{"TableName":"orders"}`)
	require.Equal(t, http.StatusOK, code, out)
	arn := out[strings.Index(out, `"StreamArn":"`)+len(`"StreamArn":"`):]
	arn = arn[:strings.IndexByte(arn, '"')]
	code, out = call(e, admin, "DynamoDB_20120810.DeleteTable", `{"TableName":"orders"}`)
	require.Equal(t, http.StatusOK, code, out)
	code, out = call(e, admin, "DynamoDB_20120810.CreateTable", create+`}`) // opting in to nothing
	require.Equal(t, http.StatusOK, code, out)
	names, err := e.store.Namespaces()
	require.NoError(t, err)
	for _, n := range names {
		require.NoError(t, e.store.Compact(n))
	}
	require.NoError(t, e.Close())

	e = open()
	t.Cleanup(func() { require.NoError(t, e.Close()) })
	code, out = call(e, admin, "DynamoDBStreams_20120810.GetShardIterator", `{"StreamArn":"`+arn+
		`","ShardId":"`+shardOf(t, e, admin, arn)+`","ShardIteratorType":"TRIM_HORIZON"}`)
	require.Equal(t, http.StatusOK, code, out)
	it := out[strings.Index(out, `"ShardIterator":"`)+len(`"ShardIterator":"`):]
	it = it[:strings.IndexByte(it, '"')]
	code, out = call(e, admin, "DynamoDBStreams_20120810.GetRecords", `{"ShardIterator":"`+it+`"}`)
	require.Equal(t, http.StatusOK, code, out)
	require.Contains(t, out, "ORDER#tenant001")
	require.Contains(t, out, "ORDER#tenant002")

	for _, op := range []string{"DescribeStream", "GetShardIterator", "GetRecords"} {
		body := `{"StreamArn":"` + arn + `","ShardId":"shardId-00000000000000000000-00000001","ShardIteratorType":"TRIM_HORIZON"}`
		if op == "GetRecords" {
			body = `{"ShardIterator":"` + it + `"}`
		}
		code, out = call(e, hostile, "DynamoDBStreams_20120810."+op, body)
		require.Equal(t, http.StatusBadRequest, code, op+": "+out)
		require.Contains(t, out, "AccessDeniedException", op)
		require.Contains(t, out, `caller tenant \"tenant002\" may not read the stream of table \"orders\" (`+op+`)`, op)
	}
}

// shardOf is the id of the first shard of stream arn, as auth's
// DescribeStream names it.
func shardOf(t *testing.T, e *Emulator, auth, arn string) string {
	t.Helper()
	res, out := do(t, e, "DynamoDBStreams_20120810.DescribeStream", auth, `{"StreamArn":"`+arn+`"}`)
	require.Equal(t, http.StatusOK, res.StatusCode, out)
	id := out[strings.Index(out, `"ShardId":"`)+len(`"ShardId":"`):]
	return id[:strings.IndexByte(id, '"')]
}
