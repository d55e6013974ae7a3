package emulator_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestStreamHandlerWarnsOfASecondPoller: a client polling a stream with
// the Streams API (as serverless-offline-dynamodb-streams does: a
// shard iterator, then GetRecords in a loop) while an event source
// mapping delivers the same stream is warned of in the log, once per
// stream, naming the mapping's function; a stream no mapping reads is
// not.
func TestStreamHandlerWarnsOfASecondPoller(t *testing.T) {
	var logged syncLog
	e, db, streams := emulatortest.NewWithStreams(t, emulator.Options{Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	ctx := context.Background()
	mk := func(name string) string {
		out, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName:            aws.String(name),
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
			BillingMode:          types.BillingModePayPerRequest,
			StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
		})
		require.NoError(t, err)
		return *out.TableDescription.LatestStreamArn
	}
	mapped, alone := mk("orders"), mk("audit")
	e.Streams().SetFunction("sync", func(context.Context, []byte) ([]byte, error) { return nil, nil })
	_, err := e.Streams().CreateMapping(emulator.EventSourceMapping{EventSourceArn: aws.String(mapped),
		FunctionName: aws.String("sync"), StartingPosition: aws.String("LATEST")})
	require.NoError(t, err)
	poll := func(arn string) {
		d, err := streams.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
		require.NoError(t, err)
		it, err := streams.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
			ShardId: d.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeLatest})
		require.NoError(t, err)
		next := it.ShardIterator
		for range 3 {
			out, err := streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: next})
			require.NoError(t, err)
			next = out.NextShardIterator
		}
	}
	poll(alone)
	require.NotContains(t, logged.String(), "serverless-offline-dynamodb-streams", "no mapping reads this stream")
	poll(mapped)
	poll(mapped)
	require.Equal(t, 1, strings.Count(logged.String(), "serverless-offline-dynamodb-streams"), logged.String())
	require.Contains(t, logged.String(), "functions=sync")
	require.Contains(t, logged.String(), mapped)
}
