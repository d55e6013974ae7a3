package service

import (
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestContributorInsightsValidation: the members' constraints (AWS's
// model: ContributorInsightsAction required and an enum, the mode an
// enum, MaxResults at most 100), the table and index looked up (an LSI
// is not found), and ListContributorInsights' pages.
func TestContributorInsightsValidation(t *testing.T) {
	env := newItemsEnv(t)
	env.mustOK("CreateTable", `{"TableName":"lsi","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"x","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"LocalSecondaryIndexes":[{"IndexName":"byX","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"x","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}]}`)
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
		{"ListContributorInsights", `{"MaxResults":101}`, "ValidationException",
			"1 validation error detected: Value '101' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 100"},
		{"ListContributorInsights", `{"NextToken":"x"}`, "ValidationException", "The provided NextToken is not valid"},
	}
	for _, tc := range tests {
		status, body := env.call(tc.op, tc.body)
		typ, msg := testkit.ErrorOf(body)
		if status != 400 || typ != tc.typ || !strings.Contains(msg, tc.msg) {
			t.Errorf("%s %s: got %d %s %q, want %s %q", tc.op, tc.body, status, typ, msg, tc.typ, tc.msg)
		}
	}
	for _, name := range []string{"ths", "tha", "tbi", "lsi"} {
		env.mustOK("UpdateContributorInsights", `{"TableName":"`+name+`","ContributorInsightsAction":"ENABLE"}`)
	}
	_, body := env.call("ListContributorInsights", `{"MaxResults":3}`)
	if !strings.Contains(body, `"NextToken":"3"`) || strings.Count(body, `"TableName"`) != 3 {
		t.Fatalf("page 1: %s", body)
	}
	_, body = env.call("ListContributorInsights", `{"MaxResults":3,"NextToken":"3"}`)
	if strings.Contains(body, "NextToken") || !strings.Contains(body, `"TableName":"ths"`) {
		t.Errorf("page 2: %s", body)
	}
}
