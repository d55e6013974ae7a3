package transfers

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestImportClientToken: ImportTable's ClientToken as AWS answers it
// (ack-api-quirks DDB-IMPORT-017): while the import is IN_PROGRESS an
// identical replay or one with another S3KeyPrefix returns the same
// import, another TableName is ImportConflictException; after it
// COMPLETED the identical replay is ResourceInUseException while the
// table exists, another prefix still the same import; once the table is
// deleted the identical replay returns the old import and creates nothing.
func TestImportClientToken(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "bkt", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	item := `{"Item":{"pk":{"S":"x"},"sk":{"N":"1"}}}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "bkt", "a", "items.json"), []byte(item), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}, TransientDelay: time.Second})
	body := func(prefix, name string) string {
		return `{"ClientToken":"tok","S3BucketSource":{"S3Bucket":"bkt","S3KeyPrefix":"` + prefix + `"},"InputFormat":"DYNAMODB_JSON",
			"TableCreationParameters":{"TableName":"` + name + `",` + pkSkTable + `}}`
	}
	type desc struct{ ImportArn, ImportStatus string }
	importArn := func(b string) desc {
		t.Helper()
		var out struct{ ImportTableDescription desc }
		testkit.MustUnmarshal(t, e.must("ImportTable", b), &out)
		return out.ImportTableDescription
	}
	first := importArn(body("a", "imp"))
	if first.ImportStatus != "IN_PROGRESS" {
		t.Fatalf("new import: got %s, want IN_PROGRESS", first.ImportStatus)
	}
	steps := []struct {
		name, body string
		wantErr    string // error type, or "" for the first import again
		wantStatus string
	}{
		{"identical, in progress", body("a", "imp"), "", "IN_PROGRESS"},
		{"other prefix, in progress", body("b", "imp"), "", "IN_PROGRESS"},
		{"other table name, in progress", body("a", "imp2"), "ImportConflictException", ""},
		{"advance", "", "", ""},
		{"identical, completed", body("a", "imp"), "ResourceInUseException", ""},
		{"other prefix, completed", body("b", "imp"), "", "COMPLETED"},
		{"other table name, completed", body("a", "imp2"), "ImportConflictException", ""},
		{"delete", "", "", ""},
		{"identical, table deleted", body("a", "imp"), "", "COMPLETED"},
	}
	for _, s := range steps {
		switch {
		case s.name == "advance":
			e.clock.Advance(time.Second)
		case s.name == "delete":
			e.must("DeleteTable", `{"TableName":"imp"}`)
			e.clock.Advance(time.Second)
		case s.wantErr != "":
			e.refused("ImportTable", s.body, s.wantErr)
		default:
			if got := importArn(s.body); got.ImportArn != first.ImportArn || got.ImportStatus != s.wantStatus {
				t.Errorf("%s: got %+v, want %s %s", s.name, got, first.ImportArn, s.wantStatus)
			}
		}
	}
	e.refused("DescribeTable", `{"TableName":"imp"}`, "ResourceNotFoundException")
	e.refused("DescribeTable", `{"TableName":"imp2"}`, "ResourceNotFoundException")
	var li struct{ ImportSummaryList []struct{ ImportArn string } }
	testkit.MustUnmarshal(t, e.must("ListImports", `{}`), &li)
	if len(li.ImportSummaryList) != 1 {
		t.Errorf("ListImports: got %+v, want the one import", li.ImportSummaryList)
	}
}
