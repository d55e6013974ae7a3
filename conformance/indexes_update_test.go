package conformance

// Adding and dropping global secondary indexes with UpdateTable:
// the index goes CREATING then ACTIVE and is backfilled from the table's
// items; a deleted index goes DELETING then disappears; and what
// GlobalSecondaryIndexUpdates refuses.

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// gsiOf returns the description of the GSI name in d, or nil.
func gsiOf(d *types.TableDescription, name string) *types.GlobalSecondaryIndexDescription {
	for i := range d.GlobalSecondaryIndexes {
		if aws.ToString(d.GlobalSecondaryIndexes[i].IndexName) == name {
			return &d.GlobalSecondaryIndexes[i]
		}
	}
	return nil
}

// waitIndex polls DescribeTable until done holds for the description of
// index (nil once the index is gone), and returns the table description.
func waitIndex(t testing.TB, c *dynamodb.Client, table, index string, done func(*types.GlobalSecondaryIndexDescription) bool) *types.TableDescription {
	t.Helper()
	deadline := time.Now().Add(20 * time.Minute) // AWS backfills take minutes
	for {
		d := mustDescribe(t, c, table)
		if done(gsiOf(d, index)) {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatalf("index %s of %s: still %+v", index, table, gsiOf(d, index))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func isActive(x *types.GlobalSecondaryIndexDescription) bool {
	return x != nil && x.IndexStatus == types.IndexStatusActive
}

func isGone(x *types.GlobalSecondaryIndexDescription) bool { return x == nil }

func createGSI(index, hash, rng string, proj types.ProjectionType, nonKey ...string) types.GlobalSecondaryIndexUpdate {
	x := gsiDef(index, hash, rng, proj, nonKey...)
	return types.GlobalSecondaryIndexUpdate{Create: &types.CreateGlobalSecondaryIndexAction{
		IndexName: x.IndexName, KeySchema: x.KeySchema, Projection: x.Projection}}
}

func deleteGSI(index string) types.GlobalSecondaryIndexUpdate {
	return types.GlobalSecondaryIndexUpdate{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String(index)}}
}

func TestIndexUpdateTableCreate(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	for _, billing := range []string{"on-demand", "provisioned"} {
		t.Run(billing, func(t *testing.T) {
			t.Parallel()
			in := tableDef(keyDef{"pk", "S"}, keyDef{"sk", "N"})
			if billing == "provisioned" {
				in.ProvisionedThroughput = pt(5, 5)
			}
			table := createTable(t, c, in)
			for i := 0; i < 7; i++ {
				it := item{"pk": s(fmt.Sprintf("p%d", i%2)), "sk": n(fmt.Sprint(i)), "v": s(fmt.Sprint("v", i))}
				if i != 3 {
					it["h"], it["hr"] = s(fmt.Sprint("H", i%3)), s(fmt.Sprint("r", i))
				}
				mustPut(t, c, table, it)
			}
			up := createGSI("byH", "h", "hr", types.ProjectionTypeInclude, "v")
			if billing == "provisioned" {
				up.Create.ProvisionedThroughput = pt(2, 3)
			}
			out, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
				AttributeDefinitions: ads("h", "S", "hr", "S"), GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{up}})
			mustNoError(t, err)
			x := gsiOf(out.TableDescription, "byH")
			if x == nil {
				t.Fatalf("UpdateTable answer has no byH: %+v", out.TableDescription.GlobalSecondaryIndexes)
			}
			if x.IndexStatus != types.IndexStatusCreating {
				t.Errorf("IndexStatus in the UpdateTable answer: got %q, want CREATING", x.IndexStatus)
			}
			if got := keySchemaString(x.KeySchema); got != "h:HASH,hr:RANGE" {
				t.Errorf("KeySchema: got %s", got)
			}
			if x.Projection == nil || x.Projection.ProjectionType != types.ProjectionTypeInclude || fmt.Sprint(x.Projection.NonKeyAttributes) != "[v]" {
				t.Errorf("Projection: got %+v", x.Projection)
			}
			if got, want := attrDefsString(out.TableDescription.AttributeDefinitions), "h:S,hr:S,pk:S,sk:N"; got != want {
				t.Errorf("AttributeDefinitions: got %s, want %s", got, want)
			}
			if billing == "provisioned" {
				if p := x.ProvisionedThroughput; p == nil || aws.ToInt64(p.ReadCapacityUnits) != 2 || aws.ToInt64(p.WriteCapacityUnits) != 3 {
					t.Errorf("ProvisionedThroughput: got %+v, want 2/3", p)
				}
			}

			d := waitIndex(t, c, table, "byH", isActive)
			if x := gsiOf(d, "byH"); x.ItemCount == nil || x.IndexSizeBytes == nil || aws.ToString(x.IndexArn) != aws.ToString(d.TableArn)+"/index/byH" {
				t.Errorf("ACTIVE byH: ItemCount %v, IndexSizeBytes %v, IndexArn %q", x.ItemCount, x.IndexSizeBytes, aws.ToString(x.IndexArn))
			}
			// Backfilled: every item with both keys, projected; item 3 has none.
			mustPut(t, c, table, item{"pk": s("late"), "sk": n("0"), "h": s("H1"), "hr": s("r9"), "v": s("late"), "w": s("not projected")})
			q, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, IndexName: aws.String("byH"),
				KeyConditionExpression: aws.String("h = :h"), ExpressionAttributeValues: item{":h": s("H1")}})
			mustNoError(t, err)
			requireItems(t, q.Items, []item{
				{"pk": s("p1"), "sk": n("1"), "h": s("H1"), "hr": s("r1"), "v": s("v1")},
				{"pk": s("p0"), "sk": n("4"), "h": s("H1"), "hr": s("r4"), "v": s("v4")},
				{"pk": s("late"), "sk": n("0"), "h": s("H1"), "hr": s("r9"), "v": s("late")},
			})
			all, _ := scanAll(t, c, &dynamodb.ScanInput{TableName: &table, IndexName: aws.String("byH")})
			if got := sortedFields(all, "hr"); got != "r0 r1 r2 r4 r5 r6 r9" {
				t.Errorf("scan of byH: got hr %s, want r0 r1 r2 r4 r5 r6 r9", got)
			}
			// The new key's type now binds writes.
			_, err = c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: item{"pk": s("bad"), "sk": n("0"), "h": n("1")}})
			requireValidation(t, err, "")
		})
	}
}

func TestIndexUpdateTableDelete(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	// DynamoDB Local leaves a deleted GSI DELETING for ever when an index
	// listed before it has the same key attribute, so the index deleted
	// here has key attributes of its own.
	in := tableDef(keyDef{"pk", "S"}, keyDef{"sk", "S"})
	in.AttributeDefinitions = append(in.AttributeDefinitions, ads("g", "S", "gs", "N", "h", "S", "ls", "S")...)
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{
		gsiDef("byG", "g", "gs", types.ProjectionTypeAll),
		gsiDef("byH", "h", "", types.ProjectionTypeKeysOnly),
	}
	in.LocalSecondaryIndexes = []types.LocalSecondaryIndex{lsiDef("byL", "ls", types.ProjectionTypeAll)}
	table := createTable(t, c, in)
	mustPut(t, c, table, item{"pk": s("p"), "sk": s("1"), "g": s("G"), "gs": n("1"), "h": s("H"), "ls": s("l")})
	out, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{deleteGSI("byH")}})
	mustNoError(t, err)
	if x := gsiOf(out.TableDescription, "byH"); x == nil || x.IndexStatus != types.IndexStatusDeleting {
		t.Fatalf("byH in the UpdateTable answer: got %+v, want IndexStatus DELETING", x)
	}
	d := waitIndex(t, c, table, "byH", isGone)
	if len(d.GlobalSecondaryIndexes) != 1 || len(d.LocalSecondaryIndexes) != 1 {
		t.Fatalf("got %d GSIs and %d LSIs, want 1 and 1", len(d.GlobalSecondaryIndexes), len(d.LocalSecondaryIndexes))
	}
	_, err = c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, IndexName: aws.String("byH"),
		KeyConditionExpression: aws.String("h = :h"), ExpressionAttributeValues: item{":h": s("H")}})
	requireValidation(t, err, "The table does not have the specified index: byH")
	// The indexes left keep working.
	for _, q := range []*dynamodb.QueryInput{
		{TableName: &table, IndexName: aws.String("byG"), KeyConditionExpression: aws.String("g = :v"), ExpressionAttributeValues: item{":v": s("G")}},
		{TableName: &table, IndexName: aws.String("byL"), KeyConditionExpression: aws.String("pk = :v"), ExpressionAttributeValues: item{":v": s("p")}},
	} {
		out, err := c.Query(ctx(t), q)
		mustNoError(t, err)
		if out.Count != 1 {
			t.Fatalf("%s: Count %d, want 1", aws.ToString(q.IndexName), out.Count)
		}
	}

	t.Run("last index on its attributes", func(t *testing.T) {
		in := tableDef(keyDef{"pk", "S"}, keyDef{})
		in.AttributeDefinitions = append(in.AttributeDefinitions, ads("h", "N")...)
		in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsiDef("byH", "h", "", types.ProjectionTypeAll)}
		tbl := createTable(t, c, in)
		mustUpdate(t, c, tbl, func(in *dynamodb.UpdateTableInput) {
			in.GlobalSecondaryIndexUpdates = []types.GlobalSecondaryIndexUpdate{deleteGSI("byH")}
		})
		d := waitIndex(t, c, tbl, "byH", isGone)
		if len(d.GlobalSecondaryIndexes) != 0 {
			t.Fatalf("GlobalSecondaryIndexes: got %d, want none", len(d.GlobalSecondaryIndexes))
		}
		// h is no longer a key: any type goes.
		mustPut(t, c, tbl, item{"pk": s("a"), "h": s("text now")})
	})
}

func TestIndexUpdateTableErrors(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := indexTable(t, c)
	prov := func() string {
		in := tableDef(keyDef{"pk", "S"}, keyDef{})
		in.AttributeDefinitions = append(in.AttributeDefinitions, ads("g", "S")...)
		in.ProvisionedThroughput = pt(5, 5)
		x := gsiDef("byG", "g", "", types.ProjectionTypeAll)
		x.ProvisionedThroughput = pt(1, 1)
		in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{x}
		return createTable(t, c, in)
	}()
	newKey := ads("h", "S")
	tests := []struct {
		name, table string
		defs        []types.AttributeDefinition
		updates     []types.GlobalSecondaryIndexUpdate
		code, msg   string
	}{
		{"create with the name of a GSI", table, ads("g", "S"), []types.GlobalSecondaryIndexUpdate{createGSI("byG", "g", "", types.ProjectionTypeAll)},
			"ValidationException", "Attempting to create an index which already exists"},
		{"create with the name of an LSI", table, newKey, []types.GlobalSecondaryIndexUpdate{createGSI("byL", "h", "", types.ProjectionTypeAll)},
			"ValidationException", "Attempting to create an index which already exists"},
		{"create without AttributeDefinitions", table, nil, []types.GlobalSecondaryIndexUpdate{createGSI("byH", "h", "", types.ProjectionTypeAll)},
			"ValidationException", "One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [h], AttributeDefinitions: []"},
		{"create without a definition of its key", table, ads("g", "S"), []types.GlobalSecondaryIndexUpdate{createGSI("byH", "h", "", types.ProjectionTypeAll)},
			"ValidationException", "One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [h], AttributeDefinitions: [g]"},
		// AWS (architect#334, npdynamodb#29).
		{"two creates", table, ads("h", "S", "i", "S"), []types.GlobalSecondaryIndexUpdate{
			createGSI("byH", "h", "", types.ProjectionTypeAll), createGSI("byI", "i", "", types.ProjectionTypeAll)},
			"LimitExceededException", "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table"},
		{"create and delete", table, newKey, []types.GlobalSecondaryIndexUpdate{createGSI("byH", "h", "", types.ProjectionTypeAll), deleteGSI("byGKeys")},
			"LimitExceededException", "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table"},
		{"two deletes", table, nil, []types.GlobalSecondaryIndexUpdate{deleteGSI("byGKeys"), deleteGSI("byGInc")},
			"LimitExceededException", "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table"},
		{"delete a missing index", table, nil, []types.GlobalSecondaryIndexUpdate{deleteGSI("nope")},
			"ResourceNotFoundException", "Requested resource not found"},
		{"delete an LSI", table, nil, []types.GlobalSecondaryIndexUpdate{deleteGSI("byL")},
			"ValidationException", "Cannot delete an index that is not a GlobalSecondaryIndex"},
		{"update a missing index", prov, nil, []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{
			IndexName: aws.String("nope"), ProvisionedThroughput: pt(2, 2)}}},
			"ValidationException", "Invalid global secondary index name"},
	}
	t.Run("refused", func(t *testing.T) {
		for _, tc := range tests {
			// One at a time: concurrent UpdateTable calls on one table make
			// DynamoDB Local answer InternalFailure now and then under load.
			t.Run(tc.name, func(t *testing.T) {
				if tc.name == "create without AttributeDefinitions" {
					// ScyllaDB's AWS-verified test_gsi_updatetable.py
					// (2024) finds "AttributeDefinitions" in AWS's answer;
					// the sentence is CreateTable's for undefined keys.
					AWSDiffers(t, `an index created without AttributeDefinitions: DynamoDB Local says "No Attribute Schema Defined"; AWS names AttributeDefinitions`)
				}
				if tc.name == "create without a definition of its key" {
					// Captured against AWS (eu-west-2) by nubo-db/dynoxide
					// (its thread on new indexes' definitions): "Some index key attributes are not
					// defined in AttributeDefinitions"; the sentence is
					// CreateTable's for undefined keys.
					AWSDiffers(t, `an index key the request does not define: DynamoDB Local says "Attribute h is not defined in AttributeDefinitions"`)
				}
				in := &dynamodb.UpdateTableInput{TableName: aws.String(tc.table),
					AttributeDefinitions: tc.defs, GlobalSecondaryIndexUpdates: tc.updates}
				_, err := c.UpdateTable(ctx(t), in)
				// Even one at a time, DynamoDB Local answers these with
				// InternalFailure now and then under load, past the SDK's
				// own retries (three helpers saw it, and a CI rehearsal of
				// stop 33 on two_creates): asked again a while later it
				// answers as AWS does. The emulator is asked once.
				for try := 0; try < 5 && target(t).Oracle != "" && apiErrorCode(err) == "InternalFailure"; try++ {
					t.Logf("DynamoDB Local answered InternalFailure; asking again")
					time.Sleep(time.Second)
					_, err = c.UpdateTable(ctx(t), in)
				}
				requireAPIError(t, err, tc.code, tc.msg)
			})
		}
		t.Run("create with throughput on an on-demand table", func(t *testing.T) {
			t.Parallel()
			// AWS's answer, quoted in aws/aws-cli#4303.
			AWSDiffers(t, "DynamoDB Local accepts ProvisionedThroughput for a new index of a PAY_PER_REQUEST table")
			up := createGSI("byH", "h", "", types.ProjectionTypeAll)
			up.Create.ProvisionedThroughput = pt(1, 1)
			_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, AttributeDefinitions: newKey,
				GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{up}})
			requireValidation(t, err, "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified for index: byH when BillingMode is PAY_PER_REQUEST")
		})
	})
	// A refused update changes nothing.
	d := mustDescribe(t, c, table)
	var names []string
	for _, x := range d.GlobalSecondaryIndexes {
		names = append(names, aws.ToString(x.IndexName)+":"+string(x.IndexStatus))
	}
	sort.Strings(names)
	if got := strings.Join(names, " "); got != "byG:ACTIVE byGInc:ACTIVE byGKeys:ACTIVE" {
		t.Fatalf("GSIs after the refused updates: got %s", got)
	}
	if got := attrDefsString(d.AttributeDefinitions); got != "g:S,gs:N,ls:S,pk:S,sk:S" {
		t.Fatalf("AttributeDefinitions after the refused updates: got %s", got)
	}
}
