package conformance

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// What AWS fills in and how it replays ClientTokens, as ack-api-quirks
// recorded AWS's answers (services/dynamodb, verified 2026-10-09):
// DDB-EXPORT-017 and -016 (ExportType), DDB-IMPORT-017 (ImportTable's
// ClientToken). DynamoDB Local 3.3.0 has none of these operations.

// TestExportTypeLeftEmpty: an export whose request named no ExportType
// has none in DescribeExport (AWS does not fill in FULL_EXPORT there,
// while it does fill in ExportFormat and S3SseAlgorithm), but its
// ListExports summary carries it.
func TestExportTypeLeftEmpty(t *testing.T) {
	AWSDiffers(t, lacking("exports", "API_ExportTableToPointInTime, API_DescribeExport, API_ListExports"))
	t.Parallel()
	c := newClient(t)
	x := exportTableAs(t, c, "")
	if x.desc.ExportType != "" || x.desc.ExportFormat != types.ExportFormatDynamodbJson || x.desc.S3SseAlgorithm != types.S3SseAlgorithmAes256 {
		t.Errorf("DescribeExport: got ExportType %q, ExportFormat %q, S3SseAlgorithm %q; want none, DYNAMODB_JSON, AES256",
			x.desc.ExportType, x.desc.ExportFormat, x.desc.S3SseAlgorithm)
	}
	l, err := c.ListExports(ctx(t), &dynamodb.ListExportsInput{TableArn: x.src.TableArn})
	mustNoError(t, err)
	if len(l.ExportSummaries) != 1 || aws.ToString(l.ExportSummaries[0].ExportArn) != aws.ToString(x.arn) ||
		l.ExportSummaries[0].ExportType != types.ExportTypeFullExport {
		t.Errorf("ListExports: got %+v, want the export, FULL_EXPORT", l.ExportSummaries)
	}
}

// TestImportClientTokenReplay: a replay of ImportTable's ClientToken with
// another S3KeyPrefix returns the same import, one with another table
// name is ImportConflictException; once the import has finished the
// identical replay is ResourceInUseException while its table exists, and
// after the table is deleted it returns the old import, creating nothing.
func TestImportClientTokenReplay(t *testing.T) {
	AWSDiffers(t, lacking("imports", "API_ImportTable"))
	t.Parallel()
	c := newClient(t)
	x := exportTable(t, c)
	dst, other := uniqueName(t), uniqueName(t)
	t.Cleanup(func() { deleteTable(t, c, dst) })
	token := uniqueKey(t)
	importAs := func(prefix, name string) (*dynamodb.ImportTableOutput, error) {
		return c.ImportTable(ctx(t), &dynamodb.ImportTableInput{
			ClientToken:          &token,
			S3BucketSource:       &types.S3BucketSource{S3Bucket: aws.String("dynamoemu-conformance"), S3KeyPrefix: aws.String(prefix)},
			InputFormat:          types.InputFormatDynamodbJson,
			InputCompressionType: types.InputCompressionTypeGzip,
			TableCreationParameters: &types.TableCreationParameters{TableName: &name, BillingMode: types.BillingModePayPerRequest,
				AttributeDefinitions: x.src.AttributeDefinitions, KeySchema: x.src.KeySchema},
		})
	}
	first, err := importAs(x.dataPrefix(), dst)
	mustNoError(t, err)
	arn := aws.ToString(first.ImportTableDescription.ImportArn)
	again, err := importAs(x.prefix, dst)
	mustNoError(t, err)
	if got := aws.ToString(again.ImportTableDescription.ImportArn); got != arn {
		t.Errorf("replay with another S3KeyPrefix: got %s, want the first import %s", got, arn)
	}
	_, err = importAs(x.dataPrefix(), other)
	requireAPIError(t, err, "ImportConflictException", "Import conflict: Duplicate request detected with conflicting parameters")
	eventually(t, "import finished", func() bool {
		out, err := c.DescribeImport(ctx(t), &dynamodb.DescribeImportInput{ImportArn: &arn})
		mustNoError(t, err)
		return out.ImportTableDescription.ImportStatus != types.ImportStatusInProgress
	})
	eventually(t, "imported table ACTIVE", func() bool { return mustDescribe(t, c, dst).TableStatus == types.TableStatusActive })
	_, err = importAs(x.dataPrefix(), dst)
	requireAPIError(t, err, "ResourceInUseException", "")

	_, err = c.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &dst})
	mustNoError(t, err)
	eventually(t, "imported table deleted", func() bool {
		_, err := c.DescribeTable(ctx(t), &dynamodb.DescribeTableInput{TableName: &dst})
		var nf *types.ResourceNotFoundException
		return errors.As(err, &nf)
	})
	replay, err := importAs(x.dataPrefix(), dst)
	mustNoError(t, err)
	if got := aws.ToString(replay.ImportTableDescription.ImportArn); got != arn {
		t.Errorf("identical replay after DeleteTable: got %s, want the first import %s", got, arn)
	}
	_, err = c.DescribeTable(ctx(t), &dynamodb.DescribeTableInput{TableName: &dst})
	var nf *types.ResourceNotFoundException
	if !errors.As(err, &nf) {
		t.Errorf("DescribeTable after the replay: got %v, want ResourceNotFoundException (nothing created)", err)
	}
}
