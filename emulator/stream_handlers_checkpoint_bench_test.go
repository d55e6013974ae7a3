package emulator_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// BenchmarkStreamHandlerCheckpoints is the cost of saving a mapping's
// checkpoint after each batch: b.N records, written first, delivered in
// batches of one to a Go function that does nothing, in memory (no
// save) and with a DataDir (a save, an fsync'd file replaced, per
// batch). ns/op is the time per batch.
func BenchmarkStreamHandlerCheckpoints(b *testing.B) {
	for _, persisted := range []bool{false, true} {
		name := "memory"
		if persisted {
			name = "dataDir"
		}
		b.Run(name, func(b *testing.B) {
			opts := emulator.Options{}
			if persisted {
				opts.DataDir = b.TempDir()
			}
			e, err := emulator.New(opts)
			require.NoError(b, err)
			defer e.Close()
			db := emulatortest.Client(b, e, "bench")
			ctx := context.Background()
			out, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
				TableName:            aws.String("events"),
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
				BillingMode:          types.BillingModePayPerRequest,
				StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly},
			})
			require.NoError(b, err)
			for i := 0; i < b.N; i += 25 {
				var reqs []types.WriteRequest
				for j := i; j < min(i+25, b.N); j++ {
					reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
						"id": &types.AttributeValueMemberS{Value: fmt.Sprint(j)}}}})
				}
				_, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"events": reqs}})
				require.NoError(b, err)
			}
			e.Streams().SetFunction("noop", func(context.Context, []byte) ([]byte, error) { return []byte(`{}`), nil })
			b.ResetTimer()
			_, err = e.Streams().CreateMapping(emulator.EventSourceMapping{EventSourceArn: out.TableDescription.LatestStreamArn,
				FunctionName: aws.String("noop"), BatchSize: aws.Int64(1), StartingPosition: aws.String("TRIM_HORIZON")})
			require.NoError(b, err)
			require.NoError(b, e.Streams().Drain(ctx))
		})
	}
}
