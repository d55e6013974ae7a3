package emulatortest_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// pollStream reads every record of a table's stream the way a Lambda
// event source mapping does: the table's LatestStreamArn, its shards, an
// iterator per shard from TRIM_HORIZON, then GetRecords pages until a page
// comes back empty (an open shard: poll again later) or without a
// NextShardIterator (a closed shard, read to its end).
func pollStream(ctx context.Context, db *dynamodb.Client, streams *dynamodbstreams.Client, table string,
	handle func(stypes.Record)) error {
	d, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: &table})
	if err != nil {
		return err
	}
	ds, err := streams.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: d.Table.LatestStreamArn})
	if err != nil {
		return err
	}
	for _, shard := range ds.StreamDescription.Shards {
		it, err := streams.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{
			StreamArn:         d.Table.LatestStreamArn,
			ShardId:           shard.ShardId,
			ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon,
		})
		if err != nil {
			return err
		}
		for next := it.ShardIterator; next != nil; {
			page, err := streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: next, Limit: aws.Int32(100)})
			if err != nil {
				return err
			}
			for _, r := range page.Records {
				handle(r)
			}
			if len(page.Records) == 0 {
				break
			}
			next = page.NextShardIterator
		}
	}
	return nil
}

// The README's examples, kept compiling and passing here.

// TestReadmeStreamPoller: write through DynamoDB, read the changes through
// DynamoDB Streams, as a Lambda would receive them.
func TestReadmeStreamPoller(t *testing.T) {
	ctx := context.Background()
	_, db, streams := emulatortest.NewWithStreams(t, emulator.Options{})
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("commands"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"1", "2"} {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("commands"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "order#1"}, "version": &types.AttributeValueMemberN{Value: v},
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	err = pollStream(ctx, db, streams, "commands", func(r stypes.Record) {
		version := r.Dynamodb.NewImage["version"].(*stypes.AttributeValueMemberN).Value
		got = append(got, fmt.Sprint(r.EventName, " version ", version))
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"INSERT version 1", "MODIFY version 2"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestReadmeTTL: a TTL test that moves the emulator's clock instead of sleeping.
func TestReadmeTTL(t *testing.T) {
	ctx := context.Background()
	e, db := emulatortest.NewWith(t, emulator.Options{})
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("sessions"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("sessions"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("expiresAt"), Enabled: aws.Bool(true)}})
	if err != nil {
		t.Fatal(err)
	}
	expiresAt := e.Clock().Now().Add(30 * time.Minute).Unix() // the emulator's clock, not the wall's
	_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("sessions"), Item: map[string]types.AttributeValue{
		"id": &types.AttributeValueMemberS{Value: "s1"}, "expiresAt": &types.AttributeValueMemberN{Value: strconv.FormatInt(expiresAt, 10)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if n := e.Clock().SweepTTL(); n != 0 {
		t.Fatalf("deleted %d items at once, want 0", n)
	}
	e.Clock().Advance(31 * time.Minute) // or POST /dynamoemu/clock {"advance":"31m"} to a server
	if n := e.Clock().SweepTTL(); n != 1 {
		t.Fatalf("deleted %d items 31 minutes later, want 1", n)
	}
}
