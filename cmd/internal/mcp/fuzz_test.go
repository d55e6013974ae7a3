package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// FuzzAttributeValue: any input decodes into a value or is an error; a
// value's size is computed without trouble.
func FuzzAttributeValue(f *testing.F) {
	for _, s := range []string{`{"S":"x"}`, `{"N":"-1.5E3"}`, `{"B":"AQI="}`, `{"BOOL":true}`, `{"NULL":true}`,
		`{"L":[{"S":"a"},{"M":{"k":{"NS":["1","2"]}}}]}`, `{"SS":["a","b"]}`, `{"BS":["AA=="]}`, `{"N":"x"}`, `{"S":1}`, `{}`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := valueOf(raw)
		if err != nil {
			return
		}
		_ = storage.ValueSize(v)
	})
}

// FuzzToolArguments: any arguments are checked against a tool's schema
// without trouble: taken, or an input error.
func FuzzToolArguments(f *testing.F) {
	s := &Server{}
	sch := s.readTools()[0].schema // query's
	for _, a := range []string{`{}`, `{"TableName":"T","KeyConditionExpression":"pk = :p","Limit":3}`, `{"Limit":1.5}`, `{"ScanIndexForward":"no"}`, `[`, `{"a":}`} {
		f.Add([]byte(a))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if err := sch.check(raw); err != nil {
			var ie *inputError
			if !errors.As(err, &ie) {
				t.Fatalf("%v is not an input error", err)
			}
		}
	})
}

// FuzzDesignRequest: any request, read as an operation's for the design,
// gives its uses or an error, never a panic.
func FuzzDesignRequest(f *testing.F) {
	emu, err := emulator.New(emulator.Options{})
	require.NoError(f, err)
	f.Cleanup(func() { _ = emu.Close() })
	s, err := New(emu, Options{})
	require.NoError(f, err)
	_, err = s.eng.call(context.Background(), apiDynamoDB, "CreateTable", []byte(`{"TableName":"Orders","BillingMode":"PAY_PER_REQUEST",
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"g","AttributeType":"S"}],
		"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`))
	require.NoError(f, err)
	for _, c := range []struct{ op, req string }{
		{"Query", `{"TableName":"Orders","KeyConditionExpression":"pk = :p AND sk BETWEEN :a AND :b","ExpressionAttributeValues":{":p":{"S":"x"},":a":{"N":"1"},":b":{"N":"2"}}}`},
		{"Query", `{"TableName":"Orders","IndexName":"byG","KeyConditionExpression":"#g = :g","ExpressionAttributeNames":{"#g":"g"},"ExpressionAttributeValues":{":g":{"S":"x"}}}`},
		{"GetItem", `{"TableName":"Orders","Key":{"pk":{"S":"x"},"sk":{"N":"1"}}}`},
		{"BatchWriteItem", `{"RequestItems":{"Orders":[{"PutRequest":{"Item":{"pk":{"S":"x"},"sk":{"N":"1"}}}},{"DeleteRequest":{"Key":{"pk":{"S":"y"},"sk":{"N":"2"}}}}]}}`},
		{"TransactWriteItems", `{"TransactItems":[{"Update":{"TableName":"Orders","Key":{"pk":{"S":"x"},"sk":{"N":"1"}}}},{"ConditionCheck":{"TableName":"Orders","Key":{"pk":{"S":"x"},"sk":{"N":"1"}}}}]}`},
		{"Scan", `{"TableName":"Orders","FilterExpression":"a = :a"}`},
	} {
		f.Add(c.op, []byte(c.req))
	}
	f.Fuzz(func(t *testing.T, op string, raw []byte) {
		uses, err := s.usesOf(context.Background(), op, json.RawMessage(raw))
		if err != nil {
			return
		}
		for _, u := range uses {
			if u.q.Table == "" || u.table == nil {
				t.Fatalf("a use without its table: %+v", u)
			}
		}
	})
}

// FuzzPageToken: any NextToken is one the server gave, read back as it
// was, or an input error; a token the server makes reads back the same.
func FuzzPageToken(f *testing.F) {
	inner := "eyJwayI6eyJTIjoiYSJ9fQ=="
	for _, tok := range []pageToken{{Limit: 100, Skip: 3, Stmt: "abc"}, {Inner: &inner, Limit: 5, Skip: 1, Stmt: "x"}} {
		f.Add(tok.encode())
	}
	for _, s := range []string{pageTokenPrefix, pageTokenPrefix + "!!", pageTokenPrefix + "e30", "plain"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tok, err := decodePageToken(s)
		if err != nil {
			var ie *inputError
			require.ErrorAs(t, err, &ie)
			return
		}
		again, err := decodePageToken(tok.encode())
		require.NoError(t, err)
		require.Equal(t, tok, again)
	})
}

// FuzzNearestPattern: any request, with no pattern serving it, gets a
// nearest pattern or none, never a panic.
func FuzzNearestPattern(f *testing.F) {
	d, err := insights.ParseDesign([]byte(postsDesign))
	require.NoError(f, err)
	table := designTable(d, "Posts")
	for _, s := range []string{`{"TableName":"Posts","FilterExpression":"#u = :u","ExpressionAttributeNames":{"#u":"userId"},"ExpressionAttributeValues":{":u":{"S":"ann"}}}`,
		`{"ScanFilter":{"userId":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}}}`, `{"FilterExpression":"begins_with(pk, :p)","ExpressionAttributeValues":{":p":{"B":"AA=="}}}`, `{`, `[]`} {
		f.Add("scan", "", []byte(s))
	}
	f.Add("query", "byUser", []byte(`{"FilterExpression":"attribute_exists(pk)"}`))
	f.Fuzz(func(t *testing.T, access, index string, req []byte) {
		acc := []insights.Access{insights.Get, insights.Query, insights.Scan, insights.Put, insights.Delete}[len(access)%5]
		u := use{q: insights.Request{Table: "Posts", Index: index, Access: acc, Key: insights.KeyCondition{Partition: storage.S("x")}}, table: table}
		mv := insights.MatchView{Table: "Posts", Access: access, Candidates: []insights.PatternVerdict{{Pattern: "post", Why: "x"}}}
		_ = nearestPattern(d, u, mv, req)
	})
}
