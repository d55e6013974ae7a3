package emulator_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// The Terraform AWS provider's waiters for aws_dynamodb_table, replayed
// against the emulator through the SDK: each polls a status (a refresh
// function of DescribeTable, DescribeTimeToLive or
// DescribeContinuousBackups) and fails on a state that is neither pending
// nor its target, or when the resource stays not found where a target
// is wanted. The states and the status functions are those of
// hashicorp/terraform-provider-aws internal/service/dynamodb (wait.go,
// status.go, read 2026-11-26): tables, GSIs and their warm throughput,
// TTL, PITR, SSE, replicas, and their deletion. The provider >= 6.13
// waits on WarmThroughput.Status; for an account of 000000000000
// (DynamoDB Local's, and the emulator's by default) it takes the table's
// own status instead, so the replay asks for WarmThroughput.Status too,
// as it would for any other account.

// refresh is a status function: the state, found false for a resource
// that is not there.
type refresh func(ctx context.Context) (state string, found bool, err error)

// waitState polls r until it reaches a target (none: until the resource
// is gone), failing on a state outside pending and target, as the
// provider's StateChangeConf does. The emulator has no transient states
// by default, so a bounded number of polls is enough.
func waitState(t *testing.T, what string, r refresh, pending, target []string) {
	t.Helper()
	ctx := context.Background()
	for range 50 {
		state, found, err := r(ctx)
		require.NoError(t, err, what)
		if !found {
			if len(target) == 0 {
				return
			}
			continue // the provider retries a not found up to its NotFoundChecks
		}
		if slices.Contains(target, state) {
			return
		}
		require.Contains(t, pending, state, "%s: unexpected state %q (target %v)", what, state, target)
	}
	t.Fatalf("%s: never reached %v", what, target)
}

func describe(ctx context.Context, db *dynamodb.Client, table string) (*types.TableDescription, bool, error) {
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	var nf *types.ResourceNotFoundException
	if errors.As(err, &nf) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return out.Table, true, nil
}

func TestTerraformWaiters(t *testing.T) {
	_, db := emulatortest.NewWith(t, emulator.Options{})
	ctx := context.Background()
	const table = "tf-table"
	statusTable := func(ctx context.Context) (string, bool, error) {
		d, ok, err := describe(ctx, db, table)
		if !ok || err != nil {
			return "", ok, err
		}
		return string(d.TableStatus), true, nil
	}
	statusTableWarm := func(ctx context.Context) (string, bool, error) {
		d, ok, err := describe(ctx, db, table)
		if !ok || err != nil || d.TableArn == nil {
			return "", false, err
		}
		if d.WarmThroughput == nil {
			return "", true, nil
		}
		return string(d.WarmThroughput.Status), true, nil
	}
	gsi := func(name string, warm bool) refresh {
		return func(ctx context.Context) (string, bool, error) {
			d, ok, err := describe(ctx, db, table)
			if !ok || err != nil {
				return "", ok, err
			}
			for _, g := range d.GlobalSecondaryIndexes {
				if aws.ToString(g.IndexName) != name {
					continue
				}
				if !warm {
					return string(g.IndexStatus), true, nil
				}
				if g.IndexArn == nil || g.WarmThroughput == nil {
					return "", true, nil
				}
				return string(g.WarmThroughput.Status), true, nil
			}
			return "", false, nil
		}
	}
	replica := func(region string) refresh {
		return func(ctx context.Context) (string, bool, error) {
			d, ok, err := describe(ctx, db, table)
			if !ok || err != nil {
				return "", ok, err
			}
			for _, r := range d.Replicas {
				if aws.ToString(r.RegionName) == region {
					return string(r.ReplicaStatus), true, nil
				}
			}
			return "", false, nil
		}
	}
	tablePending := []string{string(types.TableStatusCreating), string(types.TableStatusUpdating)}
	active := []string{"ACTIVE"}
	indexPending := []string{string(types.IndexStatusCreating), string(types.IndexStatusUpdating)}

	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(table),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
	})
	require.NoError(t, err)
	waitState(t, "waitTableActive", statusTable, tablePending, active)
	waitState(t, "waitTableWarmThroughputActive", statusTableWarm, tablePending, active)
	waitState(t, "waitAllGSIActive byG", gsi("byG", false), indexPending, active)
	waitState(t, "waitGSIWarmThroughputActive byG", gsi("byG", true), indexPending, active)

	// A GSI added by UpdateTable, then deleted.
	_, err = db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(table),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("h"), AttributeType: types.ScalarAttributeTypeS}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{IndexName: aws.String("byH"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("h"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}}})
	require.NoError(t, err)
	waitState(t, "waitGSIActive byH", gsi("byH", false), indexPending, active)
	waitState(t, "waitGSIWarmThroughputActive byH", gsi("byH", true), indexPending, active)
	waitState(t, "waitTableActive after the GSI", statusTable, tablePending, active)
	_, err = db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(table),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("byH")}}}})
	require.NoError(t, err)
	waitState(t, "waitGSIDeleted byH", gsi("byH", false), []string{"ACTIVE", "DELETING", "UPDATING"}, nil)

	// TTL, PITR and SSE, each with its own status.
	_, err = db.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(table),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("ttl"), Enabled: aws.Bool(true)}})
	require.NoError(t, err)
	waitState(t, "waitTTLUpdated", func(ctx context.Context) (string, bool, error) {
		out, err := db.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(table)})
		if err != nil || out.TimeToLiveDescription == nil {
			return "", false, err
		}
		return string(out.TimeToLiveDescription.TimeToLiveStatus), true, nil
	}, []string{"DISABLED", "ENABLING"}, []string{"ENABLED"})
	_, err = db.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String(table),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}})
	require.NoError(t, err)
	waitState(t, "waitPITRUpdated", func(ctx context.Context) (string, bool, error) {
		out, err := db.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String(table)})
		if err != nil || out.ContinuousBackupsDescription == nil || out.ContinuousBackupsDescription.PointInTimeRecoveryDescription == nil {
			return "", false, err
		}
		return string(out.ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus), true, nil
	}, []string{"ENABLING", "DISABLED"}, []string{"ENABLED"})
	_, err = db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(table),
		SSESpecification: &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeKms}})
	require.NoError(t, err)
	waitState(t, "waitSSEUpdated", func(ctx context.Context) (string, bool, error) {
		d, ok, err := describe(ctx, db, table)
		if !ok || err != nil {
			return "", ok, err
		}
		if d.SSEDescription == nil {
			return string(types.SSEStatusDisabled), true, nil
		}
		return string(d.SSEDescription.Status), true, nil
	}, []string{"DISABLING", "ENABLING", "UPDATING"}, []string{"DISABLED", "ENABLED"})

	// A replica, then its deletion.
	_, err = db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(table),
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String("us-west-2")}}}})
	require.NoError(t, err)
	waitState(t, "waitReplicaActive", replica("us-west-2"), []string{"CREATING", "UPDATING", "DELETING"}, active)
	_, err = db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(table),
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Delete: &types.DeleteReplicationGroupMemberAction{RegionName: aws.String("us-west-2")}}}})
	require.NoError(t, err)
	waitState(t, "waitReplicaDeleted", replica("us-west-2"), []string{"CREATING", "UPDATING", "DELETING", "ACTIVE"}, nil)

	// The table's deletion.
	_, err = db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	require.NoError(t, err)
	waitState(t, "waitTableDeleted", statusTable, []string{"ACTIVE", "DELETING"}, nil)
}
