package accessreport

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/report"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/stretchr/testify/require"
)

// learned is what Design.Live takes of a report's design part, read as
// the MCP server reads it (insights.ReadLearned on its JSON).
func learned(t *testing.T, dr *DesignReport) *insights.Learned {
	t.Helper()
	b, err := json.Marshal(dr)
	require.NoError(t, err)
	l, err := insights.ReadLearned(b)
	require.NoError(t, err)
	return l
}

// TestReadLearnedPinsTheReport: insights.ReadLearned takes out of a
// report's design part its patterns' table, name, access, entities,
// servedBy, condition and fromTraffic, in the report's order, and the
// tables of its from-traffic findings (one without a table left out);
// the counts, the unmatched requests and the other findings are left.
func TestReadLearnedPinsTheReport(t *testing.T) {
	dr := &DesignReport{
		Patterns: []PatternReport{
			{Table: "Orders", Name: "by-customer", Description: "a customer's orders", Access: "query", Entities: []string{"Order"},
				ServedBy: "index GSI1", Condition: "begins_with", Order: "newest first", Requests: 3, ItemsRead: 9, ItemsReturned: 6,
				ReadUnits: 1.5, Throttled: 1},
			{Table: "Carts", Name: "query-table", Access: "query", Entities: []string{}, ServedBy: "table key", FromTraffic: true, Requests: 1},
		},
		Unmatched: []report.UnmatchedRequest{{Table: "Orders", Access: "scan", Op: "Scan", Requests: 2}},
		Findings: []report.Finding{
			{Kind: insights.FindingFromTraffic, Table: "Carts", Detail: "patterns from the traffic"},
			{Kind: insights.FindingFromTraffic, Detail: "no table"},
			{Kind: "hot-partition", Table: "Orders", Detail: "other"},
			{Kind: insights.FindingFromTraffic, Table: "Sessions", Detail: "patterns from the traffic"},
		},
	}
	require.Equal(t, &insights.Learned{
		Patterns: []insights.LearnedPattern{
			{Table: "Orders", Name: "by-customer", Access: "query", Entities: []string{"Order"}, ServedBy: "index GSI1", Condition: "begins_with"},
			{Table: "Carts", Name: "query-table", Access: "query", Entities: []string{}, ServedBy: "table key", FromTraffic: true},
		},
		FromTrafficTables: []string{"Carts", "Sessions"},
	}, learned(t, dr))

	require.Equal(t, &insights.Learned{Patterns: []insights.LearnedPattern{}}, learned(t, &DesignReport{}), "a design part with nothing learned")
	require.Nil(t, learned(t, nil), "no design part")
	_, err := insights.ReadLearned([]byte(`{"patterns": 1}`))
	require.Error(t, err)
}

// TestLearnedPatternMembersAreReportMembers: every member
// insights.LearnedPattern reads is a member of report.PatternReport of
// the same JSON name and Go type, so a member renamed on either side
// fails here rather than reading as empty.
func TestLearnedPatternMembersAreReportMembers(t *testing.T) {
	members := func(typ reflect.Type) map[string]reflect.Type {
		out := map[string]reflect.Type{}
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			require.NotEmpty(t, name, "%s.%s has no json name", typ, f.Name)
			out[name] = f.Type
		}
		return out
	}
	rep := members(reflect.TypeFor[report.PatternReport]())
	read := members(reflect.TypeFor[insights.LearnedPattern]())
	require.Len(t, read, 7)
	for name, typ := range read {
		require.Equal(t, typ, rep[name], "member %q", name)
	}
}
