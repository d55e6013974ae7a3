package iam

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

func TestActionOf(t *testing.T) {
	cases := []struct {
		op     string
		access insights.Access
		want   string
	}{
		{"GetItem", insights.Get, "GetItem"},
		{"Query", insights.Query, "Query"},
		{"BatchWriteItem", insights.Delete, "BatchWriteItem"},
		{"TransactGetItems", insights.Get, "GetItem"},
		{"TransactWriteItems", insights.Put, "PutItem"},
		{"TransactWriteItems", insights.Update, "UpdateItem"},
		{"TransactWriteItems", insights.Delete, "DeleteItem"},
		{"TransactWriteItems", insights.Get, "ConditionCheckItem"},
		{"ExecuteStatement", insights.Scan, "PartiQLSelect"},
		{"BatchExecuteStatement", insights.Put, "PartiQLInsert"},
		{"ExecuteTransaction", insights.Update, "PartiQLUpdate"},
		{"ExecuteTransaction", insights.Delete, "PartiQLDelete"},
	}
	for _, tc := range cases {
		require.Equal(t, tc.want, actionOf(tc.op, tc.access), "actionOf(%s, %v)", tc.op, tc.access)
	}
}

func TestRequestContext(t *testing.T) {
	str := func(s string) *string { return &s }
	sv := storage.S
	cases := []struct {
		name string
		in   any
		want map[string][]string
	}{
		{"get whole item", &service.GetItemInput{ReturnConsumedCapacity: "TOTAL"},
			map[string][]string{"dynamodb:returnconsumedcapacity": {"TOTAL"}}},
		{"get projection", &service.GetItemInput{ProjectionExpression: str("#a, b.c, d[1]"), ExpressionAttributeNames: map[string]string{"#a": "title"}},
			map[string][]string{"dynamodb:attributes": {"title", "b", "d"}}},
		{"get attributes to get", &service.GetItemInput{AttributesToGet: expr.NameListOf([]string{"x", "y"})},
			map[string][]string{"dynamodb:attributes": {"x", "y"}}},
		{"query select", &service.QueryInput{Select: str("COUNT")},
			map[string][]string{"dynamodb:select": {"COUNT"}}},
		{"scan projection", &service.ScanInput{ProjectionExpression: str("a")},
			map[string][]string{"dynamodb:select": {"SPECIFIC_ATTRIBUTES"}, "dynamodb:attributes": {"a"}}},
		{"put", &service.PutItemInput{Item: map[string]storage.Value{"pk": sv("1"), "b": sv("2")}, ReturnValues: "ALL_OLD"},
			map[string][]string{"dynamodb:attributes": {"b", "pk"}, "dynamodb:returnvalues": {"ALL_OLD"}}},
		{"update", &service.UpdateItemInput{Key: map[string]storage.Value{"pk": sv("1")}, UpdateExpression: str("SET #t = :v REMOVE old ADD n :one"),
			ExpressionAttributeNames: map[string]string{"#t": "title"}},
			map[string][]string{"dynamodb:attributes": {"n", "old", "pk", "title"}}},
		{"delete", &service.DeleteItemInput{ReturnValues: "NONE"},
			map[string][]string{"dynamodb:returnvalues": {"NONE"}}},
		{"batch write on T", &service.BatchWriteItemInput{RequestItems: map[string][]service.WriteRequest{
			"T":     {{PutRequest: &service.PutRequest{Item: map[string]storage.Value{"pk": sv("1"), "a": sv("2")}}}, {DeleteRequest: &service.DeleteRequest{}}},
			"Other": {{PutRequest: &service.PutRequest{Item: map[string]storage.Value{"z": sv("1")}}}},
		}}, map[string][]string{"dynamodb:attributes": {"a", "pk"}}},
		{"no input", nil, map[string][]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := requestContext(tc.in, "T")
			require.Equal(t, tc.want, got, "got %v, want %v", got, tc.want)
		})
	}
}

// TestEnable: the stage is on while an emulator has the mode on, and
// a second disable does nothing.
func TestEnable(t *testing.T) {
	before := enabled.Load()
	off := Enable()
	require.True(t, Stage{}.On(service.Table{}))
	off()
	off()
	require.Equal(t, before, enabled.Load())
}
