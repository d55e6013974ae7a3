package transfers

import (
	"encoding/json"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"testing"
)

// TestExportTypeEcho: DescribeExport has ExportType only when the request
// named it (AWS leaves it null for a minimal request: ack-api-quirks
// DDB-EXPORT-017), while ListExports' summary carries the kind for every
// export (DDB-EXPORT-016), and the manifest's exportType is the kind.
func TestExportTypeEcho(t *testing.T) {
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(s3Dir(t, "bkt", "out")))}})
	e.table("kinds", onDemand)
	e.must("UpdateContinuousBackups", `{"TableName":"kinds","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
	arn := "arn:aws:dynamodb:us-east-1:000000000000:table/kinds"
	cases := []struct {
		name, extra string
		wantType    any // ExportType in ExportDescription: nil when absent
	}{
		{"minimal request", ``, nil},
		{"FULL_EXPORT named", `,"ExportType":"FULL_EXPORT"`, "FULL_EXPORT"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var made struct{ ExportDescription map[string]any }
			if err := json.Unmarshal([]byte(e.must("ExportTableToPointInTime", `{"TableArn":"`+arn+`","S3Bucket":"bkt"`+tc.extra+`}`)), &made); err != nil {
				t.Fatal(err)
			}
			exportArn, _ := made.ExportDescription["ExportArn"].(string)
			if got := made.ExportDescription["ExportType"]; got != tc.wantType {
				t.Errorf("ExportTableToPointInTime: got ExportType %v, want %v", got, tc.wantType)
			}
			var d struct{ ExportDescription map[string]any }
			if err := json.Unmarshal([]byte(e.must("DescribeExport", `{"ExportArn":"`+exportArn+`"}`)), &d); err != nil {
				t.Fatal(err)
			}
			if got := d.ExportDescription["ExportType"]; got != tc.wantType {
				t.Errorf("DescribeExport: got ExportType %v, want %v", got, tc.wantType)
			}
			if got, want := d.ExportDescription["ExportFormat"], "DYNAMODB_JSON"; got != want {
				t.Errorf("DescribeExport: got ExportFormat %v, want %v", got, want)
			}
			var l struct{ ExportSummaries []map[string]any }
			if err := json.Unmarshal([]byte(e.must("ListExports", `{"TableArn":"`+arn+`"}`)), &l); err != nil {
				t.Fatal(err)
			}
			found := false
			for _, s := range l.ExportSummaries {
				if s["ExportArn"] == exportArn {
					found = true
					if got, want := s["ExportType"], "FULL_EXPORT"; got != want {
						t.Errorf("ListExports: got ExportType %v, want %v", got, want)
					}
				}
			}
			if !found {
				t.Errorf("ListExports: %s not listed", exportArn)
			}
		})
	}
}
