package transfers

import (
	"encoding/json"
	"fmt"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/stretchr/testify/require"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	reportstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/insights"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// bulkDesc is the part of a BulkOperationDescription the tests read.
type bulkDesc struct {
	BulkOperationArn, BulkOperationStatus, FailureCode, FailureMessage, PerformanceTier string
	ProcessedItemCount, FailedItemCount                                                 int
	TotalInputBytes, ProcessedInputBytes                                                *int64
	EndTime                                                                             *float64
	TableDetails                                                                        []struct{ TableId, TableName string }
	BulkOperationUsage                                                                  []struct {
		TableName    string
		BulkPutBytes int64
	}
}

func (e *clockEnv) bulkStart(body string) bulkDesc {
	e.t.Helper()
	var out struct{ BulkOperationDescription bulkDesc }
	testkit.MustUnmarshal(e.t, e.must("StartBulkPutItems", body), &out)
	return out.BulkOperationDescription
}

func (e *clockEnv) bulkDescribe(arn string) bulkDesc {
	e.t.Helper()
	var out struct{ BulkOperationDescription bulkDesc }
	testkit.MustUnmarshal(e.t, e.must("DescribeBulkOperation", `{"BulkOperationArn":"`+arn+`"}`), &out)
	return out.BulkOperationDescription
}

// writeObject writes an object of the local S3 directory.
func writeObject(t *testing.T, dir, bucket, key, data string) {
	t.Helper()
	path := filepath.Join(dir, bucket, filepath.FromSlash(key))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBulkPutRoundTrip: a table exported (gzipped DynamoDB JSON) and bulk
// put into another existing table gives the same items, which its GSI
// serves too (the items went through the normal write path).
func TestBulkPutRoundTrip(t *testing.T) {
	dir := s3Dir(t, "bkt", "out")
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}, TransientDelay: time.Second})
	schema := `"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]`
	e.must("CreateTable", `{"TableName":"src",`+onDemand+`,`+schema+`}`)
	e.must("CreateTable", `{"TableName":"dst",`+onDemand+`,`+strings.Replace(schema, `"KeySchema"`, `"GlobalSecondaryIndexes":[{"IndexName":"bySk",
		"KeySchema":[{"AttributeName":"sk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}],"KeySchema"`, 1)+`}`)
	e.clock.Advance(time.Second) // CREATING until then
	for _, it := range []string{
		`{"pk":{"S":"a"},"sk":{"N":"1"},"s":{"SS":["x","y"]},"m":{"M":{"l":{"L":[{"N":"1.5"},{"NULL":true},{"BOOL":false}]}}}}`,
		`{"pk":{"S":"a"},"sk":{"N":"2"},"b":{"B":"AAEC"},"ns":{"NS":["1","-2.5"]}}`,
		`{"pk":{"S":"b\n\"q\""},"sk":{"N":"-3"},"u":{"S":"ünïcødé"}}`,
	} {
		e.must("PutItem", `{"TableName":"src","Item":`+it+`}`)
	}
	e.must("UpdateContinuousBackups", `{"TableName":"src","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
	var ex struct{ ExportDescription struct{ ExportArn string } }
	testkit.MustUnmarshal(t, e.must("ExportTableToPointInTime", `{"TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/src","S3Bucket":"bkt","S3Prefix":"exp"}`), &ex)
	id := ex.ExportDescription.ExportArn[strings.LastIndex(ex.ExportDescription.ExportArn, "/")+1:]

	d := e.bulkStart(`{"TableName":"dst","ClientToken":"tok-1",
		"InputS3Configuration":{"S3Bucket":"bkt","S3KeyPrefix":"exp/AWSDynamoDB/` + id + `/data/","InputFormat":"DYNAMODB_JSON","InputCompressionType":"GZIP"},
		"OutputS3Configuration":{"S3Bucket":"out","OutputType":["ERROR"]}}`)
	if d.BulkOperationStatus != "IN_PROGRESS" || d.EndTime != nil {
		t.Errorf("new operation: got %s (EndTime %v), want IN_PROGRESS without EndTime", d.BulkOperationStatus, d.EndTime)
	}
	if !strings.HasPrefix(d.BulkOperationArn, "arn:aws:dynamodb:us-east-1:000000000000:table/dst/bulk-operation/") {
		t.Errorf("got BulkOperationArn %s", d.BulkOperationArn)
	}
	if d.PerformanceTier != "STANDARD" || len(d.TableDetails) != 1 || d.TableDetails[0].TableName != "dst" || d.TableDetails[0].TableId == "" {
		t.Errorf("got tier %q, TableDetails %+v; want STANDARD and dst", d.PerformanceTier, d.TableDetails)
	}
	e.clock.Advance(time.Second)
	d = e.bulkDescribe(d.BulkOperationArn)
	if d.BulkOperationStatus != "COMPLETED" || d.ProcessedItemCount != 3 || d.FailedItemCount != 0 || d.EndTime == nil {
		t.Fatalf("after the delay: got %+v, want COMPLETED with 3 items", d)
	}
	if d.TotalInputBytes == nil || d.ProcessedInputBytes == nil || *d.TotalInputBytes == 0 || *d.ProcessedInputBytes != *d.TotalInputBytes {
		t.Errorf("got input bytes %v of %v, want all of a non-zero total", d.ProcessedInputBytes, d.TotalInputBytes)
	}
	if len(d.BulkOperationUsage) != 1 || d.BulkOperationUsage[0].BulkPutBytes == 0 {
		t.Errorf("got BulkOperationUsage %+v, want the bytes put into dst", d.BulkOperationUsage)
	}
	if got, want := scanItems(t, e, "dst"), scanItems(t, e, "src"); !slices.Equal(got, want) {
		t.Errorf("bulk put table:\n got %v\nwant %v", got, want)
	}
	var q struct{ Count int }
	testkit.MustUnmarshal(t, e.must("Query", `{"TableName":"dst","IndexName":"bySk","KeyConditionExpression":"sk = :v","ExpressionAttributeValues":{":v":{"N":"2"}}}`), &q)
	if q.Count != 1 {
		t.Errorf("GSI query: got %d items, want 1", q.Count)
	}
	// The same ClientToken and request: the same operation.
	again := e.bulkStart(`{"TableName":"dst","ClientToken":"tok-1",
		"InputS3Configuration":{"S3Bucket":"bkt","S3KeyPrefix":"exp/AWSDynamoDB/` + id + `/data/","InputFormat":"DYNAMODB_JSON","InputCompressionType":"GZIP"},
		"OutputS3Configuration":{"S3Bucket":"out","OutputType":["ERROR"]}}`)
	if again.BulkOperationArn != d.BulkOperationArn {
		t.Errorf("retried start: got %s, want %s", again.BulkOperationArn, d.BulkOperationArn)
	}
	e.refused("StartBulkPutItems", `{"TableName":"dst","ClientToken":"tok-1",
		"InputS3Configuration":{"S3Bucket":"bkt","InputFormat":"DYNAMODB_JSON","InputCompressionType":"GZIP"},
		"OutputS3Configuration":{"S3Bucket":"out","OutputType":["ERROR"]}}`, "IdempotentParameterMismatchException")
	e.refused("CancelBulkOperation", `{"BulkOperationArn":"`+d.BulkOperationArn+`"}`, "ValidationException")
}

// TestBulkPutErrorsAndConditions: lines that are not items and items
// PutItem refuses count as failed and go to error.json; a false
// per-item condition counts as processed only and goes to
// condition-check-failure.json.
func TestBulkPutErrorsAndConditions(t *testing.T) {
	dir := s3Dir(t, "bkt", "out")
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}})
	e.table("dst", onDemand)
	e.must("PutItem", `{"TableName":"dst","Item":{"pk":{"S":"kept"},"v":{"N":"1"}}}`)
	writeObject(t, dir, "in", "batch/part-1.json", strings.Join([]string{
		`{"Item":{"pk":{"S":"a"},"v":{"N":"1"}}}`,
		`not json`,
		`{"Item":{"other":{"S":"no key"}}}`,
		``,
		`{"Item":{"pk":{"S":"kept"},"v":{"N":"2"}},"ConditionExpression":"attribute_not_exists(pk)"}`,
	}, "\n"))
	writeObject(t, dir, "in", "batch/part-2.json", `{"Item":{"pk":{"S":"b"}},"ConditionExpression":"attribute_not_exists(#k) AND :t = :t",`+
		`"ExpressionAttributeNames":{"#k":"pk"},"ExpressionAttributeValues":{":t":{"BOOL":true}}}`+"\n")
	writeObject(t, dir, "in", "elsewhere/x.json", `{"Item":{"pk":{"S":"not read"}}}`)
	d := e.bulkStart(`{"TableName":"arn:aws:dynamodb:us-east-1:000000000000:table/dst","PerformanceTier":"ACCELERATED","MaxWriteRequestUnits":2048,
		"InputS3Configuration":{"S3Bucket":"in","S3KeyPrefix":"batch/","InputFormat":"DYNAMODB_JSON"},
		"OutputS3Configuration":{"S3Bucket":"out","S3KeyPrefix":"reports","OutputType":["ERROR","CONDITION_CHECK_FAILURE"]}}`)
	if d.BulkOperationStatus != "COMPLETED_WITH_ERRORS" || d.ProcessedItemCount != 5 || d.FailedItemCount != 2 || d.PerformanceTier != "ACCELERATED" {
		t.Errorf("got %+v, want COMPLETED_WITH_ERRORS, 5 processed, 2 failed", d)
	}
	if got, want := scanItems(t, e, "dst"), []string{
		`{"pk":{"S":"a"},"v":{"N":"1"}}`, `{"pk":{"S":"b"}}`, `{"pk":{"S":"kept"},"v":{"N":"1"}}`,
	}; !slices.Equal(got, want) {
		t.Errorf("table:\n got %v\nwant %v", got, want)
	}
	id := d.BulkOperationArn[strings.LastIndex(d.BulkOperationArn, "/")+1:]
	root := filepath.Join(dir, "out", "reports", "AWSDynamoDB", "bulk", id)
	for _, tc := range []struct {
		file  string
		lines int
	}{{"error.json", 2}, {"condition-check-failure.json", 1}} {
		b, err := os.ReadFile(filepath.Join(root, tc.file))
		if err != nil {
			t.Errorf("report %s: %v", tc.file, err)
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) != tc.lines {
			t.Errorf("report %s: got %d lines, want %d: %s", tc.file, len(lines), tc.lines, b)
		}
		for _, l := range lines {
			var rec struct{ ErrorMessage string }
			if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.ErrorMessage == "" {
				t.Errorf("report %s line %s: want a JSON line with an ErrorMessage", tc.file, l)
			}
		}
	}
	var manifest struct {
		Files []struct{ OutputType, S3Key string }
	}
	b, _ := os.ReadFile(filepath.Join(root, "manifest.json"))
	testkit.MustUnmarshal(t, string(b), &manifest)
	if len(manifest.Files) != 2 || manifest.Files[0].S3Key != "reports/AWSDynamoDB/bulk/"+id+"/error.json" {
		t.Errorf("manifest.json: got %s", b)
	}
}

// TestBulkPutFailed: nothing to read, or objects not compressed as
// said, ends FAILED with a FailureCode and FailureMessage.
func TestBulkPutFailed(t *testing.T) {
	dir := s3Dir(t, "bkt", "out")
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}})
	e.table("dst", onDemand)
	writeObject(t, dir, "in", "x.ion", "{pk:\"a\"}")
	writeObject(t, dir, "in", "plain.json", `{"Item":{"pk":{"S":"a"}}}`)
	for _, tc := range []struct{ name, input string }{
		{"no objects", `"S3Bucket":"in","S3KeyPrefix":"nothing/","InputFormat":"DYNAMODB_JSON"`},
		{"ZSTD", `"S3Bucket":"in","InputFormat":"DYNAMODB_JSON","InputCompressionType":"ZSTD"`},
		{"not gzip", `"S3Bucket":"in","S3KeyPrefix":"plain","InputFormat":"DYNAMODB_JSON","InputCompressionType":"GZIP"`},
	} {
		d := e.bulkStart(`{"TableName":"dst","InputS3Configuration":{` + tc.input + `},"OutputS3Configuration":{"S3Bucket":"out","OutputType":["ERROR"]}}`)
		if d.BulkOperationStatus != "FAILED" || d.FailureCode == "" || d.FailureMessage == "" {
			t.Errorf("%s: got %+v, want FAILED with a code and a message", tc.name, d)
		}
	}
	if got := scanItems(t, e, "dst"); len(got) != 0 {
		t.Errorf("table after failed operations: got %v, want empty", got)
	}
}

// TestBulkPutCancel: cancelling within IN_PROGRESS answers CANCELLING;
// the operation ends CANCELLED.
func TestBulkPutCancel(t *testing.T) {
	dir := s3Dir(t, "bkt", "out")
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}, TransientDelay: time.Minute})
	e.table("dst", onDemand)
	writeObject(t, dir, "in", "a.json", `{"Item":{"pk":{"S":"a"}}}`)
	d := e.bulkStart(`{"TableName":"dst","InputS3Configuration":{"S3Bucket":"in","InputFormat":"DYNAMODB_JSON"},"OutputS3Configuration":{"S3Bucket":"out","OutputType":["ERROR"]}}`)
	var c struct{ BulkOperationArn, BulkOperationStatus string }
	testkit.MustUnmarshal(t, e.must("CancelBulkOperation", `{"BulkOperationArn":"`+d.BulkOperationArn+`"}`), &c)
	if c.BulkOperationStatus != "CANCELLING" || c.BulkOperationArn != d.BulkOperationArn {
		t.Errorf("cancel: got %+v, want CANCELLING", c)
	}
	if got := e.bulkDescribe(d.BulkOperationArn).BulkOperationStatus; got != "CANCELLING" {
		t.Errorf("within the delay: got %s, want CANCELLING", got)
	}
	e.clock.Advance(time.Minute)
	got := e.bulkDescribe(d.BulkOperationArn)
	if got.BulkOperationStatus != "CANCELLED" || got.FailureCode == "" || got.EndTime == nil {
		t.Errorf("after the delay: got %+v, want CANCELLED with a FailureCode", got)
	}
	e.refused("CancelBulkOperation", `{"BulkOperationArn":"`+d.BulkOperationArn+`"}`, "ValidationException")
}

// TestListBulkOperations pages through the namespace's operations, the
// most recent first.
func TestListBulkOperations(t *testing.T) {
	dir := s3Dir(t, "bkt", "out")
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}})
	e.table("dst", onDemand)
	writeObject(t, dir, "in", "a.json", `{"Item":{"pk":{"S":"a"}}}`)
	var arns []string
	for range 3 {
		arns = append(arns, e.bulkStart(`{"TableName":"dst","InputS3Configuration":{"S3Bucket":"in","InputFormat":"DYNAMODB_JSON"},"OutputS3Configuration":{"S3Bucket":"out","OutputType":["ERROR"]}}`).BulkOperationArn)
	}
	var got []string
	token := ""
	for pages := 0; ; pages++ {
		body := `{"MaxResults":2}`
		if token != "" {
			body = `{"MaxResults":2,"NextToken":"` + token + `"}`
		}
		var out struct {
			BulkOperationsSummaryList []struct{ BulkOperationArn, BulkOperationStatus string }
			NextToken                 string
		}
		testkit.MustUnmarshal(t, e.must("ListBulkOperations", body), &out)
		for _, s := range out.BulkOperationsSummaryList {
			if s.BulkOperationStatus != "COMPLETED" {
				t.Errorf("listed %s: got %s, want COMPLETED", s.BulkOperationArn, s.BulkOperationStatus)
			}
			got = append(got, s.BulkOperationArn)
		}
		if token = out.NextToken; token == "" || pages > 3 {
			break
		}
	}
	slices.Reverse(arns) // the most recent first
	if !slices.Equal(got, arns) {
		t.Errorf("listed:\n got %v\nwant %v", got, arns)
	}
	e.refused("ListBulkOperations", `{"NextToken":"bogus"}`, "ValidationException")
}

// TestBulkOperationsValidation: AWS's errors for bad requests.
func TestBulkOperationsValidation(t *testing.T) {
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(s3Dir(t, "bkt", "out")))}})
	e.table("dst", onDemand)
	const in = `"InputS3Configuration":{"S3Bucket":"in","InputFormat":"DYNAMODB_JSON"}`
	const out = `"OutputS3Configuration":{"S3Bucket":"out","OutputType":["ERROR"]}`
	unknown := "arn:aws:dynamodb:us-east-1:000000000000:table/dst/bulk-operation/01234567890123-abcdef01"
	for _, tc := range []struct{ name, op, body, want string }{
		{"missing table", "StartBulkPutItems", `{"TableName":"nope",` + in + `,` + out + `}`, "ResourceNotFoundException"},
		{"no TableName", "StartBulkPutItems", `{` + in + `,` + out + `}`, "ValidationException"},
		{"no input", "StartBulkPutItems", `{"TableName":"dst",` + out + `}`, "ValidationException"},
		{"no output", "StartBulkPutItems", `{"TableName":"dst",` + in + `}`, "ValidationException"},
		{"no OutputType", "StartBulkPutItems", `{"TableName":"dst",` + in + `,"OutputS3Configuration":{"S3Bucket":"out"}}`, "ValidationException"},
		{"bad OutputType", "StartBulkPutItems", `{"TableName":"dst",` + in + `,"OutputS3Configuration":{"S3Bucket":"out","OutputType":["ALL"]}}`, "ValidationException"},
		{"bad format", "StartBulkPutItems", `{"TableName":"dst","InputS3Configuration":{"S3Bucket":"in","InputFormat":"CSV"},` + out + `}`, "ValidationException"},
		{"bad bucket", "StartBulkPutItems", `{"TableName":"dst","InputS3Configuration":{"S3Bucket":"../x","InputFormat":"DYNAMODB_JSON"},` + out + `}`, "ValidationException"},
		{"dot-dot prefix", "StartBulkPutItems", `{"TableName":"dst","InputS3Configuration":{"S3Bucket":"in","S3KeyPrefix":"a/../..","InputFormat":"DYNAMODB_JSON"},` + out + `}`, "ValidationException"},
		{"low MaxWriteRequestUnits", "StartBulkPutItems", `{"TableName":"dst","MaxWriteRequestUnits":1000,` + in + `,` + out + `}`, "ValidationException"},
		{"bad tier", "StartBulkPutItems", `{"TableName":"dst","PerformanceTier":"FAST",` + in + `,` + out + `}`, "ValidationException"},
		{"describe unknown", "DescribeBulkOperation", `{"BulkOperationArn":"` + unknown + `"}`, "ResourceNotFoundException"},
		{"describe short ARN", "DescribeBulkOperation", `{"BulkOperationArn":"arn:x"}`, "ValidationException"},
		{"describe no ARN", "DescribeBulkOperation", `{}`, "ValidationException"},
		{"cancel unknown", "CancelBulkOperation", `{"BulkOperationArn":"` + unknown + `"}`, "ResourceNotFoundException"},
		{"list MaxResults 0", "ListBulkOperations", `{"MaxResults":0}`, "ValidationException"},
		{"list MaxResults 26", "ListBulkOperations", `{"MaxResults":26}`, "ValidationException"},
	} {
		t.Run(tc.name, func(t *testing.T) { e.t = t; e.refused(tc.op, tc.body, tc.want) })
	}
}

// FuzzBulkPutObject: any object read as DynamoDB JSON lines or as Ion gives a bulk
// operation that completes (with its bad lines counted as failed), never
// a panic or a failed request, and never writes more items than lines.
func FuzzBulkPutObject(f *testing.F) {
	f.Add([]byte(`{"Item":{"pk":{"S":"a"}}}`+"\n"+`{"Item":{"pk":{"N":"x"}}}`), false)
	f.Add([]byte(`{"Item":{"pk":{"S":"a"}},"ConditionExpression":"attribute_exists(#n)","ExpressionAttributeNames":{"#n":"pk"}}`), false)
	f.Add([]byte(`{"Item":{"pk":{"S":"a"}},"ConditionExpression":":v = :v","ExpressionAttributeValues":{":v":{"SS":[]}}}`), false)
	f.Add([]byte("\n\n{}\n[1]\n"), false)
	f.Add([]byte("$ion_1_0 {Item:{pk:\"a\",s:$dynamodb_SS::[]}}\n[{Item:{pk:1.}}, sym]"), true)
	dir := s3Dir(f, "bkt", "out")
	e := newClockEnv(f, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}})
	e.table("dst", onDemand)
	n := 0
	f.Fuzz(func(t *testing.T, obj []byte, ion bool) {
		n++
		e.t = t
		bucket := fmt.Sprintf("fz%d", n)
		if err := writeFile(filepath.Join(dir, bucket, "obj"), obj); err != nil {
			t.Fatal(err)
		}
		format := "DYNAMODB_JSON"
		if ion {
			format = "ION"
		}
		d := e.bulkStart(`{"TableName":"dst","InputS3Configuration":{"S3Bucket":"` + bucket + `","InputFormat":"` + format + `"},
			"OutputS3Configuration":{"S3Bucket":"` + bucket + `-out","OutputType":["ERROR","CONDITION_CHECK_FAILURE"]}}`)
		ok := d.BulkOperationStatus == "COMPLETED" && d.FailedItemCount == 0 ||
			d.BulkOperationStatus == "COMPLETED_WITH_ERRORS" && d.FailedItemCount > 0
		if !ok || d.FailedItemCount > d.ProcessedItemCount {
			t.Errorf("got %+v", d)
		}
	})
}

// TestBulkPutConditionCharged: a bulk put refused by its condition is
// charged as PutItem's is: StartBulkPutItems writes each item through
// PutItem's handler, outside the registry's adapter.
func TestBulkPutConditionCharged(t *testing.T) {
	dir := s3Dir(t, "bkt", "out")
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}})
	e.table("dst", onDemand)
	e.must("PutItem", `{"TableName":"dst","Item":{"pk":{"S":"kept"},"v":{"N":"1"}}}`)
	writeObject(t, dir, "in", "batch/part-1.json",
		`{"Item":{"pk":{"S":"kept"},"v":{"N":"2"}},"ConditionExpression":"attribute_not_exists(pk)"}`+"\n")
	reportstage.SetReporting(e.svc, true)
	d := e.bulkStart(`{"TableName":"dst","InputS3Configuration":{"S3Bucket":"in","S3KeyPrefix":"batch/","InputFormat":"DYNAMODB_JSON"},` +
		`"OutputS3Configuration":{"S3Bucket":"out","OutputType":["ERROR"]}}`)
	require.Equal(t, 1, d.ProcessedItemCount, "%+v", d)
	key, region := testkit.Credential(e.env.Auth)
	var writes int64
	var units float64
	for _, tr := range reportstage.ReportOf(e.svc, key, region).Tables {
		for _, r := range tr.Resources {
			writes, units = writes+r.Writes, units+r.WriteUnits
		}
	}
	require.Equal(t, int64(1), writes, "the refused bulk put was not counted")
	require.Equal(t, 1.0, units, "the refused bulk put was not charged")
}
