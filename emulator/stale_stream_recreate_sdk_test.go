package emulator_test

import (
	"context"
	"fmt"
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

// In consistency fuzzing, GetRecords on the stream of a deleted table
// (readable for 24 hours on AWS) is the deleted table's: it neither
// counts as a read of the stream of the table made again under the same
// name, nor is reported as missing that table's writes.
func TestConsistencyFuzzOldStreamIsNotTheRecreatedTables(t *testing.T) {
	for _, seed := range fuzzSeeds() {
		t.Run(fmt.Sprintf("fuzz:%d", seed), func(t *testing.T) {
			e, db, sc := emulatortest.NewWithStreams(t, emulator.Options{Consistency: fmt.Sprintf("fuzz:%d", seed)})
			ctx := context.Background()
			name := aws.String("regen")
			create := func() string {
				_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: name, BillingMode: types.BillingModePayPerRequest,
					AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
					KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
					StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}})
				require.NoError(t, err)
				waitTableActive(t, db, *name)
				d, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: name})
				require.NoError(t, err)
				return aws.ToString(d.Table.LatestStreamArn)
			}
			put := func(id string) {
				_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: name, Item: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: id}}})
				require.NoError(t, err)
			}
			old := create()
			put("old")
			ds, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(old)})
			require.NoError(t, err)
			it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(old),
				ShardId: ds.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
			require.NoError(t, err)
			iter, seen := it.ShardIterator, 0
			for try := 0; seen == 0 && try < 1000; try++ { // a reader that retries sees it
				out, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter})
				require.NoError(t, err)
				seen += len(out.Records)
				iter = out.NextShardIterator
			}
			require.Equal(t, 1, seen, "the old stream's record")

			_, err = db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: name})
			require.NoError(t, err)
			waitTableGone(t, db, *name)
			require.NotEqual(t, old, create())
			put("new1")
			put("new2")

			stop := e.Reports().CollectStaleReads()
			for range 3 {
				out, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter})
				require.NoError(t, err)
				require.Empty(t, out.Records, "the deleted table's stream has a record of the new table")
				if out.NextShardIterator == nil {
					break
				}
				iter = out.NextShardIterator
			}
			stale, _ := stop()
			require.Empty(t, stale, "GetRecords of the deleted table's stream reported as missing the new table's writes")
		})
	}
}
