package accessreport

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/stretchr/testify/require"
)

// TestPatternsFromTraffic: a table whose format declares no patterns
// takes one per request shape, names it by the shape, counts the same
// shape again in it, never makes a Scan a pattern, and stops at
// MaxLearned.
func TestPatternsFromTraffic(t *testing.T) {
	d, err := insights.ParseDesign([]byte(`{"tables":[{"TableName":"T","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"GlobalSecondaryIndexes":[{"IndexName":"g","KeySchema":[{"AttributeName":"gpk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}],"items":{},"access_patterns":[]}`))
	require.NoError(t, err)
	tb := d.Tables[0]
	require.True(t, tb.FromTraffic)
	r := New(Options{Clock: fixedClock})
	r.SetDesign(d)
	r.SetReporting(true)
	reqs := []insights.Request{
		{Op: "Query", Access: insights.Query, Table: "T", Key: insights.KeyCondition{Partition: s("u1"), SortOp: insights.SortBeginsWith, Sort: s("ORDER#")}},
		{Op: "Query", Access: insights.Query, Table: "T", Key: insights.KeyCondition{Partition: s("u2"), SortOp: insights.SortBeginsWith, Sort: s("ORDER#")}},
		{Op: "Query", Access: insights.Query, Table: "T", Key: insights.KeyCondition{Partition: s("u2"), SortOp: insights.SortBetween, Sort: s("a"), Sort2: s("b")}},
		{Op: "GetItem", Access: insights.Get, Table: "T", Key: insights.KeyCondition{Partition: s("u1"), SortOp: insights.SortEQ, Sort: s("x")}},
		{Op: "Query", Access: insights.Query, Table: "T", Index: "g", Key: insights.KeyCondition{Partition: s("v")}},
		{Op: "Scan", Access: insights.Scan, Table: "T"},
		{Op: "Query", Access: insights.Query, Table: "T", Index: "nope", Key: insights.KeyCondition{Partition: s("v")}},
	}
	for _, q := range reqs {
		r.Record(&q)
	}
	rep := r.Report(nil)
	var got []string
	for _, p := range rep.Design.Patterns {
		require.True(t, p.FromTraffic, p.Name)
		got = append(got, p.Name+" "+p.Condition+" "+itoa(p.Requests))
	}
	require.Equal(t, []string{
		"query-table-ORDER# pk = {pk} and sk begins_with ORDER# 2",
		"query-table-between pk = {pk} and sk between {sk} and {sk} 1",
		"get-table pk = {pk} and sk = {sk} 1",
		"query-g pk = {gpk} 1",
	}, got)
	var kinds []string
	for _, f := range rep.Design.Findings {
		kinds = append(kinds, f.Kind)
	}
	require.Equal(t, []string{insights.FindingFromTraffic, insights.FindingScanRequest, insights.FindingUnmatchedRequest}, kinds)

	for i := 0; i < 2*insights.MaxLearned; i++ {
		q := insights.Request{Op: "Query", Access: insights.Query, Table: "T", Key: insights.KeyCondition{Partition: s("u"), SortOp: insights.SortBeginsWith, Sort: s("P" + itoa(int64(i)) + "#")}}
		r.Record(&q)
	}
	held := r.Design().Tables[0]
	require.Len(t, held.Patterns, insights.MaxLearned)
	require.Empty(t, tb.Patterns, "the recorder's copy took the patterns, not the design set")
	require.Contains(t, d.View().Tables[0].Note, "takes them from the shapes of the traffic's requests")

	// A reset forgets them with the counts.
	r.Reset()
	require.Empty(t, held.Patterns)
	require.Empty(t, r.Report(nil).Design.Patterns)
}
