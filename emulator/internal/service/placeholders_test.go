package service

import (
	"strings"
	"testing"
)

// TestPlaceholderMapChecks: the placeholder maps are checked (keys of the
// names, keys of the values, then empty names) before any expression is
// parsed and before the key, in every write and read that compiles
// expressions. Messages and order recorded from DynamoDB Local.
func TestPlaceholderMapChecks(t *testing.T) {
	env := newItemsEnv(t)
	k := `"Key":{"pk":{"S":"a"},"sk":{"N":"1"}}`
	it := `"Item":{"pk":{"S":"a"},"sk":{"N":"1"}}`
	const nameKey = `ExpressionAttributeNames contains invalid key: Syntax error; key: "x"`
	const valueKey = `ExpressionAttributeValues contains invalid key: Syntax error; key: "v"`
	const emptyName = "ExpressionAttributeNames contains invalid value: Empty attribute name for key #a"
	env.run(t, []itemCase{
		{name: "get name key", op: "GetItem", body: `{"TableName":"ths",` + k + `,"ProjectionExpression":"a","ExpressionAttributeNames":{"x":"a"}}`,
			errType: vErr, errMsg: nameKey},
		{name: "get empty name", op: "GetItem", body: `{"TableName":"ths",` + k + `,"ProjectionExpression":"#a","ExpressionAttributeNames":{"#a":""}}`,
			errType: vErr, errMsg: emptyName},
		{name: "get name key before bad key", op: "GetItem", body: `{"TableName":"ths","Key":{"zz":{"S":"a"}},"ProjectionExpression":"a","ExpressionAttributeNames":{"x":"a"}}`,
			errType: vErr, errMsg: nameKey},
		{name: "get empty name before empty projection", op: "GetItem", body: `{"TableName":"ths",` + k + `,"ProjectionExpression":"","ExpressionAttributeNames":{"#a":""}}`,
			errType: vErr, errMsg: emptyName},
		{name: "get empty name before undefined name", op: "GetItem", body: `{"TableName":"ths",` + k + `,"ProjectionExpression":"#b","ExpressionAttributeNames":{"#a":""}}`,
			errType: vErr, errMsg: emptyName},
		{name: "put value key", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ConditionExpression":"attribute_exists(a)","ExpressionAttributeValues":{"v":{"N":"1"}}}`,
			errType: vErr, errMsg: valueKey},
		{name: "put value key before syntax", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ConditionExpression":"a = = :v","ExpressionAttributeValues":{"v":{"N":"1"}}}`,
			errType: vErr, errMsg: valueKey},
		{name: "update name key before value key", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"UpdateExpression":"SET a = :v","ExpressionAttributeNames":{"x":"a"},"ExpressionAttributeValues":{"v":{"N":"1"}}}`,
			errType: vErr, errMsg: nameKey},
		{name: "update value key before empty name", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"UpdateExpression":"SET a = :v","ExpressionAttributeNames":{"#a":""},"ExpressionAttributeValues":{"v":{"N":"1"}}}`,
			errType: vErr, errMsg: valueKey},
		{name: "delete empty name", op: "DeleteItem", body: `{"TableName":"ths",` + k + `,"ConditionExpression":"attribute_exists(#a)","ExpressionAttributeNames":{"#a":""}}`,
			errType: vErr, errMsg: emptyName},
		// The rules about which maps may appear at all come first.
		{name: "empty names map first", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ConditionExpression":"a = :v","ExpressionAttributeNames":{},"ExpressionAttributeValues":{"v":{"N":"1"}}}`,
			errType: vErr, errMsg: "ExpressionAttributeNames must not be empty"},
		{name: "names without expression first", op: "GetItem", body: `{"TableName":"ths",` + k + `,"ExpressionAttributeNames":{"x":"a"}}`,
			errType: vErr, errMsg: "ExpressionAttributeNames can only be specified when using expressions"},
		{name: "update size", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"UpdateExpression":"SET a = :v` + strings.Repeat(" ", 4097-len("SET a = :v")) + `","ExpressionAttributeValues":{":v":{"N":"1"}}}`,
			errType: vErr, errMsg: "Invalid UpdateExpression: Expression size has exceeded the maximum allowed size;"},
	})
}

// TestLegacyExpectedRules: ConditionalOperator needs two or more Expected
// entries; AttributeValueList needs a ComparisonOperator (DynamoDB Local).
func TestLegacyExpectedRules(t *testing.T) {
	env := newItemsEnv(t)
	it := `"Item":{"pk":{"S":"a"},"sk":{"N":"1"}}`
	env.run(t, []itemCase{
		{name: "OR on one", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ConditionalOperator":"OR","Expected":{"n":{"ComparisonOperator":"NULL"}}}`,
			errType: vErr, errMsg: "ConditionalOperator can only be used when Filter or Expected has two or more elements"},
		{name: "AND on one", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ConditionalOperator":"AND","Expected":{"n":{"Exists":false}}}`,
			errType: vErr, errMsg: "ConditionalOperator can only be used when Filter or Expected has two or more elements"},
		{name: "OR on two", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ConditionalOperator":"OR","Expected":{"n":{"Exists":false},"m":{"Exists":false}}}`},
		{name: "list without operator", op: "PutItem", body: `{"TableName":"ths",` + it + `,"Expected":{"n":{"AttributeValueList":[{"N":"1"}]}}}`,
			errType: vErr, errMsg: "One or more parameter values were invalid: AttributeValueList can only be used with a ComparisonOperator for Attribute: n"},
	})
}
