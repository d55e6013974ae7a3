package conformance

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

// TestExportToMissingBucket: an export to a bucket that does not exist
// is accepted IN_PROGRESS and ends FAILED with FailureCode
// S3NoSuchBucket and S3's message, without ItemCount or ExportManifest
// (records/exports-bucket.jsonl: ack-api-quirks DDB-EXPORT-010,
// verified against AWS 2026-10-09). The emulator's stand-in for S3 has
// the buckets made as directories (docs/global-tables.md).
func TestExportToMissingBucket(t *testing.T) {
	AWSDiffers(t, lacking("exports", "API_ExportTableToPointInTime, API_DescribeExport"))
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	enablePITR(t, c, table)
	arn := aws.ToString(mustDescribe(t, c, table).TableArn)
	out, err := c.ExportTableToPointInTime(ctx(t), &dynamodb.ExportTableToPointInTimeInput{TableArn: &arn,
		S3Bucket: aws.String(conformanceBucket + "-missing-" + strings.ToLower(uniqueKey(t)))})
	require.NoError(t, err, "AWS accepts the export and fails it later")
	var d *types.ExportDescription
	eventually(t, "the export's end", func() bool {
		got, err := c.DescribeExport(ctx(t), &dynamodb.DescribeExportInput{ExportArn: out.ExportDescription.ExportArn})
		require.NoError(t, err)
		d = got.ExportDescription
		return d.ExportStatus != types.ExportStatusInProgress
	})
	require.Equal(t, types.ExportStatusFailed, d.ExportStatus)
	require.Equal(t, "S3NoSuchBucket", aws.ToString(d.FailureCode))
	require.True(t, strings.HasPrefix(aws.ToString(d.FailureMessage),
		"The specified bucket does not exist (Service: Amazon S3; Status Code: 404; Error Code: NoSuchBucket; Request ID: "), aws.ToString(d.FailureMessage))
	require.Nil(t, d.ItemCount)
	require.Empty(t, aws.ToString(d.ExportManifest))
}
