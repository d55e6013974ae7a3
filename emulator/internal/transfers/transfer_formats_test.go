package transfers

import (
	"bytes"
	"compress/gzip"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// allTypesItems are items with every DynamoDB type, for the round trips.
var allTypesItems = []string{
	`{"pk":{"S":"a"},"sk":{"N":"1"},"s":{"SS":["x","y"]},"m":{"M":{"l":{"L":[{"N":"1.5"},{"NULL":true},{"BOOL":false}]},"odd name":{"S":"v"}}}}`,
	`{"pk":{"S":"a"},"sk":{"N":"600"},"b":{"B":"AAEC"},"bs":{"BS":["AQ==","Ag=="]},"ns":{"NS":["1","-2.5","2000"]},"t":{"BOOL":true}}`,
	`{"pk":{"S":"b\n\"q\"'"},"sk":{"N":"-0.003"},"u":{"S":"ünïcødé"},"n":{"NULL":true},"e":{"L":[]},"em":{"M":{}}}`,
	`{"pk":{"S":"c"},"sk":{"N":"12345678901234567890123456789012345678"},"null":{"S":"keyword as a name"},"$7":{"N":"0"}}`,
}

const pkSkTable = `"BillingMode":"PAY_PER_REQUEST",
	"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],
	"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]`

// importDesc is what the format tests read of an import.
type importDesc struct {
	ImportStatus                                      string
	ProcessedItemCount, ImportedItemCount, ErrorCount int
	FailureMessage                                    string
}

// importInto imports bucket/prefix into a new table name and returns the
// import's description.
func (e *clockEnv) importInto(name, bucket, prefix, format, compression string) importDesc {
	e.t.Helper()
	var im struct{ ImportTableDescription importDesc }
	testkit.MustUnmarshal(e.t, e.must("ImportTable", `{"S3BucketSource":{"S3Bucket":"`+bucket+`","S3KeyPrefix":"`+prefix+`"},
		"InputFormat":"`+format+`","InputCompressionType":"`+compression+`",
		"TableCreationParameters":{"TableName":"`+name+`",`+pkSkTable+`}}`), &im)
	return im.ImportTableDescription
}

// TestExportImportIonRoundTrip: ExportFormat ION writes AWS's Ion lines
// into .ion.gz files, and ImportTable with InputFormat ION reads them back
// into the same table (every type).
func TestExportImportIonRoundTrip(t *testing.T) {
	dir := s3Dir(t, "bkt", "out")
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}})
	e.must("CreateTable", `{"TableName":"src",`+pkSkTable+`}`)
	for _, it := range allTypesItems {
		e.must("PutItem", `{"TableName":"src","Item":`+it+`}`)
	}
	e.must("UpdateContinuousBackups", `{"TableName":"src","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
	var ex struct {
		ExportDescription struct{ ExportArn, ExportStatus, ExportFormat string }
	}
	testkit.MustUnmarshal(t, e.must("ExportTableToPointInTime", `{"TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/src","S3Bucket":"bkt","S3Prefix":"ion","ExportFormat":"ION"}`), &ex)
	if d := ex.ExportDescription; d.ExportStatus != "COMPLETED" || d.ExportFormat != "ION" {
		t.Fatalf("got %+v, want a COMPLETED ION export", d)
	}
	id := ex.ExportDescription.ExportArn[strings.LastIndex(ex.ExportDescription.ExportArn, "/")+1:]
	files, _ := filepath.Glob(filepath.Join(dir, "bkt", "ion", "AWSDynamoDB", id, "data", "*.ion.gz"))
	if len(files) != 1 {
		t.Fatalf("got data files %v, want one .ion.gz", files)
	}
	text := gunzipFile(t, files[0])
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if len(lines) != len(allTypesItems) {
		t.Errorf("got %d lines, want %d", len(lines), len(allTypesItems))
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "$ion_1_0 {Item:{") {
			t.Errorf("line %q: want AWS's form $ion_1_0 {Item:{...}}", l)
		}
	}
	if want := `sk:6d2`; !strings.Contains(text, want) {
		t.Errorf("got %s, want the number 600 as AWS writes it (%s)", text, want)
	}
	summary, _ := os.ReadFile(filepath.Join(dir, "bkt", "ion", "AWSDynamoDB", id, "manifest-summary.json"))
	if !strings.Contains(string(summary), `"outputFormat":"ION"`) {
		t.Errorf("manifest-summary.json: got %s, want outputFormat ION", summary)
	}
	d := e.importInto("dst", "bkt", "ion/AWSDynamoDB/"+id+"/data/", "ION", "GZIP")
	if d.ImportStatus != "COMPLETED" || d.ImportedItemCount != len(allTypesItems) || d.ErrorCount != 0 {
		t.Fatalf("import: got %+v", d)
	}
	if got, want := scanItems(t, e, "dst"), scanItems(t, e, "src"); !slices.Equal(got, want) {
		t.Errorf("imported table:\n got %v\nwant %v", got, want)
	}
}

// TestImportIonListForm: the import docs' form, one top-level list of
// {Item:...} structs over many lines, plain (InputCompressionType NONE).
func TestImportIonListForm(t *testing.T) {
	dir := s3Dir(t, "bkt", "out")
	obj := "$ion_1_0\n[\n  {\n    Item:{\n      pk:\"333\",\n      sk:103.,\n      Authors:$dynamodb_SS::[\"Author1\",\"Author2\"],\n      PageCount:6d2\n    }\n  },\n  {Item:{pk:\"444\",sk:104.,Price:2d3}},\n  {NotAnItem:{}}\n]\n"
	if err := writeFile(filepath.Join(dir, "in", "docs", "books.ion"), []byte(obj)); err != nil {
		t.Fatal(err)
	}
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}})
	d := e.importInto("books", "in", "docs/", "ION", "NONE")
	if d.ImportStatus != "FAILED" || d.ImportedItemCount != 2 || d.ErrorCount != 1 || d.ProcessedItemCount != 3 {
		t.Errorf("got %+v, want FAILED with 2 imported and 1 error of 3", d)
	}
	want := []string{
		`{"Authors":{"SS":["Author1","Author2"]},"PageCount":{"N":"600"},"pk":{"S":"333"},"sk":{"N":"103"}}`,
		`{"Price":{"N":"2000"},"pk":{"S":"444"},"sk":{"N":"104"}}`,
	}
	if got := scanItems(t, e, "books"); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestImportZstd: InputCompressionType ZSTD reads Zstandard objects, in
// both formats; an object that is not ZSTD counts one error.
func TestImportZstd(t *testing.T) {
	dir := s3Dir(t, "bkt", "out")
	var jsonLines, ionLines bytes.Buffer
	for _, it := range allTypesItems {
		jsonLines.WriteString(`{"Item":` + it + "}\n")
	}
	writeZstd(t, filepath.Join(dir, "zz", "json", "part-0.json.zst"), jsonLines.Bytes())
	if err := writeFile(filepath.Join(dir, "zz", "json", "part-1.json"), []byte(`{"Item":{"pk":{"S":"plain"},"sk":{"N":"1"}}}`)); err != nil {
		t.Fatal(err)
	}
	ionLines.WriteString("$ion_1_0 {Item:{pk:\"i\",sk:1.,v:$dynamodb_NS::[1.,2d1]}}\n$ion_1_0 {Item:{pk:\"i\",sk:2.,v:{{AAE=}}}}\n")
	writeZstd(t, filepath.Join(dir, "zz", "ion", "part-0.ion.zst"), ionLines.Bytes())

	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}})
	e.must("CreateTable", `{"TableName":"ref",`+pkSkTable+`}`)
	for _, it := range allTypesItems {
		e.must("PutItem", `{"TableName":"ref","Item":`+it+`}`)
	}
	d := e.importInto("zjson", "zz", "json/", "DYNAMODB_JSON", "ZSTD")
	if d.ImportStatus != "FAILED" || d.ImportedItemCount != len(allTypesItems) || d.ErrorCount != 1 {
		t.Errorf("DYNAMODB_JSON, ZSTD: got %+v, want %d items and the plain object an error", d, len(allTypesItems))
	}
	if got, want := scanItems(t, e, "zjson"), scanItems(t, e, "ref"); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	d = e.importInto("zion", "zz", "ion/", "ION", "ZSTD")
	if d.ImportStatus != "COMPLETED" || d.ImportedItemCount != 2 || d.ErrorCount != 0 {
		t.Errorf("ION, ZSTD: got %+v", d)
	}
	want := []string{`{"pk":{"S":"i"},"sk":{"N":"1"},"v":{"NS":["1","20"]}}`, `{"pk":{"S":"i"},"sk":{"N":"2"},"v":{"B":"AAE="}}`}
	if got := scanItems(t, e, "zion"); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestBulkPutIonZstd: StartBulkPutItems reads ION input, ZSTD-compressed.
func TestBulkPutIonZstd(t *testing.T) {
	dir := s3Dir(t, "bkt", "out")
	writeZstd(t, filepath.Join(dir, "in", "b", "x.ion.zst"), []byte("$ion_1_0 {Item:{pk:\"a\",n:1.}}\n$ion_1_0 {Item:{pk:\"b\",n:sym}}\n"))
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}})
	e.table("bulkt", onDemand)
	d := e.bulkStart(`{"TableName":"bulkt","InputS3Configuration":{"S3Bucket":"in","S3KeyPrefix":"b/","InputFormat":"ION","InputCompressionType":"ZSTD"},
		"OutputS3Configuration":{"S3Bucket":"out","OutputType":["ERROR"]}}`)
	if d.ProcessedItemCount != 2 || d.FailedItemCount != 1 {
		t.Errorf("got %+v, want 2 processed and 1 failed", d)
	}
	if got, want := scanItems(t, e, "bulkt"), []string{`{"n":{"N":"1"},"pk":{"S":"a"}}`}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func writeZstd(t *testing.T, path string, data []byte) {
	t.Helper()
	zw, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeFile(path, zw.EncodeAll(data, nil)); err != nil {
		t.Fatal(err)
	}
}

func gunzipFile(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
