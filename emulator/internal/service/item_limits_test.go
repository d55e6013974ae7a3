package service

import (
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// Hardening of the item operations: each finding of a hostile
// client, reproduced and asserted on bytes and answers.

const serErr = "SerializationException"

// TestInvalidUnicodeNeverStored: strings that are not Unicode are refused,
// so two distinct invalid keys can never become one and overwrite it.
func TestInvalidUnicodeNeverStored(t *testing.T) {
	env := newItemsEnv(t)
	put := func(key string) string {
		return `{"TableName":"tha","Item":{"pk":{"S":"` + key + `"},"v":{"S":"` + key + `"}}}`
	}
	env.run(t, []itemCase{
		{name: "raw 0xff in a key", op: "PutItem", body: put("k\xff"), errType: serErr},
		{name: "raw 0xfe in a key", op: "PutItem", body: put("k\xfe"), errType: serErr},
		{name: "truncated sequence", op: "PutItem", body: put("k\xe2\x82"), errType: serErr},
		{name: "encoded surrogate", op: "PutItem", body: put("k\xed\xa0\x80"), errType: serErr},
		{name: "lone high surrogate escape", op: "PutItem", body: put(`k\ud800`), errType: serErr},
		{name: "lone low surrogate escape", op: "PutItem", body: put(`k\udc00`), errType: serErr},
		{name: "reversed pair", op: "PutItem", body: put(`k\udc00\ud800`), errType: serErr},
		{name: "invalid attribute name", op: "PutItem", body: "{\"TableName\":\"tha\",\"Item\":{\"pk\":{\"S\":\"a\"},\"n\xff\":{\"S\":\"x\"}}}", errType: serErr},
		{name: "invalid nested name", op: "PutItem", body: `{"TableName":"tha","Item":{"pk":{"S":"a"},"m":{"M":{"\udfff":{"S":"x"}}}}}`, errType: serErr},
		{name: "invalid set member", op: "PutItem", body: "{\"TableName\":\"tha\",\"Item\":{\"pk\":{\"S\":\"a\"},\"s\":{\"SS\":[\"a\",\"\xc0\"]}}}", errType: serErr},
		{name: "invalid expression value", op: "UpdateItem", body: `{"TableName":"tha","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":{"S":"\ud800"}}}`, errType: serErr},
		{name: "invalid expression text", op: "UpdateItem", body: "{\"TableName\":\"tha\",\"Key\":{\"pk\":{\"S\":\"a\"}},\"UpdateExpression\":\"SET v\xff = :v\"}", errType: serErr},
		{name: "invalid table name", op: "GetItem", body: "{\"TableName\":\"th\xff\",\"Key\":{\"pk\":{\"S\":\"a\"}}}", errType: serErr},
		{name: "invalid unknown member", op: "GetItem", body: "{\"Nope\":\"\xff\",\"TableName\":\"tha\",\"Key\":{\"pk\":{\"S\":\"a\"}}}", errType: serErr},
		{name: "invalid after a type error", op: "GetItem", body: "{\"TableName\":5,\"Nope\":\"\xff\"}", errType: serErr},
		// Valid text, including the replacement character itself and a
		// surrogate pair, is stored as sent.
		{name: "replacement character", op: "PutItem", body: put("k\uFFFD"), want: `{}`},
		{name: "surrogate pair", op: "PutItem", body: put(`k\ud83d\ude00`), want: `{}`},
		{name: "escaped backslash", op: "PutItem", body: put(`k\\ud800`), want: `{}`},
		{name: "only the valid items", op: "Scan", body: `{"TableName":"tha","Select":"COUNT"}`, want: `{"Count":3,"ScannedCount":3}`},
		{name: "replacement character as sent", op: "GetItem", body: `{"TableName":"tha","Key":{"pk":{"S":"k\ufffd"}}}`, want: `{"Item":{"pk":{"S":"k\ufffd"},"v":{"S":"k\ufffd"}}}`},
		{name: "pair as sent", op: "GetItem", body: `{"TableName":"tha","Key":{"pk":{"S":"k\ud83d\ude00"}},"ProjectionExpression":"v"}`, want: `{"Item":{"v":{"S":"k\ud83d\ude00"}}}`},
		{name: "escaped backslash as sent", op: "GetItem", body: `{"TableName":"tha","Key":{"pk":{"S":"k\\ud800"}},"ProjectionExpression":"v"}`, want: `{"Item":{"v":{"S":"k\\ud800"}}}`},
	})
	// The refusal is AWS's: a 400 SerializationException with no message.
	status, body := env.call("PutItem", put("k\xff"))
	if want := `{"__type":"com.amazon.coral.service#SerializationException"}`; status != 400 || body != want {
		t.Errorf("got %d %s, want 400 %s", status, body, want)
	}
}

// TestAttributeNameLimits: names of 64 KB or more are refused wherever a
// name is given; 64 KB - 1 is fine.
func TestAttributeNameLimits(t *testing.T) {
	env := newItemsEnv(t)
	max := strings.Repeat("n", 65535)
	over := max + "n"
	const tooLarge = "Attribute name is too large, must be less than 65536 bytes"
	key := `"Key":{"pk":{"S":"a"}}`
	env.run(t, []itemCase{
		{name: "item name at limit", op: "PutItem", body: `{"TableName":"tha","Item":{"pk":{"S":"a"},"` + max + `":{"S":"x"}}}`, want: `{}`},
		{name: "item name over limit", op: "PutItem", body: `{"TableName":"tha","Item":{"pk":{"S":"b"},"` + over + `":{"S":"x"}}}`, errType: vErr, errMsg: tooLarge},
		{name: "nested name over limit", op: "PutItem", body: `{"TableName":"tha","Item":{"pk":{"S":"b"},"m":{"M":{"` + over + `":{"S":"x"}}}}}`, errType: vErr, errMsg: tooLarge},
		{name: "key name over limit", op: "GetItem", body: `{"TableName":"tha","Key":{"` + over + `":{"S":"x"}}}`, errType: vErr, errMsg: tooLarge},
		{name: "ExpressionAttributeNames at limit", op: "GetItem", body: `{"TableName":"tha",` + key + `,"ProjectionExpression":"#n","ExpressionAttributeNames":{"#n":"` + max + `"}}`,
			want: `{"Item":{"` + max + `":{"S":"x"}}}`},
		{name: "ExpressionAttributeNames over limit", op: "GetItem", body: `{"TableName":"tha",` + key + `,"ProjectionExpression":"#n","ExpressionAttributeNames":{"#n":"` + over + `"}}`,
			errType: vErr, errMsg: "ExpressionAttributeNames contains invalid value: " + tooLarge + " for key #n"},
		{name: "AttributesToGet over limit", op: "GetItem", body: `{"TableName":"tha",` + key + `,"AttributesToGet":["pk","` + over + `"]}`, errType: vErr, errMsg: tooLarge},
		{name: "AttributesToGet empty name", op: "GetItem", body: `{"TableName":"tha",` + key + `,"AttributesToGet":[""]}`, errType: vErr, errMsg: "Empty attribute name"},
		{name: "Query AttributesToGet over limit", op: "Query", body: `{"TableName":"tha","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"AttributesToGet":["` + over + `"]}`,
			errType: vErr, errMsg: tooLarge},
		{name: "AttributeUpdates over limit", op: "UpdateItem", body: `{"TableName":"tha",` + key + `,"AttributeUpdates":{"` + over + `":{"Action":"PUT","Value":{"S":"y"}}}}`, errType: vErr, errMsg: tooLarge},
		{name: "AttributeUpdates empty name", op: "UpdateItem", body: `{"TableName":"tha",` + key + `,"AttributeUpdates":{"":{"Action":"PUT","Value":{"S":"y"}}}}`, errType: vErr, errMsg: "Empty attribute name"},
		{name: "nothing written", op: "Scan", body: `{"TableName":"tha","Select":"COUNT"}`, want: `{"Count":1,"ScannedCount":1}`},
	})
	// Key attribute names are at most 255 bytes: CreateTable refuses more.
	long := strings.Repeat("k", 256)
	status, body := env.call("CreateTable", `{"TableName":"long","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"`+long+`","AttributeType":"S"}],"KeySchema":[{"AttributeName":"`+long+`","KeyType":"HASH"}]}`)
	if typ, msg := testkit.ErrorOf(body); status != 400 || typ != vErr || !strings.Contains(msg, "Member must have length less than or equal to 255") {
		t.Errorf("256-byte key name: got %d %s %q", status, typ, msg)
	}
}

// TestArithmeticOverflow: SET and ADD past the range answer the overflow
// error, not the precision error.
func TestArithmeticOverflow(t *testing.T) {
	env := newItemsEnv(t)
	max := strings.Repeat("9", 38) + "E88" // the largest number, 9.99...9E125
	const overflow = "Number overflow. Attempting to store a number with magnitude larger than supported range"
	key := `"Key":{"pk":{"S":"n"}}`
	env.run(t, []itemCase{
		{name: "put max", op: "PutItem", body: `{"TableName":"tha","Item":{"pk":{"S":"n"},"a":{"N":"` + max + `"}}}`, want: `{}`},
		{name: "SET a + 9E100", op: "UpdateItem", body: `{"TableName":"tha",` + key + `,"UpdateExpression":"SET a = a + :y","ExpressionAttributeValues":{":y":{"N":"9E100"}}}`, errType: vErr, errMsg: overflow},
		{name: "SET -9E100 - a", op: "UpdateItem", body: `{"TableName":"tha",` + key + `,"UpdateExpression":"SET a = :y - a","ExpressionAttributeValues":{":y":{"N":"-9E100"}}}`, errType: vErr, errMsg: overflow},
		{name: "ADD 9E100", op: "UpdateItem", body: `{"TableName":"tha",` + key + `,"UpdateExpression":"ADD a :y","ExpressionAttributeValues":{":y":{"N":"9E100"}}}`, errType: vErr, errMsg: overflow},
		{name: "legacy ADD 9E100", op: "UpdateItem", body: `{"TableName":"tha",` + key + `,"AttributeUpdates":{"a":{"Action":"ADD","Value":{"N":"9E100"}}}}`, errType: vErr, errMsg: overflow},
		{name: "SET a + 1 is worded as an overflow", op: "UpdateItem", body: `{"TableName":"tha",` + key + `,"UpdateExpression":"SET a = a + :y","ExpressionAttributeValues":{":y":{"N":"1"}}}`,
			errType: vErr, errMsg: overflow},
		{name: "unchanged", op: "GetItem", body: `{"TableName":"tha",` + key + `}`, want: `{"Item":{"pk":{"S":"n"},"a":{"N":"` + strings.Repeat("9", 38) + strings.Repeat("0", 88) + `"}}}`},
	})
}
