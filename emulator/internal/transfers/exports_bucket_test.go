package transfers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/stretchr/testify/require"
)

// TestExportToMissingBucket: an export to a bucket not made (no
// directory under the S3 directory) is accepted IN_PROGRESS and ends
// FAILED with S3NoSuchBucket and S3's message, as on AWS
// (ack-api-quirks DDB-EXPORT-010); nothing is written, not even the
// bucket, and the same export once the bucket is made COMPLETES.
func TestExportToMissingBucket(t *testing.T) {
	dir := s3Dir(t)
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}, TransientDelay: time.Second})
	e.must("CreateTable", `{"TableName":"src",`+onDemand+`,"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	e.clock.Advance(time.Second)
	e.must("PutItem", `{"TableName":"src","Item":{"pk":{"S":"a"}}}`)
	e.must("UpdateContinuousBackups", `{"TableName":"src","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
	type desc struct {
		ExportArn, ExportStatus, FailureCode, FailureMessage, ExportManifest string
		ItemCount                                                            *int64
	}
	var ex struct{ ExportDescription desc }
	req := `{"TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/src","S3Bucket":"nobucket","S3Prefix":"p"}`
	testkit.MustUnmarshal(t, e.must("ExportTableToPointInTime", req), &ex)
	require.Equal(t, "IN_PROGRESS", ex.ExportDescription.ExportStatus)
	require.Empty(t, ex.ExportDescription.FailureCode)
	e.clock.Advance(time.Second)
	testkit.MustUnmarshal(t, e.must("DescribeExport", `{"ExportArn":"`+ex.ExportDescription.ExportArn+`"}`), &ex)
	d := ex.ExportDescription
	require.Equal(t, "FAILED", d.ExportStatus)
	require.Equal(t, "S3NoSuchBucket", d.FailureCode)
	require.True(t, strings.HasPrefix(d.FailureMessage, "The specified bucket does not exist (Service: Amazon S3; Status Code: 404; Error Code: NoSuchBucket; Request ID: "), d.FailureMessage)
	require.Nil(t, d.ItemCount)
	require.Empty(t, d.ExportManifest)
	_, err := os.Stat(filepath.Join(dir, "nobucket"))
	require.ErrorIs(t, err, os.ErrNotExist, "a failed export makes no bucket")

	require.NoError(t, os.Mkdir(filepath.Join(dir, "nobucket"), 0o755))
	testkit.MustUnmarshal(t, e.must("ExportTableToPointInTime", req), &ex)
	e.clock.Advance(time.Second)
	testkit.MustUnmarshal(t, e.must("DescribeExport", `{"ExportArn":"`+ex.ExportDescription.ExportArn+`"}`), &ex)
	require.Equal(t, "COMPLETED", ex.ExportDescription.ExportStatus)
}
