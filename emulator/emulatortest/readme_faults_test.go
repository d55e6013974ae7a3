package emulatortest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// The README's fault-injection example, kept compiling and passing here.

// TestReadmeFaults: the code paths production hits, on demand: a
// throttled write that the SDK retries, and a transaction conflict.
func TestReadmeFaults(t *testing.T) {
	ctx := context.Background()
	e, db := emulatortest.NewWith(t, emulator.Options{})
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("orders"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
	order := func(id string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: id}}
	}

	// The next two PutItems on orders fail as a table out of capacity
	// answers; a client with the SDK's standard retryer (3 attempts, no
	// back-off sleeps in tests) gets through on the third.
	emulatortest.Inject(t, e, emulator.FaultRule{Table: "orders", Operations: []string{"PutItem"},
		Fault: emulator.FaultProvisionedThroughputExceeded, Count: 2})
	retrying := emulatortest.RetryingClient(t, e, emulatortest.AccessKeyOf(t, db), 3)
	if _, err := retrying.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: order("o-1")}); err != nil {
		t.Fatalf("the third attempt should pass: %v", err)
	}
	if n := e.Faults().Stats().Injected["ProvisionedThroughputExceeded"]; n != 2 {
		t.Fatalf("injected %d faults, want 2", n)
	}

	// Another transaction holds o-2: this one is cancelled with the
	// reason the application must handle.
	emulatortest.Inject(t, e, emulator.FaultRule{Table: "orders", PartitionKey: "o-2", Fault: emulator.FaultTransactionConflict})
	_, err = db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("orders"), Item: order("o-2")}},
	}})
	var cancelled *types.TransactionCanceledException
	if !errors.As(err, &cancelled) || aws.ToString(cancelled.CancellationReasons[0].Code) != "TransactionConflict" {
		t.Fatalf("got %v, want TransactionConflict in CancellationReasons", err)
	}
}
