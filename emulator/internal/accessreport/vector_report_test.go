package accessreport

import (
	"bytes"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/stretchr/testify/require"
)

// TestVectorBytesReport: a vector index's searches and writes are
// counted in the bytes AWS bills them in, per resource and operation,
// in the report and its text.
func TestVectorBytesReport(t *testing.T) {
	r := New(Options{})
	r.SetReporting(true)
	r.Record(&insights.Request{Op: "SearchVectors", Access: insights.Scan, Table: "T", Index: "vix", VectorSearchBytes: 1024, Read: 2, Returned: 2})
	r.Record(&insights.Request{Op: "SearchVectors", Access: insights.Scan, Table: "T", Index: "vix", VectorSearchBytes: 2048})
	r.Record(&insights.Request{Op: "PutItem", Access: insights.Put, Table: "T", WriteUnits: 1, VectorWriteBytes: 1030})
	rep := r.Report(nil)
	require.Len(t, rep.Tables, 1)
	byIndex := map[string]ResourceReport{}
	for _, rr := range rep.Tables[0].Resources {
		byIndex[rr.Index] = rr
	}
	require.Equal(t, 3072.0, byIndex["vix"].VectorSearchBytes)
	require.Equal(t, []OpReport{{Op: "SearchVectors", Requests: 2, ItemsRead: 2, ItemsReturned: 2, VectorSearchBytes: 3072}},
		byIndex["vix"].Operations)
	require.Equal(t, 1030.0, byIndex[""].VectorWriteBytes)
	var buf bytes.Buffer
	require.NoError(t, rep.WriteText(&buf))
	require.Contains(t, buf.String(), "3072 vector search bytes")
	require.Contains(t, buf.String(), "1030 vector write bytes")
}
