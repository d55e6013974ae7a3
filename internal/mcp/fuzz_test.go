package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
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
