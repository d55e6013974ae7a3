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

// TestFaultsSDKByARN: a rule by table name matches the control-plane
// calls that name the table by its ARN (TableName holding the ARN,
// ResourceArn, TableArn), and not those naming another table.
func TestFaultsSDKByARN(t *testing.T) {
	ctx := context.Background()
	e, db := emulatortest.NewWith(t, emulator.Options{})
	faultTable(t, db, "tbl", 0, 0)
	faultTable(t, db, "other", 0, 0)
	desc, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")})
	if err != nil {
		t.Fatal(err)
	}
	arn := aws.ToString(desc.Table.TableArn)
	otherARN := arn[:len(arn)-len("tbl")] + "other"
	emulatortest.Inject(t, e, emulator.FaultRule{Table: "tbl", Fault: emulator.FaultInternalServerError,
		Operations: []string{"DescribeTable", "UpdateTable", "TagResource", "ListTagsOfResource", "DescribeTimeToLive",
			"DescribeContinuousBackups", "DeleteTable"}})
	calls := []struct {
		name string
		call func(arn string) error
	}{
		{"DescribeTable", func(arn string) error {
			_, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(arn)})
			return err
		}},
		{"UpdateTable", func(arn string) error {
			_, err := db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(arn), DeletionProtectionEnabled: aws.Bool(false)})
			return err
		}},
		{"TagResource", func(arn string) error {
			_, err := db.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: []types.Tag{{Key: aws.String("k"), Value: aws.String("v")}}})
			return err
		}},
		{"ListTagsOfResource", func(arn string) error {
			_, err := db.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(arn)})
			return err
		}},
		{"DescribeTimeToLive", func(arn string) error {
			_, err := db.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(arn)})
			return err
		}},
		{"DescribeContinuousBackups", func(arn string) error {
			_, err := db.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String(arn)})
			return err
		}},
	}
	for _, c := range calls {
		var ie *types.InternalServerError
		if err := c.call(arn); !errors.As(err, &ie) {
			t.Errorf("%s by ARN: got %v, want InternalServerError", c.name, err)
		}
		if err := c.call(otherARN); err != nil {
			t.Errorf("%s of another table by ARN: got %v, want no fault", c.name, err)
		}
	}
}
