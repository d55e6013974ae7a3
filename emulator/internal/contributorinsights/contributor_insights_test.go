package contributorinsights

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	reportstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/insights"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// The feature in use in this package's tests, as the emulator uses it.
// The feature with the stage that keeps its recorders (and forgets a
// deleted table's or GSI's rules), as the emulator wires them.
var (
	testFeatures = []service.Feature{Feature{}}
	testStages   = []service.Stage{reportstage.Stage{}}
)

// newEnv returns a service with the tables the tests use: ths (pk S,
// sk N), tha (pk S), tbi (pk B), lsi (pk, sk and an LSI byX) and gsi
// (pk and a GSI byG on g, sk).
func newEnv(t *testing.T) *servicetest.Env {
	t.Helper()
	e := servicetest.New(t, service.Config{Features: testFeatures, Stages: testStages})
	const ppr = `"BillingMode":"PAY_PER_REQUEST"`
	e.Must("CreateTable", `{"TableName":"ths",`+ppr+`,"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`)
	e.Must("CreateTable", `{"TableName":"tha",`+ppr+`,"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	e.Must("CreateTable", `{"TableName":"tbi",`+ppr+`,"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"B"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	e.Must("CreateTable", `{"TableName":"lsi",`+ppr+`,
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"x","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"LocalSecondaryIndexes":[{"IndexName":"byX","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"x","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}]}`)
	e.Must("CreateTable", `{"TableName":"gsi",`+ppr+`,
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"},{"AttributeName":"s","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"},{"AttributeName":"s","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}`)
	return e
}

// TestContributorInsightsValidation: the members' constraints (AWS's
// model: ContributorInsightsAction required and an enum, the mode an
// enum, MaxResults at most 100), the table and index looked up (an LSI
// is not found), and ListContributorInsights' pages.
func TestContributorInsightsValidation(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		op, body, typ, msg string
	}{
		{"UpdateContributorInsights", `{"TableName":"ths"}`, "ValidationException",
			"1 validation error detected: Value null at 'contributorInsightsAction' failed to satisfy constraint: Member must not be null"},
		{"UpdateContributorInsights", `{"TableName":"ths","ContributorInsightsAction":"START","ContributorInsightsMode":"ALL"}`, "ValidationException",
			"2 validation errors detected: Value 'START' at 'contributorInsightsAction' failed to satisfy constraint: Member must satisfy enum value set: [ENABLE, DISABLE]; Value 'ALL' at 'contributorInsightsMode' failed to satisfy constraint: Member must satisfy enum value set: [ACCESSED_AND_THROTTLED_KEYS, THROTTLED_KEYS]"},
		{"UpdateContributorInsights", `{"TableName":"nope","ContributorInsightsAction":"ENABLE"}`, "ResourceNotFoundException", "Requested resource not found"},
		{"UpdateContributorInsights", `{"TableName":"lsi","IndexName":"byX","ContributorInsightsAction":"ENABLE"}`, "ResourceNotFoundException", "Requested resource not found"},
		{"DescribeContributorInsights", `{}`, "ValidationException", "at 'tableName' failed to satisfy constraint: Member must not be null"},
		{"DescribeContributorInsights", `{"TableName":"gsi","IndexName":"no"}`, "ValidationException",
			"1 validation error detected: Value 'no' at 'indexName' failed to satisfy constraint: Member must have length greater than or equal to 3"},
		{"ListContributorInsights", `{"MaxResults":101}`, "ValidationException",
			"1 validation error detected: Value '101' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 100"},
		{"ListContributorInsights", `{"NextToken":"x"}`, "ValidationException", "The provided NextToken is not valid"},
		{"ListContributorInsights", `{"TableName":"nope"}`, "ResourceNotFoundException", "Requested resource not found"},
	}
	for _, tc := range tests {
		status, body := e.Send(tc.op, tc.body)
		typ, msg := testkit.ErrorOf(body)
		require.Equal(t, 400, status, "%s %s: %s", tc.op, tc.body, body)
		require.Equal(t, tc.typ, typ, "%s %s", tc.op, tc.body)
		require.Contains(t, msg, tc.msg, "%s %s", tc.op, tc.body)
	}
	for _, name := range []string{"ths", "tha", "tbi", "lsi"} {
		e.Must("UpdateContributorInsights", `{"TableName":"`+name+`","ContributorInsightsAction":"ENABLE"}`)
	}
	body := e.Must("ListContributorInsights", `{"MaxResults":3}`)
	require.Contains(t, body, `"NextToken":"3"`, "page 1")
	require.Equal(t, 3, strings.Count(body, `"TableName"`), "page 1: %s", body)
	body = e.Must("ListContributorInsights", `{"MaxResults":3,"NextToken":"3"}`)
	require.NotContains(t, body, "NextToken", "page 2")
	require.Contains(t, body, `"TableName":"ths"`, "page 2")
}

// TestContributorInsightsIndex: a GSI has rules of its own, described
// by index; a table's deletion forgets its rules.
func TestContributorInsightsIndex(t *testing.T) {
	e := newEnv(t)
	var up struct{ TableName, IndexName, ContributorInsightsStatus string }
	testkit.MustUnmarshal(t, e.Must("UpdateContributorInsights", `{"TableName":"gsi","IndexName":"byG","ContributorInsightsAction":"ENABLE"}`), &up)
	require.Equal(t, "gsi", up.TableName)
	require.Equal(t, "byG", up.IndexName)
	require.Equal(t, "ENABLING", up.ContributorInsightsStatus)

	var d struct {
		IndexName                   string
		ContributorInsightsRuleList []string
		ContributorInsightsStatus   string
	}
	testkit.MustUnmarshal(t, e.Must("DescribeContributorInsights", `{"TableName":"gsi","IndexName":"byG"}`), &d)
	require.Equal(t, "byG", d.IndexName)
	require.NotEmpty(t, d.ContributorInsightsRuleList, "an enabled index's rules")
	testkit.MustUnmarshal(t, e.Must("DescribeContributorInsights", `{"TableName":"gsi"}`), &d)
	require.Equal(t, "DISABLED", d.ContributorInsightsStatus, "the table's own rules are not the index's")

	require.Contains(t, e.Must("ListContributorInsights", `{"TableName":"gsi"}`), `"IndexName":"byG"`)
	e.Must("DeleteTable", `{"TableName":"gsi"}`)
	require.Equal(t, `{"ContributorInsightsSummaries":[]}`, e.Must("ListContributorInsights", `{}`), "the deleted table's rules")
}
