package transfers

import (
	"bufio"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestIncrementalExportFiltered: an incremental export's filter tests
// each changed item's latest image, a deleted item's old one (AWS's
// "Filtering a table export"), and its projection applies to both
// images; the keys stay whole.
func TestIncrementalExportFiltered(t *testing.T) {
	dir := s3Dir(t, "bkt", "out")
	e := newClockEnv(t, service.Config{Features: testFeatures, Stages: testStages, Settings: []service.Setting{S3DirSetting.With(S3Dir(dir))}})
	e.table("incf", onDemand)
	e.must("UpdateContinuousBackups", `{"TableName":"incf","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
	for _, k := range []string{"changed", "gone"} {
		e.must("PutItem", `{"TableName":"incf","Item":{"pk":{"S":"`+k+`"},"v":{"N":"1"},"w":{"S":"x"}}}`)
	}
	e.clock.Advance(time.Minute)
	from := e.clock.Now()
	e.clock.Advance(time.Minute)
	e.must("PutItem", `{"TableName":"incf","Item":{"pk":{"S":"changed"},"v":{"N":"2"},"w":{"S":"x"}}}`)
	e.must("DeleteItem", `{"TableName":"incf","Key":{"pk":{"S":"gone"}}}`)
	e.must("PutItem", `{"TableName":"incf","Item":{"pk":{"S":"new"},"v":{"N":"1"},"w":{"S":"x"}}}`)
	e.clock.Advance(20 * time.Minute)
	to := e.clock.Now()
	body := `{"TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/incf","S3Bucket":"bkt","ExportType":"INCREMENTAL_EXPORT",
		"IncrementalExportSpecification":{"ExportFromTime":` + epochJSON(from) + `,"ExportToTime":` + epochJSON(to) + `,"ExportViewType":"NEW_AND_OLD_IMAGES"},
		"FilterSpecification":{"FilterExpression":"v = :one","ProjectionExpression":"pk, v","ExpressionAttributeValues":{":one":{"N":"1"}}}}`
	var ex struct {
		ExportDescription struct {
			ExportArn, ExportStatus string
			ItemCount               int
			FilterSpecification     struct{ FilterExpression string }
		}
	}
	testkit.MustUnmarshal(t, e.must("ExportTableToPointInTime", body), &ex)
	if d := ex.ExportDescription; d.ExportStatus != "COMPLETED" || d.ItemCount != 2 || d.FilterSpecification.FilterExpression != "v = :one" {
		t.Fatalf("got %+v, want COMPLETED with 2 items and the filter echoed", d)
	}
	id := ex.ExportDescription.ExportArn[strings.LastIndex(ex.ExportDescription.ExportArn, "/")+1:]
	files, _ := filepath.Glob(filepath.Join(dir, "bkt", "AWSDynamoDB", id, "data", "*.json.gz"))
	var got []string
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(fh)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(zr)
		for sc.Scan() {
			var rec struct {
				Keys, NewImage, OldImage map[string]map[string]string
			}
			testkit.MustUnmarshal(t, sc.Text(), &rec)
			got = append(got, rec.Keys["pk"]["S"]+" new="+rec.NewImage["v"]["N"]+rec.NewImage["w"]["S"]+" old="+rec.OldImage["v"]["N"]+rec.OldImage["w"]["S"])
		}
		fh.Close()
	}
	slices.Sort(got)
	want := []string{"gone new= old=1", "new new=1 old="}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
