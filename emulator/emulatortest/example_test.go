package emulatortest_test

// The embedding example of the README, compiled and run by go test. The
// part between the README markers is shown in README.md as it is here
// (TestREADMEShowsTheExample checks it).

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// README:begin
func TestOrders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	client := emulatortest.New(t) // *dynamodb.Client, isolated, cleaned up by t.Cleanup

	_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("Orders"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
		},
		BillingMode: types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String("Orders"),
		Item: map[string]types.AttributeValue{
			"pk":    &types.AttributeValueMemberS{Value: "ORDER#1"},
			"total": &types.AttributeValueMemberN{Value: "12.50"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String("Orders"),
		Key:       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "ORDER#1"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Item["total"].(*types.AttributeValueMemberN).Value; got != "12.5" {
		t.Errorf("got total %s, want 12.5", got)
	}
}

// README:end

// TestREADMEShowsTheExample: the README's embedding snippet is the code
// above, word for word, so it compiles as written.
func TestREADMEShowsTheExample(t *testing.T) {
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(src), "// README:begin\n")
	snippet, _, _ := strings.Cut(rest, "\n// README:end")
	if snippet == "" || !strings.Contains(string(readme), snippet) {
		t.Fatalf("README.md does not show the example of emulator/emulatortest/example_test.go as it is:\n%s", snippet)
	}
}
