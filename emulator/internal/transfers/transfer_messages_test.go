package transfers

import (
	"encoding/json"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"strings"
	"testing"
	"time"
)

// TestTransferMessages: the refusals of exports and imports with AWS's
// types and messages (apierr/messages_exports.go names each record).
func TestTransferMessages(t *testing.T) {
	dir := t.TempDir()
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}})
	e.table("msgs", onDemand)
	e.must("UpdateContinuousBackups", `{"TableName":"msgs","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
	start := e.clock.Now()
	e.clock.Advance(2 * time.Hour)
	now := e.clock.Now()
	arn := "arn:aws:dynamodb:us-east-1:000000000000:table/msgs"
	iso := func(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }
	inc := func(from, to time.Time) string {
		return `{"TableArn":"` + arn + `","S3Bucket":"bkt","ExportType":"INCREMENTAL_EXPORT",
			"IncrementalExportSpecification":{"ExportFromTime":` + epochJSON(from) + `,"ExportToTime":` + epochJSON(to) + `}}`
	}
	e.must("ExportTableToPointInTime", `{"TableArn":"`+arn+`","S3Bucket":"bkt","ClientToken":"tok"}`)
	exportID := transferID(now)
	for _, c := range []struct {
		op, body, wantType, wantMsg string
	}{
		{"ExportTableToPointInTime", `{"TableArn":"msgs","S3Bucket":"bkt"}`, "ValidationException",
			"One or more parameter values were invalid: tableArn is not a valid ARN"},
		{"ExportTableToPointInTime", `{"TableArn":"` + arn + `x","S3Bucket":"bkt"}`, "TableNotFoundException",
			"Table not found: " + arn + "x"},
		{"ExportTableToPointInTime", `{"TableArn":"` + arn + `","S3Bucket":"bkt","S3SseKmsKeyId":"alias/aws/s3"}`, "ValidationException",
			"Invalid Request: KMS Key Id is not supported for this encryption type"},
		{"ExportTableToPointInTime", `{"TableArn":"` + arn + `","S3Bucket":"bkt","ExportType":"INCREMENTAL_EXPORT"}`, "ValidationException",
			"Invalid Request: Incremental Export Specification expected when export type is set as Incremental Export"},
		{"ExportTableToPointInTime", `{"TableArn":"` + arn + `","S3Bucket":"bkt","IncrementalExportSpecification":{"ExportFromTime":1}}`, "ValidationException",
			"Invalid Request: Export Type expected to be Incremental Export when incremental export specification is provided"},
		{"ExportTableToPointInTime", `{"TableArn":"` + arn + `","S3Bucket":"bkt","ExportType":"FULL_EXPORT","IncrementalExportSpecification":{"ExportFromTime":1}}`, "ValidationException",
			"Invalid Request: When Export Type is Full Export , Incremental Export Specification should not be provided"},
		{"ExportTableToPointInTime", `{"TableArn":"` + arn + `","S3Bucket":"bkt","ExportType":"INCREMENTAL_EXPORT","IncrementalExportSpecification":{}}`, "ValidationException",
			"Invalid Request: ExportFromTime must be provided in IncrementalExportSpecification"},
		{"ExportTableToPointInTime", inc(start.Add(-time.Hour), now), "InvalidExportTimeException",
			"Incremental export period from time cannot be less than the table creation time : " + iso(start)},
		{"ExportTableToPointInTime", inc(now.Add(-time.Hour), now.Add(-2*time.Hour)), "InvalidExportTimeException",
			"Incremental export period from time cannot be less than the table creation time : " + iso(start)},
		{"ExportTableToPointInTime", inc(now.Add(-time.Hour), now.Add(time.Hour)), "InvalidExportTimeException",
			"Incremental export period to time cannot be greater than the current time : " + iso(now)},
		{"ExportTableToPointInTime", inc(now.Add(-10*time.Minute), now), "InvalidExportTimeException",
			"Difference between export period from time and export period to time is less than 15 minutes"},
		{"ExportTableToPointInTime", `{"TableArn":"` + arn + `","S3Bucket":"bkt","ExportTime":` + epochJSON(now.Add(time.Hour)) + `}`, "InvalidExportTimeException",
			"Export Time is invalid"},
		{"ExportTableToPointInTime", `{"TableArn":"` + arn + `","S3Bucket":"other","ClientToken":"tok"}`, "ExportConflictException",
			"Export conflict: Duplicate request detected with conflicting parameters"},
		{"DescribeExport", `{"ExportArn":"` + arn + `"}`, "ValidationException", "Invalid Export ARN"},
		{"DescribeExport", `{"ExportArn":"` + arn + `/import/` + exportID + `"}`, "ValidationException", "Invalid Export ARN"},
		{"DescribeExport", `{"ExportArn":"` + arn + `/export/` + exportID + `"}`, "ExportNotFoundException",
			"Export not found: Export not found: " + arn + "/export/" + exportID},
		{"DescribeImport", `{"ImportArn":"` + arn + `/export/` + exportID + `"}`, "ValidationException", "Invalid Import ARN"},
		{"DescribeImport", `{"ImportArn":"` + arn + `/import/` + exportID + `"}`, "ImportNotFoundException",
			"Import not found: Import not found: " + arn + "/import/" + exportID},
		{"ListExports", `{"NextToken":"00112233445566778899"}`, "ValidationException",
			"Invalid Request: Provided nextToken is invalid: 00112233445566778899"},
		{"ImportTable", `{"S3BucketSource":{"S3Bucket":"bkt"},"InputFormat":"DYNAMODB_JSON","InputFormatOptions":{"Csv":{"Delimiter":";"}},
			"TableCreationParameters":{"TableName":"imp","BillingMode":"PAY_PER_REQUEST",
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}}`, "ValidationException",
			"Invalid Request: Unsupported InputFormatOptions for the given input format: DYNAMODB_JSON."},
		{"ImportTable", `{"S3BucketSource":{"S3Bucket":"bkt"},"InputFormat":"CSV","InputFormatOptions":{"Csv":{"Delimiter":"#"}},
			"TableCreationParameters":{"TableName":"imp","BillingMode":"PAY_PER_REQUEST",
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}}`, "ValidationException",
			"1 validation error detected: Value '#' at 'inputFormatOptions.csv.delimiter' failed to satisfy constraint: Member must satisfy regular expression pattern: [,;:|\\t ]"},
	} {
		out := e.refused(c.op, c.body, c.wantType)
		var body struct{ Message string }
		_ = json.Unmarshal([]byte(out), &body)
		if body.Message != c.wantMsg {
			t.Errorf("%s %s:\n got %q\nwant %q", c.op, strings.Join(strings.Fields(c.body), " "), body.Message, c.wantMsg)
		}
	}
}

// TestTransferClientTokenPattern: an empty ClientToken, or one with '$',
// fails the models' pattern ^[^\$]+$.
func TestTransferClientTokenPattern(t *testing.T) {
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(s3Dir(t, "bkt", "out")))}})
	for _, tok := range []string{"", "a$b"} {
		out := e.refused("ExportTableToPointInTime", `{"TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/nope","S3Bucket":"bkt","ClientToken":"`+tok+`"}`, "ValidationException")
		if want := `Value '` + tok + `' at 'clientToken' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[^\\$]+$`; !strings.Contains(out, want) {
			t.Errorf("ClientToken %q: got %s, want %s", tok, out, want)
		}
	}
}

// TestListExportsOfDeletedTable: ListExports(TableArn) lists the exports
// of the table that has the ARN now: none once it is deleted or
// re-created (ack-api-quirks DDB-EXPORT-020); DescribeExport still
// answers.
func TestListExportsOfDeletedTable(t *testing.T) {
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(s3Dir(t, "bkt", "out")))}})
	e.table("gone", onDemand)
	e.must("UpdateContinuousBackups", `{"TableName":"gone","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
	arn := "arn:aws:dynamodb:us-east-1:000000000000:table/gone"
	var ex struct{ ExportDescription struct{ ExportArn string } }
	if err := json.Unmarshal([]byte(e.must("ExportTableToPointInTime", `{"TableArn":"`+arn+`","S3Bucket":"bkt"}`)), &ex); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		var le struct{ ExportSummaries []any }
		_ = json.Unmarshal([]byte(e.must("ListExports", `{"TableArn":"`+arn+`"}`)), &le)
		return len(le.ExportSummaries)
	}
	if got := count(); got != 1 {
		t.Fatalf("before DeleteTable: got %d exports, want 1", got)
	}
	e.must("DeleteTable", `{"TableName":"gone"}`)
	if got := count(); got != 0 {
		t.Errorf("after DeleteTable: got %d exports, want 0", got)
	}
	e.table("gone", onDemand)
	if got := count(); got != 0 {
		t.Errorf("after a re-create: got %d exports, want 0", got)
	}
	e.must("DescribeExport", `{"ExportArn":"`+ex.ExportDescription.ExportArn+`"}`)
}

// TestIncrementalExportWithoutPITR: an incremental export of a table
// without point-in-time recovery is InvalidExportTimeException, quoting
// the table's creation (ack-api-quirks DDB-EXPORT-001); a full one is
// PointInTimeRecoveryUnavailableException.
func TestIncrementalExportWithoutPITR(t *testing.T) {
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(s3Dir(t, "bkt", "out")))}})
	created := e.clock.Now()
	e.table("nopitr", onDemand)
	e.clock.Advance(time.Hour)
	arn := "arn:aws:dynamodb:us-east-1:000000000000:table/nopitr"
	out := e.refused("ExportTableToPointInTime", `{"TableArn":"`+arn+`","S3Bucket":"bkt","ExportType":"INCREMENTAL_EXPORT",
		"IncrementalExportSpecification":{"ExportFromTime":`+epochJSON(created.Add(10*time.Minute))+`}}`, "InvalidExportTimeException")
	if want := "Incremental export period from time cannot be less than the table creation time : " + created.UTC().Format("2006-01-02T15:04:05Z"); !strings.Contains(out, want) {
		t.Errorf("got %s, want %s", out, want)
	}
	e.refused("ExportTableToPointInTime", `{"TableArn":"`+arn+`","S3Bucket":"bkt"}`, "PointInTimeRecoveryUnavailableException")
}
