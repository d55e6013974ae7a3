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
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestTablesSDK drives the control plane with aws-sdk-go-v2: the SDK must
// parse every response (timestamps, enums, nested descriptions) and map
// errors to its typed exceptions, and the table-exists waiter must work.
func TestTablesSDK(t *testing.T) {
	now := time.Date(2026, 11, 22, 1, 2, 3, 456_000_000, time.UTC)
	_, db := emulatortest.NewWith(t, emulator.Options{Clock: func() time.Time { return now }})
	ctx := context.Background()

	out, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("sdk_table"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeN},
			{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeB},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
		BillingMode: types.BillingModePayPerRequest,
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("byg"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
	})
	if err != nil {
		t.Fatal(err)
	}
	d := out.TableDescription
	if d.TableStatus != types.TableStatusCreating || !d.CreationDateTime.Equal(now) ||
		d.BillingModeSummary.BillingMode != types.BillingModePayPerRequest ||
		len(d.GlobalSecondaryIndexes) != 1 || d.GlobalSecondaryIndexes[0].IndexStatus != types.IndexStatusActive ||
		aws.ToString(d.LatestStreamArn) != "arn:aws:dynamodb:us-east-1:000000000000:table/sdk_table/stream/2026-11-22T01:02:03.456" {
		t.Errorf("unexpected description %+v", d)
	}

	if err := dynamodb.NewTableExistsWaiter(db).Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("sdk_table")}, time.Second); err != nil {
		t.Fatalf("table-exists waiter: %v", err)
	}

	_, err = db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("sdk_table"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	var inUse *types.ResourceInUseException
	if !errors.As(err, &inUse) {
		t.Errorf("second CreateTable: %v, want ResourceInUseException", err)
	}

	list, err := db.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil || len(list.TableNames) != 1 || list.TableNames[0] != "sdk_table" {
		t.Errorf("ListTables = %v, %v", list, err)
	}

	if _, err := db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("sdk_table")}); err != nil {
		t.Fatal(err)
	}
	_, err = db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("sdk_table")})
	var notFound *types.ResourceNotFoundException
	if !errors.As(err, &notFound) {
		t.Errorf("DescribeTable after delete: %v, want ResourceNotFoundException", err)
	}

	limits, err := db.DescribeLimits(ctx, &dynamodb.DescribeLimitsInput{})
	if err != nil || aws.ToInt64(limits.TableMaxReadCapacityUnits) != 40000 {
		t.Errorf("DescribeLimits = %+v, %v", limits, err)
	}
}
