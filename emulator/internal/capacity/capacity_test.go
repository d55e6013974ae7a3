package capacity_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/capacity"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/stretchr/testify/require"
)

// TestUnits: a read is one unit per 4 KB (at least one), half when
// eventually consistent; a write one unit per 1 KB (at least one); a
// transaction's read or write twice a consistent read's or a write's;
// an LSI read's fetches are each a read of its own.
func TestUnits(t *testing.T) {
	for _, tc := range []struct {
		size       int
		consistent bool
		want       float64
	}{{0, true, 1}, {0, false, 0.5}, {4096, true, 1}, {4097, true, 2}, {4097, false, 1}, {12 << 10, false, 1.5}} {
		require.Equal(t, tc.want, capacity.ReadUnits(tc.size, tc.consistent), "read of %d bytes, consistent %v", tc.size, tc.consistent)
	}
	for _, tc := range []struct {
		size int
		want float64
	}{{0, 1}, {1, 1}, {1024, 1}, {1025, 2}, {3000, 3}} {
		require.Equal(t, tc.want, capacity.WriteUnits(tc.size), "write of %d bytes", tc.size)
	}
	for _, tc := range []struct {
		size        int
		read, write float64
	}{{0, 2, 2}, {1024, 2, 2}, {1025, 2, 4}, {4097, 4, 10}} {
		require.Equal(t, tc.read, capacity.TxReadUnits(tc.size), "transactional read of %d bytes", tc.size)
		require.Equal(t, tc.write, capacity.TxWriteUnits(tc.size), "transactional write of %d bytes", tc.size)
	}
	// Three fetches of 5,000 bytes, each its own read, then a page of
	// 100 bytes: 1 + 1 + 1 + 0.5, not one read of their 15,100 bytes (2).
	units := 0.0
	for range 3 {
		units += capacity.ReadUnits(5000, false)
	}
	require.Equal(t, 3.0, units)
	require.Equal(t, 3.5, units+capacity.ReadUnits(100, false))
}

// TestAnswers: the core meters what its operations report into
// each answer's ConsumedCapacity: per table and, in INDEXES mode, per
// GSI and LSI; a transaction's units also as WriteCapacityUnits or
// ReadCapacityUnits; nothing when the request asks for none.
func TestAnswers(t *testing.T) {
	env := servicetest.New(t, service.Config{})
	env.Must("CreateTable", `{"TableName":"tab","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},
			{"AttributeName":"g","AttributeType":"S"},{"AttributeName":"l","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"GlobalSecondaryIndexes":[{"IndexName":"gsi","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}],
		"LocalSecondaryIndexes":[{"IndexName":"lsi","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"l","KeyType":"RANGE"}],
			"Projection":{"ProjectionType":"KEYS_ONLY"}}]}`)
	item := `{"pk":{"S":"a"},"sk":{"S":"b"},"g":{"S":"x"},"l":{"S":"y"}}`
	key := `{"pk":{"S":"a"},"sk":{"S":"b"}}`

	cc := member(t, env.Must("PutItem", `{"TableName":"tab","Item":`+item+`,"ReturnConsumedCapacity":"INDEXES"}`))
	require.Equal(t, map[string]any{"TableName": "tab", "CapacityUnits": 3.0, "Table": map[string]any{"CapacityUnits": 1.0},
		"GlobalSecondaryIndexes": map[string]any{"gsi": map[string]any{"CapacityUnits": 1.0}},
		"LocalSecondaryIndexes":  map[string]any{"lsi": map[string]any{"CapacityUnits": 1.0}}}, cc)

	// The same item again leaves both index entries as they were.
	cc = member(t, env.Must("PutItem", `{"TableName":"tab","Item":`+item+`,"ReturnConsumedCapacity":"TOTAL"}`))
	require.Equal(t, map[string]any{"TableName": "tab", "CapacityUnits": 1.0}, cc)

	require.NotContains(t, env.Must("PutItem", `{"TableName":"tab","Item":`+item+`}`), "ConsumedCapacity")
	require.NotContains(t, env.Must("GetItem", `{"TableName":"tab","Key":`+key+`,"ReturnConsumedCapacity":"NONE"}`), "ConsumedCapacity")

	cc = member(t, env.Must("GetItem", `{"TableName":"tab","Key":`+key+`,"ReturnConsumedCapacity":"TOTAL"}`))
	require.Equal(t, map[string]any{"TableName": "tab", "CapacityUnits": 0.5}, cc)

	cc = member(t, env.Must("Query", `{"TableName":"tab","IndexName":"gsi","KeyConditionExpression":"g = :g",
		"ExpressionAttributeValues":{":g":{"S":"x"}},"ReturnConsumedCapacity":"INDEXES"}`))
	require.Equal(t, map[string]any{"TableName": "tab", "CapacityUnits": 0.5, "Table": map[string]any{"CapacityUnits": 0.0},
		"GlobalSecondaryIndexes": map[string]any{"gsi": map[string]any{"CapacityUnits": 0.5}}}, cc)

	list := members(t, env.Must("TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"tab","Item":`+item+`}}],
		"ReturnConsumedCapacity":"INDEXES"}`))
	require.Equal(t, []any{map[string]any{"TableName": "tab", "CapacityUnits": 2.0, "WriteCapacityUnits": 2.0,
		"Table": map[string]any{"CapacityUnits": 2.0, "WriteCapacityUnits": 2.0}}}, list)

	list = members(t, env.Must("TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"tab","Key":`+key+`}}],
		"ReturnConsumedCapacity":"TOTAL"}`))
	require.Equal(t, []any{map[string]any{"TableName": "tab", "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0}}, list)

	// An LSI read that fetches what its KEYS_ONLY projection lacks reads
	// each item from the table apart, at its own size: two items of
	// about 5 KB are 2 units each, consistent, on the table's side (not
	// 3 for their sum), and the index's entries 1.
	big := strings.Repeat("z", 5000)
	for _, sk := range []string{"c", "d"} {
		env.Must("PutItem", `{"TableName":"tab","Item":{"pk":{"S":"f"},"sk":{"S":"`+sk+`"},"l":{"S":"y"},"big":{"S":"`+big+`"}}}`)
	}
	cc = member(t, env.Must("Query", `{"TableName":"tab","IndexName":"lsi","KeyConditionExpression":"pk = :p",
		"ExpressionAttributeValues":{":p":{"S":"f"}},"Select":"ALL_ATTRIBUTES","ConsistentRead":true,"ReturnConsumedCapacity":"INDEXES"}`))
	require.Equal(t, map[string]any{"TableName": "tab", "CapacityUnits": 5.0, "Table": map[string]any{"CapacityUnits": 4.0},
		"LocalSecondaryIndexes": map[string]any{"lsi": map[string]any{"CapacityUnits": 1.0}}}, cc)

	list = members(t, env.Must("BatchWriteItem", `{"RequestItems":{"tab":[{"DeleteRequest":{"Key":`+key+`}}]},
		"ReturnConsumedCapacity":"INDEXES"}`))
	require.Equal(t, []any{map[string]any{"TableName": "tab", "CapacityUnits": 3.0, "Table": map[string]any{"CapacityUnits": 1.0},
		"GlobalSecondaryIndexes": map[string]any{"gsi": map[string]any{"CapacityUnits": 1.0}},
		"LocalSecondaryIndexes":  map[string]any{"lsi": map[string]any{"CapacityUnits": 1.0}}}}, list)
}

// member is the ConsumedCapacity member of an answer.
func member(t *testing.T, body string) map[string]any {
	t.Helper()
	var out struct{ ConsumedCapacity map[string]any }
	require.NoError(t, json.Unmarshal([]byte(body), &out), body)
	require.NotNil(t, out.ConsumedCapacity, body)
	return out.ConsumedCapacity
}

// members is the ConsumedCapacity list of a batch's or a transaction's
// answer.
func members(t *testing.T, body string) []any {
	t.Helper()
	var out struct{ ConsumedCapacity []any }
	require.NoError(t, json.Unmarshal([]byte(body), &out), body)
	require.NotEmpty(t, out.ConsumedCapacity, body)
	return out.ConsumedCapacity
}

// TestTallyKeepsEveryUnit: a Tally sums what Usage.Add sums, the
// indexes' and vector indexes' units included, whether they come first,
// later or never.
func TestTallyKeepsEveryUnit(t *testing.T) {
	gsi, lsi := &tablespec.IndexDef{Name: "gsi"}, &tablespec.IndexDef{Name: "lsi"}
	adds := []capacity.Usage{
		{Table: 1},
		{Table: 2, Indexes: map[*tablespec.IndexDef]float64{gsi: 1}},
		{Table: 0.5, Vectors: map[string]float64{"v": 10}},
		{Table: 1, Indexes: map[*tablespec.IndexDef]float64{gsi: 2, lsi: 1}, Vectors: map[string]float64{"v": 5}},
	}
	for n := range len(adds) + 1 {
		var tally capacity.Tally
		var want capacity.Usage
		for _, u := range adds[:n] {
			tally.Add(u)
			want.Add(u)
		}
		require.Equal(t, want, tally.Usage(), "after %d adds", n)
	}
	var plain capacity.Tally
	plain.Add(capacity.Usage{Table: 3})
	got := plain.Usage()
	require.Nil(t, got.Indexes, "a tally of table units alone has no index map")
	require.Nil(t, got.Vectors)
}
