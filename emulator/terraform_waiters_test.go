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

// The Terraform AWS provider's waiters for an aws_dynamodb_table's
// replicas (waitReplicaActive, waitReplicaDeleted), replayed against the
// emulator through the SDK: each polls statusReplicaUpdate or
// statusReplicaDelete (DescribeTable's Replicas) and fails on a state
// that is neither pending nor its target, as the provider's
// StateChangeConf does (hashicorp/terraform-provider-aws
// internal/service/dynamodb, wait.go and status.go, read 2026-11-26).
// The table's, GSIs', TTL's, PITR's and SSE's waiters are replayed in
// conformance/terraform_waiters_test.go, against DynamoDB Local too,
// which has no replicas.

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

func TestTerraformReplicaWaiters(t *testing.T) {
	_, db := emulatortest.NewWith(t, emulator.Options{})
	ctx := context.Background()
	const table = "tf-table"
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
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(table),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	})
	require.NoError(t, err)
	_, err = db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(table),
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String("us-west-2")}}}})
	require.NoError(t, err)
	waitState(t, "waitReplicaActive", replica("us-west-2"), []string{"CREATING", "UPDATING", "DELETING"}, []string{"ACTIVE"})
	_, err = db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(table),
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Delete: &types.DeleteReplicationGroupMemberAction{RegionName: aws.String("us-west-2")}}}})
	require.NoError(t, err)
	waitState(t, "waitReplicaDeleted", replica("us-west-2"), []string{"CREATING", "UPDATING", "DELETING", "ACTIVE"}, nil)
}
