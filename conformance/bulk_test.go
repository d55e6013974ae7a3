package conformance

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestBulkPutItemsFromExport: a table exported to S3 and bulk put
// (StartBulkPutItems) into another existing table from the export's data
// files gives the same items; the operation is described, listed, and a
// finished one is not cancelled; an unknown ARN is not found (AWS API
// reference: API_StartBulkPutItems, API_DescribeBulkOperation,
// API_ListBulkOperations, API_CancelBulkOperation). DynamoDB Local 3.3.0
// has no bulk operations. Against AWS the test needs the bucket it names.
func TestBulkPutItemsFromExport(t *testing.T) {
	AWSDiffers(t, lacking("bulk operations", "API_StartBulkPutItems, API_DescribeBulkOperation"))
	t.Parallel()
	c := newClient(t)
	x := exportTable(t, c)
	src, want, prefix := x.src, x.want, x.prefix
	dst := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{"sk", "N"}))

	start, err := c.StartBulkPutItems(ctx(t), &dynamodb.StartBulkPutItemsInput{
		TableName: &dst,
		InputS3Configuration: &types.InputS3Configuration{S3Bucket: aws.String("dynamoemu-conformance"),
			S3KeyPrefix: aws.String(x.dataPrefix()),
			InputFormat: types.BulkOperationInputFormatDynamodbJson, InputCompressionType: types.InputCompressionTypeGzip},
		OutputS3Configuration: &types.OutputS3Configuration{S3Bucket: aws.String("dynamoemu-conformance"),
			S3KeyPrefix: aws.String(prefix + "/bulk"), OutputType: []types.OutputTypeEnum{types.OutputTypeEnumError}},
	})
	mustNoError(t, err)
	arn := start.BulkOperationDescription.BulkOperationArn
	var desc *types.BulkOperationDescription
	eventually(t, "bulk operation finished", func() bool {
		out, err := c.DescribeBulkOperation(ctx(t), &dynamodb.DescribeBulkOperationInput{BulkOperationArn: arn})
		mustNoError(t, err)
		desc = out.BulkOperationDescription
		return desc.BulkOperationStatus != types.BulkOperationStatusInProgress
	})
	if desc.BulkOperationStatus != types.BulkOperationStatusCompleted || desc.ProcessedItemCount != 3 || desc.FailedItemCount != 0 {
		t.Fatalf("bulk operation: got %s, %d processed, %d failed (%s); want COMPLETED, 3, 0",
			desc.BulkOperationStatus, desc.ProcessedItemCount, desc.FailedItemCount, aws.ToString(desc.FailureMessage))
	}
	if len(desc.TableDetails) != 1 || aws.ToString(desc.TableDetails[0].TableName) != dst {
		t.Errorf("TableDetails: got %+v, want %s", desc.TableDetails, dst)
	}
	scan, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &dst, ConsistentRead: aws.Bool(true)})
	mustNoError(t, err)
	requireItems(t, scan.Items, want)

	listed := false
	p := dynamodb.NewListBulkOperationsPaginator(c, &dynamodb.ListBulkOperationsInput{MaxResults: aws.Int32(5)})
	for p.HasMorePages() && !listed {
		page, err := p.NextPage(ctx(t))
		mustNoError(t, err)
		for _, s := range page.BulkOperationsSummaryList {
			listed = listed || aws.ToString(s.BulkOperationArn) == aws.ToString(arn)
		}
	}
	if !listed {
		t.Errorf("ListBulkOperations does not list %s", aws.ToString(arn))
	}
	_, err = c.CancelBulkOperation(ctx(t), &dynamodb.CancelBulkOperationInput{BulkOperationArn: arn})
	requireAPIError(t, err, "ValidationException", "")
	_, err = c.DescribeBulkOperation(ctx(t), &dynamodb.DescribeBulkOperationInput{BulkOperationArn: aws.String(aws.ToString(src.TableArn) + "/bulk-operation/01234567890123-abcdef01")})
	requireAPIError(t, err, "ResourceNotFoundException", "")
	_, err = c.StartBulkPutItems(ctx(t), &dynamodb.StartBulkPutItemsInput{TableName: aws.String(uniqueName(t)),
		InputS3Configuration:  &types.InputS3Configuration{S3Bucket: aws.String("dynamoemu-conformance"), InputFormat: types.BulkOperationInputFormatDynamodbJson},
		OutputS3Configuration: &types.OutputS3Configuration{S3Bucket: aws.String("dynamoemu-conformance"), OutputType: []types.OutputTypeEnum{types.OutputTypeEnumError}},
	})
	requireAPIError(t, err, "ResourceNotFoundException", "")
}
