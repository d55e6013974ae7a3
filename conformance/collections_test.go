package conformance

// ReturnItemCollectionMetrics and ItemCollectionMetrics. AWS reports an item
// collection's key and size estimate for writes to tables with local
// secondary indexes; DynamoDB Local accepts the parameter but never returns
// the metrics, so the tests that expect them are marked AWSDiffers.

import (
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const noCollectionMetrics = "DynamoDB Local does not return ItemCollectionMetrics"

// lsiTable creates a table keyed by pk (S) and sk (N) with a local
// secondary index "by_l" on l (S) projecting ALL.
func lsiTable(t testing.TB, c *dynamodb.Client) string {
	t.Helper()
	in := tableDef(keyDef{"pk", "S"}, keyDef{"sk", "N"})
	in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("l"), AttributeType: types.ScalarAttributeTypeS})
	in.LocalSecondaryIndexes = []types.LocalSecondaryIndex{{
		IndexName: aws.String("by_l"),
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("l"), KeyType: types.KeyTypeRange},
		},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
	}}
	return createTable(t, c, in)
}

// collectionWrites runs PutItem, UpdateItem and DeleteItem on table with
// ReturnItemCollectionMetrics ret, all in the collection pk "a", and
// returns the three responses' metrics.
func collectionWrites(t *testing.T, c *dynamodb.Client, table string, ret types.ReturnItemCollectionMetrics) []*types.ItemCollectionMetrics {
	t.Helper()
	key := item{"pk": s("a"), "sk": n("1")}
	put, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table,
		Item: item{"pk": s("a"), "sk": n("1"), "l": s("x"), "v": s("value")}, ReturnItemCollectionMetrics: ret})
	mustNoError(t, err)
	upd, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key,
		UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: item{":v": s("other")}, ReturnItemCollectionMetrics: ret})
	mustNoError(t, err)
	del, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: key, ReturnItemCollectionMetrics: ret})
	mustNoError(t, err)
	return []*types.ItemCollectionMetrics{put.ItemCollectionMetrics, upd.ItemCollectionMetrics, del.ItemCollectionMetrics}
}

// collectionBatch writes two items to collection "b" and one to "c" of
// table with BatchWriteItem and returns the response.
func collectionBatch(t *testing.T, c *dynamodb.Client, table string, ret types.ReturnItemCollectionMetrics) *dynamodb.BatchWriteItemOutput {
	t.Helper()
	out, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{
		RequestItems: map[string][]types.WriteRequest{table: {
			{PutRequest: &types.PutRequest{Item: item{"pk": s("b"), "sk": n("1"), "l": s("x")}}},
			{PutRequest: &types.PutRequest{Item: item{"pk": s("b"), "sk": n("2")}}},
			{PutRequest: &types.PutRequest{Item: item{"pk": s("c"), "sk": n("1"), "l": s("y")}}},
		}},
		ReturnItemCollectionMetrics: ret,
	})
	mustNoError(t, err)
	if len(out.UnprocessedItems) != 0 {
		t.Fatalf("UnprocessedItems = %v, want none", out.UnprocessedItems)
	}
	return out
}

// TestCollectionMetricsWithoutLSI: a table without local secondary indexes
// accepts ReturnItemCollectionMetrics=SIZE and reports no metrics.
func TestCollectionMetricsWithoutLSI(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := rangeTable(t, c)
	for i, icm := range collectionWrites(t, c, table, types.ReturnItemCollectionMetricsSize) {
		if icm != nil {
			t.Errorf("write %d: ItemCollectionMetrics %+v, want none", i, icm)
		}
	}
	if out := collectionBatch(t, c, table, types.ReturnItemCollectionMetricsSize); len(out.ItemCollectionMetrics) != 0 {
		t.Errorf("BatchWriteItem: ItemCollectionMetrics %+v, want none", out.ItemCollectionMetrics)
	}
}

// TestCollectionMetricsAccepted: on a table with a local secondary index,
// SIZE and NONE are accepted by every write; NONE reports no metrics.
func TestCollectionMetricsAccepted(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := lsiTable(t, c)
	collectionWrites(t, c, table, types.ReturnItemCollectionMetricsSize)
	collectionBatch(t, c, table, types.ReturnItemCollectionMetricsSize)
	for i, icm := range collectionWrites(t, c, table, types.ReturnItemCollectionMetricsNone) {
		if icm != nil {
			t.Errorf("NONE, write %d: ItemCollectionMetrics %+v, want none", i, icm)
		}
	}
	if out := collectionBatch(t, c, table, types.ReturnItemCollectionMetricsNone); len(out.ItemCollectionMetrics) != 0 {
		t.Errorf("NONE, BatchWriteItem: ItemCollectionMetrics %+v, want none", out.ItemCollectionMetrics)
	}
}

// requireSmallCollection checks metrics of a small collection with
// partition key pk: the key alone, and the range [0, 1] GB.
func requireSmallCollection(t *testing.T, what string, icm *types.ItemCollectionMetrics, pk string) {
	t.Helper()
	if icm == nil {
		t.Errorf("%s: no ItemCollectionMetrics", what)
		return
	}
	if got := renderItem(icm.ItemCollectionKey); got != renderItem(item{"pk": s(pk)}) {
		t.Errorf("%s: ItemCollectionKey %s, want %s", what, got, renderItem(item{"pk": s(pk)}))
	}
	if !slices.Equal(icm.SizeEstimateRangeGB, []float64{0, 1}) {
		t.Errorf("%s: SizeEstimateRangeGB %v, want [0 1]", what, icm.SizeEstimateRangeGB)
	}
}

// TestCollectionMetricsLSI: with SIZE, every write to a table with a local
// secondary index reports its item collection: the partition key and, for
// a collection far under 1 GB, the estimate [0.0, 1.0] GB.
func TestCollectionMetricsLSI(t *testing.T) {
	AWSDiffers(t, noCollectionMetrics)
	t.Parallel()
	c := newClient(t)
	table := lsiTable(t, c)
	for i, icm := range collectionWrites(t, c, table, types.ReturnItemCollectionMetricsSize) {
		requireSmallCollection(t, []string{"PutItem", "UpdateItem", "DeleteItem"}[i], icm, "a")
	}
}

// TestCollectionMetricsBatch: BatchWriteItem reports, under the table's
// name, the collections it wrote to.
func TestCollectionMetricsBatch(t *testing.T) {
	AWSDiffers(t, noCollectionMetrics)
	t.Parallel()
	c := newClient(t)
	table := lsiTable(t, c)
	out := collectionBatch(t, c, table, types.ReturnItemCollectionMetricsSize)
	if len(out.ItemCollectionMetrics) != 1 {
		t.Fatalf("ItemCollectionMetrics for %d tables, want 1: %+v", len(out.ItemCollectionMetrics), out.ItemCollectionMetrics)
	}
	list := out.ItemCollectionMetrics[table]
	var keys []string
	for _, icm := range list {
		pk, _ := icm.ItemCollectionKey["pk"].(*types.AttributeValueMemberS)
		if pk == nil || len(icm.ItemCollectionKey) != 1 {
			t.Fatalf("ItemCollectionKey %s, want pk only", renderItem(icm.ItemCollectionKey))
		}
		requireSmallCollection(t, "BatchWriteItem", &icm, pk.Value)
		if !slices.Contains(keys, pk.Value) {
			keys = append(keys, pk.Value)
		}
	}
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"b", "c"}) {
		t.Errorf("collections %v, want [b c]", keys)
	}
}
