package service

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

func TestItemKeyValidation(t *testing.T) {
	env := newItemsEnv(t)
	long := strings.Repeat("a", 2049)
	longSort := strings.Repeat("a", 1025)
	env.run(t, []itemCase{
		// Key parameter (GetItem, DeleteItem, UpdateItem): one generic message.
		{name: "get missing sort", op: "GetItem", body: `{"TableName":"ths","Key":{"pk":{"S":"a"}}}`,
			errType: vErr, errMsg: apierr.MsgKeySchemaMismatch},
		{name: "get extra attr", op: "GetItem", body: `{"TableName":"ths","Key":{"pk":{"S":"a"},"sk":{"N":"1"},"x":{"S":"b"}}}`,
			errType: vErr, errMsg: apierr.MsgKeySchemaMismatch},
		{name: "get wrong name", op: "GetItem", body: `{"TableName":"ths","Key":{"pk":{"S":"a"},"zz":{"N":"1"}}}`,
			errType: vErr, errMsg: apierr.MsgKeySchemaMismatch},
		{name: "get wrong type", op: "GetItem", body: `{"TableName":"ths","Key":{"pk":{"N":"1"},"sk":{"N":"1"}}}`,
			errType: vErr, errMsg: apierr.MsgKeySchemaMismatch},
		{name: "get empty key", op: "GetItem", body: `{"TableName":"ths","Key":{}}`,
			errType: vErr, errMsg: apierr.MsgKeySchemaMismatch},
		{name: "get no key", op: "GetItem", body: `{"TableName":"ths"}`,
			errType: vErr, errMsg: "1 validation error detected: Value null at 'key' failed to satisfy constraint: Member must not be null"},
		{name: "get empty string key", op: "GetItem", body: `{"TableName":"ths","Key":{"pk":{"S":""},"sk":{"N":"1"}}}`,
			errType: vErr, errMsg: "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk"},
		{name: "get empty binary key", op: "GetItem", body: `{"TableName":"tbi","Key":{"pk":{"B":""}}}`,
			errType: vErr, errMsg: "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty binary value. Key: pk"},
		{name: "get hash key too long", op: "GetItem", body: `{"TableName":"tha","Key":{"pk":{"S":"` + long + `"}}}`,
			errType: vErr, errMsg: apierr.MsgHashKeyTooLong},
		{name: "delete wrong type", op: "DeleteItem", body: `{"TableName":"tha","Key":{"pk":{"SS":["a"]}}}`,
			errType: vErr, errMsg: apierr.MsgKeySchemaMismatch},
		{name: "update missing sort", op: "UpdateItem", body: `{"TableName":"ths","Key":{"pk":{"S":"a"}}}`,
			errType: vErr, errMsg: apierr.MsgKeySchemaMismatch},
		{name: "get unknown table", op: "GetItem", body: `{"TableName":"nope","Key":{"pk":{"S":"a"}}}`,
			errType: rErr, errMsg: "Requested resource not found"},

		// Item parameter (PutItem): specific messages.
		{name: "put missing sort", op: "PutItem", body: `{"TableName":"ths","Item":{"pk":{"S":"a"}}}`,
			errType: vErr, errMsg: "One or more parameter values were invalid: Missing the key sk in the item"},
		{name: "put missing hash", op: "PutItem", body: `{"TableName":"ths","Item":{"sk":{"N":"1"}}}`,
			errType: vErr, errMsg: "One or more parameter values were invalid: Missing the key pk in the item"},
		{name: "put empty item", op: "PutItem", body: `{"TableName":"ths","Item":{}}`,
			errType: vErr, errMsg: "One or more parameter values were invalid: Missing the key pk in the item"},
		{name: "put no item", op: "PutItem", body: `{"TableName":"ths"}`,
			errType: vErr, errMsg: "1 validation error detected: Value null at 'item' failed to satisfy constraint: Member must not be null"},
		{name: "put hash type", op: "PutItem", body: `{"TableName":"ths","Item":{"pk":{"N":"1"},"sk":{"N":"1"}}}`,
			errType: vErr, errMsg: "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N"},
		{name: "put sort type", op: "PutItem", body: `{"TableName":"ths","Item":{"pk":{"S":"a"},"sk":{"S":"1"}}}`,
			errType: vErr, errMsg: "One or more parameter values were invalid: Type mismatch for key sk expected: N actual: S"},
		{name: "put map key", op: "PutItem", body: `{"TableName":"tha","Item":{"pk":{"M":{}}}}`,
			errType: vErr, errMsg: "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: M"},
		{name: "put empty string key", op: "PutItem", body: `{"TableName":"ths","Item":{"pk":{"S":""},"sk":{"N":"1"}}}`,
			errType: vErr, errMsg: "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk"},
		{name: "put hash too long", op: "PutItem", body: `{"TableName":"tha","Item":{"pk":{"S":"` + long + `"}}}`,
			errType: vErr, errMsg: "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"},
		{name: "put hash at limit", op: "PutItem", body: `{"TableName":"tha","Item":{"pk":{"S":"` + long[1:] + `"}}}`},
		{name: "put sort too long", op: "PutItem", body: `{"TableName":"ths","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"x":{"S":"` + longSort + `"}}}`},
		{name: "put extra attrs fine", op: "PutItem", body: `{"TableName":"ths","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"x":{"S":""}}}`, want: `{}`},
	})
}

func TestItemSortKeyTooLong(t *testing.T) {
	env := newItemsEnv(t)
	env.mustOK("CreateTable", `{"TableName":"tss","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`)
	long := strings.Repeat("z", 1025)
	env.run(t, []itemCase{
		{name: "put", op: "PutItem", body: `{"TableName":"tss","Item":{"pk":{"S":"a"},"sk":{"S":"` + long + `"}}}`,
			errType: vErr, errMsg: "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes"},
		{name: "get", op: "GetItem", body: `{"TableName":"tss","Key":{"pk":{"S":"a"},"sk":{"S":"` + long + `"}}}`,
			errType: vErr, errMsg: apierr.MsgRangeKeyTooLong},
		{name: "put at limit", op: "PutItem", body: `{"TableName":"tss","Item":{"pk":{"S":"a"},"sk":{"S":"` + long[1:] + `"}}}`, want: `{}`},
	})
}

func TestItemExpressionParams(t *testing.T) {
	env := newItemsEnv(t)
	k := `"Key":{"pk":{"S":"a"},"sk":{"N":"1"}}`
	it := `"Item":{"pk":{"S":"a"},"sk":{"N":"1"}}`
	env.run(t, []itemCase{
		{name: "put mixed", op: "PutItem", body: `{"TableName":"ths",` + it + `,"Expected":{"x":{"Exists":false}},"ConditionExpression":"attribute_exists(x)"}`,
			errType: vErr, errMsg: "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}"},
		{name: "update mixed all", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"AttributeUpdates":{"x":{"Action":"PUT","Value":{"S":"1"}}},"Expected":{"x":{"Exists":false}},"UpdateExpression":"SET y = :v","ConditionExpression":"attribute_exists(x)","ExpressionAttributeValues":{":v":{"S":"b"}}}`,
			errType: vErr, errMsg: "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributeUpdates, Expected} Expression parameters: {UpdateExpression, ConditionExpression}"},
		{name: "update mixed one", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"AttributeUpdates":{"x":{"Action":"PUT","Value":{"S":"1"}}},"ConditionExpression":"attribute_exists(x)"}`,
			errType: vErr, errMsg: "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributeUpdates} Expression parameters: {ConditionExpression}"},
		{name: "get mixed", op: "GetItem", body: `{"TableName":"ths",` + k + `,"AttributesToGet":["x"],"ProjectionExpression":"x"}`,
			errType: vErr, errMsg: "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"},
		{name: "put values without expr", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ExpressionAttributeValues":{":v":{"S":"b"}}}`,
			errType: vErr, errMsg: "1 validation error detected: ExpressionAttributeValues can only be specified when using expressions"},
		{name: "update values without expr", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"ExpressionAttributeValues":{":v":{"S":"b"}}}`,
			errType: vErr, errMsg: "1 validation error detected: ExpressionAttributeValues can only be specified when using expressions"},
		{name: "update names without expr", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"ExpressionAttributeNames":{"#v":"b"}}`,
			errType: vErr, errMsg: "1 validation error detected: ExpressionAttributeNames can only be specified when using expressions"},
		{name: "get names without expr", op: "GetItem", body: `{"TableName":"ths",` + k + `,"ExpressionAttributeNames":{"#v":"b"}}`,
			errType: vErr, errMsg: "ExpressionAttributeNames can only be specified when using expressions"},
		{name: "put empty values", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ExpressionAttributeValues":{},"ConditionExpression":"attribute_exists(x)"}`,
			errType: vErr, errMsg: "1 validation error detected: ExpressionAttributeValues must not be empty"},
		{name: "put empty names", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ExpressionAttributeNames":{},"ConditionExpression":"attribute_exists(x)"}`,
			errType: vErr, errMsg: "1 validation error detected: ExpressionAttributeNames must not be empty"},
		{name: "update unused value", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"UpdateExpression":"SET y = :v","ExpressionAttributeValues":{":v":{"S":"b"},":w":{"S":"c"}}}`,
			errType: vErr, errMsg: "Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}"},
		{name: "update unused name", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"UpdateExpression":"SET y = :v","ExpressionAttributeNames":{"#a":"b"},"ExpressionAttributeValues":{":v":{"S":"b"}}}`,
			errType: vErr, errMsg: "Value provided in ExpressionAttributeNames unused in expressions: keys: {#a}"},
		{name: "update undefined value", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"UpdateExpression":"SET y = :v"}`,
			errType: vErr, errMsg: "Invalid UpdateExpression: An expression attribute value used in expression is not defined; attribute value: :v"},
		{name: "get unused name", op: "GetItem", body: `{"TableName":"ths",` + k + `,"ProjectionExpression":"x","ExpressionAttributeNames":{"#a":"b"}}`,
			errType: vErr, errMsg: "Value provided in ExpressionAttributeNames unused in expressions: keys: {#a}"},
	})
}

func TestItemReturnValuesValidation(t *testing.T) {
	env := newItemsEnv(t)
	k := `"Key":{"pk":{"S":"a"},"sk":{"N":"1"}}`
	it := `"Item":{"pk":{"S":"a"},"sk":{"N":"1"}}`
	env.run(t, []itemCase{
		{name: "put ALL_NEW", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ReturnValues":"ALL_NEW"}`,
			errType: vErr, errMsg: "1 validation error detected: ReturnValues can only be ALL_OLD or NONE"},
		{name: "put UPDATED_OLD", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ReturnValues":"UPDATED_OLD"}`,
			errType: vErr, errMsg: "1 validation error detected: ReturnValues can only be ALL_OLD or NONE"},
		{name: "delete UPDATED_NEW", op: "DeleteItem", body: `{"TableName":"ths",` + k + `,"ReturnValues":"UPDATED_NEW"}`,
			errType: vErr, errMsg: "1 validation error detected: ReturnValues can only be ALL_OLD or NONE"},
		{name: "put bad enum", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ReturnValues":"BAD"}`,
			errType: vErr, errMsg: "1 validation error detected: Value 'BAD' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"},
		{name: "get bad capacity", op: "GetItem", body: `{"TableName":"ths",` + k + `,"ReturnConsumedCapacity":"BAD"}`,
			errType: vErr, errMsg: "1 validation error detected: Value 'BAD' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"},
		// With Key present UpdateItem reports the first violation only (validation_order.go).
		{name: "update two bad enums", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"ReturnValues":"X","ReturnItemCollectionMetrics":"Y"}`,
			errType: vErr, errMsg: "1 validation error detected: Value 'X' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"},
		{name: "put metrics SIZE accepted", op: "PutItem", body: `{"TableName":"ths",` + it + `,"ReturnItemCollectionMetrics":"SIZE"}`, want: `{}`},
	})
}

func TestPutGetDelete(t *testing.T) {
	env := newItemsEnv(t)
	k := `"Key":{"pk":{"S":"a"},"sk":{"N":"1"}}`
	env.run(t, []itemCase{
		{name: "get absent", op: "GetItem", body: `{"TableName":"ths",` + k + `}`, want: `{}`},
		{name: "put new ALL_OLD", op: "PutItem", body: `{"TableName":"ths","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"x":{"S":"one"},"m":{"M":{"a":{"N":"1"},"b":{"L":[{"S":"p"},{"S":"q"}]}}}},"ReturnValues":"ALL_OLD"}`, want: `{}`},
		{name: "get", op: "GetItem", body: `{"TableName":"ths",` + k + `}`,
			want: `{"Item":{"pk":{"S":"a"},"sk":{"N":"1"},"x":{"S":"one"},"m":{"M":{"a":{"N":"1"},"b":{"L":[{"S":"p"},{"S":"q"}]}}}}}`},
		{name: "get projection", op: "GetItem", body: `{"TableName":"ths",` + k + `,"ProjectionExpression":"#m.b[1], x","ExpressionAttributeNames":{"#m":"m"}}`,
			want: `{"Item":{"x":{"S":"one"},"m":{"M":{"b":{"L":[{"S":"q"}]}}}}}`},
		{name: "get projection nothing", op: "GetItem", body: `{"TableName":"ths",` + k + `,"ProjectionExpression":"zz"}`, want: `{"Item":{}}`},
		{name: "get AttributesToGet", op: "GetItem", body: `{"TableName":"ths",` + k + `,"AttributesToGet":["x","pk"],"ConsistentRead":true}`,
			want: `{"Item":{"pk":{"S":"a"},"x":{"S":"one"}}}`},
		{name: "put replace ALL_OLD", op: "PutItem", body: `{"TableName":"ths","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"y":{"BOOL":true}},"ReturnValues":"ALL_OLD"}`,
			want: `{"Attributes":{"pk":{"S":"a"},"sk":{"N":"1"},"x":{"S":"one"},"m":{"M":{"a":{"N":"1"},"b":{"L":[{"S":"p"},{"S":"q"}]}}}}}`},
		{name: "get replaced", op: "GetItem", body: `{"TableName":"ths",` + k + `}`,
			want: `{"Item":{"pk":{"S":"a"},"sk":{"N":"1"},"y":{"BOOL":true}}}`},
		{name: "delete ALL_OLD", op: "DeleteItem", body: `{"TableName":"ths",` + k + `,"ReturnValues":"ALL_OLD"}`,
			want: `{"Attributes":{"pk":{"S":"a"},"sk":{"N":"1"},"y":{"BOOL":true}}}`},
		{name: "get deleted", op: "GetItem", body: `{"TableName":"ths",` + k + `}`, want: `{}`},
		{name: "delete absent", op: "DeleteItem", body: `{"TableName":"ths",` + k + `,"ReturnValues":"ALL_OLD"}`, want: `{}`},
		{name: "binary key", op: "PutItem", body: `{"TableName":"tbi","Item":{"pk":{"B":"AAEC"}}}`, want: `{}`},
		{name: "binary get", op: "GetItem", body: `{"TableName":"tbi","Key":{"pk":{"B":"AAEC"}}}`, want: `{"Item":{"pk":{"B":"AAEC"}}}`},
		{name: "number key canonical", op: "PutItem", body: `{"TableName":"ths","Item":{"pk":{"S":"n"},"sk":{"N":"1.50"}}}`, want: `{}`},
		{name: "number key lookup", op: "GetItem", body: `{"TableName":"ths","Key":{"pk":{"S":"n"},"sk":{"N":"015e-1"}}}`,
			want: `{"Item":{"pk":{"S":"n"},"sk":{"N":"1.5"}}}`},
	})
}

func TestItemConditions(t *testing.T) {
	env := newItemsEnv(t)
	k := `"Key":{"pk":{"S":"c"}}`
	env.run(t, []itemCase{
		{name: "put if absent", op: "PutItem", body: `{"TableName":"tha","Item":{"pk":{"S":"c"},"v":{"N":"1"}},"ConditionExpression":"attribute_not_exists(pk)"}`, want: `{}`},
		{name: "put if absent again", op: "PutItem", body: `{"TableName":"tha","Item":{"pk":{"S":"c"},"v":{"N":"2"}},"ConditionExpression":"attribute_not_exists(pk)"}`,
			errType: cErr, errMsg: "The conditional request failed"},
		{name: "failed put wrote nothing", op: "GetItem", body: `{"TableName":"tha",` + k + `}`, want: `{"Item":{"pk":{"S":"c"},"v":{"N":"1"}}}`},
		{name: "failed with ALL_OLD", op: "PutItem", body: `{"TableName":"tha","Item":{"pk":{"S":"c"}},"ConditionExpression":"v = :two","ExpressionAttributeValues":{":two":{"N":"2"}},"ReturnValuesOnConditionCheckFailure":"ALL_OLD"}`,
			errType: cErr, errMsg: "The conditional request failed"},
		{name: "condition holds", op: "PutItem", body: `{"TableName":"tha","Item":{"pk":{"S":"c"},"v":{"N":"2"}},"ConditionExpression":"#v = :one","ExpressionAttributeNames":{"#v":"v"},"ExpressionAttributeValues":{":one":{"N":"1"}},"ReturnValues":"ALL_OLD"}`,
			want: `{"Attributes":{"pk":{"S":"c"},"v":{"N":"1"}}}`},
		{name: "legacy expected fails", op: "PutItem", body: `{"TableName":"tha","Item":{"pk":{"S":"c"}},"Expected":{"v":{"Value":{"N":"1"}}}}`,
			errType: cErr, errMsg: "The conditional request failed"},
		{name: "legacy expected holds", op: "PutItem", body: `{"TableName":"tha","Item":{"pk":{"S":"c"},"v":{"N":"3"}},"Expected":{"v":{"ComparisonOperator":"EQ","AttributeValueList":[{"N":"2"}]},"w":{"Exists":false}}}`, want: `{}`},
		{name: "delete condition fails", op: "DeleteItem", body: `{"TableName":"tha",` + k + `,"ConditionExpression":"v < :n","ExpressionAttributeValues":{":n":{"N":"3"}}}`,
			errType: cErr, errMsg: "The conditional request failed"},
		{name: "delete absent condition", op: "DeleteItem", body: `{"TableName":"tha","Key":{"pk":{"S":"none"}},"ConditionExpression":"attribute_exists(pk)","ReturnValuesOnConditionCheckFailure":"ALL_OLD"}`,
			errType: cErr, errMsg: "The conditional request failed"},
		{name: "delete condition holds", op: "DeleteItem", body: `{"TableName":"tha",` + k + `,"ConditionExpression":"v = :n","ExpressionAttributeValues":{":n":{"N":"3"}},"ReturnValues":"ALL_OLD"}`,
			want: `{"Attributes":{"pk":{"S":"c"},"v":{"N":"3"}}}`},
		{name: "update on absent, condition on empty item", op: "UpdateItem", body: `{"TableName":"tha",` + k + `,"UpdateExpression":"SET v = :n","ConditionExpression":"attribute_not_exists(v)","ExpressionAttributeValues":{":n":{"N":"7"}},"ReturnValues":"ALL_NEW"}`,
			want: `{"Attributes":{"pk":{"S":"c"},"v":{"N":"7"}}}`},
		{name: "update condition fails", op: "UpdateItem", body: `{"TableName":"tha",` + k + `,"UpdateExpression":"SET v = :n","ConditionExpression":"attribute_not_exists(v)","ExpressionAttributeValues":{":n":{"N":"8"}}}`,
			errType: cErr, errMsg: "The conditional request failed"},
		{name: "failed update wrote nothing", op: "GetItem", body: `{"TableName":"tha",` + k + `}`, want: `{"Item":{"pk":{"S":"c"},"v":{"N":"7"}}}`},
	})

	// The ALL_OLD item rides on the error body.
	_, body := env.call("PutItem", `{"TableName":"tha","Item":{"pk":{"S":"c"}},"ConditionExpression":"attribute_not_exists(pk)","ReturnValuesOnConditionCheckFailure":"ALL_OLD"}`)
	want := `{"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException","message":"The conditional request failed","Item":{"pk":{"S":"c"},"v":{"N":"7"}}}`
	if !testkit.JSONEqual(body, want) {
		t.Errorf("ALL_OLD on failure:\n got %s\nwant %s", body, want)
	}
	// Without ALL_OLD, or with no item, there is no Item.
	_, body = env.call("DeleteItem", `{"TableName":"tha","Key":{"pk":{"S":"none"}},"ConditionExpression":"attribute_exists(pk)","ReturnValuesOnConditionCheckFailure":"ALL_OLD"}`)
	if strings.Contains(body, `"Item"`) {
		t.Errorf("no item, yet the failure carries one: %s", body)
	}
}

func TestUpdateItem(t *testing.T) {
	env := newItemsEnv(t)
	k := `"Key":{"pk":{"S":"u"},"sk":{"N":"1"}}`
	seed := `{"TableName":"ths","Item":{"pk":{"S":"u"},"sk":{"N":"1"},"m":{"M":{"a":{"N":"1"},"b":{"N":"2"},"c":{"M":{"d":{"S":"x"},"e":{"S":"y"}}}}},"l":{"L":[{"N":"1"},{"N":"2"},{"N":"3"}]},"s":{"S":"old"},"r":{"S":"gone"}}}`
	upd := func(expr, rv string) string {
		return `{"TableName":"ths",` + k + `,"UpdateExpression":"` + expr + `","ExpressionAttributeValues":{":v":{"N":"9"}},"ReturnValues":"` + rv + `"}`
	}
	env.run(t, []itemCase{
		// AWS creates nothing (expr.Update.OnlyRemoves; DynamoDB Local
		// creates a key-only item).
		{name: "REMOVE of a missing item creates nothing", op: "UpdateItem", body: `{"TableName":"ths","Key":{"pk":{"S":"n2"},"sk":{"N":"1"}},"UpdateExpression":"REMOVE x","ReturnValues":"ALL_NEW"}`,
			want: `{}`},
		{name: "upsert without expression", op: "UpdateItem", body: `{"TableName":"ths","Key":{"pk":{"S":"n3"},"sk":{"N":"1"}},"ReturnValues":"ALL_NEW"}`,
			want: `{"Attributes":{"pk":{"S":"n3"},"sk":{"N":"1"}}}`},
		{name: "upsert sees key", op: "UpdateItem", body: `{"TableName":"ths","Key":{"pk":{"S":"n1"},"sk":{"N":"1"}},"UpdateExpression":"SET x = pk","ReturnValues":"ALL_NEW"}`,
			want: `{"Attributes":{"pk":{"S":"n1"},"sk":{"N":"1"},"x":{"S":"n1"}}}`},
		{name: "upsert UPDATED_OLD empty", op: "UpdateItem", body: `{"TableName":"ths","Key":{"pk":{"S":"n4"},"sk":{"N":"1"}},"UpdateExpression":"SET a = :v","ExpressionAttributeValues":{":v":{"N":"1"}},"ReturnValues":"UPDATED_OLD"}`,
			want: `{}`},
		{name: "upsert ALL_OLD empty", op: "UpdateItem", body: `{"TableName":"ths","Key":{"pk":{"S":"n6"},"sk":{"N":"1"}},"UpdateExpression":"SET a = :v","ExpressionAttributeValues":{":v":{"N":"1"}},"ReturnValues":"ALL_OLD"}`,
			want: `{}`},
		{name: "upsert UPDATED_NEW", op: "UpdateItem", body: `{"TableName":"ths","Key":{"pk":{"S":"n5"},"sk":{"N":"1"}},"UpdateExpression":"SET a = :v, b = :v","ExpressionAttributeValues":{":v":{"N":"1"}},"ReturnValues":"UPDATED_NEW"}`,
			want: `{"Attributes":{"a":{"N":"1"},"b":{"N":"1"}}}`},
		{name: "key attribute SET", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"UpdateExpression":"SET pk = :v","ExpressionAttributeValues":{":v":{"S":"b"}}}`,
			errType: vErr, errMsg: "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"},
		{name: "key attribute REMOVE", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"UpdateExpression":"REMOVE sk"}`,
			errType: vErr, errMsg: "One or more parameter values were invalid: Cannot update attribute sk. This attribute is part of the key"},
		{name: "key attribute via name", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"UpdateExpression":"SET #k = :v","ExpressionAttributeNames":{"#k":"sk"},"ExpressionAttributeValues":{":v":{"N":"2"}}}`,
			errType: vErr, errMsg: "One or more parameter values were invalid: Cannot update attribute sk. This attribute is part of the key"},
		{name: "legacy key attribute", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"AttributeUpdates":{"pk":{"Action":"PUT","Value":{"S":"z"}}}}`,
			errType: vErr, errMsg: "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"},

		{name: "seed", op: "PutItem", body: seed, want: `{}`},
		{name: "UPDATED_OLD nested", op: "UpdateItem", body: upd("SET m.a = :v, l[1] = :v, m.c.d = :v, s = :v REMOVE r, m.b, nope", "UPDATED_OLD"),
			want: `{"Attributes":{"m":{"M":{"a":{"N":"1"},"b":{"N":"2"},"c":{"M":{"d":{"S":"x"}}}}},"l":{"L":[{"N":"2"}]},"s":{"S":"old"},"r":{"S":"gone"}}}`},
		{name: "reseed", op: "PutItem", body: seed, want: `{}`},
		{name: "UPDATED_NEW nested", op: "UpdateItem", body: upd("SET m.a = :v, l[1] = :v, m.c.d = :v, s = :v, n = :v REMOVE r, m.b, nope", "UPDATED_NEW"),
			want: `{"Attributes":{"m":{"M":{"a":{"N":"9"},"c":{"M":{"d":{"N":"9"}}}}},"l":{"L":[{"N":"9"}]},"s":{"N":"9"},"n":{"N":"9"}}}`},
		{name: "UPDATED_NEW REMOVE only", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"UpdateExpression":"REMOVE s","ReturnValues":"UPDATED_NEW"}`, want: `{}`},
		{name: "ALL_NEW", op: "UpdateItem", body: upd("ADD n :v", "ALL_NEW"),
			want: `{"Attributes":{"pk":{"S":"u"},"sk":{"N":"1"},"m":{"M":{"a":{"N":"9"},"c":{"M":{"d":{"N":"9"},"e":{"S":"y"}}}}},"l":{"L":[{"N":"1"},{"N":"9"},{"N":"3"}]},"n":{"N":"18"}}}`},
		{name: "ALL_OLD", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"UpdateExpression":"REMOVE m, l","ReturnValues":"ALL_OLD"}`,
			want: `{"Attributes":{"pk":{"S":"u"},"sk":{"N":"1"},"m":{"M":{"a":{"N":"9"},"c":{"M":{"d":{"N":"9"},"e":{"S":"y"}}}}},"l":{"L":[{"N":"1"},{"N":"9"},{"N":"3"}]},"n":{"N":"18"}}}`},
		{name: "NONE", op: "UpdateItem", body: upd("SET n = :v", "NONE"), want: `{}`},
		{name: "legacy AttributeUpdates", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"AttributeUpdates":{"n":{"Action":"ADD","Value":{"N":"1"}},"z":{"Action":"PUT","Value":{"S":"zz"}}},"ReturnValues":"ALL_NEW"}`,
			want: `{"Attributes":{"pk":{"S":"u"},"sk":{"N":"1"},"n":{"N":"10"},"z":{"S":"zz"}}}`},
		{name: "legacy UPDATED_NEW", op: "UpdateItem", body: `{"TableName":"ths",` + k + `,"AttributeUpdates":{"z":{"Action":"DELETE"},"y":{"Action":"PUT","Value":{"N":"1"}}},"ReturnValues":"UPDATED_NEW"}`,
			want: `{"Attributes":{"y":{"N":"1"}}}`},
	})
}

func TestItemSizeLimits(t *testing.T) {
	env := newItemsEnv(t)
	// pk "big" + "pk" name: 5 bytes; "d" + value: 1 + len.
	fits := strings.Repeat("x", maxItemBytes-5-1)
	env.run(t, []itemCase{
		{name: "put at limit", op: "PutItem", body: `{"TableName":"tha","Item":{"pk":{"S":"big"},"d":{"S":"` + fits + `"}}}`, want: `{}`},
		{name: "put over limit", op: "PutItem", body: `{"TableName":"tha","Item":{"pk":{"S":"big"},"d":{"S":"` + fits + `x"}}}`,
			errType: vErr, errMsg: "Item size has exceeded the maximum allowed size"},
		{name: "update over limit", op: "UpdateItem", body: `{"TableName":"tha","Key":{"pk":{"S":"big"}},"UpdateExpression":"SET e = :v","ExpressionAttributeValues":{":v":{"S":"y"}}}`,
			errType: vErr, errMsg: "Item size to update has exceeded the maximum allowed size"},
		{name: "failed update wrote nothing", op: "GetItem", body: `{"TableName":"tha","Key":{"pk":{"S":"big"}},"ProjectionExpression":"e"}`, want: `{"Item":{}}`},
	})
}

func TestItemConsumedCapacity(t *testing.T) {
	env := newItemsEnv(t)
	// An item of exactly n bytes: "pk"(2) + "k"(1) + "d"(1) + value.
	item := func(n int) string {
		return `{"pk":{"S":"k"},"d":{"S":"` + strings.Repeat("x", n-4) + `"}}`
	}
	cc := func(units float64) string {
		return fmt.Sprintf(`{"ConsumedCapacity":{"TableName":"tha","CapacityUnits":%v}}`, units)
	}
	ccIdx := func(units float64) string {
		return fmt.Sprintf(`{"ConsumedCapacity":{"TableName":"tha","CapacityUnits":%v,"Table":{"CapacityUnits":%v}}}`, units, units)
	}
	key := `"Key":{"pk":{"S":"k"}}`
	env.run(t, []itemCase{
		{name: "get absent eventual", op: "GetItem", body: `{"TableName":"tha",` + key + `,"ReturnConsumedCapacity":"TOTAL"}`, want: cc(0.5)},
		{name: "get absent consistent", op: "GetItem", body: `{"TableName":"tha",` + key + `,"ReturnConsumedCapacity":"TOTAL","ConsistentRead":true}`, want: cc(1)},
		{name: "put 1KB", op: "PutItem", body: `{"TableName":"tha","Item":` + item(1024) + `,"ReturnConsumedCapacity":"TOTAL"}`, want: cc(1)},
		{name: "put 1KB+1 over 1KB old", op: "PutItem", body: `{"TableName":"tha","Item":` + item(1025) + `,"ReturnConsumedCapacity":"INDEXES"}`, want: ccIdx(2)},
		{name: "put small over larger old", op: "PutItem", body: `{"TableName":"tha","Item":` + item(10) + `,"ReturnConsumedCapacity":"TOTAL"}`, want: cc(2)},
		{name: "put 4097", op: "PutItem", body: `{"TableName":"tha","Item":` + item(4097) + `}`, want: `{}`},
		{name: "get 4097 eventual", op: "GetItem", body: `{"TableName":"tha",` + key + `,"ReturnConsumedCapacity":"TOTAL"}`, want: `{"Item":` + item(4097) + `,"ConsumedCapacity":{"TableName":"tha","CapacityUnits":1}}`},
		{name: "get 4097 consistent projected", op: "GetItem", body: `{"TableName":"tha",` + key + `,"ReturnConsumedCapacity":"INDEXES","ConsistentRead":true,"ProjectionExpression":"pk"}`,
			want: `{"Item":{"pk":{"S":"k"}},"ConsumedCapacity":{"TableName":"tha","CapacityUnits":2,"Table":{"CapacityUnits":2}}}`},
		{name: "update grows", op: "UpdateItem", body: `{"TableName":"tha",` + key + `,"UpdateExpression":"SET e = :v","ExpressionAttributeValues":{":v":{"S":"` + strings.Repeat("y", 2000) + `"}},"ReturnConsumedCapacity":"TOTAL"}`, want: cc(6)},
		{name: "delete", op: "DeleteItem", body: `{"TableName":"tha",` + key + `,"ReturnConsumedCapacity":"TOTAL"}`, want: cc(6)},
		{name: "delete absent", op: "DeleteItem", body: `{"TableName":"tha",` + key + `,"ReturnConsumedCapacity":"TOTAL"}`, want: cc(1)},
		{name: "NONE", op: "DeleteItem", body: `{"TableName":"tha",` + key + `,"ReturnConsumedCapacity":"NONE"}`, want: `{}`},
	})
}

// TestItemBadInput sends malformed requests: each must get a 400, never a
// 500 or a panic.
func TestItemBadInput(t *testing.T) {
	env := newItemsEnv(t)
	bodies := []struct{ op, body string }{
		{"PutItem", `{"TableName":"tha","Item":{"pk":{"S":"a"}},"ConditionExpression":""}`},
		{"PutItem", `{"TableName":"tha","Item":{"pk":{"S":"a"}},"ConditionExpression":"a = "}`},
		{"PutItem", `{"TableName":"tha","Item":{"pk":{"S":"a"}},"Expected":{"a":{"ComparisonOperator":"NOPE"}}}`},
		{"PutItem", `{"TableName":"tha","Item":{"pk":{"S":"a"}},"ConditionalOperator":"XOR","Expected":{"a":{"Exists":false}}}`},
		{"PutItem", `{"TableName":"tha","Item":{"pk":{"S":"a"}},"Expected":{"a":{"Exists":true}}}`},
		{"UpdateItem", `{"TableName":"tha","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET"}`},
		{"UpdateItem", `{"TableName":"tha","Key":{"pk":{"S":"a"}},"AttributeUpdates":{"x":{"Action":"BOOM"}}}`},
		{"UpdateItem", `{"TableName":"tha","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET a = a + :v","ExpressionAttributeValues":{":v":{"S":"x"}}}`},
		{"GetItem", `{"TableName":"tha","Key":{"pk":{"S":"a"}},"ProjectionExpression":""}`},
		{"GetItem", `{"TableName":"tha","Key":{"pk":{"S":"a"}},"AttributesToGet":[]}`},
		{"GetItem", `{"TableName":"","Key":{"pk":{"S":"a"}}}`},
		{"GetItem", `{"Key":{"pk":{"S":"a"}}}`},
		{"DeleteItem", `{"TableName":"tha","Key":{"pk":{"S":"a"}},"ConditionExpression":"size(a) > :x"}`},
		// Text that is not Unicode (hardening_test.go has the full set).
		{"PutItem", "{\"TableName\":\"tha\",\"Item\":{\"pk\":{\"S\":\"k\xff\"}}}"},
		{"PutItem", `{"TableName":"tha","Item":{"pk":{"S":"k\ud800"}}}`},
	}
	for _, b := range bodies {
		status, body := env.call(b.op, b.body)
		if status != http.StatusBadRequest {
			t.Errorf("%s %s: status %d, body %s; want 400", b.op, b.body, status, body)
		}
	}
}

func BenchmarkPutItem(b *testing.B) {
	env := newItemsBenchEnv(b)
	b.ReportAllocs()
	benchCall(b, env.h, "PutItem", []byte(`{"TableName":"ths","Item":{"pk":{"S":"bench"},"sk":{"N":"2"},"v":{"N":"0"},"name":{"S":"some text of a typical item"},"tags":{"SS":["a","b"]}}}`))
}

func BenchmarkGetItem(b *testing.B) {
	env := newItemsBenchEnv(b)
	b.ReportAllocs()
	benchCall(b, env.h, "GetItem", []byte(`{"TableName":"ths","Key":{"pk":{"S":"bench"},"sk":{"N":"1"}}}`))
}

func BenchmarkUpdateItemWithCondition(b *testing.B) {
	env := newItemsBenchEnv(b)
	b.ReportAllocs()
	benchCall(b, env.h, "UpdateItem", []byte(`{"TableName":"ths","Key":{"pk":{"S":"bench"},"sk":{"N":"1"}},"UpdateExpression":"SET v = v + :one","ConditionExpression":"attribute_exists(pk) AND v >= :zero","ExpressionAttributeValues":{":one":{"N":"1"},":zero":{"N":"0"}}}`))
}

func TestItemTableName(t *testing.T) {
	env := newItemsEnv(t)
	env.run(t, []itemCase{
		{name: "short name with the other constraints", op: "PutItem", body: `{"TableName":"ab","Item":{},"ReturnValues":"BAD"}`,
			errType: vErr, errMsg: "2 validation errors detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3; " +
				"Value 'BAD' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"},
		{name: "no name", op: "PutItem", body: `{"Item":{}}`,
			errType: vErr, errMsg: "1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null"},
		{name: "empty name", op: "GetItem", body: `{"TableName":"","Key":{}}`,
			errType: vErr, errMsg: "1 validation error detected: Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{name: "empty name and bad enum", op: "DeleteItem", body: `{"TableName":"","Key":{},"ReturnValues":"X"}`,
			errType: vErr, errMsg: "2 validation errors detected: Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1; " +
				"Value 'X' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"},
		{name: "no name update", op: "UpdateItem", body: `{"Key":{}}`,
			errType: vErr, errMsg: "1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null"},
		{name: "bad characters", op: "PutItem", body: `{"TableName":"bad table!","Item":{}}`,
			errType: vErr, errMsg: "1 validation error detected: Value 'bad table!' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"},
		{name: "unknown table", op: "DeleteItem", body: `{"TableName":"nope","Key":{"pk":{"S":"a"}}}`,
			errType: rErr, errMsg: "Requested resource not found"},
		{name: "unknown table update", op: "UpdateItem", body: `{"TableName":"nope","Key":{"pk":{"S":"a"}}}`,
			errType: rErr, errMsg: "Requested resource not found"},
	})
}
