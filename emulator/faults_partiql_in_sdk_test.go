package emulator_test

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

// TestFaultsSDKSelectIn: a PartiQL SELECT over an IN list of partition
// keys is a read of each partition it names: a rule on one of them (exact
// key or key prefix) fails the statement with its fault, a SELECT whose
// list does not name it runs. (BatchExecuteStatement refuses an IN list:
// its SELECTs name one item.)
// Emulator-only: DynamoDB Local injects no fault.
func TestFaultsSDKSelectIn(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		rule emulator.FaultRule
	}{
		{"exact key", emulator.FaultRule{Table: "tbl", PartitionKey: "b", Fault: emulator.FaultProvisionedThroughputExceeded}},
		{"key prefix", emulator.FaultRule{Table: "tbl", PartitionKeyPrefix: "b", Fault: emulator.FaultProvisionedThroughputExceeded}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, db := emulatortest.NewWith(t, emulator.Options{})
			faultTable(t, db, "tbl", 0, 0)
			for _, pk := range []string{"a", "b", "c"} {
				if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item(pk, "1")}); err != nil {
					t.Fatal(err)
				}
			}
			emulatortest.Inject(t, e, tc.rule)
			run := func(text string) (*dynamodb.ExecuteStatementOutput, error) {
				return db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(text)})
			}
			_, err := run(`SELECT * FROM "tbl" WHERE pk IN ['a', 'b']`)
			var pe *types.ProvisionedThroughputExceededException
			if !errors.As(err, &pe) {
				t.Errorf("IN ['a','b']: got %v, want ProvisionedThroughputExceededException", err)
			}
			out, err := run(`SELECT * FROM "tbl" WHERE pk IN ['a', 'c']`)
			if err != nil || len(out.Items) != 2 {
				t.Errorf("IN ['a','c']: got %v, %v; want two items", out, err)
			}
			if n := e.Faults().Stats().Rules[0].Matched; n != 1 {
				t.Errorf("got %d matches, want 1 (the statement naming b)", n)
			}
		})
	}
}

// TestFaultsSDKSelectInIndex: the same on a GSI target: a rule on one of
// the GSI partitions an IN list names fails the SELECT.
func TestFaultsSDKSelectInIndex(t *testing.T) {
	ctx := context.Background()
	e, db := emulatortest.NewWith(t, emulator.Options{})
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("tbl"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		BillingMode: types.BillingModePayPerRequest,
	}); err != nil {
		t.Fatal(err)
	}
	emulatortest.Inject(t, e, emulator.FaultRule{Table: "tbl", Index: "byG", PartitionKeyPrefix: "b", Fault: emulator.FaultInternalServerError})
	for _, tc := range []struct {
		stmt string
		fail bool
	}{
		{`SELECT * FROM "tbl"."byG" WHERE g IN ['a', 'b1']`, true},
		{`SELECT * FROM "tbl"."byG" WHERE g IN ['a', 'c']`, false},
	} {
		_, err := db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(tc.stmt)})
		var ie *types.InternalServerError
		if got := errors.As(err, &ie); got != tc.fail {
			t.Errorf("%s: got %v, want InternalServerError %v", tc.stmt, err, tc.fail)
		}
	}
}
