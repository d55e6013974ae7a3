package accessreport

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/stretchr/testify/require"
)

// blogFormats: the blog design (seed 001) written in every format a
// design is read from, each with its golden report on blogTraffic. A
// format that says all the design file says gives blog.report.txt
// itself; one that cannot (no pattern names or descriptions, no write
// patterns, no table name, no patterns at all) has its own golden, whose
// traffic sections are still the design file's.
var blogFormats = []struct {
	file, format, golden string
}{
	{"blog.design", insights.FormatText, "blog.report.txt"},
	{"blog.workbench.json", insights.FormatWorkbench, "blog.report.txt"},
	{"blog.onetable.json", insights.FormatOneTable, "blog.report.txt"},
	{"blog.dynamodb_data_model.json", insights.FormatDataModel, "blog.report.txt"},
	{"blog.workbench-plain.json", insights.FormatWorkbench, "blog.workbench-plain.report.txt"},
	{"blog.onetable-plain.json", insights.FormatOneTable, "blog.onetable-plain.report.txt"},
	{"blog.cloudformation.yaml", insights.FormatCloudFormation, "blog.cloudformation.report.txt"},
	{"blog.electrodb.json", insights.FormatElectroDB, "blog.electrodb.report.txt"},
	{"blog.dynamoose.json", insights.FormatDynamoose, "blog.dynamoose.report.txt"},
	{"blog.dynamodb-toolbox.json", insights.FormatToolbox, "blog.dynamodb-toolbox.report.txt"},
}

// blogReport runs blogTraffic against the design in file and returns the
// text report.
func blogReport(t *testing.T, file string) (string, *insights.Design) {
	d := loadDesign(t, file)
	r := New(Options{Clock: fixedClock})
	r.SetDesign(d)
	r.SetReporting(true)
	for _, q := range blogTraffic() {
		r.Record(&q)
	}
	var buf bytes.Buffer
	require.NoError(t, r.Report(nil).WriteText(&buf))
	return buf.String(), d
}

// TestBlogDesignEveryFormat: each format's report on the same traffic is
// its golden byte for byte (-rewrite writes the goldens), and every
// report's traffic sections (each table's and index's counts) are the
// design file's.
func TestBlogDesignEveryFormat(t *testing.T) {
	traffic := func(rep string) string {
		head, _, _ := strings.Cut(rep, "\nCostliest requests")
		return head
	}
	want, _ := blogReport(t, "blog.design")
	for _, tc := range blogFormats {
		t.Run(tc.file, func(t *testing.T) {
			got, d := blogReport(t, tc.file)
			require.Equal(t, tc.format, d.Format)
			path := "testdata/" + tc.golden
			if *rewrite && tc.golden != "blog.report.txt" {
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			}
			golden, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Equal(t, string(golden), got, "the report of %s", tc.file)
			require.Equal(t, traffic(want), traffic(got), "the traffic sections of %s", tc.file)
		})
	}
}
