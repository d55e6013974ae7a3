package conformance

// Validation order: requests with two faults, each answered with
// the fault of the earlier layer, as AWS answers them (records captured
// against AWS in us-east-1 and eu-west-2, 2026-10-09, in
// paritysuite/dynamodb-conformance tests/tier3/validation-ordering/).
// The order is written down in
// emulator/internal/service/validation_order.go. Batch requests:
// TestBatchRequestItemsConstraints.

import (
	"strings"
	"testing"
)

// orderCase is one request with two (or more) faults and the answer of
// the first.
type orderCase struct {
	name, op, body string
	typ, msg       string
	differ         string // non-empty: DynamoDB Local answers otherwise (why)
}

func runOrderCases(t *testing.T, cases []orderCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.differ != "" {
				AWSDiffers(t, tc.differ)
			}
			r := rawCall(t, tc.op, tc.body)
			if r.Type != tc.typ || r.Message != tc.msg {
				t.Errorf("got %d %s %q\nwant %s %q", r.Status, r.Type, r.Message, tc.typ, tc.msg)
			}
		})
	}
}

const (
	rccInvalid = "Value 'INVALID' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"
	rvInvalid  = "Value 'INVALID' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"
	noKey      = "Value null at 'key' failed to satisfy constraint: Member must not be null"
	emptyName  = "Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1"
	xorEnum    = "Value 'XOR' at 'conditionalOperator' failed to satisfy constraint: Member must satisfy enum value set: [OR, AND]"
	syntaxEOF  = `Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "("`
	unusedV    = "Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}"
)

// TestValidationOrderUpdateItem: UpdateItem's member constraints, member
// by member when Key is absent, the first only when it is present.
func TestValidationOrderUpdateItem(t *testing.T) {
	t.Parallel()
	missing := uniqueName(t)
	const update = `"UpdateExpression":"SET a = :a","ExpressionAttributeValues":{":a":{"S":"x"}}`
	dl := `DynamoDB Local answers "Invalid table/index name. ..." or looks the table up first`
	runOrderCases(t, []orderCase{
		{"empty table name and no key", "UpdateItem", `{"TableName":"",` + update + `}`,
			"ValidationException", "2 validation errors detected: " + emptyName + "; " + noKey, dl},
		{"enums, empty table name and no key, member by member", "UpdateItem",
			`{"TableName":"",` + update + `,"ReturnConsumedCapacity":"INVALID","ReturnValues":"INVALID"}`,
			"ValidationException", "4 validation errors detected: " + rccInvalid + "; " + emptyName + "; " + rvInvalid + "; " + noKey, dl},
		{"XOR with two Expected conditions and no key", "UpdateItem",
			`{"TableName":"` + missing + `","AttributeUpdates":{"x":{"Action":"PUT","Value":{"S":"1"}}},"Expected":{"a":{"Exists":false},"b":{"Exists":false}},"ConditionalOperator":"XOR"}`,
			"ValidationException", "2 validation errors detected: " + xorEnum + "; " + noKey, dl},
		{"two enums with a key: the first only", "UpdateItem",
			`{"TableName":"` + missing + `","Key":{"pk":{"S":"test"}},"ReturnValues":"INVALID","ReturnConsumedCapacity":"INVALID"}`,
			"ValidationException", "1 validation error detected: " + rvInvalid, dl},
		{"empty table name with a key: tableName only", "UpdateItem", `{"TableName":"","Key":{}}`,
			"ValidationException", "1 validation error detected: " + emptyName, dl},
	})
}

// TestValidationOrderCreateTable: the global secondary indexes' violations
// come before the local ones', whichever the request lists first and
// whatever the names sort to.
func TestValidationOrderCreateTable(t *testing.T) {
	t.Parallel()
	name := uniqueName(t)
	body := func(lsi, gsi string) string {
		return `{"TableName":"` + name + `","BillingMode":"PAY_PER_REQUEST",` +
			`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],` +
			`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],` +
			`"LocalSecondaryIndexes":[{"IndexName":"` + lsi + `","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"lr","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}],` +
			`"GlobalSecondaryIndexes":[{"IndexName":"` + gsi + `","KeySchema":[{"AttributeName":"gh","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`
	}
	short := func(n, member string) string {
		return "Value '" + n + "' at '" + member + ".1.member.indexName' failed to satisfy constraint: Member must have length greater than or equal to 3"
	}
	dl := `DynamoDB Local answers "Invalid table/index name. ..."`
	runOrderCases(t, []orderCase{
		{"LSI listed first", "CreateTable", body("l1", "g1"), "ValidationException",
			"2 validation errors detected: " + short("g1", "globalSecondaryIndexes") + "; " + short("l1", "localSecondaryIndexes"), dl},
		{"LSI name sorts first", "CreateTable", body("aa", "zz"), "ValidationException",
			"2 validation errors detected: " + short("zz", "globalSecondaryIndexes") + "; " + short("aa", "localSecondaryIndexes"), dl},
	})
}

// TestValidationOrderTransactions: member constraints before everything;
// each action's expressions (syntax, unused values) before any table is
// looked up, whichever action carries them; the first action in request
// order wins.
func TestValidationOrderTransactions(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	h := hashTable(t, c)
	missing := uniqueName(t)
	put := func(table, pk string) string {
		return `{"Put":{"TableName":"` + table + `","Item":{"pk":{"S":"` + pk + `"}}}}`
	}
	check := func(cond, values string) string {
		return `{"ConditionCheck":{"TableName":"` + h + `","Key":{"pk":{"S":"vo-cc"}},"ConditionExpression":"` + cond + `"` + values + `}}`
	}
	unused := check("attribute_not_exists(pk)", `,"ExpressionAttributeValues":{":v":{"S":"x"}}`)
	tx := func(items ...string) string { return `{"TransactItems":[` + strings.Join(items, ",") + `]}` }
	const rccBogus = "1 validation error detected: " + enumRCCBogus
	const dlEnum = "DynamoDB Local does not check ReturnConsumedCapacity's enum in transactions"
	runOrderCases(t, []orderCase{
		{"enum before a missing table", "TransactWriteItems", `{"TransactItems":[` + put(missing, "a") + `],"ReturnConsumedCapacity":"BOGUS"}`,
			"ValidationException", rccBogus, dlEnum},
		{"enum before the same item twice", "TransactWriteItems",
			`{"TransactItems":[` + put(h, "vo-dup") + `,{"Delete":{"TableName":"` + h + `","Key":{"pk":{"S":"vo-dup"}}}}],"ReturnConsumedCapacity":"BOGUS"}`,
			"ValidationException", rccBogus, dlEnum},
		{"a later action's syntax error before an earlier action's missing table", "TransactWriteItems",
			tx(put(missing, "a"), check("attribute_not_exists(", "")), "ValidationException", syntaxEOF,
			`DynamoDB Local looks the tables up first: "Cannot do operations on a non-existent table"`},
		{"a later action's unused value before an earlier action's missing table", "TransactWriteItems",
			tx(put(missing, "a"), unused), "ValidationException", unusedV,
			`DynamoDB Local looks the tables up first: "Cannot do operations on a non-existent table"`},
		{"an unused value before a later action's missing table", "TransactWriteItems",
			tx(unused, put(missing, "a")), "ValidationException", unusedV, ""},
		{"an unused value before the same item twice", "TransactWriteItems",
			tx(put(h, "vo-cc"), unused), "ValidationException", unusedV, ""},
		// us-east-1's answer (2026-10-09): the too-long token listed ahead
		// of the enum; eu-west-2 gave the token alone in a generic form.
		{"a token over 36 characters before an unknown enum", "TransactWriteItems",
			`{"TransactItems":[` + put(h, "vo-token") + `],"ClientRequestToken":"` + strings.Repeat("x", 37) + `","ReturnConsumedCapacity":"BOGUS"}`,
			"ValidationException", "2 validation errors detected: Value '" + strings.Repeat("x", 37) +
				"' at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to 36; " + enumRCCBogus,
			"DynamoDB Local reports the token alone, unquoted, without the envelope"},
		{"get: enum before a missing table", "TransactGetItems",
			`{"TransactItems":[{"Get":{"TableName":"` + missing + `","Key":{"pk":{"S":"a"}}}}],"ReturnConsumedCapacity":"BOGUS"}`,
			"ValidationException", rccBogus, dlEnum},
		{"get: enum before the same item twice", "TransactGetItems",
			`{"TransactItems":[{"Get":{"TableName":"` + h + `","Key":{"pk":{"S":"a"}}}},{"Get":{"TableName":"` + h + `","Key":{"pk":{"S":"a"}}}}],"ReturnConsumedCapacity":"BOGUS"}`,
			"ValidationException", rccBogus, dlEnum},
		{"an earlier action's key fault after a later action's syntax error", "TransactWriteItems",
			tx(`{"Delete":{"TableName":"`+h+`","Key":{"pk":{"N":"1"}}}}`, check("attribute_not_exists(", "")),
			"ValidationException", syntaxEOF, ""},
	})
	requireItem(t, mustGet(t, c, h, item{"pk": s("vo-cc")}), nil)
}

// TestValidationOrderQueryKeyCondition: a KeyConditionExpression's clauses
// are checked in the order written, undefined values and operand types
// alike, before the table is looked up.
func TestValidationOrderQueryKeyCondition(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	r := rangeTable(t, c)
	missing := uniqueName(t)
	const (
		operand   = "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"
		undefined = "Invalid KeyConditionExpression: An expression attribute value used in expression is not defined; attribute value: :missing"
	)
	q := func(table, kce, values string) string {
		return `{"TableName":"` + table + `","KeyConditionExpression":"` + kce + `","ExpressionAttributeValues":{` + values + `}}`
	}
	runOrderCases(t, []orderCase{
		{"undefined value written first", "Query", q(r, "pk = :missing AND begins_with(sk, :n)", `":n":{"N":"1"}`), "ValidationException", undefined, ""},
		{"bad operand written first", "Query", q(r, "begins_with(sk, :n) AND pk = :missing", `":n":{"N":"1"}`), "ValidationException", operand, ""},
		{"bad operand before a third condition", "Query", q(r, "pk = :p AND begins_with(sk, :n) AND sk > :s", `":p":{"S":"q"},":n":{"N":"1"},":s":{"S":"a"}`),
			"ValidationException", operand, ""},
		{"bad operand before a missing table", "Query", q(missing, "pk = :p AND begins_with(sk, :n)", `":p":{"S":"q"},":n":{"N":"1"}`),
			"ValidationException", operand, `DynamoDB Local looks the table up first: "Cannot do operations on a non-existent table"`},
		{"a good key condition on a missing table", "Query", q(missing, "pk = :p AND begins_with(sk, :s)", `":p":{"S":"q"},":s":{"S":"a"}`),
			"ResourceNotFoundException", "Requested resource not found", `DynamoDB Local says "Cannot do operations on a non-existent table"`},
	})
}

// TestValidationOrderQueryEmptyExpressions: an empty FilterExpression,
// then an empty ProjectionExpression, is Query's first expression error,
// before a malformed or invalid key condition (dynalite's suite run
// against AWS, test/query.js; records/validation-order.jsonl).
func TestValidationOrderQueryEmptyExpressions(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	r := rangeTable(t, c)
	const (
		emptyFilter     = "Invalid FilterExpression: The expression can not be empty;"
		emptyProjection = "Invalid ProjectionExpression: The expression can not be empty;"
	)
	q := func(kce, rest string) string {
		return `{"TableName":"` + r + `","KeyConditionExpression":"` + kce + `",` + rest + `,"ExpressionAttributeValues":{":v":{"S":"N"}}}`
	}
	runOrderCases(t, []orderCase{
		{"empty filter before a key condition's syntax error", "Query", q("pk = = :v", `"FilterExpression":""`), "ValidationException", emptyFilter, ""},
		{"empty filter before an empty projection and a function in the key condition", "Query",
			q("attribute_type(pk, :v)", `"FilterExpression":"","ProjectionExpression":""`), "ValidationException", emptyFilter, ""},
		{"empty projection before a function in the key condition", "Query",
			q("attribute_type(pk, :v)", `"FilterExpression":"a > b","ProjectionExpression":""`), "ValidationException", emptyProjection, ""},
	})
}

// TestConditionalOperatorEnumOrder: ConditionalOperator's enum is listed
// as AWS lists it, [OR, AND] (AWS's records: validation-ordering/
// updateItem.test.ts, deepRequests.test.ts).
func TestConditionalOperatorEnumOrder(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	h := hashTable(t, c)
	const filter = `{"a":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"x"}]},"b":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"y"}]}}`
	dl := "DynamoDB Local checks the mix of members first, or the number of conditions"
	runOrderCases(t, []orderCase{
		{"Scan", "Scan", `{"TableName":"` + h + `","ScanFilter":` + filter + `,"ConditionalOperator":"XOR"}`,
			"ValidationException", "1 validation error detected: " + xorEnum, dl},
		{"PutItem", "PutItem", `{"TableName":"` + h + `","Item":{"pk":{"S":"x"}},"Expected":{"a":{"Exists":false},"b":{"Exists":false}},"ConditionalOperator":"XOR"}`,
			"ValidationException", "1 validation error detected: " + xorEnum, dl},
		// query.test.ts, "reports XOR with two QueryFilter conditions before
		// an unknown Select": the operator alone, bare, in the newer enum
		// form (eu-west-2 and us-east-1, 2026-10-09).
		{"Query with an unknown Select", "Query", `{"TableName":"` + uniqueName(t) + `","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},` +
			`"QueryFilter":{"b":{"ComparisonOperator":"NULL"},"c":{"ComparisonOperator":"NULL"}},"ConditionalOperator":"XOR","Select":"BOGUS"}`,
			"ValidationException", "Failed to satisfy constraint: Member must satisfy enum value set: [ALL, OR]",
			`DynamoDB Local looks the table up first: "Cannot do operations on a non-existent table"`},
	})
}

// TestValidationOrderBatchGetUnusedNames: a BatchGetItem table entry's
// unused ExpressionAttributeNames are refused before its table is looked
// up, as AWS checks a request's expressions before its tables (records/
// validation-order.jsonl seq 31, inferred: AWS's TransactWriteItems
// records answer an unused value before an earlier action's missing
// table, and the project's AWS-exact issue quotes a record of this
// request).
func TestValidationOrderBatchGetUnusedNames(t *testing.T) {
	t.Parallel()
	missing := uniqueName(t)
	runOrderCases(t, []orderCase{
		{"unused names before a missing table", "BatchGetItem",
			`{"RequestItems":{"` + missing + `":{"Keys":[{"pk":{"S":"a"}}],"ProjectionExpression":"pk","ExpressionAttributeNames":{"#u":"x"}}}}`,
			"ValidationException", "Value provided in ExpressionAttributeNames unused in expressions: keys: {#u}",
			`DynamoDB Local looks the table up first: "Cannot do operations on a non-existent table"`},
	})
}
