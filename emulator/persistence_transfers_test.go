package emulator

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestPersistTransfers: exports, imports and bulk operations are listed
// and described after a restart as before it (states, counts,
// ClientTokens; a bulk operation cancelled before the restart ends
// CANCELLED after it), through the log and through a compaction.
func TestPersistTransfers(t *testing.T) {
	for _, compact := range []bool{false, true} {
		dir, s3 := t.TempDir(), t.TempDir()
		for _, b := range []string{"bkt", "out"} { // buckets exist once made, as on S3
			if err := os.Mkdir(filepath.Join(s3, b), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		clock := testkit.NewClock(time.Now().Truncate(time.Millisecond))
		opts := Options{Clock: clock.Now, DelayTransientStatuses: true, TransientStatusDelay: 2 * time.Second, ExportDir: s3}
		if compact {
			opts.Persist = PersistOptions{CompactBytes: 1 << 10, CompactRatio: 0.1}
		}
		mustOK := func(e *Emulator, op, body string) string {
			t.Helper()
			res, out := do(t, e, "DynamoDB_20120810."+op, testkit.DefaultAuth, body)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("%s: %d %s", op, res.StatusCode, out)
			}
			return out
		}
		e := openPersisted(t, dir, opts)
		mustOK(e, "CreateTable", `{"TableName":"trs","BillingMode":"PAY_PER_REQUEST",
			"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]}`)
		clock.Advance(2 * time.Second) // CREATING until then
		mustOK(e, "UpdateContinuousBackups", `{"TableName":"trs","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
		for _, pk := range []string{"a", "b", "c"} {
			mustOK(e, "PutItem", `{"TableName":"trs","Item":{"pk":{"S":"`+pk+`"},"pad":{"S":"`+strings.Repeat("x", 300)+`"}}}`)
		}
		clock.Advance(time.Second)
		arn := "arn:aws:dynamodb:us-east-1:000000000000:table/trs"
		export := `{"TableArn":"` + arn + `","S3Bucket":"bkt","ExportFormat":"ION","ClientToken":"tok1"}`
		var ex struct{ ExportDescription struct{ ExportArn string } }
		testkit.MustUnmarshal(t, mustOK(e, "ExportTableToPointInTime", export), &ex)
		clock.Advance(3 * time.Second)
		if err := os.WriteFile(filepath.Join(s3, "bkt", "in.json"), []byte(`{"Item":{"pk":{"S":"x"}}}`+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var im struct{ ImportTableDescription struct{ ImportArn string } }
		testkit.MustUnmarshal(t, mustOK(e, "ImportTable", `{"S3BucketSource":{"S3Bucket":"bkt","S3KeyPrefix":"in.json"},"InputFormat":"DYNAMODB_JSON",
			"TableCreationParameters":{"TableName":"imp","BillingMode":"PAY_PER_REQUEST",
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}}`), &im)
		clock.Advance(3 * time.Second)
		var bo struct {
			BulkOperationDescription struct{ BulkOperationArn string }
		}
		testkit.MustUnmarshal(t, mustOK(e, "StartBulkPutItems", `{"TableName":"trs","InputS3Configuration":{"S3Bucket":"bkt","S3KeyPrefix":"in.json","InputFormat":"DYNAMODB_JSON"},
			"OutputS3Configuration":{"S3Bucket":"out","OutputType":["ERROR"]}}`), &bo)
		mustOK(e, "CancelBulkOperation", `{"BulkOperationArn":"`+bo.BulkOperationDescription.BulkOperationArn+`"}`)
		if compact {
			for i := range 40 { // enough log to compact
				mustOK(e, "PutItem", `{"TableName":"trs","Item":{"pk":{"S":"more`+string(rune('a'+i%26))+`"},"pad":{"S":"`+strings.Repeat("y", 200)+`"}}}`)
			}
		}
		reads := []struct{ op, body string }{
			{"DescribeExport", `{"ExportArn":"` + ex.ExportDescription.ExportArn + `"}`},
			{"ListExports", `{}`},
			{"DescribeImport", `{"ImportArn":"` + im.ImportTableDescription.ImportArn + `"}`},
			{"ListImports", `{}`},
			{"ListBulkOperations", `{}`},
			{"ExportTableToPointInTime", export}, // the ClientToken's answer
		}
		before := make([]string, len(reads))
		for i, r := range reads {
			before[i] = mustOK(e, r.op, r.body)
		}
		bulkBefore := mustOK(e, "DescribeBulkOperation", `{"BulkOperationArn":"`+bo.BulkOperationDescription.BulkOperationArn+`"}`)
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}

		e2 := openPersisted(t, dir, opts)
		for i, r := range reads {
			if got := mustOK(e2, r.op, r.body); got != before[i] {
				t.Errorf("compact=%v, %s after the restart:\n got %s\nwant %s", compact, r.op, got, before[i])
			}
		}
		var b1, b2 struct {
			BulkOperationDescription struct{ BulkOperationStatus string }
		}
		testkit.MustUnmarshal(t, bulkBefore, &b1)
		if got := b1.BulkOperationDescription.BulkOperationStatus; got != "CANCELLING" {
			t.Errorf("before the restart: got %s, want CANCELLING", got)
		}
		clock.Advance(3 * time.Second)
		testkit.MustUnmarshal(t, mustOK(e2, "DescribeBulkOperation", `{"BulkOperationArn":"`+bo.BulkOperationDescription.BulkOperationArn+`"}`), &b2)
		if got := b2.BulkOperationDescription.BulkOperationStatus; got != "CANCELLED" {
			t.Errorf("compact=%v, after the restart and the delay: got %s, want CANCELLED", compact, got)
		}
		if err := e2.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
