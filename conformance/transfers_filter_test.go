package conformance

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

// Filtered exports: ExportTableToPointInTime's FilterSpecification
// (September 2026; AWS's developer guide, "Filtering a table export",
// S3DataExport.Filtered, and the API reference, FilterSpecification): a
// key condition with Query's rules, a filter with Scan's, a projection;
// a filter naming a key attribute only without a key condition. No
// record of AWS's answer to a filtered export's bad expression was
// found: the emulator answers what Query and Scan answer to it.

// TestExportFilter: only the items inside the key condition that hold
// the filter are exported, with the projected attributes, and the
// description echoes the specification. Read back by importing the
// export's data files.
func TestExportFilter(t *testing.T) {
	AWSDiffers(t, lacking("exports and imports", "API_ExportTableToPointInTime, API_FilterSpecification"))
	t.Parallel()
	c := newClient(t)
	table := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{"sk", "N"}))
	for _, it := range []item{
		{"pk": s("a"), "sk": n("1"), "x": s("keep"), "y": n("1")},
		{"pk": s("a"), "sk": n("2"), "x": s("drop"), "y": n("2")},
		{"pk": s("a"), "sk": n("9"), "x": s("keep"), "y": n("3")},
		{"pk": s("b"), "sk": n("1"), "x": s("keep"), "y": n("4")},
	} {
		mustPut(t, c, table, it)
	}
	enablePITR(t, c, table)
	src := mustDescribe(t, c, table)
	prefix := "conformance/" + uniqueKey(t)
	spec := &types.FilterSpecification{
		KeyConditionExpression:    aws.String("pk = :p AND sk < :s"),
		FilterExpression:          aws.String("#x = :k"),
		ProjectionExpression:      aws.String("pk, sk, #x"),
		ExpressionAttributeNames:  map[string]string{"#x": "x"},
		ExpressionAttributeValues: item{":p": s("a"), ":s": n("5"), ":k": s("keep")},
	}
	ex, err := c.ExportTableToPointInTime(ctx(t), &dynamodb.ExportTableToPointInTimeInput{TableArn: src.TableArn,
		S3Bucket: aws.String("dynamoemu-conformance"), S3Prefix: &prefix, FilterSpecification: spec})
	mustNoError(t, err)
	var d *types.ExportDescription
	eventually(t, "export COMPLETED", func() bool {
		out, err := c.DescribeExport(ctx(t), &dynamodb.DescribeExportInput{ExportArn: ex.ExportDescription.ExportArn})
		mustNoError(t, err)
		d = out.ExportDescription
		return d.ExportStatus != types.ExportStatusInProgress
	})
	require.Equal(t, types.ExportStatusCompleted, d.ExportStatus, aws.ToString(d.FailureMessage))
	require.Equal(t, int64(1), aws.ToInt64(d.ItemCount))
	require.NotNil(t, d.FilterSpecification)
	require.Equal(t, "pk = :p AND sk < :s", aws.ToString(d.FilterSpecification.KeyConditionExpression))
	require.Equal(t, "#x = :k", aws.ToString(d.FilterSpecification.FilterExpression))
	require.Equal(t, "pk, sk, #x", aws.ToString(d.FilterSpecification.ProjectionExpression))
	require.Equal(t, map[string]string{"#x": "x"}, d.FilterSpecification.ExpressionAttributeNames)
	require.Equal(t, render(s("keep")), render(d.FilterSpecification.ExpressionAttributeValues[":k"]))

	arn := aws.ToString(ex.ExportDescription.ExportArn)
	data := prefix + "/AWSDynamoDB/" + arn[strings.LastIndex(arn, "/")+1:] + "/data/"
	dst := uniqueName(t)
	t.Cleanup(func() { deleteTable(t, c, dst) })
	im, err := c.ImportTable(ctx(t), &dynamodb.ImportTableInput{
		S3BucketSource:       &types.S3BucketSource{S3Bucket: aws.String("dynamoemu-conformance"), S3KeyPrefix: &data},
		InputFormat:          types.InputFormatDynamodbJson,
		InputCompressionType: types.InputCompressionTypeGzip,
		TableCreationParameters: &types.TableCreationParameters{TableName: &dst, BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: src.AttributeDefinitions, KeySchema: src.KeySchema},
	})
	mustNoError(t, err)
	eventually(t, "import finished", func() bool {
		out, err := c.DescribeImport(ctx(t), &dynamodb.DescribeImportInput{ImportArn: im.ImportTableDescription.ImportArn})
		mustNoError(t, err)
		return out.ImportTableDescription.ImportStatus != types.ImportStatusInProgress
	})
	scan, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &dst, ConsistentRead: aws.Bool(true)})
	mustNoError(t, err)
	requireItems(t, scan.Items, []item{{"pk": s("a"), "sk": n("1"), "x": s("keep")}})
}

// TestExportFilterRefusals: a bad expression in FilterSpecification is
// refused, and nothing is exported.
func TestExportFilterRefusals(t *testing.T) {
	AWSDiffers(t, lacking("exports and imports", "API_ExportTableToPointInTime, API_FilterSpecification"))
	t.Parallel()
	c := newClient(t)
	table := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{"sk", "N"}))
	enablePITR(t, c, table)
	src := mustDescribe(t, c, table)
	for _, tc := range []struct {
		name string
		spec types.FilterSpecification
		want string // the message, or its start when it ends in "..."
	}{
		{"filter syntax", types.FilterSpecification{FilterExpression: aws.String("x = = :v"), ExpressionAttributeValues: item{":v": s("a")}},
			"Invalid FilterExpression: Syntax error; token: \"=\", near: \"= = :v\""},
		{"filter on a key beside a key condition", types.FilterSpecification{KeyConditionExpression: aws.String("pk = :p"),
			FilterExpression: aws.String("sk > :v"), ExpressionAttributeValues: item{":p": s("a"), ":v": n("1")}},
			"Filter Expression can only contain non-primary key attributes: Primary key attribute: sk"},
		{"key condition on another attribute", types.FilterSpecification{KeyConditionExpression: aws.String("x = :p"),
			ExpressionAttributeValues: item{":p": s("a")}}, "Query condition missed key schema element: pk"},
		{"unused value", types.FilterSpecification{FilterExpression: aws.String("x = :v"),
			ExpressionAttributeValues: item{":v": s("a"), ":z": s("b")}}, "Value provided in ExpressionAttributeValues unused in expressions: keys: {:z}"},
		{"undefined name", types.FilterSpecification{ProjectionExpression: aws.String("#n")},
			"Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; attribute name: #n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := tc.spec
			_, err := c.ExportTableToPointInTime(ctx(t), &dynamodb.ExportTableToPointInTimeInput{TableArn: src.TableArn,
				S3Bucket: aws.String("dynamoemu-conformance"), S3Prefix: aws.String("conformance/" + uniqueKey(t)), FilterSpecification: &spec})
			requireValidation(t, err, tc.want)
		})
	}
	out, err := c.ListExports(ctx(t), &dynamodb.ListExportsInput{TableArn: src.TableArn})
	mustNoError(t, err)
	require.Empty(t, out.ExportSummaries, "refused exports were recorded")
}
