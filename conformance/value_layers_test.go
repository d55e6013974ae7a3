package conformance

// Value-layer errors: a malformed number or a duplicate set
// member is worded by the layer the operation checks values in, PutItem,
// UpdateItem and DeleteItem inside the "1 validation error detected: "
// envelope. AWS's answers captured in four regions (us-east-1 among them),
// 2026-10-09, as recorded in paritysuite/dynamodb-conformance
// tests/tier3/error-messages/valueLayers.test.ts and
// tests/tier3/limits/numberExponent.test.ts.

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

const notNumeric = "The parameter cannot be converted to a numeric value"

// valueShapes are the malformed values sent to every surface, with the
// current and the older layer's answer to each.
var valueShapes = []struct {
	json           string // the attribute value
	current, older string
}{
	{`{"N":"abc"}`, notNumeric + ": abc", notNumeric + ": abc"},
	{`{"N":""}`, notNumeric + ": ", notNumeric},
	{`{"N":"1e126"}`, msgOverflow, msgOverflow},
	{`{"N":"1e2147483647"}`, msgOverflow, msgUnderflow},
	{`{"SS":["b","a","b"]}`, `One or more parameter values were invalid: Input collection ["a", "b", "b"] contains duplicates.`,
		"One or more parameter values were invalid: Input collection [b, a, b] contains duplicates."},
	{`{"BS":["/w==","AA==","AA=="]}`, `One or more parameter values were invalid: Input collection ["AA==","/w==","AA=="]of type BS contains duplicates.`,
		"One or more parameter values were invalid: Input collection [/w==, AA==, AA==]of type BS contains duplicates."},
	{`{"NS":["2","1","2"]}`, "One or more parameter values were invalid: Input collection contains duplicates.", "Input collection contains duplicates"},
}

const (
	msgOverflow  = "Number overflow. Attempting to store a number with magnitude larger than supported range"
	msgUnderflow = "Number underflow. Attempting to store a number with magnitude smaller than supported range"
)

// TestValueLayers sends each malformed value to each surface.
func TestValueLayers(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local answers in the older layer everywhere, without the envelope (\"A value provided cannot be converted into a number\" for numbers)")
	c := newClient(t)
	h := hashTable(t, c)
	r := rangeTable(t, c)
	one := func(m string) string { return "1 validation error detected: " + m }
	bare := func(m string) string { return m }
	forKey := func(m string) string { return "ExpressionAttributeValues contains invalid value: " + m + " for key :v" }
	tx := func(action string) string { return `{"TransactItems":[` + action + `]}` }
	surfaces := []struct {
		name, op, body string // body with @V@ where the value goes
		older          bool
		frame          func(string) string
	}{
		{"PutItem item", "PutItem", `{"TableName":"` + h + `","Item":{"pk":{"S":"vl"},"v":@V@}}`, false, one},
		{"PutItem nested", "PutItem", `{"TableName":"` + h + `","Item":{"pk":{"S":"vl"},"v":{"M":{"x":{"L":[@V@]}}}}}`, false, one},
		{"PutItem condition value", "PutItem", `{"TableName":"` + h + `","Item":{"pk":{"S":"vl"}},"ConditionExpression":"attribute_not_exists(pk) OR v = :v","ExpressionAttributeValues":{":v":@V@}}`, false, one},
		{"PutItem Expected value", "PutItem", `{"TableName":"` + h + `","Item":{"pk":{"S":"vl"}},"Expected":{"v":{"Value":@V@}}}`, false, one},
		{"UpdateItem value", "UpdateItem", `{"TableName":"` + h + `","Key":{"pk":{"S":"vl"}},"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":@V@}}`, false, one},
		{"UpdateItem AttributeUpdates", "UpdateItem", `{"TableName":"` + h + `","Key":{"pk":{"S":"vl"}},"AttributeUpdates":{"v":{"Action":"PUT","Value":@V@}}}`, false, one},
		{"UpdateItem key", "UpdateItem", `{"TableName":"` + h + `","Key":{"pk":@V@},"UpdateExpression":"SET o = :o","ExpressionAttributeValues":{":o":{"N":"1"}}}`, false, one},
		{"DeleteItem condition value", "DeleteItem", `{"TableName":"` + h + `","Key":{"pk":{"S":"vl"}},"ConditionExpression":"v = :v","ExpressionAttributeValues":{":v":@V@}}`, false, one},
		{"DeleteItem key", "DeleteItem", `{"TableName":"` + h + `","Key":{"pk":@V@}}`, false, one},
		{"GetItem key", "GetItem", `{"TableName":"` + h + `","Key":{"pk":@V@}}`, false, bare},
		{"BatchGetItem key", "BatchGetItem", `{"RequestItems":{"` + h + `":{"Keys":[{"pk":@V@}]}}}`, false, bare},
		{"Query filter value", "Query", `{"TableName":"` + r + `","KeyConditionExpression":"pk = :p","FilterExpression":"v = :v","ExpressionAttributeValues":{":p":{"S":"vl"},":v":@V@}}`, false, bare},
		{"BatchWriteItem item", "BatchWriteItem", `{"RequestItems":{"` + h + `":[{"PutRequest":{"Item":{"pk":{"S":"vl"},"v":@V@}}}]}}`, true, bare},
		{"TransactWriteItems Put item", "TransactWriteItems", tx(`{"Put":{"TableName":"` + h + `","Item":{"pk":{"S":"vl"},"v":@V@}}}`), true, bare},
		{"TransactWriteItems Update value", "TransactWriteItems", tx(`{"Update":{"TableName":"` + h + `","Key":{"pk":{"S":"vl"}},"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":@V@}}}`), true, forKey},
		{"TransactGetItems key", "TransactGetItems", `{"TransactItems":[{"Get":{"TableName":"` + h + `","Key":{"pk":@V@}}}]}`, true, bare},
	}
	for _, sf := range surfaces {
		for _, v := range valueShapes {
			want := v.current
			if sf.older {
				want = v.older
			}
			want = sf.frame(want)
			got := rawCall(t, sf.op, strings.ReplaceAll(sf.body, "@V@", v.json))
			if got.Type != "ValidationException" || got.Message != want {
				t.Errorf("%s %s: got %d %s %q\nwant ValidationException %q", sf.name, v.json, got.Status, got.Type, got.Message, want)
			}
		}
	}
	requireItem(t, mustGet(t, c, h, item{"pk": s("vl")}), nil)
}

// TestNumberExponents: a written exponent is read in full; out of the range
// it overflows or underflows however far out it is, past a 64-bit integer
// it does not convert, and zero is range-checked by its exponent.
func TestNumberExponents(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local says \"A value provided cannot be converted into a number\" for exponents past 32 bits and stores 0e126 and 0e-131 as 0")
	c := newClient(t)
	h := hashTable(t, c)
	one := func(m string) string { return "1 validation error detected: " + m }
	for _, tt := range []struct{ n, want string }{
		{"1e99999999999", one(msgOverflow)},
		{"-1e99999999999", one(msgOverflow)},
		{"1e-99999999999", one(msgUnderflow)},
		{"1e2147483648", one(msgOverflow)},
		{"1e-2147483648", one(msgUnderflow)},
		{"1e9223372036854775808", one(notNumeric + ": 1e9223372036854775808")},
		{"0e126", one(msgOverflow)},
		{"0e-131", one(msgUnderflow)},
	} {
		got := rawCall(t, "PutItem", `{"TableName":"`+h+`","Item":{"pk":{"S":"nx"},"v":{"N":"`+tt.n+`"}}}`)
		if got.Type != "ValidationException" || got.Message != tt.want {
			t.Errorf("%s: got %d %s %q, want ValidationException %q", tt.n, got.Status, got.Type, got.Message, tt.want)
		}
	}
	// Keys and expression values the same way, in their operations' layers.
	for _, tt := range []struct{ op, body, want string }{
		{"GetItem", `{"TableName":"` + h + `","Key":{"pk":{"N":"1e99999999999"}}}`, msgOverflow},
		{"UpdateItem", `{"TableName":"` + h + `","Key":{"pk":{"S":"nx"}},"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":{"N":"1e99999999999"}}}`, one(msgOverflow)},
		{"Query", `{"TableName":"` + h + `","KeyConditionExpression":"pk = :p","FilterExpression":"v = :v","ExpressionAttributeValues":{":p":{"S":"nx"},":v":{"N":"0e126"}}}`, msgOverflow},
	} {
		got := rawCall(t, tt.op, tt.body)
		if got.Type != "ValidationException" || got.Message != tt.want {
			t.Errorf("%s: got %d %s %q, want ValidationException %q", tt.op, got.Status, got.Type, got.Message, tt.want)
		}
	}
	requireItem(t, mustGet(t, c, h, item{"pk": s("nx")}), nil)
	// In range: stored, zero as 0.
	mustPut(t, c, h, item{"pk": s("nx0"), "v": n("0e125")})
	requireItem(t, mustGet(t, c, h, item{"pk": s("nx0")}), item{"pk": s("nx0"), "v": n("0")})
}

// writeEnveloped is AWS's answer to a request-validation fault of PutItem,
// UpdateItem or DeleteItem: msg inside the "1 validation error detected: "
// envelope (AWS's records: paritysuite/dynamodb-conformance
// tests/tier3/error-messages/putItem.test.ts, deleteItem.test.ts). Against
// DynamoDB Local, which answers bare (local, or msg when local is ""),
// that answer is expected instead and the difference is listed with
// AWSDiffers' report, so that the rest of the test still runs there.
func writeEnveloped(t testing.TB, msg, local string) string {
	t.Helper()
	if local == "" {
		local = msg
	}
	differences.mu.Lock()
	differences.list = append(differences.list, difference{t.Name(), "DynamoDB Local answers " + strconv.Quote(local) + " without the envelope"})
	differences.mu.Unlock()
	if os.Getenv(EnvOracle) == OracleDynamoDBLocal {
		return local
	}
	return "1 validation error detected: " + msg
}

// enveloped marks a table's expected message as AWS's enveloped answer to
// a write's request-validation fault (msg bare, local DynamoDB Local's
// answer when it words it otherwise); expectMsg resolves it.
func enveloped(msg, local string) string { return "\x00" + msg + "\x00" + local }

// expectMsg is the message to expect for want: as it is, or for one made
// by enveloped, writeEnveloped's answer.
func expectMsg(t testing.TB, want string) string {
	t.Helper()
	rest, ok := strings.CutPrefix(want, "\x00")
	if !ok {
		return want
	}
	msg, local, _ := strings.Cut(rest, "\x00")
	return writeEnveloped(t, msg, local)
}

// TestWriteRequestEnvelope: PutItem, DeleteItem and UpdateItem report their
// request-validation faults inside the envelope, and the
// ExpressionAttributeValues message without its ": ConditionExpression is
// null" suffix (AWS's records in us-east-1 and eu-west-2, 2026-10-09; for
// UpdateItem the DeleteItem record's "as PutItem and UpdateItem do").
func TestWriteRequestEnvelope(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local answers these bare, the values message with its suffix")
	c := newClient(t)
	h := hashTable(t, c)
	const inv = "One or more parameter values were invalid: "
	one := func(m string) string { return "1 validation error detected: " + m }
	del := `"TableName":"` + h + `","Key":{"pk":{"S":"env"}}`
	put := `"TableName":"` + h + `","Item":{"pk":{"S":"env"}}`
	tests := []struct{ op, body, want string }{
		{"DeleteItem", del + `,"ExpressionAttributeValues":{":v":{"S":"x"}}`, one("ExpressionAttributeValues can only be specified when using expressions")},
		{"DeleteItem", del + `,"ExpressionAttributeNames":{"#a":"a"}`, one("ExpressionAttributeNames can only be specified when using expressions")},
		{"DeleteItem", del + `,"Expected":{"a":{"Exists":false}},"ExpressionAttributeNames":{"#a":"a"}`, one("ExpressionAttributeNames can only be specified when using expressions")},
		{"DeleteItem", del + `,"ConditionExpression":"attribute_exists(a)","ExpressionAttributeValues":{}`, one("ExpressionAttributeValues must not be empty")},
		{"DeleteItem", del + `,"ConditionExpression":"attribute_exists(a)","ExpressionAttributeNames":{}`, one("ExpressionAttributeNames must not be empty")},
		{"DeleteItem", del + `,"ConditionExpression":""`, one("Invalid ConditionExpression: The expression can not be empty;")},
		{"DeleteItem", del + `,"ReturnValues":"ALL_NEW"`, one("ReturnValues can only be ALL_OLD or NONE")},
		{"DeleteItem", del + `,"ReturnValues":"UPDATED_NEW"`, one("ReturnValues can only be ALL_OLD or NONE")},
		{"DeleteItem", del + `,"Expected":{"a":{"Exists":true}}`, one(inv + "Value must be provided when Exists is true for Attribute: a")},
		{"DeleteItem", del + `,"Expected":{"a":{"Exists":false,"Value":{"S":"x"}}}`, one(inv + "Value cannot be used when Exists is false for Attribute: a")},
		{"DeleteItem", del + `,"Expected":{"a":{"Value":{"S":"x"},"ComparisonOperator":"EQ","AttributeValueList":[{"S":"x"}]}}`, one(inv + "Value and AttributeValueList cannot be used together for Attribute: a")},
		{"DeleteItem", del + `,"Expected":{"a":{"ComparisonOperator":"EQ"}}`, one(inv + "Value or AttributeValueList must be used with ComparisonOperator: EQ for Attribute: a")},
		{"DeleteItem", del + `,"Expected":{"a":{"ComparisonOperator":"BETWEEN","AttributeValueList":[{"S":"x"}]}}`, one(inv + "Invalid number of argument(s) for the BETWEEN ComparisonOperator")},
		{"PutItem", put + `,"ExpressionAttributeValues":{":v":{"S":"x"}}`, one("ExpressionAttributeValues can only be specified when using expressions")},
		{"PutItem", put + `,"ExpressionAttributeNames":{"#a":"a"}`, one("ExpressionAttributeNames can only be specified when using expressions")},
		{"PutItem", put + `,"ConditionExpression":""`, one("Invalid ConditionExpression: The expression can not be empty;")},
		{"PutItem", put + `,"Expected":{"a":{"Exists":true}}`, one(inv + "Value must be provided when Exists is true for Attribute: a")},
		{"PutItem", put + `,"Expected":{"a":{"ComparisonOperator":"EQ"}}`, one(inv + "Value or AttributeValueList must be used with ComparisonOperator: EQ for Attribute: a")},
		{"UpdateItem", del + `,"ExpressionAttributeValues":{":v":{"S":"x"}}`, one("ExpressionAttributeValues can only be specified when using expressions")},
		// Not enveloped: the mix of expression and legacy members, syntax.
		{"PutItem", put + `,"Expected":{"pk":{"Exists":false}},"ConditionExpression":"attribute_not_exists(pk)"`,
			"Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}"},
		{"DeleteItem", del + `,"ConditionExpression":"a = = b"`, `Invalid ConditionExpression: Syntax error; token: "=", near: "= = b"`},
	}
	for _, tt := range tests {
		r := rawCall(t, tt.op, "{"+tt.body+"}")
		if r.Type != "ValidationException" || r.Message != tt.want {
			t.Errorf("%s %s: got %d %s %q, want ValidationException %q", tt.op, tt.body, r.Status, r.Type, r.Message, tt.want)
		}
	}
	requireItem(t, mustGet(t, c, h, item{"pk": s("env")}), nil)
}
