package conformance

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// exportedTable is a table of three items of every kind, exported to S3
// with PITR on: what the import and bulk operation tests read back.
type exportedTable struct {
	src    *types.TableDescription
	want   []item
	prefix string                   // the export's S3Prefix
	arn    *string                  // the export's ARN
	desc   *types.ExportDescription // as DescribeExport answered once it left IN_PROGRESS
}

// dataPrefix is the S3 key prefix of the export's data files.
func (x exportedTable) dataPrefix() string {
	arn := aws.ToString(x.arn)
	return x.prefix + "/AWSDynamoDB/" + arn[strings.LastIndex(arn, "/")+1:] + "/data/"
}

// exportTable creates and fills a table, turns PITR on, exports it to the
// bucket dynamoemu-conformance and waits for the export to finish.
func exportTable(t *testing.T, c *dynamodb.Client) exportedTable {
	t.Helper()
	return exportTableAs(t, c, types.ExportFormatDynamodbJson)
}

// exportTableAs is exportTable in the export format format.
func exportTableAs(t *testing.T, c *dynamodb.Client, format types.ExportFormat) exportedTable {
	t.Helper()
	table := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{"sk", "N"}))
	x := exportedTable{want: []item{
		{"pk": s("a"), "sk": n("1"), "set": ss("x", "y"), "doc": m(item{"l": l(n("1.5"), null(), bl(true))})},
		{"pk": s("a"), "sk": n("2"), "bin": b([]byte{0, 1, 2}), "nums": ns("1", "-2")},
		{"pk": s("b"), "sk": n("-3")},
	}}
	for _, it := range x.want {
		mustPut(t, c, table, it)
	}
	enablePITR(t, c, table)
	x.src = mustDescribe(t, c, table)
	x.prefix = "conformance/" + uniqueKey(t)
	ex, err := c.ExportTableToPointInTime(ctx(t), &dynamodb.ExportTableToPointInTimeInput{TableArn: x.src.TableArn,
		S3Bucket: aws.String("dynamoemu-conformance"), S3Prefix: &x.prefix, ExportFormat: format})
	mustNoError(t, err)
	x.arn = ex.ExportDescription.ExportArn
	eventually(t, "export COMPLETED", func() bool {
		out, err := c.DescribeExport(ctx(t), &dynamodb.DescribeExportInput{ExportArn: x.arn})
		mustNoError(t, err)
		x.desc = out.ExportDescription
		return x.desc.ExportStatus != types.ExportStatusInProgress
	})
	return x
}

// enablePITR turns point-in-time recovery on for table.
func enablePITR(t *testing.T, c *dynamodb.Client, table string) {
	t.Helper()
	_, err := c.UpdateContinuousBackups(ctx(t), &dynamodb.UpdateContinuousBackupsInput{TableName: &table,
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}})
	mustNoError(t, err)
}
