package conformance

// Validation order of attribute-value faults: a malformed
// number, a duplicate set member, an empty attribute name or a value
// nested too deep is answered after the request's member constraints,
// expression syntax and expression sizes (and unused placeholders), and
// before the table is looked up (emulator/internal/service/
// validation_order.go, value_order.go). A TransactWriteItems checks its
// actions one at a time: an earlier action's value fault comes before a
// later action's syntax error, and the other way round.
//
// Sources: AWS's answers captured in us-east-1 (and other regions),
// paritysuite/dynamodb-conformance
// tests/tier3/validation-ordering/deepRequests.test.ts (the cases marked
// "deepRequests"); the others follow the layers that suite's
// validation-ordering records show (constraints > syntax > size > values
// > table) for the values that deepRequests does not cover (numbers,
// duplicate set members), with the wording of
// tests/tier3/error-messages/valueLayers.test.ts.

import (
	"strconv"
	"strings"
	"testing"
)

const (
	nestMsg    = "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"
	emptyAttr  = "Empty attribute name"
	syntaxEqEq = `Invalid ConditionExpression: Syntax error; token: "=", near: "= = b"`
	rvBogus    = "1 validation error detected: Value 'BOGUS' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"
)

// deepAV is an attribute value nested n maps deep around a string, as
// JSON: {"M":{"n":...{"S":"leaf"}...}}.
func deepAV(n int) string {
	return strings.Repeat(`{"M":{"n":`, n) + `{"S":"leaf"}` + strings.Repeat(`}}`, n)
}

// nestForKey is the nesting error of an ExpressionAttributeValues entry.
func nestForKey(k string) string {
	return "ExpressionAttributeValues contains invalid value: " + nestMsg + " for key " + k
}

// TestValueOrderSingleItem: PutItem, UpdateItem and DeleteItem answer a
// constraint, a syntax error or an unused value before a value's fault,
// and the value's fault before the missing table.
func TestValueOrderSingleItem(t *testing.T) {
	t.Parallel()
	a := uniqueName(t) // absent
	key := `"Key":{"pk":{"S":"a"},"sk":{"S":"1"}}`
	const (
		badNumEnv = "1 validation error detected: The parameter cannot be converted to a numeric value: x"
		dupEnv    = `1 validation error detected: One or more parameter values were invalid: Input collection ["a", "b", "b"] contains duplicates.`
		unusedU   = "Value provided in ExpressionAttributeValues unused in expressions: keys: {:u}"
	)
	dl := `DynamoDB Local looks the table up before everything else: "Cannot do operations on a non-existent table"`
	runOrderCases(t, []orderCase{
		// deepRequests: "PutItem reports XOR in the older enum wording ahead
		// of an Expected value nested 100 levels".
		{"put: XOR before an Expected value nested 100", "PutItem",
			`{"TableName":"` + a + `","Item":{"pk":{"S":"a"},"sk":{"S":"1"}},"Expected":{"a":{"Value":` + deepAV(100) + `},"b":{"Exists":false}},"ConditionalOperator":"XOR"}`,
			"ValidationException", "1 validation error detected: " + xorEnum, dl},
		{"put: a syntax error before a malformed number", "PutItem",
			`{"TableName":"` + a + `","Item":{"pk":{"S":"a"},"n":{"N":"x"}},"ConditionExpression":"a = = b"}`,
			"ValidationException", syntaxEqEq, dl},
		{"put: an unused value before a duplicate set member", "PutItem",
			`{"TableName":"` + a + `","Item":{"pk":{"S":"a"},"ss":{"SS":["a","b","b"]}},"ConditionExpression":"attribute_not_exists(pk)","ExpressionAttributeValues":{":u":{"S":"y"}}}`,
			"ValidationException", unusedU, dl},
		{"put: a duplicate set member before the missing table", "PutItem",
			`{"TableName":"` + a + `","Item":{"pk":{"S":"a"},"ss":{"SS":["a","b","b"]}}}`,
			"ValidationException", dupEnv, dl},
		{"put: an item nested 40 before the missing table", "PutItem",
			`{"TableName":"` + a + `","Item":{"pk":{"S":"a"},"d":` + deepAV(40) + `}}`,
			"ValidationException", nestMsg, dl},
		// deepRequests: "UpdateItem reports XOR ... ahead of an Expected
		// value nested 100 levels".
		{"update: XOR before an Expected value nested 100", "UpdateItem",
			`{"TableName":"` + a + `",` + key + `,"AttributeUpdates":{"x":{"Action":"PUT","Value":{"S":"1"}}},"Expected":{"a":{"Value":` + deepAV(100) + `},"b":{"Exists":false}},"ConditionalOperator":"XOR"}`,
			"ValidationException", "1 validation error detected: " + xorEnum, dl},
		{"update: ReturnValues before a malformed number", "UpdateItem",
			`{"TableName":"` + a + `",` + key + `,"UpdateExpression":"SET a = :v","ExpressionAttributeValues":{":v":{"N":"x"}},"ReturnValues":"BOGUS"}`,
			"ValidationException", rvBogus, dl},
		{"update: a syntax error before a malformed number", "UpdateItem",
			`{"TableName":"` + a + `",` + key + `,"UpdateExpression":"SET a = = :v","ExpressionAttributeValues":{":v":{"N":"x"}}}`,
			"ValidationException", `Invalid UpdateExpression: Syntax error; token: "=", near: "= = :v"`, dl},
		{"update: an unused value before a value nested 40", "UpdateItem",
			`{"TableName":"` + a + `",` + key + `,"UpdateExpression":"SET a = :v","ExpressionAttributeValues":{":v":` + deepAV(40) + `,":u":{"S":"y"}}}`,
			"ValidationException", unusedU, dl},
		{"update: a malformed number before the missing table", "UpdateItem",
			`{"TableName":"` + a + `",` + key + `,"UpdateExpression":"SET a = :v","ExpressionAttributeValues":{":v":{"N":"x"}}}`,
			"ValidationException", badNumEnv, dl},
		// deepRequests, "Deep requests - DeleteItem ReturnValues".
		{"delete: ReturnValues before a condition value nested 63", "DeleteItem",
			`{"TableName":"` + a + `",` + key + `,"ConditionExpression":"#d = :deep","ExpressionAttributeNames":{"#d":"d"},"ExpressionAttributeValues":{":deep":` + deepAV(63) + `},"ReturnValues":"BOGUS"}`,
			"ValidationException", rvBogus, dl},
		{"delete: ReturnValues before a key nested 100", "DeleteItem",
			`{"TableName":"` + a + `","Key":{"pk":` + deepAV(100) + `,"sk":{"S":"1"}},"ReturnValues":"BOGUS"}`,
			"ValidationException", rvBogus, dl},
		// deepRequests: "refuses UPDATED_NEW with the bare ReturnValues
		// message ahead of a condition value nested 100 levels"; below
		// the older form's depth the message is enveloped.
		{"delete: bare UPDATED_NEW before a condition value nested 100", "DeleteItem",
			`{"TableName":"` + a + `",` + key + `,"ConditionExpression":"#d = :deep","ExpressionAttributeNames":{"#d":"d"},"ExpressionAttributeValues":{":deep":` + deepAV(100) + `},"ReturnValues":"UPDATED_NEW"}`,
			"ValidationException", "ReturnValues can only be ALL_OLD or NONE", dl},
		{"delete: enveloped UPDATED_NEW before a condition value nested 40", "DeleteItem",
			`{"TableName":"` + a + `",` + key + `,"ConditionExpression":"#d = :deep","ExpressionAttributeNames":{"#d":"d"},"ExpressionAttributeValues":{":deep":` + deepAV(40) + `},"ReturnValues":"UPDATED_NEW"}`,
			"ValidationException", "1 validation error detected: ReturnValues can only be ALL_OLD or NONE", dl},
	})
}

// TestValueOrderQuery: a Query's key condition (syntax, operand types)
// before a value's fault, the value's fault before the missing table.
func TestValueOrderQuery(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	r := rangeTable(t, c)
	a := uniqueName(t)
	q := func(table, kce, values string) string {
		return `{"TableName":"` + table + `","KeyConditionExpression":"` + kce + `","ExpressionAttributeValues":{` + values + `}}`
	}
	const badNum = "The parameter cannot be converted to a numeric value: x"
	dlFirst := `DynamoDB Local checks attribute values while it reads the request, before everything else`
	runOrderCases(t, []orderCase{
		{"a syntax error before a malformed number", "Query", q(r, "pk = = :p", `":p":{"N":"x"}`),
			"ValidationException", `Invalid KeyConditionExpression: Syntax error; token: "=", near: "= = :p"`, dlFirst},
		{"a key condition's operand type before a value nested 40", "Query", q(r, "pk = :p AND begins_with(sk, :n)", `":p":`+deepAV(40)+`,":n":{"N":"1"}`),
			"ValidationException", "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N", dlFirst},
		{"ReturnConsumedCapacity before a malformed number", "Query",
			`{"TableName":"` + r + `","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"N":"x"}},"ReturnConsumedCapacity":"INVALID"}`,
			"ValidationException", "1 validation error detected: " + rccInvalid, dlFirst},
		{"a malformed number before the missing table", "Query", q(a, "pk = :p", `":p":{"N":"x"}`),
			"ValidationException", badNum,
			`DynamoDB Local looks the table up first: "Cannot do operations on a non-existent table"`},
	})
}

// TestValueOrderTransactWrite: the actions are checked one at a time, in
// request order, each action's table name, expressions and values before
// the next action's (deepRequests, "TransactWriteItems action order", 10
// of 10 regions).
func TestValueOrderTransactWrite(t *testing.T) {
	t.Parallel()
	a := uniqueName(t) // absent
	key := func(pk string) string { return `{"pk":` + pk + `,"sk":{"S":"1"}}` }
	s := func(v string) string { return `{"S":"` + v + `"}` }
	put := func(item string) string { return `{"Put":{"TableName":"` + a + `","Item":` + item + `}}` }
	item := func(pk string, more string) string { return `{"pk":` + s(pk) + `,"sk":{"S":"1"}` + more + `}` }
	tx := func(items ...string) string { return `{"TransactItems":[` + strings.Join(items, ",") + `]}` }
	ccKey := func(k string) string {
		return `{"ConditionCheck":{"TableName":"` + a + `","Key":` + k + `,"ConditionExpression":"attribute_exists(a)"}}`
	}
	updUnused := `{"Update":{"TableName":"` + a + `","Key":` + key(s("a")) + `,"UpdateExpression":"SET a = :v","ExpressionAttributeValues":{":v":{"S":"x"},":u":{"S":"y"}}}}`
	longCond := "a = :v" + strings.Repeat(" AND a = :v", 373)
	longUpdate := make([]string, 500)
	for i := range longUpdate {
		longUpdate[i] = "a" + strconv.Itoa(i) + " = :v"
	}
	dlDepth := `DynamoDB Local reads the whole request before it checks an item's names, and answers the first fault it reads`
	runOrderCases(t, []orderCase{
		{"a Put item nested 40 before an empty attribute name in a later Put", "TransactWriteItems",
			tx(put(item("b", `,"d":`+deepAV(40))), put(item("a", `,"":{"S":"x"}`))), "ValidationException", nestMsg, ""},
		{"an empty attribute name before a Put item nested 100 in a later Put", "TransactWriteItems",
			tx(put(item("a", `,"":{"S":"x"}`)), put(item("b", `,"d":`+deepAV(100)))), "ValidationException", emptyAttr, ""},
		{"a top-level empty name before a value nested 100 in the same item, name first", "TransactWriteItems",
			tx(put(item("a", `,"":{"S":"x"},"d":`+deepAV(100)))), "ValidationException", emptyAttr, ""},
		{"a top-level empty name before a value nested 100 in the same item, value first", "TransactWriteItems",
			tx(put(item("a", `,"d":`+deepAV(100)+`,"":{"S":"x"}`))), "ValidationException", emptyAttr, dlDepth},
		{"a value nested 40 before an empty map key inside the same item", "TransactWriteItems",
			tx(put(item("a", `,"m":{"M":{"":{"S":"x"}}},"d":`+deepAV(40)))), "ValidationException", nestMsg, dlDepth},
		{"an empty attribute name before a later ConditionCheck value nested 100", "TransactWriteItems",
			tx(put(item("a", `,"":{"S":"x"}`)),
				`{"ConditionCheck":{"TableName":"`+a+`","Key":`+key(s("b"))+`,"ConditionExpression":"d = :deep","ExpressionAttributeValues":{":deep":`+deepAV(100)+`}}}`),
			"ValidationException", emptyAttr, ""},
		{"an earlier ConditionCheck value nested 40 before a later empty attribute name", "TransactWriteItems",
			tx(`{"ConditionCheck":{"TableName":"`+a+`","Key":`+key(s("b"))+`,"ConditionExpression":"d = :deep","ExpressionAttributeValues":{":deep":`+deepAV(40)+`}}}`,
				put(item("a", `,"":{"S":"x"}`))),
			"ValidationException", nestForKey(":deep"), ""},
		{"an earlier Update value nested 40 before a later empty attribute name", "TransactWriteItems",
			tx(`{"Update":{"TableName":"`+a+`","Key":`+key(s("a"))+`,"UpdateExpression":"SET d = :deep","ExpressionAttributeValues":{":deep":`+deepAV(40)+`}}}`,
				put(item("b", `,"":{"S":"x"}`))),
			"ValidationException", nestForKey(":deep"), ""},
		{"a Delete key nested 40 before a later Put's syntax error", "TransactWriteItems",
			tx(`{"Delete":{"TableName":"`+a+`","Key":`+key(deepAV(40))+`}}`,
				`{"Put":{"TableName":"`+a+`","Item":`+item("a", "")+`,"ConditionExpression":"a = = b"}}`),
			"ValidationException", nestMsg, ""},
		{"a ConditionCheck key nested 40 before a later Update's unused value", "TransactWriteItems",
			tx(ccKey(key(deepAV(40))), updUnused), "ValidationException", nestMsg, ""},
		{"a Put's syntax error before a later Delete key nested 100", "TransactWriteItems",
			tx(`{"Put":{"TableName":"`+a+`","Item":`+item("a", "")+`,"ConditionExpression":"a = = b"}}`,
				`{"Delete":{"TableName":"`+a+`","Key":`+key(deepAV(100))+`}}`),
			"ValidationException", syntaxEqEq, ""},
		{"a syntax error before the same Delete's key nested 100", "TransactWriteItems",
			tx(`{"Delete":{"TableName":"` + a + `","Key":` + key(deepAV(100)) + `,"ConditionExpression":"a = = b"}}`),
			"ValidationException", syntaxEqEq, ""},
		{"an oversized condition before the same Delete's key nested 100", "TransactWriteItems",
			tx(`{"Delete":{"TableName":"` + a + `","Key":` + key(deepAV(100)) + `,"ConditionExpression":"` + longCond + `","ExpressionAttributeValues":{":v":{"S":"x"}}}}`),
			"ValidationException", "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4109", ""},
		{"an oversized UpdateExpression before a later ConditionCheck key nested 100", "TransactWriteItems",
			tx(`{"Update":{"TableName":"`+a+`","Key":`+key(s("a"))+`,"UpdateExpression":"SET `+strings.Join(longUpdate, ", ")+`","ExpressionAttributeValues":{":v":{"S":"x"}}}}`,
				ccKey(key(deepAV(100)))),
			"ValidationException", "Invalid UpdateExpression: Expression size has exceeded the maximum allowed size;", ""},
		{"an unused value before a later ConditionCheck key nested 100", "TransactWriteItems",
			tx(updUnused, ccKey(key(deepAV(100)))),
			"ValidationException", "Value provided in ExpressionAttributeValues unused in expressions: keys: {:u}", ""},
		// The layers for the values deepRequests does not cover.
		{"ReturnConsumedCapacity before a malformed number", "TransactWriteItems",
			`{"TransactItems":[` + put(item("a", `,"n":{"N":"x"}`)) + `],"ReturnConsumedCapacity":"BOGUS"}`,
			"ValidationException", "1 validation error detected: " + enumRCCBogus, `DynamoDB Local does not check ReturnConsumedCapacity's enum in transactions`},
		{"a malformed number before the missing table", "TransactWriteItems",
			tx(put(item("a", `,"n":{"N":"x"}`))), "ValidationException", "The parameter cannot be converted to a numeric value: x",
			`DynamoDB Local words it "A value provided cannot be converted into a number"`},
	})
}

// TestValueOrderBatchWrite: the member constraints before a value's
// fault, the value's fault before the missing table.
func TestValueOrderBatchWrite(t *testing.T) {
	t.Parallel()
	a := uniqueName(t)
	req := func(item string) string {
		return `{"RequestItems":{"` + a + `":[{"PutRequest":{"Item":` + item + `}}]}}`
	}
	runOrderCases(t, []orderCase{
		{"ReturnConsumedCapacity before a value nested 40", "BatchWriteItem",
			strings.TrimSuffix(req(`{"pk":{"S":"a"},"d":`+deepAV(40)+`}`), "}") + `,"ReturnConsumedCapacity":"INVALID"}`,
			"ValidationException", "1 validation error detected: " + rccInvalid,
			`DynamoDB Local checks attribute values while it reads the request, before everything else`},
		{"a duplicate set member before the missing table", "BatchWriteItem",
			req(`{"pk":{"S":"a"},"ss":{"SS":["a","b","b"]}}`),
			"ValidationException", "One or more parameter values were invalid: Input collection [a, b, b] contains duplicates.",
			`DynamoDB Local leaves the full stop out (AWS's wording: valueLayers.test.ts)`},
	})
}
