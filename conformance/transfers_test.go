package conformance

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Exports and imports in Amazon Ion, and their refusals in AWS's words
// (AWS API reference: API_ExportTableToPointInTime, API_ImportTable,
// API_DescribeExport, API_DescribeImport; Developer Guide, "DynamoDB
// table export output format" and "Amazon S3 import formats for
// DynamoDB"; the messages as ack-api-quirks recorded AWS's answers,
// findings DDB-EXPORT-001/003/006/009 and DDB-IMPORT-010). DynamoDB
// Local 3.3.0 has none of these operations.

// TestExportImportIon: a table exported with ExportFormat ION and
// imported with InputFormat ION from the export's data files is the same
// table.
func TestExportImportIon(t *testing.T) {
	AWSDiffers(t, lacking("exports and imports", "API_ExportTableToPointInTime, API_ImportTable"))
	t.Parallel()
	c := newClient(t)
	x := exportTableAs(t, c, types.ExportFormatIon)
	if x.desc.ExportStatus != types.ExportStatusCompleted || x.desc.ExportFormat != types.ExportFormatIon || aws.ToInt64(x.desc.ItemCount) != 3 {
		t.Fatalf("export: got %s, format %s, %d items (%s); want COMPLETED, ION, 3",
			x.desc.ExportStatus, x.desc.ExportFormat, aws.ToInt64(x.desc.ItemCount), aws.ToString(x.desc.FailureMessage))
	}
	dst := uniqueName(t)
	t.Cleanup(func() { deleteTable(t, c, dst) })
	im, err := c.ImportTable(ctx(t), &dynamodb.ImportTableInput{
		S3BucketSource:       &types.S3BucketSource{S3Bucket: aws.String("dynamoemu-conformance"), S3KeyPrefix: aws.String(x.dataPrefix())},
		InputFormat:          types.InputFormatIon,
		InputCompressionType: types.InputCompressionTypeGzip,
		TableCreationParameters: &types.TableCreationParameters{TableName: &dst, BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: x.src.AttributeDefinitions, KeySchema: x.src.KeySchema},
	})
	mustNoError(t, err)
	var d *types.ImportTableDescription
	eventually(t, "import finished", func() bool {
		out, err := c.DescribeImport(ctx(t), &dynamodb.DescribeImportInput{ImportArn: im.ImportTableDescription.ImportArn})
		mustNoError(t, err)
		d = out.ImportTableDescription
		return d.ImportStatus != types.ImportStatusInProgress
	})
	if d.ImportStatus != types.ImportStatusCompleted || d.ImportedItemCount != 3 || d.ErrorCount != 0 || d.InputFormat != types.InputFormatIon {
		t.Errorf("import: got %s, %d imported, %d errors, format %s; want COMPLETED, 3, 0, ION", d.ImportStatus, d.ImportedItemCount, d.ErrorCount, d.InputFormat)
	}
	scan, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &dst, ConsistentRead: aws.Bool(true)})
	mustNoError(t, err)
	requireItems(t, scan.Items, x.want)
}

// TestExportImportRefusals: the answers AWS gives, recorded, to an ARN
// of the wrong kind, an unknown export or import, a bare table name, an
// incremental export without its specification, and a ClientToken
// reused with other parameters.
func TestExportImportRefusals(t *testing.T) {
	AWSDiffers(t, lacking("exports and imports", "API_ExportTableToPointInTime, API_DescribeExport, API_DescribeImport"))
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	enablePITR(t, c, table)
	arn := aws.ToString(mustDescribe(t, c, table).TableArn)
	const id = "01234567890123-abcdef01"

	_, err := c.DescribeExport(ctx(t), &dynamodb.DescribeExportInput{ExportArn: &arn})
	requireAPIError(t, err, "ValidationException", "Invalid Export ARN")
	_, err = c.DescribeExport(ctx(t), &dynamodb.DescribeExportInput{ExportArn: aws.String(arn + "/export/" + id)})
	requireAPIError(t, err, "ExportNotFoundException", "Export not found: Export not found: "+arn+"/export/"+id)
	_, err = c.DescribeImport(ctx(t), &dynamodb.DescribeImportInput{ImportArn: aws.String(arn + "/export/" + id)})
	requireAPIError(t, err, "ValidationException", "Invalid Import ARN")
	_, err = c.DescribeImport(ctx(t), &dynamodb.DescribeImportInput{ImportArn: aws.String(arn + "/import/" + id)})
	requireAPIError(t, err, "ImportNotFoundException", "")

	_, err = c.ExportTableToPointInTime(ctx(t), &dynamodb.ExportTableToPointInTimeInput{TableArn: &table, S3Bucket: aws.String("dynamoemu-conformance")})
	requireAPIError(t, err, "ValidationException", "One or more parameter values were invalid: tableArn is not a valid ARN")
	_, err = c.ExportTableToPointInTime(ctx(t), &dynamodb.ExportTableToPointInTimeInput{TableArn: &arn, S3Bucket: aws.String("dynamoemu-conformance"),
		ExportType: types.ExportTypeIncrementalExport})
	requireAPIError(t, err, "ValidationException", "Invalid Request: Incremental Export Specification expected when export type is set as Incremental Export")

	token := uniqueKey(t)
	_, err = c.ExportTableToPointInTime(ctx(t), &dynamodb.ExportTableToPointInTimeInput{TableArn: &arn, S3Bucket: aws.String("dynamoemu-conformance"),
		S3Prefix: aws.String("conformance/" + token), ClientToken: &token})
	mustNoError(t, err)
	_, err = c.ExportTableToPointInTime(ctx(t), &dynamodb.ExportTableToPointInTimeInput{TableArn: &arn, S3Bucket: aws.String("dynamoemu-conformance"),
		S3Prefix: aws.String("conformance/" + token + "-other"), ClientToken: &token})
	requireAPIError(t, err, "ExportConflictException", "Export conflict: Duplicate request detected with conflicting parameters")
}
