package emulator_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// A write to a global table's replica that is still on its way (the
// replication delay) when the replica's table is deleted belongs to the
// deleted table: a table made again under the same name, in the same
// region, never receives it. AWS: a new table is empty; an eventually
// consistent read never reads a deleted table's generation.
func TestReplicationInFlightNotAppliedToRecreatedReplica(t *testing.T) {
	emu, east := emulatortest.NewWith(t, emulator.Options{})
	wo := east.Options()
	wo.Region = "eu-west-1"
	west := dynamodb.New(wo)
	ctx := context.Background()
	name := aws.String("regen")
	key := map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "k"}}

	makeGlobal := func() {
		_, err := east.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: name,
			BillingMode:          types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
			StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}})
		require.NoError(t, err)
		waitTableActive(t, east, *name)
		_, err = east.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: name,
			ReplicaUpdates: []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String("eu-west-1")}}}})
		require.NoError(t, err)
		waitTableActive(t, west, *name)
	}
	dropBoth := func() {
		for _, c := range []*dynamodb.Client{west, east} {
			_, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: name})
			require.NoError(t, err)
			waitTableGone(t, c, *name)
		}
	}

	makeGlobal()
	emu.Lags().SetReplicationDelay(time.Hour)
	item := map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "k"}, "gen": &types.AttributeValueMemberN{Value: "1"}}
	_, err := east.PutItem(ctx, &dynamodb.PutItemInput{TableName: name, Item: item})
	require.NoError(t, err)
	dropBoth()
	emu.Lags().SetReplicationDelay(0)
	makeGlobal()
	emu.Lags().DrainReplication()

	for _, c := range []*dynamodb.Client{west, east} {
		out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: name, Key: key, ConsistentRead: aws.Bool(true)})
		require.NoError(t, err)
		require.Nil(t, out.Item, "region %s: the re-created table holds an item written to the deleted one", c.Options().Region)
	}
	// And replication of the new generation still works both ways.
	_, err = west.PutItem(ctx, &dynamodb.PutItemInput{TableName: name, Item: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "w"}}})
	require.NoError(t, err)
	emu.Lags().DrainReplication()
	out, err := east.GetItem(ctx, &dynamodb.GetItemInput{TableName: name, ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "w"}}})
	require.NoError(t, err)
	require.NotNil(t, out.Item, "a write to the new replica did not reach the other region")
}

// waitTableActive polls DescribeTable until the table is ACTIVE.
func waitTableActive(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	for range 5000 {
		d, err := c.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err == nil && d.Table.TableStatus == types.TableStatusActive {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("%s in %s not ACTIVE", name, c.Options().Region)
}

// waitTableGone polls DescribeTable until it answers
// ResourceNotFoundException.
func waitTableGone(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	for range 5000 {
		_, err := c.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if isRNF(err) {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("%s in %s not gone", name, c.Options().Region)
}

// While a global table's other region writes without pause, its replica
// in eu-west-1 is deleted (DeleteTable there), a table of the same name
// that is no replica is made in its place, then deleted and the replica
// added again, over and over: the plain table must never receive a
// replicated write (AWS: it is a new, empty table of its own), and the
// writes must never fail.
func TestReplicationNeverReachesAPlainTableOfTheReplicasName(t *testing.T) {
	_, east := emulatortest.NewWith(t, emulator.Options{})
	wo := east.Options()
	wo.Region = "eu-west-1"
	west := dynamodb.New(wo)
	ctx := context.Background()
	name := aws.String("regen")
	def := func() *dynamodb.CreateTableInput {
		return &dynamodb.CreateTableInput{TableName: name, BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
			StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}}
	}
	_, err := east.CreateTable(ctx, def())
	require.NoError(t, err)
	waitTableActive(t, east, *name)
	addReplica := func() {
		_, err := east.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: name,
			ReplicaUpdates: []types.ReplicationGroupUpdate{{Create: &types.CreateReplicationGroupMemberAction{RegionName: aws.String("eu-west-1")}}}})
		require.NoError(t, err)
		waitTableActive(t, west, *name)
		waitTableActive(t, east, *name)
	}
	addReplica()

	done := make(chan struct{})
	writeErr := make(chan error, 1)
	go func() {
		defer close(writeErr)
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			var reqs []types.WriteRequest
			for j := range 25 {
				reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
					"id": &types.AttributeValueMemberS{Value: fmt.Sprintf("%d-%d", i%40, j)}}}})
			}
			if _, err := east.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{*name: reqs}}); err != nil {
				writeErr <- err
				return
			}
		}
	}()
	rounds := 20
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" {
		rounds = 500
	}
	var leaked []string
	for round := 0; round < rounds && len(leaked) == 0; round++ {
		_, err := west.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: name})
		require.NoError(t, err)
		waitTableGone(t, west, *name)
		_, err = west.CreateTable(ctx, def())
		require.NoError(t, err)
		waitTableActive(t, west, *name)
		for range 5 {
			out, err := west.Scan(ctx, &dynamodb.ScanInput{TableName: name, ConsistentRead: aws.Bool(true)})
			require.NoError(t, err)
			if out.Count > 0 {
				leaked = append(leaked, fmt.Sprintf("round %d: the plain table holds %d replicated items", round, out.Count))
				break
			}
			time.Sleep(time.Millisecond)
		}
		_, err = west.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: name})
		require.NoError(t, err)
		waitTableGone(t, west, *name)
		addReplica()
	}
	close(done)
	require.NoError(t, <-writeErr)
	require.Empty(t, leaked)
}
