package emulator_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// TestUnknownMember: a member an operation's request does not take is
// found wherever it is, with the members taken there; item attributes,
// expression names and values and map keys are no members, and the
// members features own (Tags, WarmThroughput, ...) are taken.
func TestUnknownMember(t *testing.T) {
	cases := []struct {
		op, body, path, near string // path "": none unknown
	}{
		{"PutItem", `{"TableName":"t","Item":{"any name":{"S":"x"},"n":{"M":{"k":{"S":"v"}}}},"ConditionExpresion":"attribute_exists(pk)"}`, "ConditionExpresion", "ConditionExpression"},
		{"Query", `{"TableName":"t","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"ExpressionAttributeNames":{"#a":"a"},"ScanIndexForwad":false}`, "ScanIndexForwad", "ScanIndexForward"},
		{"TransactWriteItems", `{"TransactItems":[{"ConditionCheck":{"TableName":"t","Key":{"pk":{"S":"a"}},"ConditionExpression":"x"}},{"Put":{"TableName":"t","Item":{"pk":{"S":"a"}},"ConditionExpresion":"x"}}]}`, "TransactItems[1].Put.ConditionExpresion", "ConditionExpression"},
		{"BatchGetItem", `{"RequestItems":{"t":{"Keys":[{"pk":{"S":"a"}}],"ProjectionExpresion":"a"}}}`, "RequestItems.t.ProjectionExpresion", "ProjectionExpression"},
		{"BatchWriteItem", `{"RequestItems":{"t":[{"PutRequest":{"Item":{"pk":{"S":"a"}}}},{"DeleteRequest":{"Key":{"pk":{"S":"a"}}}}]}}`, "", ""},
		{"CreateTable", `{"TableName":"t","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
			"BillingMode":"PROVISIONED","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1},"Tags":[{"Key":"k","Value":"v"}],
			"WarmThroughput":{"ReadUnitsPerSecond":12000},"DeletionProtectionEnabled":true,"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"},
			"GlobalSecondaryIndexes":[{"IndexName":"g","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"},"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}]}`, "", ""},
		{"CreateTable", `{"TableName":"t","ProvisionedThroughput":{"ReadCapacityUnit":1}}`, "ProvisionedThroughput.ReadCapacityUnit", "ReadCapacityUnits"},
		{"ExecuteStatement", `{"Statement":"SELECT * FROM t","Parameters":[{"S":"a"}],"Limt":1}`, "Limt", "Limit"},
		// A legacy filter's, Expected's or KeyConditions' names are
		// attributes; their conditions' are members.
		{"Scan", `{"TableName":"t","ScanFilter":{"GSI1PK":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}}}`, "", ""},
		{"Query", `{"TableName":"t","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"QueryFilter":{"n":{"ComparisonOperator":"NOT_NULL"}}}`, "", ""},
		{"PutItem", `{"TableName":"t","Item":{"pk":{"S":"a"}},"Expected":{"pk":{"Exists":false},"v":{"Value":{"S":"x"}}}}`, "", ""},
		{"Scan", `{"TableName":"t","ScanFilter":{"a":{"ComparisonOperater":"EQ"}}}`, "ScanFilter.a.ComparisonOperater", "ComparisonOperator"},
		{"Query", `{"TableName":"t","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueLists":[]}}}`, "KeyConditions.pk.AttributeValueLists", "AttributeValueList"},
		{"PutItem", `{"TableName":"t","Item":{"pk":{"S":"a"}},"Expected":{"pk":{"Exist":false}}}`, "Expected.pk.Exist", "Exists"},
		{"GetItem", `not json`, "", ""},
		{"NoSuchOperation", `{"x":1}`, "", ""},
	}
	for _, tc := range cases {
		path, known, found := emulator.UnknownMember(tc.op, []byte(tc.body))
		if tc.path == "" {
			require.False(t, found, "%s %s: %s", tc.op, tc.body, path)
			continue
		}
		require.True(t, found, "%s %s", tc.op, tc.body)
		require.Equal(t, tc.path, path)
		require.Contains(t, known, tc.near)
	}
}
