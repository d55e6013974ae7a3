package conformance

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestGlobalTableLifecycle: after a replica exists, a GSI created in one
// region and TTL set in the other reach both; the stream (enabled by the
// first replica when the table had none) cannot be disabled; AWS's
// refusals of ReplicaUpdates; the source cannot be deleted while the
// replica made from it exists (24 hours); DeleteTable in the replica's
// region takes it out of the source's Replicas. AWS: API_UpdateTable
// (ReplicaUpdates, GlobalSecondaryIndexUpdates, StreamSpecification),
// API_UpdateTimeToLive, API_DeleteTable; the developer guide's global
// tables core concepts (settings synchronization); the messages as
// emulator/internal/apierr/messages_replicas.go cites them.
func TestGlobalTableLifecycle(t *testing.T) {
	AWSDiffers(t, lacking("global tables", "API_UpdateTable (ReplicaUpdates)"))
	t.Parallel()
	key := uniqueKey(t)
	east := newClient(t, withAccessKey(key), withRegion("us-east-1"))
	west := newClient(t, withAccessKey(key), withRegion("eu-west-1"))
	table := createTable(t, east, tableDef(keyDef{"pk", "S"}, keyDef{}))
	replicaOf := func(region string) []types.ReplicationGroupUpdate {
		return []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String(region)}}}
	}
	out, err := east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, ReplicaUpdates: replicaOf("eu-west-1")})
	mustNoError(t, err)
	if s := out.TableDescription.StreamSpecification; s == nil || !aws.ToBool(s.StreamEnabled) || s.StreamViewType != types.StreamViewTypeNewAndOldImages {
		t.Errorf("stream after the first replica: got %+v, want NEW_AND_OLD_IMAGES enabled", s)
	}
	eventually(t, "replica ACTIVE", func() bool {
		d := mustDescribe(t, east, table)
		return len(d.Replicas) == 1 && d.Replicas[0].ReplicaStatus == types.ReplicaStatusActive && d.TableStatus == types.TableStatusActive
	})

	// AWS's refusals.
	_, err = east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, ReplicaUpdates: replicaOf("eu-west-1")})
	requireValidation(t, err, "Failed to create a the new replica of table with name: \u2018"+table+"\u2019 because one or more replicas already existed as tables.")
	_, err = east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table, ReplicaUpdates: replicaOf("us-east-1")})
	requireValidation(t, err, "Cannot add or delete the local region through ReplicaUpdates. Use CreateTable, DeleteTable, or UpdateTable as required.")
	_, err = east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Delete: &types.DeleteReplicationGroupMemberAction{RegionName: aws.String("ap-south-1")}}}})
	requireValidation(t, err, "Update global table operation failed because one or more replicas were not part of the global table. Please retry the request without these replicas: [ap-south-1].")
	_, err = west.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false)}})
	requireValidation(t, err, "One or more parameter values were invalid: Disabling Stream is not allowed for a Global Table replica.")

	// A GSI made in us-east-1 is built in eu-west-1.
	_, err = east.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &table,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byG"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}})
	mustNoError(t, err)
	eventually(t, "GSI in the replica", func() bool {
		d := mustDescribe(t, west, table)
		return len(d.GlobalSecondaryIndexes) == 1 && d.GlobalSecondaryIndexes[0].IndexStatus == types.IndexStatusActive
	})
	// TTL set in eu-west-1 reaches us-east-1.
	eventually(t, "both ACTIVE", func() bool {
		return mustDescribe(t, east, table).TableStatus == types.TableStatusActive && mustDescribe(t, west, table).TableStatus == types.TableStatusActive
	})
	_, err = west.UpdateTimeToLive(ctx(t), &dynamodb.UpdateTimeToLiveInput{TableName: &table,
		TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(true), AttributeName: aws.String("exp")}})
	mustNoError(t, err)
	eventually(t, "TTL in the source", func() bool {
		d, err := east.DescribeTimeToLive(ctx(t), &dynamodb.DescribeTimeToLiveInput{TableName: &table})
		mustNoError(t, err)
		return aws.ToString(d.TimeToLiveDescription.AttributeName) == "exp"
	})

	// The source stays while the replica made from it exists.
	_, err = east.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &table})
	requireValidation(t, err, "Replica cannot be deleted because it has acted as a source region for new replica(s) being added to the table in the last 24 hours.")
	// DeleteTable in the replica's region takes it out of the source's list.
	_, err = west.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &table})
	mustNoError(t, err)
	eventually(t, "replica gone from the source", func() bool {
		d := mustDescribe(t, east, table)
		return len(d.Replicas) == 0 && d.GlobalTableVersion == nil
	})
}
