package emulatortest_test

// The semantic-search example of the README ("Vector search"), compiled
// and run by go test.

import (
	"context"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// embedding stands in for a real embedding model.
func embedding(text string) []float32 {
	switch text {
	case "how do I reset my password":
		return []float32{0.9, 0.1, 0.0}
	case "password reset steps":
		return []float32{0.8, 0.2, 0.1}
	case "shipping times to Canada":
		return []float32{0.0, 0.2, 0.9}
	}
	return []float32{0.1, 0.9, 0.1} // "opening hours"
}

// vector turns an embedding into the list of numbers DynamoDB stores.
func vector(v []float32) []types.AttributeValue {
	out := make([]types.AttributeValue, len(v))
	for i, x := range v {
		out[i] = &types.AttributeValueMemberN{Value: strconv.FormatFloat(float64(x), 'f', -1, 32)}
	}
	return out
}

func TestSemanticSearch(t *testing.T) {
	semanticSearch(t, emulatortest.New(t))
}

// TestSemanticSearchApproximate: the same with -approximateVectors
// (Options.ApproximateVectors): HNSW graphs instead of exact search.
func TestSemanticSearchApproximate(t *testing.T) {
	_, client := emulatortest.NewWith(t, emulator.Options{ApproximateVectors: true})
	semanticSearch(t, client)
}

func semanticSearch(t *testing.T, client *dynamodb.Client) {
	t.Helper()
	ctx := context.Background()

	_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("Docs"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("tenant"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema:   []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode: types.BillingModePayPerRequest, // vector indexes need on-demand tables
		VectorIndexes: []types.VectorIndex{{
			IndexName:        aws.String("byEmbedding"),
			VectorAttribute:  &types.VectorAttributeDefinition{AttributeName: aws.String("embedding")},
			Dimensions:       aws.Int64(3),
			DistanceFunction: types.VectorDistanceFunctionCosine,
			Projection:       &types.Projection{ProjectionType: types.ProjectionTypeAll},
			SearchSchema: []types.SearchSchemaElement{
				{AttributeName: aws.String("tenant"), SearchSchemaElementType: types.SearchSchemaElementTypeHash},
			},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range []string{"how do I reset my password", "shipping times to Canada", "opening hours"} {
		_, err := client.PutItem(ctx, &dynamodb.PutItemInput{
			TableName: aws.String("Docs"),
			Item: map[string]types.AttributeValue{
				"id":        &types.AttributeValueMemberS{Value: "doc" + strconv.Itoa(i)},
				"tenant":    &types.AttributeValueMemberS{Value: "acme"},
				"text":      &types.AttributeValueMemberS{Value: text},
				"embedding": &types.AttributeValueMemberL{Value: vector(embedding(text))},
			},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	out, err := client.SearchVectors(ctx, &dynamodb.SearchVectorsInput{
		TableName:                 aws.String("Docs"),
		IndexName:                 aws.String("byEmbedding"),
		SearchVector:              vector(embedding("password reset steps")),
		TopK:                      aws.Int32(2),
		SearchConditionExpression: aws.String("tenant = :t"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":t": &types.AttributeValueMemberS{Value: "acme"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	best := out.SearchResults[0]
	if got := best.Item["text"].(*types.AttributeValueMemberS).Value; got != "how do I reset my password" {
		t.Errorf("best match %q (score %v)", got, best.Score)
	}
	if len(out.SearchResults) != 2 || best.Score > out.SearchResults[1].Score { // COSINE: smallest first
		t.Errorf("results %+v", out.SearchResults)
	}
}
