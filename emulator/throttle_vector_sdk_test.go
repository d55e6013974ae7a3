package emulator_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/stretchr/testify/require"
)

// TestThrottleSDKVectorSearch: a table tagged
// dynamoemu:vector-search-bytes=1024 takes one search (a search's least,
// 1024 VectorSearchRequestBytes) per second of the emulator's clock on
// each vector index: the second in the same second is
// ThrottlingException (its reason, IndexReadMaxOnDemandThroughputExceeded
// on the index, is TestPipeline's), Advance(1s) lets the next
// through, and the table's own reads are not limited by it. With no
// throttling asked for (Options.Faults.Throttle zero), the tag alone
// turns the limit on.
func TestThrottleSDKVectorSearch(t *testing.T) {
	ctx := context.Background()
	e, db := throttled(t, emulator.Throttle{})
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("vec"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		VectorIndexes: []types.VectorIndex{{
			IndexName:        aws.String("vix"),
			VectorAttribute:  &types.VectorAttributeDefinition{AttributeName: aws.String("emb")},
			Dimensions:       aws.Int64(2),
			DistanceFunction: types.VectorDistanceFunctionEuclidean,
			Projection:       &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
		Tags: []types.Tag{{Key: aws.String("dynamoemu:vector-search-bytes"), Value: aws.String("1024")}},
	})
	require.NoError(t, err)
	_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("vec"), Item: map[string]types.AttributeValue{
		"pk":  &types.AttributeValueMemberS{Value: "a"},
		"emb": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberN{Value: "1"}, &types.AttributeValueMemberN{Value: "0"}}},
	}})
	require.NoError(t, err)
	search := func() error {
		_, err := db.SearchVectors(ctx, &dynamodb.SearchVectorsInput{
			TableName: aws.String("vec"), IndexName: aws.String("vix"), TopK: aws.Int32(1),
			SearchVector: []types.AttributeValue{&types.AttributeValueMemberN{Value: "1"}, &types.AttributeValueMemberN{Value: "0"}},
		})
		return err
	}
	require.NoError(t, search())
	err = search()
	var te *types.ThrottlingException
	require.True(t, errors.As(err, &te), "got %v, want ThrottlingException", err)
	_, err = db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("vec"),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "a"}}})
	require.NoError(t, err, "the table's reads draw nothing from the index's search limit")
	_, err = e.Clock().Advance(time.Second)
	require.NoError(t, err)
	require.NoError(t, search(), "after a second")
}
