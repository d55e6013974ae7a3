package emulator_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestGlobalTableAcrossRegions: through the SDK, a table given a replica
// in eu-west-1 by UpdateTable; a write in us-east-1 is not in the
// replica while the replication delay runs, and is after a drain.
func TestGlobalTableAcrossRegions(t *testing.T) {
	emu, east := emulatortest.NewWith(t, emulator.Options{})
	wo := east.Options()
	wo.Region = "eu-west-1"
	west := dynamodb.New(wo)
	ctx := context.Background()
	_, err := east.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("orders"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := east.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("orders"),
		ReplicaUpdates: []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String("eu-west-1")}}}}); err != nil {
		t.Fatal(err)
	}
	emu.Lags().SetReplicationDelay(time.Hour)
	if _, err := east.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"),
		Item: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "o1"}}}); err != nil {
		t.Fatal(err)
	}
	get := func() map[string]types.AttributeValue {
		out, err := west.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("orders"),
			Key: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "o1"}}})
		if err != nil {
			t.Fatal(err)
		}
		return out.Item
	}
	if item := get(); item != nil {
		t.Errorf("during the delay: got %v in eu-west-1, want nothing yet", item)
	}
	if n := emu.Lags().DrainReplication(); n != 1 {
		t.Errorf("drain: got %d writes applied, want 1", n)
	}
	if item := get(); item == nil {
		t.Errorf("after the drain: no item in eu-west-1")
	}
	d, err := west.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders")})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Table.Replicas) != 1 || aws.ToString(d.Table.Replicas[0].RegionName) != "us-east-1" || aws.ToString(d.Table.GlobalTableVersion) != "2019.11.21" {
		t.Errorf("replica's DescribeTable: got %+v version %q", d.Table.Replicas, aws.ToString(d.Table.GlobalTableVersion))
	}
}
