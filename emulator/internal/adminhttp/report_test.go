package adminhttp

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/report"
	"github.com/stretchr/testify/require"
)

// TestContributorsJSON: the contributors endpoint's rules under
// lower-case names, a rule without contributors as [] and no rules as
// [] too, keys and values as encoding/json writes them.
func TestContributorsJSON(t *testing.T) {
	require.Equal(t, "[]", string(contributorsJSON(nil)))
	rules := []report.ContributorRule{
		{Rule: "DynamoDBContributorInsights-PKC-Orders-1700000000000", Contributors: []report.Contributor{
			{Keys: []string{"u\"1"}, Value: 7.5},
			{Keys: []string{"u2", "2024"}, Value: 1},
		}},
		{Rule: "DynamoDBContributorInsights-PKT-Orders-1700000000000"},
	}
	require.Equal(t, `[{"rule":"DynamoDBContributorInsights-PKC-Orders-1700000000000","contributors":[`+
		`{"keys":["u\"1"],"value":7.5},{"keys":["u2","2024"],"value":1}]},`+
		`{"rule":"DynamoDBContributorInsights-PKT-Orders-1700000000000","contributors":[]}]`,
		string(contributorsJSON(rules)))
}
