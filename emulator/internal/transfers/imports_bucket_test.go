package transfers

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestImportMissingBucketAndEmptyPrefix: as AWS answers (ack-api-quirks
// DDB-IMPORT-012), an import from a bucket that does not exist is
// accepted IN_PROGRESS and ends FAILED with S3NoSuchBucket, no table
// created, DescribeImport keeping the table's ARN; one from a prefix with
// no object ends COMPLETED with an empty ACTIVE table.
func TestImportMissingBucketAndEmptyPrefix(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "bkt", "other"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}, TransientDelay: time.Second})
	type desc struct {
		ImportArn, ImportStatus, TableArn, TableId, FailureCode, FailureMessage string
		ImportedItemCount, ErrorCount                                           int
	}
	start := func(bucket, prefix, name string) desc {
		t.Helper()
		var out struct{ ImportTableDescription desc }
		testkit.MustUnmarshal(t, e.must("ImportTable", `{"S3BucketSource":{"S3Bucket":"`+bucket+`","S3KeyPrefix":"`+prefix+`"},"InputFormat":"DYNAMODB_JSON",
			"TableCreationParameters":{"TableName":"`+name+`",`+pkSkTable+`}}`), &out)
		if out.ImportTableDescription.ImportStatus != "IN_PROGRESS" {
			t.Errorf("ImportTable %s/%s: got %s, want IN_PROGRESS", bucket, prefix, out.ImportTableDescription.ImportStatus)
		}
		return out.ImportTableDescription
	}
	finished := func(arn string) desc {
		t.Helper()
		var out struct{ ImportTableDescription desc }
		testkit.MustUnmarshal(t, e.must("DescribeImport", `{"ImportArn":"`+arn+`"}`), &out)
		return out.ImportTableDescription
	}
	missing := start("no-such-bucket", "", "fromMissing")
	empty := start("bkt", "nothing/here", "fromEmpty")
	e.clock.Advance(time.Second)

	d := finished(missing.ImportArn)
	if d.ImportStatus != "FAILED" || d.FailureCode != "S3NoSuchBucket" || d.FailureMessage != msgS3NoSuchBucket ||
		d.TableArn != "arn:aws:dynamodb:us-east-1:000000000000:table/fromMissing" || d.TableId == "" {
		t.Errorf("missing bucket: got %+v, want FAILED S3NoSuchBucket keeping the table's ARN and id", d)
	}
	e.refused("DescribeTable", `{"TableName":"fromMissing"}`, "ResourceNotFoundException")

	d = finished(empty.ImportArn)
	if d.ImportStatus != "COMPLETED" || d.FailureCode != "" || d.ImportedItemCount != 0 || d.ErrorCount != 0 {
		t.Errorf("empty prefix: got %+v, want COMPLETED with no item and no error", d)
	}
	var tbl struct{ Table struct{ TableStatus string } }
	testkit.MustUnmarshal(t, e.must("DescribeTable", `{"TableName":"fromEmpty"}`), &tbl)
	if tbl.Table.TableStatus != "ACTIVE" {
		t.Errorf("empty prefix: got table %s, want ACTIVE", tbl.Table.TableStatus)
	}
	if got := scanItems(t, e, "fromEmpty"); len(got) != 0 {
		t.Errorf("empty prefix: got items %v, want none", got)
	}

	// The table's definition is still checked as CreateTable checks it,
	// and an existing name is refused, before the bucket is looked at.
	e.refused("ImportTable", `{"S3BucketSource":{"S3Bucket":"no-such-bucket"},"InputFormat":"DYNAMODB_JSON",
		"TableCreationParameters":{"TableName":"bad","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[],"KeySchema":[]}}`, "ValidationException")
	e.refused("ImportTable", `{"S3BucketSource":{"S3Bucket":"no-such-bucket"},"InputFormat":"DYNAMODB_JSON",
		"TableCreationParameters":{"TableName":"fromEmpty",`+pkSkTable+`}}`, "ResourceInUseException")
}
