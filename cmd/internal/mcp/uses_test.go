package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/insights"
)

// usesServer is the fixture's server over two tables, Orders (pk S, sk
// N, and an index byG on g) and Accounts (id S).
func usesServer(t *testing.T) *Server {
	t.Helper()
	f := newFixture(t, "memory", Options{})
	f.ok("create_table", `{"TableName":"Orders","BillingMode":"PAY_PER_REQUEST",
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"g","AttributeType":"S"}],
		"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`)
	f.ok("create_table", `{"TableName":"Accounts","BillingMode":"PAY_PER_REQUEST",
		"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}]}`)
	return f.srv
}

// TestUsesOf: each operation's request is read as its uses of tables
// and indexes: the access, the table and index, the key condition, a
// filter, a put's item and an update's or delete's key; batches table
// by table in name order.
func TestUsesOf(t *testing.T) {
	s := usesServer(t)
	key := `{"pk":{"S":"x"},"sk":{"N":"1"}}`
	for _, tc := range []struct {
		op, req string
		want    []string
	}{
		{"GetItem", `{"TableName":"Orders","Key":` + key + `}`, []string{"get Orders  pk=x sk=1 filter=false item=false key=false"}},
		{"UpdateItem", `{"TableName":"Orders","Key":` + key + `}`, []string{"update Orders  pk=x sk=1 filter=false item=false key=true"}},
		{"DeleteItem", `{"TableName":"Orders","Key":` + key + `}`, []string{"delete Orders  pk=x sk=1 filter=false item=false key=true"}},
		{"PutItem", `{"TableName":"Orders","Item":{"pk":{"S":"x"},"sk":{"N":"1"},"a":{"S":"b"}}}`, []string{"put Orders  pk=x sk=1 filter=false item=true key=false"}},
		{"Scan", `{"TableName":"Orders","FilterExpression":"a = :a","ExpressionAttributeValues":{":a":{"S":"b"}}}`, []string{"scan Orders   filter=true item=false key=false"}},
		{"Scan", `{"TableName":"Orders","IndexName":"byG"}`, []string{"scan Orders byG  filter=false item=false key=false"}},
		{"Query", `{"TableName":"Orders","IndexName":"byG","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"y"}}}`, []string{"query Orders byG pk=y filter=false item=false key=false"}},
		{"BatchGetItem", `{"RequestItems":{"Orders":{"Keys":[` + key + `]},"Accounts":{"Keys":[{"id":{"S":"a"}},{"id":{"S":"b"}}]}}}`,
			[]string{"get Accounts  pk=a filter=false item=false key=false", "get Accounts  pk=b filter=false item=false key=false", "get Orders  pk=x sk=1 filter=false item=false key=false"}},
		{"BatchWriteItem", `{"RequestItems":{"Orders":[{"PutRequest":{"Item":` + key + `}},{"DeleteRequest":{"Key":` + key + `}}]}}`,
			[]string{"put Orders  pk=x sk=1 filter=false item=true key=false", "delete Orders  pk=x sk=1 filter=false item=false key=true"}},
		{"TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"Accounts","Item":{"id":{"S":"a"}}}},{"ConditionCheck":{"TableName":"Orders","Key":` + key + `,"ConditionExpression":"attribute_exists(pk)"}},{"Update":{"TableName":"Orders","Key":` + key + `,"UpdateExpression":"SET a = :a","ExpressionAttributeValues":{":a":{"S":"b"}}}}]}`,
			[]string{"put Accounts  pk=a filter=false item=true key=false", "get Orders  pk=x sk=1 filter=false item=false key=false", "update Orders  pk=x sk=1 filter=false item=false key=true"}},
		{"TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"Accounts","Key":{"id":{"S":"a"}}}}]}`, []string{"get Accounts  pk=a filter=false item=false key=false"}},
	} {
		uses, err := s.usesOf(context.Background(), tc.op, json.RawMessage(tc.req))
		require.NoError(t, err, "%s %s", tc.op, tc.req)
		var got []string
		for _, u := range uses {
			require.Equal(t, tc.op, u.q.Op)
			require.Equal(t, u.q.Table, u.table.TableName)
			got = append(got, fmt.Sprintf("%s %s %s %s filter=%v item=%v key=%v",
				u.q.Access, u.q.Table, u.q.Index, keyText(u.q.Key), u.q.Filter, u.item != nil, u.key != nil))
		}
		require.Equal(t, tc.want, got, "%s %s", tc.op, tc.req)
	}
}

// TestUsesOfRefused: a request usesOf cannot read is an error that says
// what is wrong with it.
func TestUsesOfRefused(t *testing.T) {
	s := usesServer(t)
	for _, tc := range []struct{ op, req, want string }{
		{"GetItem", `{"TableName":"Orders"}`, "GetItem's request has a Key"},
		{"PutItem", `{"TableName":"Orders"}`, "PutItem's request has an Item"},
		{"GetItem", `{"Key":{"pk":{"S":"x"},"sk":{"N":"1"}}}`, "the request names no TableName"},
		{"GetItem", `{"TableName":"Orders","Key":{"pk":{"S":"x"}}}`, `the key lacks "sk", the sort key of table "Orders"`},
		{"GetItem", `{"TableName":"Orders","Key":{"pk":{"S":1},"sk":{"N":"1"}}}`, `Orders: attribute "pk": an S value takes a string, not 1`},
		{"GetItem", `{"TableName":"Nope","Key":{"pk":{"S":"x"}}}`, "ResourceNotFoundException"},
		{"Query", `{"TableName":"Orders"}`, "the Query has no KeyConditionExpression"},
		{"Query", `{"TableName":"Orders","IndexName":"byH","KeyConditionExpression":"h = :h","ExpressionAttributeValues":{":h":{"S":"y"}}}`, `table "Orders" has no index "byH"`},
		{"BatchGetItem", `{"RequestItems":{"Accounts":{"Keys":[{"id":{"N":"1"}},{"nope":{"S":"a"}}]}}}`, `the key lacks "id", the partition key of table "Accounts"`},
		{"BatchWriteItem", `{"RequestItems":{"Orders":[{}]}}`, "RequestItems.Orders: a request is a PutRequest or a DeleteRequest"},
		{"BatchWriteItem", `{"RequestItems":{"Orders":[{"DeleteRequest":{"Key":{"pk":{"S":"x"}}}}]}}`, `the key lacks "sk"`},
		{"TransactWriteItems", `{"TransactItems":[{"Delete":{"TableName":"Accounts","Key":{}}}]}`, `the key lacks "id"`},
		{"TransactWriteItems", `{"TransactItems":[{"Frob":{"TableName":"Accounts"}}]}`, `unknown member "TransactItems[0].Frob"`},
		{"Frobnicate", `{}`, `operation "Frobnicate": give one of GetItem, PutItem`},
		{"Frobnicate", `[]`, "the request is not Frobnicate's"},
	} {
		_, err := s.usesOf(context.Background(), tc.op, json.RawMessage(tc.req))
		require.ErrorContains(t, err, tc.want, "%s %s", tc.op, tc.req)
	}
}

// TestTransactAccess: each kind of a transaction's action is its access,
// a ConditionCheck a get; any other kind is none.
func TestTransactAccess(t *testing.T) {
	for kind, want := range map[string]insights.Access{"Get": insights.Get, "ConditionCheck": insights.Get,
		"Put": insights.Put, "Update": insights.Update, "Delete": insights.Delete} {
		got, ok := transactAccess(kind)
		require.True(t, ok, kind)
		require.Equal(t, want, got, kind)
	}
	_, ok := transactAccess("Frob")
	require.False(t, ok)
}
