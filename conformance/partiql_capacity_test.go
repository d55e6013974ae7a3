package conformance

// PartiQL write capacity under ReturnConsumedCapacity INDEXES, as
// TransactWriteItems and BatchWriteItem report it. AWS's answers as
// captured against AWS (eu-west-2, August 2026) and published by
// nubo-db/dynoxide: tests/partiql_index_consumed_capacity.rs (captures
// D1, M1, M4, M5, U2, R3) and tests/transactional_index_consumed_capacity.rs
// (captures A3, A12 and the TOTAL-mode A3), on a table keyed pk/sk with
// a GSI gsi-inc on gsiPk projecting INCLUDE [proj] and an LSI lsi-all on
// pk/lsiSk projecting ALL. DynamoDB Local reports no ConsumedCapacity for
// PartiQL, so every test here is marked AWSDiffers.

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

const awsPartiQLCapacity = "DynamoDB Local leaves ConsumedCapacity out of PartiQL answers"

// capacityIndexTable creates the captures' table: pk/sk (S), a GSI
// gsi-inc on gsiPk projecting INCLUDE [proj], an LSI lsi-all on
// pk/lsiSk projecting ALL.
func capacityIndexTable(t *testing.T, c *dynamodb.Client) string {
	t.Helper()
	in := tableDef(keyDef{"pk", "S"}, keyDef{"sk", "S"})
	in.AttributeDefinitions = append(in.AttributeDefinitions, ads("gsiPk", "S", "lsiSk", "S")...)
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsiDef("gsi-inc", "gsiPk", "", types.ProjectionTypeInclude, "proj")}
	in.LocalSecondaryIndexes = []types.LocalSecondaryIndex{lsiDef("lsi-all", "lsiSk", types.ProjectionTypeAll)}
	return createTable(t, c, in)
}

// capacityArms renders one table's ConsumedCapacity: its total, its
// WriteCapacityUnits when given, and under INDEXES the table's and each
// index's units (with their WriteCapacityUnits when given).
func capacityArms(cc types.ConsumedCapacity) string {
	var b strings.Builder
	b.WriteString(aws.ToString(cc.TableName) + " total=" + fmtUnits(cc.CapacityUnits))
	if cc.WriteCapacityUnits != nil {
		b.WriteString("/w" + fmtUnits(cc.WriteCapacityUnits))
	}
	arm := func(name string, c types.Capacity) {
		b.WriteString(" " + name + "=" + fmtUnits(c.CapacityUnits))
		if c.WriteCapacityUnits != nil {
			b.WriteString("/w" + fmtUnits(c.WriteCapacityUnits))
		}
	}
	if cc.Table != nil {
		arm("table", *cc.Table)
	}
	for _, name := range slices.Sorted(maps.Keys(cc.GlobalSecondaryIndexes)) {
		arm(name, cc.GlobalSecondaryIndexes[name])
	}
	for _, name := range slices.Sorted(maps.Keys(cc.LocalSecondaryIndexes)) {
		arm(name, cc.LocalSecondaryIndexes[name])
	}
	return b.String()
}

func fmtUnits(f *float64) string { return strconv.FormatFloat(aws.ToFloat64(f), 'g', -1, 64) }

// TestExecuteTransactionIndexCapacity: an INSERT in ExecuteTransaction
// charges the table twice (a transactional write) and each index it
// touches once, as TransactWriteItems does, WriteCapacityUnits at every
// level; TOTAL folds the arms into the total. A ConditionCheck (EXISTS)
// touches no index.
func TestExecuteTransactionIndexCapacity(t *testing.T) {
	AWSDiffers(t, awsPartiQLCapacity)
	t.Parallel()
	c := newClient(t)
	tbl := capacityIndexTable(t, c)
	q := quoted(tbl)
	out, err := c.ExecuteTransaction(ctx(t), &dynamodb.ExecuteTransactionInput{
		TransactStatements:     stmts("INSERT INTO " + q + " VALUE {'pk':'d1','sk':'1','gsiPk':'g1','lsiSk':'L1','proj':'p'}"),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
	})
	require.NoError(t, err)
	require.Len(t, out.ConsumedCapacity, 1)
	require.Equal(t, tbl+" total=4/w4 table=2/w2 gsi-inc=1/w1 lsi-all=1/w1", capacityArms(out.ConsumedCapacity[0]))

	// TransactWriteItems: the same item, the same answer (capture A3), and
	// under TOTAL the same total with no arms.
	put := &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{{Put: &types.Put{TableName: &tbl,
			Item: item{"pk": s("a3"), "sk": s("1"), "gsiPk": s("g1"), "lsiSk": s("L1"), "proj": s("p")}}}},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
	}
	tw, err := c.TransactWriteItems(ctx(t), put)
	require.NoError(t, err)
	require.Len(t, tw.ConsumedCapacity, 1)
	require.Equal(t, tbl+" total=4/w4 table=2/w2 gsi-inc=1/w1 lsi-all=1/w1", capacityArms(tw.ConsumedCapacity[0]))
	put.TransactItems[0].Put.Item["pk"] = s("t1")
	put.ClientRequestToken = nil // the SDK filled in one for the first request
	put.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	tw, err = c.TransactWriteItems(ctx(t), put)
	require.NoError(t, err)
	require.Len(t, tw.ConsumedCapacity, 1)
	require.Equal(t, tbl+" total=4/w4", capacityArms(tw.ConsumedCapacity[0]))

	// A condition check charges the table alone (capture A12).
	out, err = c.ExecuteTransaction(ctx(t), &dynamodb.ExecuteTransactionInput{
		TransactStatements: stmts(
			"EXISTS(SELECT * FROM "+q+" WHERE pk='d1' AND sk='1' AND gsiPk='g1')",
			"INSERT INTO "+q+" VALUE {'pk':'d2','sk':'1','other':'o'}",
		),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
	})
	require.NoError(t, err)
	require.Len(t, out.ConsumedCapacity, 1)
	require.Equal(t, tbl+" total=4/w4 table=4/w4", capacityArms(out.ConsumedCapacity[0]))
}

// batchCapacity runs a BatchExecuteStatement of texts under INDEXES.
func batchCapacity(t *testing.T, c *dynamodb.Client, texts ...string) *dynamodb.BatchExecuteStatementOutput {
	t.Helper()
	out, err := c.BatchExecuteStatement(ctx(t), &dynamodb.BatchExecuteStatementInput{
		Statements:             batchStatements(texts...),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
	})
	require.NoError(t, err)
	return out
}

// TestBatchExecuteStatementIndexCapacity: the statements of a batch are
// summed per table, each index arm too (capture M5: two inserts of GSI
// items report total 4 = table 2 + GSI 2), as BatchWriteItem sums them.
func TestBatchExecuteStatementIndexCapacity(t *testing.T) {
	AWSDiffers(t, awsPartiQLCapacity)
	t.Parallel()
	c := newClient(t)
	tbl := capacityIndexTable(t, c)
	q := quoted(tbl)
	out := batchCapacity(t, c,
		"INSERT INTO "+q+" VALUE {'pk':'m5','sk':'1','gsiPk':'g1'}",
		"INSERT INTO "+q+" VALUE {'pk':'m6','sk':'1','gsiPk':'g1'}",
	)
	require.Len(t, out.ConsumedCapacity, 1)
	require.Equal(t, tbl+" total=4 table=2 gsi-inc=2", capacityArms(out.ConsumedCapacity[0]))

	bw, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{
		RequestItems: map[string][]types.WriteRequest{tbl: {
			{PutRequest: &types.PutRequest{Item: item{"pk": s("b1"), "sk": s("1"), "gsiPk": s("g1")}}},
			{PutRequest: &types.PutRequest{Item: item{"pk": s("b2"), "sk": s("1"), "gsiPk": s("g1")}}},
		}},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
	})
	require.NoError(t, err)
	require.Len(t, bw.ConsumedCapacity, 1)
	require.Equal(t, capacityArms(out.ConsumedCapacity[0]), capacityArms(bw.ConsumedCapacity[0]))
}

// TestBatchExecuteStatementFailedCapacity: a statement that ran and failed
// (an INSERT of an existing item) is charged on the table's total and on
// no arm, sized on the larger of the item stored and the item it carried
// (captures M4, U2); a table whose statements all failed gets no entry
// (R3), so a batch of failures reports no ConsumedCapacity (M1).
func TestBatchExecuteStatementFailedCapacity(t *testing.T) {
	AWSDiffers(t, awsPartiQLCapacity)
	t.Parallel()
	c := newClient(t)
	tbl := capacityIndexTable(t, c)
	other := capacityIndexTable(t, c)
	q := quoted(tbl)
	mustPut(t, c, tbl, item{"pk": s("m4"), "sk": s("1"), "gsiPk": s("g1")})
	mustPut(t, c, tbl, item{"pk": s("u1"), "sk": s("1"), "proj": s(strings.Repeat("x", 3000))})
	mustPut(t, c, tbl, item{"pk": s("u3"), "sk": s("1")})

	// M4: one failure beside one success: total 3, arms 1 and 1.
	out := batchCapacity(t, c,
		"INSERT INTO "+q+" VALUE {'pk':'m4','sk':'1','gsiPk':'g1'}",
		"INSERT INTO "+q+" VALUE {'pk':'m7','sk':'1','gsiPk':'g1'}",
	)
	require.Equal(t, types.BatchStatementErrorCodeEnumDuplicateItem, out.Responses[0].Error.Code)
	require.Len(t, out.ConsumedCapacity, 1)
	require.Equal(t, tbl+" total=3 table=1 gsi-inc=1", capacityArms(out.ConsumedCapacity[0]))

	// U2: a tiny INSERT over a 3 KB item is charged 3, a tiny one over a
	// tiny item 1: total 1 + 3 + 2.
	out = batchCapacity(t, c,
		"INSERT INTO "+q+" VALUE {'pk':'u3','sk':'1'}",
		"INSERT INTO "+q+" VALUE {'pk':'u1','sk':'1'}",
		"INSERT INTO "+q+" VALUE {'pk':'u5','sk':'1','gsiPk':'g1'}",
	)
	require.Len(t, out.ConsumedCapacity, 1)
	require.Equal(t, tbl+" total=6 table=1 gsi-inc=1", capacityArms(out.ConsumedCapacity[0]))

	// R3: the table whose only statement failed has no entry.
	out = batchCapacity(t, c,
		"INSERT INTO "+q+" VALUE {'pk':'m4','sk':'1','gsiPk':'g1'}",
		"INSERT INTO "+quoted(other)+" VALUE {'pk':'x1','sk':'1','gsiPk':'g1'}",
	)
	require.Len(t, out.ConsumedCapacity, 1)
	require.Equal(t, other+" total=2 table=1 gsi-inc=1", capacityArms(out.ConsumedCapacity[0]))

	// M1: nothing succeeded, no ConsumedCapacity.
	out = batchCapacity(t, c, "INSERT INTO "+q+" VALUE {'pk':'m4','sk':'1','gsiPk':'g1'}")
	require.NotNil(t, out.Responses[0].Error)
	require.Empty(t, out.ConsumedCapacity)
}
