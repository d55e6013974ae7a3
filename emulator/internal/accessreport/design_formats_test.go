package accessreport

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// The blog design in the three formats: a design file, a NoSQL Workbench
// model and a OneTable schema.
var blogDesigns = []string{"blog.design", "blog.workbench.json", "blog.onetable.json"}

// TestDesignFormatsSameReport: the blog design written as a Workbench
// model and as a OneTable schema is the design file's design: the same
// traffic gives the same report, text and JSON, as blog.report.txt.
func TestDesignFormatsSameReport(t *testing.T) {
	want, err := os.ReadFile("testdata/blog.report.txt")
	require.NoError(t, err)
	var wantJSON []byte
	for _, name := range blogDesigns {
		t.Run(name, func(t *testing.T) {
			d := loadDesign(t, name)
			r := New(Options{Clock: fixedClock})
			r.SetDesign(d)
			r.SetReporting(true)
			for _, q := range blogTraffic() {
				r.Record(&q)
			}
			rep := r.Report(nil)
			var buf bytes.Buffer
			require.NoError(t, rep.WriteText(&buf))
			require.Equal(t, string(want), buf.String(), "the report of %s", name)
			js, err := json.Marshal(rep)
			require.NoError(t, err)
			if wantJSON == nil {
				wantJSON = js
			}
			require.JSONEq(t, string(wantJSON), string(js), "the JSON report of %s", name)
		})
	}
}
