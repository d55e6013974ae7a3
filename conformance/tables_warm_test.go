package conformance

// Warm throughput (WarmThroughput on CreateTable, UpdateTable, GSI create
// and update actions, and in DescribeTable). DynamoDB Local ignores the
// member altogether (it neither reports nor checks it), so every test here
// is AWS-only. AWS's answers come from records of AWS responses:
//   - the developer guide, warm-throughput-scenarios.html ("A new on-demand
//     table starts with a warm throughput of 12,000 read units per second
//     and 4,000 write units per second");
//   - localstack/localstack tests/aws/services/dynamodb
//     test_dynamodb.snapshot.json (AWS-validated, 2025-10-08):
//     test_table_warm_throughput, test_gsi_with_billing_mode,
//     test_table_crud;
//   - aws-controllers-k8s/dynamodb-controller docs/api-quirks (AWS,
//     2026-10): DDB-TABLE-039, -059, -061, -179, -433, -442, -456.

import (
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

const warmDiffers = "DynamoDB Local ignores WarmThroughput: it neither checks nor reports it"

// warmOf renders a table's or GSI's WarmThroughput as read/write status.
func warmOf(read, write *int64, status string) string {
	return fmt.Sprintf("%d/%d %s", aws.ToInt64(read), aws.ToInt64(write), status)
}

func tableWarm(d *types.TableDescription) string {
	if d.WarmThroughput == nil {
		return "<none>"
	}
	return warmOf(d.WarmThroughput.ReadUnitsPerSecond, d.WarmThroughput.WriteUnitsPerSecond, string(d.WarmThroughput.Status))
}

func gsiWarm(d *types.TableDescription, index string) string {
	for _, g := range d.GlobalSecondaryIndexes {
		if aws.ToString(g.IndexName) == index {
			if g.WarmThroughput == nil {
				return "<none>"
			}
			return warmOf(g.WarmThroughput.ReadUnitsPerSecond, g.WarmThroughput.WriteUnitsPerSecond, string(g.WarmThroughput.Status))
		}
	}
	return "<no index " + index + ">"
}

// warmTableDef is a table keyed by pk with a GSI gsi1 keyed by gk; rw > 0
// makes it PROVISIONED at rw/rw (the GSI at 1/1).
func warmTableDef(rw int64) *dynamodb.CreateTableInput {
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("gk"), AttributeType: types.ScalarAttributeTypeS})
	g := types.GlobalSecondaryIndex{
		IndexName:  aws.String("gsi1"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("gk"), KeyType: types.KeyTypeHash}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
	}
	in.BillingMode = types.BillingModePayPerRequest
	if rw > 0 {
		in.BillingMode = types.BillingModeProvisioned
		in.ProvisionedThroughput = pt(rw, rw)
		g.ProvisionedThroughput = pt(1, 1)
	}
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{g}
	return in
}

// waitWarm polls DescribeTable on AWS until the table's and its GSIs'
// warm throughput are ACTIVE (AWS takes minutes to raise one); the
// emulator answers ACTIVE at once.
func waitWarm(t testing.TB, c *dynamodb.Client, name string) *types.TableDescription {
	t.Helper()
	deadline := time.Now().Add(15 * time.Minute)
	for {
		d := mustDescribe(t, c, name)
		done := d.WarmThroughput != nil && d.WarmThroughput.Status == types.TableStatusActive
		for _, g := range d.GlobalSecondaryIndexes {
			done = done && g.WarmThroughput != nil && g.WarmThroughput.Status == types.IndexStatusActive
		}
		if done || target(t).Oracle != OracleAWS || time.Now().After(deadline) {
			return d
		}
		time.Sleep(10 * time.Second)
	}
}

func TestWarmThroughputDefaults(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, warmDiffers)
	c := newClient(t)
	for _, tc := range []struct {
		name             string
		rw               int64
		wantTable, wantG string
	}{
		{"on demand", 0, "12000/4000 ACTIVE", "12000/4000 ACTIVE"},
		{"provisioned", 5, "5/5 ACTIVE", "1/1 ACTIVE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := warmTableDef(tc.rw)
			in.TableName = aws.String(uniqueName(t))
			out, err := c.CreateTable(ctx(t), in)
			require.NoError(t, err)
			t.Cleanup(func() { deleteTable(t, c, *in.TableName) })
			// CreateTable's answer has no warm throughput when none was asked for.
			require.Equal(t, "<none>", tableWarm(out.TableDescription))
			require.Equal(t, "<none>", gsiWarm(out.TableDescription, "gsi1"))
			d := waitWarm(t, c, *in.TableName)
			require.Equal(t, tc.wantTable, tableWarm(d))
			require.Equal(t, tc.wantG, gsiWarm(d, "gsi1"))
		})
	}

	t.Run("DeleteTable answers none", func(t *testing.T) {
		t.Parallel()
		name := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{}))
		out, err := c.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &name})
		require.NoError(t, err)
		require.Equal(t, "<none>", tableWarm(out.TableDescription))
	})
}

func TestWarmThroughputCreate(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, warmDiffers)
	c := newClient(t)

	t.Run("given values show UPDATING then ACTIVE", func(t *testing.T) {
		t.Parallel()
		in := warmTableDef(5)
		in.TableName = aws.String(uniqueName(t))
		in.WarmThroughput = &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(1000), WriteUnitsPerSecond: aws.Int64(1200)}
		in.GlobalSecondaryIndexes[0].WarmThroughput = &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(30)}
		out, err := c.CreateTable(ctx(t), in)
		require.NoError(t, err)
		t.Cleanup(func() { deleteTable(t, c, *in.TableName) })
		require.Equal(t, "1000/1200 UPDATING", tableWarm(out.TableDescription))
		require.Equal(t, "30/1 UPDATING", gsiWarm(out.TableDescription, "gsi1"))
		d := waitWarm(t, c, *in.TableName)
		require.Equal(t, "1000/1200 ACTIVE", tableWarm(d))
		require.Equal(t, "30/1 ACTIVE", gsiWarm(d, "gsi1"))
	})

	t.Run("one member on demand", func(t *testing.T) {
		t.Parallel()
		in := tableDef(keyDef{"pk", "S"}, keyDef{})
		in.WarmThroughput = &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(12001)}
		name := createTable(t, c, in)
		require.Equal(t, "12001/4000 ACTIVE", tableWarm(waitWarm(t, c, name)))
	})

	for _, tc := range []struct {
		name string
		mod  func(in *dynamodb.CreateTableInput)
		want string
	}{
		{"below on demand", func(in *dynamodb.CreateTableInput) {
			in.WarmThroughput = &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(1), WriteUnitsPerSecond: aws.Int64(1)}
		}, "One or more parameter values were invalid: Requested ReadUnitsPerSecond for WarmThroughput for table is lower than initial throughput for OnDemand. See: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial"},
		{"zero on demand", func(in *dynamodb.CreateTableInput) {
			in.WarmThroughput = &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(0), WriteUnitsPerSecond: aws.Int64(0)}
		}, "One or more parameter values were invalid: Requested ReadUnitsPerSecond for WarmThroughput for table is lower than initial throughput for OnDemand. See: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html#on-demand-capacity-mode-initial"},
		{"below provisioned capacity", func(in *dynamodb.CreateTableInput) {
			in.BillingMode = types.BillingModeProvisioned
			in.ProvisionedThroughput = pt(10, 10)
			in.WarmThroughput = &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(5), WriteUnitsPerSecond: aws.Int64(5)}
		}, "One or more parameter values were invalid: Requested ReadUnitsPerSecond for WarmThroughput for table is lower than ReadCapacityUnits of ProvisionedThroughput"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := tableDef(keyDef{"pk", "S"}, keyDef{})
			in.TableName = aws.String(uniqueName(t))
			in.BillingMode = types.BillingModePayPerRequest
			tc.mod(in)
			_, err := c.CreateTable(ctx(t), in)
			requireValidation(t, err, tc.want)
		})
	}
}

func TestWarmThroughputUpdate(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, warmDiffers)
	c := newClient(t)
	warm := func(r, w int64) *types.WarmThroughput {
		return &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(r), WriteUnitsPerSecond: aws.Int64(w)}
	}

	t.Run("raise alone is a valid update", func(t *testing.T) {
		t.Parallel()
		name := createTable(t, c, warmTableDef(0))
		out, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, WarmThroughput: warm(12001, 4001),
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{
				IndexName: aws.String("gsi1"), WarmThroughput: &types.WarmThroughput{WriteUnitsPerSecond: aws.Int64(4002)}}}}})
		require.NoError(t, err)
		// The answer shows the values before the change, UPDATING; the table stays ACTIVE.
		require.Equal(t, types.TableStatusActive, out.TableDescription.TableStatus)
		require.Equal(t, "12000/4000 UPDATING", tableWarm(out.TableDescription))
		require.Equal(t, "12000/4000 UPDATING", gsiWarm(out.TableDescription, "gsi1"))
		d := waitWarm(t, c, name)
		require.Equal(t, "12001/4001 ACTIVE", tableWarm(d))
		require.Equal(t, "12000/4002 ACTIVE", gsiWarm(d, "gsi1"))

		// The same values again are accepted; lower ones are not.
		_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, WarmThroughput: warm(12001, 4001)})
		require.NoError(t, err)
		waitWarm(t, c, name)
		_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, WarmThroughput: warm(12000, 4001)})
		requireValidation(t, err, "One or more parameter values were invalid: Requested ReadUnitsPerSecond for WarmThroughput for table is lower than current WarmThroughput, decreasing WarmThroughput is not supported")
		_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{
			Update: &types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("gsi1"), WarmThroughput: &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(1)}}}}})
		requireValidation(t, err, "One or more parameter values were invalid: Requested ReadUnitsPerSecond for WarmThroughput for index gsi1 is lower than current WarmThroughput, decreasing WarmThroughput is not supported")
	})

	t.Run("provisioned tracks the highest capacity", func(t *testing.T) {
		t.Parallel()
		name := provisionedTable(t, c, 1, 1)
		for _, rw := range []int64{3, 1} {
			mustUpdate(t, c, name, func(in *dynamodb.UpdateTableInput) { in.ProvisionedThroughput = pt(rw, rw) })
		}
		require.Equal(t, "3/3 ACTIVE", tableWarm(waitWarm(t, c, name)))
		_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, WarmThroughput: warm(1, 1)})
		requireValidation(t, err, "One or more parameter values were invalid: Requested ReadUnitsPerSecond for WarmThroughput for table is lower than current WarmThroughput, decreasing WarmThroughput is not supported")
		mustUpdate(t, c, name, func(in *dynamodb.UpdateTableInput) { in.BillingMode = types.BillingModePayPerRequest })
		require.Equal(t, "12000/4000 ACTIVE", tableWarm(waitWarm(t, c, name)))
		mustUpdate(t, c, name, func(in *dynamodb.UpdateTableInput) {
			in.BillingMode = types.BillingModeProvisioned
			in.ProvisionedThroughput = pt(1, 1)
		})
		require.Equal(t, "12000/4000 ACTIVE", tableWarm(waitWarm(t, c, name)))
	})

	t.Run("refused combinations", func(t *testing.T) {
		t.Parallel()
		name := createTable(t, c, warmTableDef(0))
		for _, tc := range []struct {
			name string
			mod  func(in *dynamodb.UpdateTableInput)
			want string
		}{
			{"with billing mode", func(in *dynamodb.UpdateTableInput) {
				in.WarmThroughput, in.BillingMode = warm(13000, 5000), types.BillingModePayPerRequest
			}, "One or more parameter values were invalid: WarmThroughput must be the only operation in the request"},
			{"with deletion protection", func(in *dynamodb.UpdateTableInput) {
				in.WarmThroughput, in.DeletionProtectionEnabled = warm(13000, 5000), aws.Bool(false)
			}, "One or more parameter values were invalid: DeletionProtection modification must be the only operation in the request"},
			{"with on-demand limits", func(in *dynamodb.UpdateTableInput) {
				in.WarmThroughput = warm(13000, 5000)
				in.OnDemandThroughput = &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(100)}
			}, "One or more parameter values were invalid: OnDemandThroughput can only be combined with BillingMode in an UpdateTable request"},
			{"with an index creation", func(in *dynamodb.UpdateTableInput) {
				in.WarmThroughput = warm(13000, 5000)
				in.AttributeDefinitions = []types.AttributeDefinition{{AttributeName: aws.String("hk"), AttributeType: types.ScalarAttributeTypeS}}
				in.GlobalSecondaryIndexUpdates = []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
					IndexName: aws.String("hgsi"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("hk"), KeyType: types.KeyTypeHash}},
					Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}}
			}, "One or more parameter values were invalid: Create global secondary index cannot be specified when updating WarmThroughput"},
			{"index update with nothing on demand", func(in *dynamodb.UpdateTableInput) {
				in.GlobalSecondaryIndexUpdates = []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("gsi1")}}}
			}, "One or more parameter values were invalid: The only Updates for index: gsi1 when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput, WarmThroughput"},
			{"index update with an empty warm throughput", func(in *dynamodb.UpdateTableInput) {
				in.GlobalSecondaryIndexUpdates = []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("gsi1"), WarmThroughput: &types.WarmThroughput{}}}}
			}, "One or more parameter values were invalid: WarmThroughput must have at least one of ReadUnitsPerSecond or WriteUnitsPerSecond specified for index: gsi1"},
		} {
			in := &dynamodb.UpdateTableInput{TableName: &name}
			tc.mod(in)
			_, err := c.UpdateTable(ctx(t), in)
			requireValidation(t, err, tc.want)
		}
	})

	t.Run("an empty index warm throughput is refused before the table is looked up", func(t *testing.T) {
		t.Parallel()
		_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: aws.String(uniqueName(t)),
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{
				IndexName: aws.String("ghost"), WarmThroughput: &types.WarmThroughput{}}}}})
		requireValidation(t, err, "One or more parameter values were invalid: WarmThroughput must have at least one of ReadUnitsPerSecond or WriteUnitsPerSecond specified for index: ghost")
	})
}

// TestWarmThroughputRestored: a table restored from a backup keeps the
// warm throughput its source had raised. No record of AWS's answer for
// a restored table was found; the emulator keeps the source's, as it
// keeps its capacity (DynamoDB Local has no backups).
func TestWarmThroughputRestored(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, backupsLacking)
	c := newClient(t)
	name := createTable(t, c, warmTableDef(0))
	mustUpdate(t, c, name, func(in *dynamodb.UpdateTableInput) {
		in.WarmThroughput = &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(13000), WriteUnitsPerSecond: aws.Int64(5000)}
	})
	waitWarm(t, c, name)
	bk := mustBackup(t, c, name, "warm")
	waitBackup(t, c, aws.ToString(bk.BackupArn))
	target := uniqueName(t)
	_, err := c.RestoreTableFromBackup(ctx(t), &dynamodb.RestoreTableFromBackupInput{TargetTableName: &target, BackupArn: bk.BackupArn})
	require.NoError(t, err)
	t.Cleanup(func() { deleteTable(t, c, target) })
	waitActive(t, c, target)
	d := waitWarm(t, c, target)
	require.Equal(t, "13000/5000 ACTIVE", tableWarm(d))
	require.Equal(t, "12000/4000 ACTIVE", gsiWarm(d, "gsi1"))
}

// TestWarmThroughputReplicas: a warm throughput raised on one replica of
// a global table reaches the others ("the warm throughput settings you
// set will automatically apply to all replica tables in the global
// table": developer guide, warm-throughput.html).
func TestWarmThroughputReplicas(t *testing.T) {
	AWSDiffers(t, lacking("global tables", "API_UpdateTable (ReplicaUpdates)"))
	t.Parallel()
	key := uniqueKey(t)
	east := newClient(t, withAccessKey(key), withRegion("us-east-1"))
	west := newClient(t, withAccessKey(key), withRegion("eu-west-1"))
	table := createTable(t, east, tableDef(keyDef{"pk", "S"}, keyDef{}))
	_, err := east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String("eu-west-1")}}}})
	require.NoError(t, err)
	eventually(t, "replica ACTIVE", func() bool {
		d := mustDescribe(t, east, table)
		return len(d.Replicas) == 1 && d.Replicas[0].ReplicaStatus == types.ReplicaStatusActive && d.TableStatus == types.TableStatusActive
	})
	mustUpdate(t, east, table, func(in *dynamodb.UpdateTableInput) {
		in.WarmThroughput = &types.WarmThroughput{ReadUnitsPerSecond: aws.Int64(14000)}
	})
	eventually(t, "warm throughput in the replica", func() bool {
		return tableWarm(mustDescribe(t, west, table)) == "14000/4000 ACTIVE"
	})
	// The source cannot be deleted for 24 hours; the replica can, which
	// takes it out of the group and lets the cleanup delete the source.
	_, err = west.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &table})
	require.NoError(t, err)
	eventually(t, "replica gone", func() bool { return len(mustDescribe(t, east, table).Replicas) == 0 })
}
