package service

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/catalog"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// collectionsEnv is an itemsEnv with the tables
//
//	ths: pk S (HASH), sk N (RANGE)
//	tls: the same, with a local secondary index on l (S) projecting ALL
type collectionsEnv struct {
	*itemsEnv
	e *Service
}

func newCollectionsEnv(t testing.TB, limit int64) collectionsEnv {
	t.Helper()
	e := newTestService(t, Config{})
	if limit > 0 {
		e.itemCollectionBytes = limit // before the tables are made: each takes it then
	}
	env := collectionsEnv{&itemsEnv{t: t, h: serviceHandler(e)}, e}
	env.mustOK("CreateTable", `{"TableName":"ths","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`)
	env.mustOK("CreateTable", `{"TableName":"tls","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"l","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"LocalSecondaryIndexes":[{"IndexName":"by_l","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"l","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}`)
	return env
}

func TestItemCollectionMetrics(t *testing.T) {
	env := newCollectionsEnv(t, 0)
	icm := func(pk string) string {
		return `"ItemCollectionMetrics":{"ItemCollectionKey":{"pk":{"S":"` + pk + `"}},"SizeEstimateRangeGB":[0,1]}`
	}
	put := func(table, pk, sk, more string) string {
		return `{"TableName":"` + table + `","Item":{"pk":{"S":"` + pk + `"},"sk":{"N":"` + sk + `"}` + more + `}`
	}
	key := `"Key":{"pk":{"S":"a"},"sk":{"N":"1"}}`
	env.run(t, []itemCase{
		{name: "put SIZE", op: "PutItem", body: put("tls", "a", "1", `,"l":{"S":"x"}`) + `,"ReturnItemCollectionMetrics":"SIZE"}`, want: `{` + icm("a") + `}`},
		{name: "put SIZE without index entry", op: "PutItem", body: put("tls", "a", "2", "") + `,"ReturnItemCollectionMetrics":"SIZE"}`, want: `{` + icm("a") + `}`},
		{name: "put NONE", op: "PutItem", body: put("tls", "a", "3", "") + `,"ReturnItemCollectionMetrics":"NONE"}`, want: `{}`},
		{name: "put without the parameter", op: "PutItem", body: put("tls", "a", "3", "") + `}`, want: `{}`},
		{name: "put SIZE on a table without LSIs", op: "PutItem", body: put("ths", "a", "1", "") + `,"ReturnItemCollectionMetrics":"SIZE"}`, want: `{}`},
		// The replaced item had an LSI entry and the new one has none: one
		// write to the table and one (a delete) to the index.
		{name: "put with everything", op: "PutItem", body: put("tls", "a", "1", "") + `,"ReturnValues":"ALL_OLD","ReturnConsumedCapacity":"TOTAL","ReturnItemCollectionMetrics":"SIZE"}`,
			want: `{"Attributes":{"pk":{"S":"a"},"sk":{"N":"1"},"l":{"S":"x"}},"ConsumedCapacity":{"TableName":"tls","CapacityUnits":2},` + icm("a") + `}`},
		{name: "update SIZE", op: "UpdateItem", body: `{"TableName":"tls",` + key + `,"UpdateExpression":"SET l = :l","ExpressionAttributeValues":{":l":{"S":"y"}},"ReturnItemCollectionMetrics":"SIZE"}`,
			want: `{` + icm("a") + `}`},
		{name: "update SIZE on a table without LSIs", op: "UpdateItem", body: `{"TableName":"ths",` + key + `,"UpdateExpression":"SET l = :l","ExpressionAttributeValues":{":l":{"S":"y"}},"ReturnItemCollectionMetrics":"SIZE"}`,
			want: `{}`},
		{name: "failed condition: the error only", op: "PutItem", body: put("tls", "a", "1", "") + `,"ConditionExpression":"attribute_not_exists(pk)","ReturnItemCollectionMetrics":"SIZE"}`,
			errType: cErr, errMsg: "The conditional request failed"},
		{name: "delete SIZE", op: "DeleteItem", body: `{"TableName":"tls",` + key + `,"ReturnItemCollectionMetrics":"SIZE"}`, want: `{` + icm("a") + `}`},
		{name: "delete of an absent item SIZE", op: "DeleteItem", body: `{"TableName":"tls",` + key + `,"ReturnItemCollectionMetrics":"SIZE"}`, want: `{` + icm("a") + `}`},
		{name: "delete SIZE on a table without LSIs", op: "DeleteItem", body: `{"TableName":"ths",` + key + `,"ReturnItemCollectionMetrics":"SIZE"}`, want: `{}`},
		{name: "bad enum", op: "PutItem", body: put("tls", "a", "1", "") + `,"ReturnItemCollectionMetrics":"ALL"}`, errType: vErr,
			errMsg: "1 validation error detected: Value 'ALL' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member must satisfy enum value set: [SIZE, NONE]"},
	})

	wr := func(table, pk, sk string) string {
		return `{"PutRequest":{"Item":{"pk":{"S":"` + pk + `"},"sk":{"N":"` + sk + `"},"l":{"S":"v"}}}}`
	}
	del := `{"DeleteRequest":{"Key":{"pk":{"S":"c"},"sk":{"N":"9"}}}}`
	env.run(t, []itemCase{
		{name: "batch SIZE", op: "BatchWriteItem", body: `{"RequestItems":{
			"tls":[` + wr("tls", "b", "1") + `,` + wr("tls", "a", "5") + `,` + wr("tls", "b", "2") + `,` + del + `],
			"ths":[` + wr("ths", "a", "1") + `]},"ReturnItemCollectionMetrics":"SIZE"}`,
			want: `{"UnprocessedItems":{},"ItemCollectionMetrics":{"tls":[{` + icm("b")[len(`"ItemCollectionMetrics":{`):] + `,{` + icm("a")[len(`"ItemCollectionMetrics":{`):] + `,{` + icm("c")[len(`"ItemCollectionMetrics":{`):] + `]}}`},
		{name: "batch NONE", op: "BatchWriteItem", body: `{"RequestItems":{"tls":[` + wr("tls", "b", "1") + `]},"ReturnItemCollectionMetrics":"NONE"}`,
			want: `{"UnprocessedItems":{}}`},
		{name: "batch SIZE, no LSI table", op: "BatchWriteItem", body: `{"RequestItems":{"ths":[` + wr("ths", "b", "1") + `]},"ReturnItemCollectionMetrics":"SIZE"}`,
			want: `{"UnprocessedItems":{}}`},
	})
}

// TestItemCollectionSizeLimit lowers the limit to a few hundred bytes: a
// write that grows a collection past it fails with
// ItemCollectionSizeLimitExceededException and writes nothing; writes that
// shrink it, writes to other collections and tables without LSIs go on.
func TestItemCollectionSizeLimit(t *testing.T) {
	env := newCollectionsEnv(t, 400)

	// Each item: pk "a" 3 + sk 2+2 + l "x" 2 + v 1+n; with its ALL index
	// entry (item + 100) it costs 2*(9+1+n) + 100 bytes: n=40 -> 200.
	item := func(table, pk, sk string, n int) string {
		return fmt.Sprintf(`{"TableName":%q,"Item":{"pk":{"S":%q},"sk":{"N":%q},"l":{"S":"x"},"v":{"S":%q}}}`, table, pk, sk, strings.Repeat("v", n))
	}
	const tooLarge = "ItemCollectionSizeLimitExceededException"
	env.run(t, []itemCase{
		{name: "first", op: "PutItem", body: item("tls", "a", "1", 40), want: `{}`},
		{name: "second reaches the limit exactly", op: "PutItem", body: item("tls", "a", "2", 40), want: `{}`},
		{name: "third is refused", op: "PutItem", body: item("tls", "a", "3", 0), errType: tooLarge, errMsg: apierr.MsgCollectionSizeExceeded},
		{name: "growing an item is refused", op: "UpdateItem", body: `{"TableName":"tls","Key":{"pk":{"S":"a"},"sk":{"N":"1"}},"UpdateExpression":"SET w = :w","ExpressionAttributeValues":{":w":{"S":"w"}}}`,
			errType: tooLarge, errMsg: apierr.MsgCollectionSizeExceeded},
		{name: "refused in a batch", op: "BatchWriteItem", body: `{"RequestItems":{"tls":[{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"4"}}}}]}}`,
			errType: tooLarge, errMsg: apierr.MsgCollectionSizeExceeded},
		{name: "nothing was written", op: "GetItem", body: `{"TableName":"tls","Key":{"pk":{"S":"a"},"sk":{"N":"3"}}}`, want: `{}`},
		{name: "other collection", op: "PutItem", body: item("tls", "b", "1", 40), want: `{}`},
		{name: "table without LSIs", op: "PutItem", body: item("ths", "a", "1", 1000), want: `{}`},
		{name: "shrinking an item", op: "UpdateItem", body: `{"TableName":"tls","Key":{"pk":{"S":"a"},"sk":{"N":"1"}},"UpdateExpression":"REMOVE v"}`, want: `{}`},
		{name: "still full", op: "PutItem", body: item("tls", "a", "3", 0), errType: tooLarge, errMsg: apierr.MsgCollectionSizeExceeded},
		{name: "deleting", op: "DeleteItem", body: `{"TableName":"tls","Key":{"pk":{"S":"a"},"sk":{"N":"2"}}}`, want: `{}`},
		{name: "room again", op: "PutItem", body: item("tls", "a", "3", 0), want: `{}`},
		{name: "metrics after the writes", op: "PutItem", body: item("tls", "a", "2", 0)[:len(item("tls", "a", "2", 0))-1] + `,"ReturnItemCollectionMetrics":"SIZE"}`,
			want: `{"ItemCollectionMetrics":{"ItemCollectionKey":{"pk":{"S":"a"}},"SizeEstimateRangeGB":[0,1]}}`},
	})
	// sk 1 without v (2*9+100), sk 3 and sk 2 with an empty v (2*10+100 each).
	if got, want := env.collectionSize(t, "tls", "a"), int64(118+120+120); got != want {
		t.Errorf("collection a: %d bytes, want %d", got, want)
	}
}

// collectionSize reads a collection's size straight from storage.
func (env collectionsEnv) collectionSize(t *testing.T, table, pk string) int64 {
	t.Helper()
	tbl := env.e.get(catalog.Key{AccessKey: "ITEMS", Region: "us-east-1"}).getTable(table)
	if tbl == nil {
		t.Fatalf("no table %s in the ITEMS namespace", table)
	}
	return tbl.data.CollectionSize(storage.S(pk))
}
