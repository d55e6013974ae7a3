package transfers

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestExportImportRoundTrip: a table exported (AWS's files: manifests and
// gzipped DynamoDB JSON) and imported into a new table is the same table,
// item for item, and the export's layout is AWS's.
func TestExportImportRoundTrip(t *testing.T) {
	dir := s3Dir(t, "bkt", "out")
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}, TransientDelay: time.Second})
	e.must("CreateTable", `{"TableName":"src",`+onDemand+`,
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`)
	e.clock.Advance(time.Second) // CREATING until then
	items := []string{
		`{"pk":{"S":"a"},"sk":{"N":"1"},"s":{"SS":["x","y"]},"m":{"M":{"l":{"L":[{"N":"1.5"},{"NULL":true},{"BOOL":false}]}}}}`,
		`{"pk":{"S":"a"},"sk":{"N":"2"},"b":{"B":"AAEC"},"bs":{"BS":["AQ=="]},"ns":{"NS":["1","-2.5"]}}`,
		`{"pk":{"S":"b\n\"q\""},"sk":{"N":"-3"},"u":{"S":"ünïcødé"}}`,
	}
	for _, it := range items {
		e.must("PutItem", `{"TableName":"src","Item":`+it+`}`)
	}
	e.refused("ExportTableToPointInTime", `{"TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/src","S3Bucket":"bkt"}`, "PointInTimeRecoveryUnavailableException")
	e.must("UpdateContinuousBackups", `{"TableName":"src","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
	var ex struct {
		ExportDescription struct{ ExportArn, ExportStatus, ExportManifest string }
	}
	testkit.MustUnmarshal(t, e.must("ExportTableToPointInTime", `{"TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/src","S3Bucket":"bkt","S3Prefix":"exp/2026"}`), &ex)
	if ex.ExportDescription.ExportStatus != "IN_PROGRESS" {
		t.Errorf("new export: got %s, want IN_PROGRESS", ex.ExportDescription.ExportStatus)
	}
	e.clock.Advance(time.Second)
	testkit.MustUnmarshal(t, e.must("DescribeExport", `{"ExportArn":"`+ex.ExportDescription.ExportArn+`"}`), &ex)
	if ex.ExportDescription.ExportStatus != "COMPLETED" {
		t.Fatalf("after the delay: got %s, want COMPLETED", ex.ExportDescription.ExportStatus)
	}
	id := ex.ExportDescription.ExportArn[strings.LastIndex(ex.ExportDescription.ExportArn, "/")+1:]
	root := filepath.Join(dir, "bkt", "exp", "2026", "AWSDynamoDB", id)
	if want := "exp/2026/AWSDynamoDB/" + id + "/manifest-summary.json"; ex.ExportDescription.ExportManifest != want {
		t.Errorf("got ExportManifest %q, want %q", ex.ExportDescription.ExportManifest, want)
	}
	for _, f := range []string{"_started", "manifest-summary.json", "manifest-summary.md5", "manifest-files.json", "manifest-files.md5"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("export file %s: %v", f, err)
		}
	}
	var summary struct {
		Version, ManifestFilesS3Key, OutputFormat string
		ItemCount                                 int
	}
	b, _ := os.ReadFile(filepath.Join(root, "manifest-summary.json"))
	testkit.MustUnmarshal(t, string(b), &summary)
	if summary.Version != "2020-06-30" || summary.ItemCount != 3 || summary.OutputFormat != "DYNAMODB_JSON" ||
		summary.ManifestFilesS3Key != "exp/2026/AWSDynamoDB/"+id+"/manifest-files.json" {
		t.Errorf("manifest-summary.json: got %+v", summary)
	}
	mf, _ := os.ReadFile(filepath.Join(root, "manifest-files.json"))
	var lines int
	for _, l := range strings.Split(strings.TrimSpace(string(mf)), "\n") {
		var f struct {
			ItemCount     int
			DataFileS3Key string
		}
		testkit.MustUnmarshal(t, l, &f)
		lines += f.ItemCount
		gzf, err := os.Open(filepath.Join(dir, "bkt", filepath.FromSlash(f.DataFileS3Key)))
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(gzf)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(zr)
		for sc.Scan() {
			var rec map[string]json.RawMessage
			testkit.MustUnmarshal(t, sc.Text(), &rec)
			if _, ok := rec["Item"]; !ok || len(rec) != 1 {
				t.Errorf("data line %s: want {\"Item\":...}", sc.Text())
			}
		}
		gzf.Close()
	}
	if lines != 3 {
		t.Errorf("manifest-files.json: got %d items, want 3", lines)
	}

	var im struct {
		ImportTableDescription struct{ ImportArn, ImportStatus string }
	}
	testkit.MustUnmarshal(t, e.must("ImportTable", `{"S3BucketSource":{"S3Bucket":"bkt","S3KeyPrefix":"exp/2026/AWSDynamoDB/`+id+`/data/"},
		"InputFormat":"DYNAMODB_JSON","InputCompressionType":"GZIP",
		"TableCreationParameters":{"TableName":"dst","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}}`), &im)
	if im.ImportTableDescription.ImportStatus != "IN_PROGRESS" {
		t.Errorf("new import: got %s, want IN_PROGRESS", im.ImportTableDescription.ImportStatus)
	}
	e.clock.Advance(time.Second)
	var di struct {
		ImportTableDescription struct {
			ImportStatus                                      string
			ProcessedItemCount, ImportedItemCount, ErrorCount int
		}
	}
	testkit.MustUnmarshal(t, e.must("DescribeImport", `{"ImportArn":"`+im.ImportTableDescription.ImportArn+`"}`), &di)
	if d := di.ImportTableDescription; d.ImportStatus != "COMPLETED" || d.ImportedItemCount != 3 || d.ErrorCount != 0 || d.ProcessedItemCount != 3 {
		t.Errorf("import: got %+v, want COMPLETED with 3 items and no error", d)
	}
	if got, want := scanItems(t, e, "dst"), scanItems(t, e, "src"); !slices.Equal(got, want) {
		t.Errorf("imported table:\n got %v\nwant %v", got, want)
	}
	e.refused("ImportTable", `{"S3BucketSource":{"S3Bucket":"bkt"},"InputFormat":"DYNAMODB_JSON",
		"TableCreationParameters":{"TableName":"dst","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}}`, "ResourceInUseException")
	var le struct {
		ExportSummaries []struct{ ExportArn, ExportStatus string }
	}
	testkit.MustUnmarshal(t, e.must("ListExports", `{}`), &le)
	if len(le.ExportSummaries) != 1 || le.ExportSummaries[0].ExportStatus != "COMPLETED" {
		t.Errorf("ListExports: got %+v", le)
	}
	var li struct{ ImportSummaryList []struct{ ImportArn string } }
	testkit.MustUnmarshal(t, e.must("ListImports", `{}`), &li)
	if len(li.ImportSummaryList) != 1 {
		t.Errorf("ListImports: got %+v", li)
	}
}

// scanItems returns a table's items as canonical JSON, sorted.
func scanItems(t *testing.T, e *clockEnv, table string) []string {
	t.Helper()
	var out struct{ Items []map[string]any }
	testkit.MustUnmarshal(t, e.must("Scan", `{"TableName":"`+table+`"}`), &out)
	var s []string
	for _, it := range out.Items {
		b, _ := json.Marshal(it)
		s = append(s, string(b))
	}
	slices.Sort(s)
	return s
}

// TestImportCSV: a CSV object with a header, key attributes typed by the
// definitions, other cells strings, empty cells left out, bad rows counted
// (and the import FAILED, the good rows imported, as AWS ends it).
func TestImportCSV(t *testing.T) {
	dir := s3Dir(t, "bkt", "out")
	if err := writeFile(filepath.Join(dir, "in", "csv", "part1.csv"), []byte("pk;n;note\na;1;hello\nb;2;\nc;x;bad number\n")); err != nil {
		t.Fatal(err)
	}
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}})
	var im struct {
		ImportTableDescription struct {
			ImportStatus                  string
			ImportedItemCount, ErrorCount int
		}
	}
	testkit.MustUnmarshal(t, e.must("ImportTable", `{"S3BucketSource":{"S3Bucket":"in","S3KeyPrefix":"csv/"},
		"InputFormat":"CSV","InputFormatOptions":{"Csv":{"Delimiter":";"}},
		"TableCreationParameters":{"TableName":"fromcsv","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"n","AttributeType":"N"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"n","KeyType":"RANGE"}]}}`), &im)
	if d := im.ImportTableDescription; d.ImportStatus != "FAILED" || d.ImportedItemCount != 2 || d.ErrorCount != 1 {
		t.Errorf("got %+v, want FAILED (an item refused, as AWS ends it), 2 imported, 1 error", d)
	}
	want := []string{`{"n":{"N":"1"},"note":{"S":"hello"},"pk":{"S":"a"}}`, `{"n":{"N":"2"},"pk":{"S":"b"}}`}
	if got := scanItems(t, e, "fromcsv"); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestExportErrors: AWS's refusals of ExportTableToPointInTime and the
// Describe/List operations.
func TestExportErrors(t *testing.T) {
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(s3Dir(t, "bkt", "out")))}})
	e.table("exp", onDemand)
	e.must("UpdateContinuousBackups", `{"TableName":"exp","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
	arn := "arn:aws:dynamodb:us-east-1:000000000000:table/exp"
	for _, c := range []struct{ body, want string }{
		{`{"S3Bucket":"bkt"}`, "ValidationException"},
		{`{"TableArn":"` + arn + `"}`, "ValidationException"},
		{`{"TableArn":"` + arn + `","S3Bucket":"b/c"}`, "ValidationException"},
		{`{"TableArn":"` + arn + `","S3Bucket":"bkt","S3Prefix":"a/../../etc"}`, "ValidationException"},
		{`{"TableArn":"` + arn + `","S3Bucket":"bkt","ExportFormat":"CSV"}`, "ValidationException"},
		{`{"TableArn":"` + arn + `","S3Bucket":"bkt","ExportTime":1000}`, "InvalidExportTimeException"},
		{`{"TableArn":"` + arn + `","S3Bucket":"bkt","ExportType":"INCREMENTAL_EXPORT"}`, "ValidationException"},
		{`{"TableArn":"` + strings.Replace(arn, "exp", "nope", 1) + `","S3Bucket":"bkt"}`, "TableNotFoundException"},
	} {
		e.refused("ExportTableToPointInTime", c.body, c.want)
	}
	e.must("ExportTableToPointInTime", `{"TableArn":"`+arn+`","S3Bucket":"bkt","ClientToken":"tok"}`)
	e.must("ExportTableToPointInTime", `{"TableArn":"`+arn+`","S3Bucket":"bkt","ClientToken":"tok"}`)
	e.refused("ExportTableToPointInTime", `{"TableArn":"`+arn+`","S3Bucket":"other","ClientToken":"tok"}`, "ExportConflictException")
	e.refused("DescribeExport", `{"ExportArn":"`+arn+`/export/01234567890123-abcdef01"}`, "ExportNotFoundException")
	e.refused("DescribeImport", `{"ImportArn":"`+arn+`/import/01234567890123-abcdef01"}`, "ImportNotFoundException")
	e.refused("ListExports", `{"MaxResults":26}`, "ValidationException")
	e.refused("ListImports", `{"PageSize":0}`, "ValidationException")
	for i := range 3 {
		e.must("ExportTableToPointInTime", `{"TableArn":"`+arn+`","S3Bucket":"bkt","S3Prefix":"p`+string(rune('0'+i))+`"}`)
	}
	var all []string
	tok := ""
	for range 5 {
		body := `{"TableArn":"` + arn + `","MaxResults":2}`
		if tok != "" {
			body = `{"TableArn":"` + arn + `","MaxResults":2,"NextToken":"` + tok + `"}`
		}
		var le struct {
			ExportSummaries []struct{ ExportArn string }
			NextToken       string
		}
		testkit.MustUnmarshal(t, e.must("ListExports", body), &le)
		for _, s := range le.ExportSummaries {
			all = append(all, s.ExportArn)
		}
		if tok = le.NextToken; tok == "" {
			break
		}
	}
	if len(all) != 4 {
		t.Errorf("paged ListExports: got %d exports, want 4", len(all))
	}
}

// TestIncrementalExport: the items changed in the window, with their
// keys and both images.
func TestIncrementalExport(t *testing.T) {
	dir := s3Dir(t, "bkt", "out")
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}})
	e.table("inc", onDemand)
	e.must("UpdateContinuousBackups", `{"TableName":"inc","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
	e.must("PutItem", `{"TableName":"inc","Item":{"pk":{"S":"kept"},"v":{"N":"1"}}}`)
	e.must("PutItem", `{"TableName":"inc","Item":{"pk":{"S":"changed"},"v":{"N":"1"}}}`)
	e.must("PutItem", `{"TableName":"inc","Item":{"pk":{"S":"gone"},"v":{"N":"1"}}}`)
	e.clock.Advance(time.Minute)
	from := e.clock.Now()
	e.clock.Advance(time.Minute)
	e.must("PutItem", `{"TableName":"inc","Item":{"pk":{"S":"changed"},"v":{"N":"2"}}}`)
	e.must("DeleteItem", `{"TableName":"inc","Key":{"pk":{"S":"gone"}}}`)
	e.must("PutItem", `{"TableName":"inc","Item":{"pk":{"S":"new"},"v":{"N":"3"}}}`)
	e.clock.Advance(20 * time.Minute)
	to := e.clock.Now()
	sec := func(t time.Time) string {
		return strings.TrimSuffix(strings.TrimSuffix(time.Unix(t.Unix(), 0).UTC().Format("20060102150405"), ""), "")
	}
	_ = sec
	body := `{"TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/inc","S3Bucket":"bkt","ExportType":"INCREMENTAL_EXPORT",
		"IncrementalExportSpecification":{"ExportFromTime":` + epochJSON(from) + `,"ExportToTime":` + epochJSON(to) + `,"ExportViewType":"NEW_AND_OLD_IMAGES"}}`
	var ex struct {
		ExportDescription struct {
			ExportArn, ExportStatus string
			ItemCount               int
		}
	}
	testkit.MustUnmarshal(t, e.must("ExportTableToPointInTime", body), &ex)
	if ex.ExportDescription.ExportStatus != "COMPLETED" || ex.ExportDescription.ItemCount != 3 {
		t.Fatalf("got %+v, want COMPLETED with 3 items", ex.ExportDescription)
	}
	id := ex.ExportDescription.ExportArn[strings.LastIndex(ex.ExportDescription.ExportArn, "/")+1:]
	files, _ := filepath.Glob(filepath.Join(dir, "bkt", "AWSDynamoDB", id, "data", "*.json.gz"))
	var got []string
	for _, f := range files {
		fh, _ := os.Open(f)
		zr, _ := gzip.NewReader(fh)
		sc := bufio.NewScanner(zr)
		for sc.Scan() {
			var rec struct {
				Keys, NewImage, OldImage map[string]map[string]string
			}
			testkit.MustUnmarshal(t, sc.Text(), &rec)
			got = append(got, rec.Keys["pk"]["S"]+" new="+rec.NewImage["v"]["N"]+" old="+rec.OldImage["v"]["N"])
		}
		fh.Close()
	}
	slices.Sort(got)
	want := []string{"changed new=2 old=1", "gone new= old=1", "new new=3 old="}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// epochJSON is t as a wire timestamp (seconds, fraction).
func epochJSON(t time.Time) string {
	b, _ := service.EpochTime(t).MarshalJSON()
	return string(b)
}

// FuzzImportObject: any object, read as DynamoDB JSON, CSV or ION, plain
// or as ZSTD (the fuzzer's bytes are not compressed: a bad header), gives an
// import that completes, or FAILS with its bad lines counted as errors
// (as AWS's does), never a panic or a refused request.
func FuzzImportObject(f *testing.F) {
	f.Add([]byte(`{"Item":{"pk":{"S":"a"}}}`+"\n"+`{"Item":{"pk":{"N":"x"}}}`), byte(0))
	f.Add([]byte("pk,v\na,1\n\"b,2\n"), byte(1))
	f.Add([]byte{0x1f, 0x8b, 0, 1}, byte(0))
	f.Add([]byte("$ion_1_0 {Item:{pk:\"a\",v:$dynamodb_SS::[\"x\"]}}\n[{Item:{pk:1.}}]"), byte(2))
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd, 0, 0}, byte(3))
	dir := s3Dir(f, "bkt", "out")
	e := newClockEnv(f, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}})
	n := 0
	f.Fuzz(func(t *testing.T, obj []byte, kind byte) {
		n++
		e.t = t
		bucket := fmt.Sprintf("fz%d", n)
		if err := writeFile(filepath.Join(dir, bucket, "obj"), obj); err != nil {
			t.Fatal(err)
		}
		format := [...]string{"DYNAMODB_JSON", "CSV", "ION"}[kind%3]
		compression := [...]string{"NONE", "ZSTD"}[kind/3%2]
		var im struct {
			ImportTableDescription struct {
				ImportStatus                                      string
				ProcessedItemCount, ImportedItemCount, ErrorCount int
			}
		}
		testkit.MustUnmarshal(t, e.must("ImportTable", `{"S3BucketSource":{"S3Bucket":"`+bucket+`"},"InputFormat":"`+format+`","InputCompressionType":"`+compression+`",
			"TableCreationParameters":{"TableName":"`+bucket+`","BillingMode":"PAY_PER_REQUEST",
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}}`), &im)
		want := "COMPLETED"
		if im.ImportTableDescription.ErrorCount > 0 {
			want = "FAILED"
		}
		if d := im.ImportTableDescription; d.ImportStatus != want || d.ImportedItemCount > d.ProcessedItemCount {
			t.Errorf("got %+v, want %s", d, want)
		}
	})
}
