package emulatortest_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestCheckpoint is the README's example: fixtures loaded once, each
// subtest writes freely and the next one sees the fixtures again, in
// process (Checkpoint) and over HTTP (CheckpointURL).
func TestCheckpoint(t *testing.T) {
	ctx := context.Background()
	count := func(t *testing.T, db *dynamodb.Client) int32 {
		t.Helper()
		out, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("orders"), Select: types.SelectCount})
		if err != nil {
			t.Fatal(err)
		}
		return out.Count
	}
	loadFixtures := func(t *testing.T, db *dynamodb.Client) {
		t.Helper()
		_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName:            aws.String("orders"),
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
			BillingMode:          types.BillingModePayPerRequest,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, pk := range []string{"o1", "o2"} {
			if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	run := func(t *testing.T, db *dynamodb.Client, rewind func()) {
		for _, name := range []string{"cancel", "refund", "again"} {
			t.Run(name, func(t *testing.T) {
				defer rewind()
				if got := count(t, db); got != 2 {
					t.Errorf("got %d orders, want the 2 fixtures", got)
				}
				if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: name}}}); err != nil {
					t.Fatal(err)
				}
				if _, err := db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("orders"), Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "o1"}}}); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
	t.Run("in process", func(t *testing.T) {
		e, db := emulatortest.NewWith(t, emulator.Options{})
		loadFixtures(t, db)
		run(t, db, emulatortest.Checkpoint(t, e))
	})
	t.Run("over HTTP", func(t *testing.T) {
		url, db := emulatortest.NewServer(t)
		loadFixtures(t, db)
		run(t, db, emulatortest.CheckpointURL(t, url))
	})
}
