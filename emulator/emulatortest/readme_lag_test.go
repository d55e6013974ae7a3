package emulatortest_test

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

// The README's eventual-consistency example, kept compiling and passing here.

// TestReadmeLag: a GSI that sees a write late, and an eventually
// consistent GetItem that answers the previous version.
func TestReadmeLag(t *testing.T) {
	ctx := context.Background()
	e, db := emulatortest.NewWith(t, emulator.Options{})
	str := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("orders"),
		AttributeDefinitions: []types.AttributeDefinition{str("id"), str("status")},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byStatus"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("status"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		BillingMode: types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
	put := func(id, status string) {
		item := map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: id},
			"status": &types.AttributeValueMemberS{Value: status}}
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	shipped := func() int32 {
		out, err := db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("orders"), IndexName: aws.String("byStatus"),
			KeyConditionExpression:    aws.String("#s = :s"),
			ExpressionAttributeNames:  map[string]string{"#s": "status"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":s": &types.AttributeValueMemberS{Value: "SHIPPED"}}})
		if err != nil {
			t.Fatal(err)
		}
		return out.Count
	}

	// The GSI sees writes 500 ms (of the emulator's clock) late.
	emulatortest.IndexLag(t, e, db, "orders", "byStatus").SetDelay(500 * time.Millisecond)
	put("o-1", "SHIPPED")
	if n := shipped(); n != 0 {
		t.Fatalf("right after the write the GSI has %d shipped orders, want 0", n)
	}
	if _, err := e.Clock().Advance(500 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if n := shipped(); n != 1 {
		t.Fatalf("500 ms later the GSI has %d shipped orders, want 1", n)
	}

	// Eventually consistent reads of the table answer the previous version
	// until Release; a strongly consistent read sees the write.
	reads := emulatortest.ReadLag(t, e, db, "orders")
	reads.Hold()
	put("o-1", "DELIVERED")
	status := func(consistent bool) string {
		out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("orders"), ConsistentRead: aws.Bool(consistent),
			Key: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "o-1"}}})
		if err != nil {
			t.Fatal(err)
		}
		return out.Item["status"].(*types.AttributeValueMemberS).Value
	}
	if got := status(false) + " " + status(true); got != "SHIPPED DELIVERED" {
		t.Fatalf("held: got %q, want the old status eventually consistent, the new one strongly", got)
	}
	reads.Release()
	if got := status(false); got != "DELIVERED" {
		t.Fatalf("released: got %q", got)
	}
}
