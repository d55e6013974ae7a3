package conformance

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

// The write capacity of a table with vector indexes. AWS meters a vector
// index's writes in VectorWriteRequestBytes, reported per index under
// ConsumedCapacity.VectorIndexes when a write asks for INDEXES
// (docVectorMonitoring); the figures follow AWS's answers as recorded by
// paritysuite/dynamodb-conformance (tests/tier2/vectorSearch/
// consumedCapacity.test.ts, captures of 2026-08-18 and 2026-10-09): an
// entry costs four bytes a dimension, the vector attribute's name and its
// projected non-vector attributes, at least 1024 bytes an entry and an
// index, and nothing when the entry is written again as it was. The
// vector counts four bytes a dimension toward the item's billed size.
const docVectorMonitoring = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchMonitoring.html"

// vectorWriteBytes returns the VectorWriteRequestBytes of each index cc
// reports, formatted "name=bytes" in name order ("" for none).
func vectorWriteBytes(cc *types.ConsumedCapacity) string {
	if cc == nil {
		return "<no ConsumedCapacity>"
	}
	var parts []string
	for name, v := range cc.VectorIndexes {
		parts = append(parts, fmt.Sprintf("%s=%g", name, aws.ToFloat64(v.VectorWriteRequestBytes)))
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

// longVec is a vector of dims elements, each a number of many digits (its
// list's size is far more than four bytes an element).
func longVec(dims int) types.AttributeValue {
	xs := make([]float64, dims)
	for i := range xs {
		xs[i] = 0.123456789 + float64(i)
	}
	return vec(xs...)
}

func TestVectorWriteCapacity(t *testing.T) {
	vectorDiffers(t, docVectorMonitoring)
	c := newClient(t)
	// byEmb: 3 dimensions on "emb"; byBig: 300 dimensions on "big"; both
	// project title.
	in := vectorTableDef(
		vectorIndex("byEmb", "emb", 3, types.VectorDistanceFunctionCosine, types.ProjectionTypeInclude),
		vectorIndex("byBig", "big", 300, types.VectorDistanceFunctionCosine, types.ProjectionTypeInclude),
	)
	table := createTable(t, c, in)
	pad := strings.Repeat("x", 2000)
	put := func(mode types.ReturnConsumedCapacity, it item) *types.ConsumedCapacity {
		out, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: it, ReturnConsumedCapacity: mode})
		require.NoError(t, err)
		return out.ConsumedCapacity
	}
	tests := []struct {
		name  string
		mode  types.ReturnConsumedCapacity
		item  item
		units float64 // the table's write units
		want  string  // VectorIndexes
	}{
		{"small entry floored at 1024", types.ReturnConsumedCapacityIndexes,
			item{"pk": s("a"), "emb": vec(1, 2, 3)}, 1, "byEmb=1024"},
		{"identical overwrite costs the index nothing", types.ReturnConsumedCapacityIndexes,
			item{"pk": s("a"), "emb": vec(1, 2, 3)}, 1, ""},
		{"a changed projected attribute is written again", types.ReturnConsumedCapacityIndexes,
			item{"pk": s("a"), "emb": vec(1, 2, 3), "title": s("n")}, 1, "byEmb=1024"},
		{"an attribute the index does not project costs it nothing", types.ReturnConsumedCapacityIndexes,
			item{"pk": s("a"), "emb": vec(1, 2, 3), "title": s("n"), "note": s("n")}, 1, ""},
		{"an item without a vector touches no index", types.ReturnConsumedCapacityIndexes,
			item{"pk": s("b"), "note": s("n")}, 1, ""},
		// 4*300 + len("big") + pk (2+1) + title (5+1) = 1212; byBig
		// projects title, not pad. The item's billed size is the same
		// 1212 bytes less title plus pad: 2 units, though the list holds
		// 300 numbers of ten digits.
		{"a large entry: four bytes a dimension, the name, projected attributes", types.ReturnConsumedCapacityIndexes,
			item{"pk": s("c"), "big": longVec(300), "title": s("t"), "pad": s(pad)}, 4, "byBig=1212"},
		{"each index its own entry", types.ReturnConsumedCapacityIndexes,
			item{"pk": s("d"), "emb": vec(1, 0, 0), "big": longVec(300)}, 2, "byBig=1206 byEmb=1024"},
		{"TOTAL reports no vector indexes", types.ReturnConsumedCapacityTotal,
			item{"pk": s("e"), "emb": vec(0, 1, 0)}, 1, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cc := put(tc.mode, tc.item)
			require.NotNil(t, cc)
			require.Equal(t, tc.units, aws.ToFloat64(cc.CapacityUnits), "CapacityUnits")
			require.Equal(t, tc.want, vectorWriteBytes(cc))
			if tc.mode == types.ReturnConsumedCapacityIndexes {
				require.Equal(t, tc.units, aws.ToFloat64(cc.Table.CapacityUnits), "Table.CapacityUnits")
			}
		})
	}
}

// TestVectorBilledSize: a vector counts four bytes a dimension toward
// the item's size for write units, whatever numbers it holds: 300
// dimensions of ten-digit numbers (a list of some 2 KB) bill 1206 bytes.
func TestVectorBilledSize(t *testing.T) {
	vectorDiffers(t, docVectorMonitoring)
	c := newClient(t)
	table := createTable(t, c, vectorTableDef(vectorIndex("byBig", "big", 300, types.VectorDistanceFunctionEuclidean, types.ProjectionTypeKeysOnly)))
	for _, tc := range []struct {
		name string
		v    types.AttributeValue
	}{
		{"short numbers", vec(make([]float64, 300)...)},
		{"long numbers", longVec(300)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: item{"pk": s(tc.name), "big": tc.v},
				ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			require.NoError(t, err)
			require.Equal(t, 2.0, aws.ToFloat64(out.ConsumedCapacity.CapacityUnits)) // 1200 + 3 + pk: two 1 KB units
		})
	}
}

// TestVectorWriteCapacityOtherWrites: UpdateItem, DeleteItem,
// BatchWriteItem and TransactWriteItems report VectorIndexes as PutItem
// does; a batch or a transaction sums each index's entries.
func TestVectorWriteCapacityOtherWrites(t *testing.T) {
	vectorDiffers(t, docVectorMonitoring)
	c := newClient(t)
	table := createTable(t, c, vectorTableDef(vectorIndex("byEmb", "emb", 3, types.VectorDistanceFunctionCosine, types.ProjectionTypeAll)))
	idx := types.ReturnConsumedCapacityIndexes
	mustPut(t, c, table, item{"pk": s("u"), "emb": vec(1, 0, 0)})
	mustPut(t, c, table, item{"pk": s("del"), "emb": vec(1, 0, 0)})

	up, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("u")},
		UpdateExpression: aws.String("SET emb = :v"), ExpressionAttributeValues: item{":v": vec(0, 1, 0)}, ReturnConsumedCapacity: idx})
	require.NoError(t, err)
	require.Equal(t, "byEmb=1024", vectorWriteBytes(up.ConsumedCapacity), "UpdateItem")

	same, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("u")},
		UpdateExpression: aws.String("SET emb = :v"), ExpressionAttributeValues: item{":v": vec(0, 1, 0)}, ReturnConsumedCapacity: idx})
	require.NoError(t, err)
	require.Equal(t, "", vectorWriteBytes(same.ConsumedCapacity), "UpdateItem to the same vector")

	del, err := c.DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: &table, Key: item{"pk": s("del")}, ReturnConsumedCapacity: idx})
	require.NoError(t, err)
	require.Equal(t, "byEmb=1024", vectorWriteBytes(del.ConsumedCapacity), "DeleteItem")

	bw, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: {
		{PutRequest: &types.PutRequest{Item: item{"pk": s("b1"), "emb": vec(1, 1, 0)}}},
		{PutRequest: &types.PutRequest{Item: item{"pk": s("b2"), "emb": vec(1, 1, 1)}}},
		{PutRequest: &types.PutRequest{Item: item{"pk": s("b3")}}},
	}}, ReturnConsumedCapacity: idx})
	require.NoError(t, err)
	require.Len(t, bw.ConsumedCapacity, 1)
	require.Equal(t, "byEmb=2048", vectorWriteBytes(&bw.ConsumedCapacity[0]), "BatchWriteItem")

	tw, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: &table, Item: item{"pk": s("t1"), "emb": vec(0, 0, 1)}}},
		{Put: &types.Put{TableName: &table, Item: item{"pk": s("b1"), "emb": vec(1, 1, 0)}}}, // as it was
	}, ReturnConsumedCapacity: idx})
	require.NoError(t, err)
	require.Len(t, tw.ConsumedCapacity, 1)
	require.Equal(t, "byEmb=1024", vectorWriteBytes(&tw.ConsumedCapacity[0]), "TransactWriteItems")
}

// TestVectorTableSizeBytes: DescribeTable's TableSizeBytes counts an
// item's vector attribute at four bytes a dimension, whatever numbers it
// holds, as AWS bills it toward the item's size (docVectorMonitoring; the
// records cited above); other attributes by AWS's item size rules
// (developer guide, CapacityUnitCalculations.html).
func TestVectorTableSizeBytes(t *testing.T) {
	vectorDiffers(t, docVectorMonitoring)
	c := newClient(t)
	table := createTable(t, c, vectorTableDef(
		vectorIndex("byEmb", "emb", 3, types.VectorDistanceFunctionCosine, types.ProjectionTypeKeysOnly)))
	mustPut(t, c, table, item{"pk": s("a"), "emb": longVec(3)})
	mustPut(t, c, table, item{"pk": s("b"), "x": s("plain")})
	if target(t).Oracle == OracleAWS {
		t.Skip("AWS updates ItemCount and TableSizeBytes about every six hours")
	}
	// a: "pk"(2)+"a"(1) + "emb"(3)+3*4 = 18, whatever its list's own size;
	// b: "pk"(2)+"b"(1)+"x"(1)+"plain"(5) = 9.
	d := mustDescribe(t, c, table)
	require.Equal(t, int64(2), aws.ToInt64(d.ItemCount))
	require.Equal(t, int64(18+9), aws.ToInt64(d.TableSizeBytes))
}
