package service

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// readEnv is an emulator and the helpers the Query/Scan/batch tests share.
type readEnv struct {
	t testing.TB
	e *Service
}

func newReadEnv(t testing.TB) *readEnv {
	t.Helper()
	return &readEnv{t: t, e: newTestService(t, Config{})}
}

// call sends op with body and returns the status and decoded JSON answer.
func (r *readEnv) call(op, body string) (int, map[string]any) {
	r.t.Helper()
	resp, text := doService(r.t, r.e, "DynamoDB_20120810."+op, testkit.DefaultAuth, body)
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		r.t.Fatalf("%s: answer is not JSON: %v: %s", op, err, text)
	}
	return resp.StatusCode, out
}

// ok sends op and fails the test unless it succeeds.
func (r *readEnv) ok(op, body string) map[string]any {
	r.t.Helper()
	status, out := r.call(op, body)
	if status != http.StatusOK {
		r.t.Fatalf("%s %s: status %d: %v", op, body, status, out)
	}
	return out
}

// wantError checks that op fails with the error type and message.
func (r *readEnv) wantError(op, body, wantType, wantMsg string) {
	r.t.Helper()
	status, out := r.call(op, body)
	if status != http.StatusBadRequest {
		r.t.Fatalf("%s: status %d, want 400: %v", op, status, out)
	}
	typ, _ := out["__type"].(string)
	if i := strings.LastIndexByte(typ, '#'); i >= 0 {
		typ = typ[i+1:]
	}
	msg, _ := out["message"].(string)
	if m, ok := out["Message"].(string); ok {
		msg = m
	}
	if typ != wantType || msg != wantMsg {
		r.t.Errorf("%s %s:\ngot  %s: %s\nwant %s: %s", op, body, typ, msg, wantType, wantMsg)
	}
}

// createTable creates a PAY_PER_REQUEST table; sortType "" means no sort key.
func (r *readEnv) createTable(name, pk, pkType, sk, skType string) {
	r.t.Helper()
	keys := fmt.Sprintf(`[{"AttributeName":%q,"KeyType":"HASH"}`, pk)
	defs := fmt.Sprintf(`[{"AttributeName":%q,"AttributeType":%q}`, pk, pkType)
	if sk != "" {
		keys += fmt.Sprintf(`,{"AttributeName":%q,"KeyType":"RANGE"}`, sk)
		defs += fmt.Sprintf(`,{"AttributeName":%q,"AttributeType":%q}`, sk, skType)
	}
	r.ok("CreateTable", fmt.Sprintf(`{"TableName":%q,"KeySchema":%s],"AttributeDefinitions":%s],"BillingMode":"PAY_PER_REQUEST"}`,
		name, keys, defs))
}

// putItems writes items (JSON wire items) with BatchWriteItem, 25 at a time.
func (r *readEnv) putItems(table string, items []string) {
	r.t.Helper()
	for len(items) > 0 {
		n := min(len(items), 25)
		reqs := make([]string, n)
		for i, it := range items[:n] {
			reqs[i] = `{"PutRequest":{"Item":` + it + `}}`
		}
		out := r.ok("BatchWriteItem", fmt.Sprintf(`{"RequestItems":{%q:[%s]}}`, table, strings.Join(reqs, ",")))
		if u := out["UnprocessedItems"].(map[string]any); len(u) != 0 {
			r.t.Fatalf("unprocessed items: %v", u)
		}
		items = items[n:]
	}
}

// fillRange fills table "rng" (pk S, sk N) with partitions a (sk 1..5,
// v = 10*sk) and b (sk 1..3).
func (r *readEnv) fillRange() {
	r.t.Helper()
	r.createTable("rng", "pk", "S", "sk", "N")
	var items []string
	for i := 1; i <= 5; i++ {
		items = append(items, fmt.Sprintf(`{"pk":{"S":"a"},"sk":{"N":"%d"},"v":{"N":"%d"},"s":{"S":"x%d"}}`, i, 10*i, i))
	}
	for i := 1; i <= 3; i++ {
		items = append(items, fmt.Sprintf(`{"pk":{"S":"b"},"sk":{"N":"%d"}}`, i))
	}
	r.putItems("rng", items)
}

// sortKeys returns the N sort key values of the answer's Items, in order.
func sortKeys(t testing.TB, out map[string]any, attr string) []string {
	t.Helper()
	items, _ := out["Items"].([]any)
	keys := make([]string, len(items))
	for i, it := range items {
		v, _ := it.(map[string]any)[attr].(map[string]any)
		keys[i], _ = v["N"].(string)
	}
	return keys
}

func TestQueryValidation(t *testing.T) {
	r := newReadEnv(t)
	r.fillRange()
	const kce = `"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}`
	const kc = `"KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}}`
	const qf = `"QueryFilter":{"v":{"ComparisonOperator":"GT","AttributeValueList":[{"N":"1"}]}}`
	tests := []struct {
		name, body, typ, msg string
	}{
		{"no key condition", `{"TableName":"rng"}`, "ValidationException", apierr.MsgNoKeyCondition},
		{"missing table", `{"TableName":"nope",` + kce + `}`, "ResourceNotFoundException", "Requested resource not found"},
		{"both key conditions", `{"TableName":"rng",` + kc + `,` + kce + `}`, "ValidationException",
			"Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {KeyConditions} Expression parameters: {KeyConditionExpression}"},
		{"QueryFilter with expression", `{"TableName":"rng",` + qf + `,` + kce + `}`, "ValidationException",
			"Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {QueryFilter} Expression parameters: {KeyConditionExpression}"},
		{"everything mixed", `{"TableName":"rng",` + kc + `,` + qf + `,"AttributesToGet":["v"],"ConditionalOperator":"AND","KeyConditionExpression":"pk = :p","FilterExpression":"v > :p","ProjectionExpression":"v","ExpressionAttributeValues":{":p":{"S":"a"}}}`,
			"ValidationException",
			"Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet, QueryFilter, ConditionalOperator, KeyConditions} Expression parameters: {ProjectionExpression, FilterExpression, KeyConditionExpression}"},
		{"values without expressions", `{"TableName":"rng",` + kc + `,"ExpressionAttributeValues":{":p":{"S":"a"}}}`, "ValidationException",
			"ExpressionAttributeValues can only be specified when using expressions: FilterExpression and KeyConditionExpression are null"},
		{"names without expressions", `{"TableName":"rng",` + kc + `,"ExpressionAttributeNames":{"#p":"a"}}`, "ValidationException",
			"ExpressionAttributeNames can only be specified when using expressions"},
		{"conditional operator alone", `{"TableName":"rng",` + kc + `,"ConditionalOperator":"OR"}`, "ValidationException",
			"ConditionalOperator cannot be used without Filter or Expected"},
		{"limit zero", `{"TableName":"rng",` + kce + `,"Limit":0}`, "ValidationException",
			"1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"empty select is absent", `{"TableName":"nope",` + kce + `,"Select":""}`, "ResourceNotFoundException", "Requested resource not found"},
		{"bad select", `{"TableName":"rng",` + kce + `,"Select":"BOGUS"}`, "ValidationException",
			"1 validation error detected: Value 'BOGUS' at 'select' failed to satisfy constraint: Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]"},
		{"all projected without index", `{"TableName":"rng",` + kce + `,"Select":"ALL_PROJECTED_ATTRIBUTES"}`, "ValidationException", apierr.MsgAllProjectedNoIndex},
		{"specific without projection", `{"TableName":"rng",` + kce + `,"Select":"SPECIFIC_ATTRIBUTES"}`, "ValidationException", apierr.MsgSpecificWithoutProj},
		{"count with projection", `{"TableName":"rng",` + kce + `,"Select":"COUNT","ProjectionExpression":"v"}`, "ValidationException",
			"Cannot specify the ProjectionExpression when choosing to get only the Count"},
		{"all attributes with projection", `{"TableName":"rng",` + kce + `,"Select":"ALL_ATTRIBUTES","ProjectionExpression":"v"}`, "ValidationException",
			"Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES"},
		{"count with AttributesToGet", `{"TableName":"rng",` + kc + `,"Select":"COUNT","AttributesToGet":["v"]}`, "ValidationException",
			"Cannot specify the AttributesToGet when choosing to get only the Count"},
		{"unknown index", `{"TableName":"rng",` + kce + `,"IndexName":"nope"}`, "ValidationException", "The table does not have the specified index: nope"},
		{"filter on key", `{"TableName":"rng","KeyConditionExpression":"pk = :p","FilterExpression":"sk > :s","ExpressionAttributeValues":{":p":{"S":"a"},":s":{"N":"1"}}}`,
			"ValidationException", "Filter Expression can only contain non-primary key attributes: Primary key attribute: sk"},
		{"start key too short", `{"TableName":"rng",` + kce + `,"ExclusiveStartKey":{"pk":{"S":"a"}}}`, "ValidationException", "The provided starting key is invalid"},
		{"start key extra attribute", `{"TableName":"rng",` + kce + `,"ExclusiveStartKey":{"pk":{"S":"a"},"sk":{"N":"1"},"x":{"N":"1"}}}`, "ValidationException", "The provided starting key is invalid"},
		{"start key wrong name", `{"TableName":"rng",` + kce + `,"ExclusiveStartKey":{"px":{"S":"a"},"sk":{"N":"1"}}}`, "ValidationException", "The provided starting key is invalid"},
		{"start key wrong type", `{"TableName":"rng",` + kce + `,"ExclusiveStartKey":{"pk":{"S":"a"},"sk":{"S":"1"}}}`, "ValidationException", "The provided key element does not match the schema"},
		{"start key empty string", `{"TableName":"rng",` + kce + `,"ExclusiveStartKey":{"pk":{"S":""},"sk":{"N":"1"}}}`, "ValidationException",
			"The provided starting key is invalid: One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk"},
		{"start key other partition", `{"TableName":"rng",` + kce + `,"ExclusiveStartKey":{"pk":{"S":"b"},"sk":{"N":"1"}}}`, "ValidationException",
			"The provided starting key is outside query boundaries based on provided conditions"},
		{"start key outside range", `{"TableName":"rng","KeyConditionExpression":"pk = :p AND sk > :s","ExpressionAttributeValues":{":p":{"S":"a"},":s":{"N":"3"}},"ExclusiveStartKey":{"pk":{"S":"a"},"sk":{"N":"2"}}}`,
			"ValidationException", "The provided starting key does not match the range key predicate"},
		{"start key other partition with range", `{"TableName":"rng","KeyConditionExpression":"pk = :p AND sk > :s","ExpressionAttributeValues":{":p":{"S":"a"},":s":{"N":"3"}},"ExclusiveStartKey":{"pk":{"S":"b"},"sk":{"N":"4"}}}`,
			"ValidationException", "The query can return at most one row and cannot be restarted"},
		// The placeholder maps, then the expressions and unused placeholders,
		// then the start key, then Select (DynamoDB Local's order).
		{"name key without hash", `{"TableName":"rng",` + kce + `,"ProjectionExpression":"a","ExpressionAttributeNames":{"x":"a"}}`, "ValidationException",
			`ExpressionAttributeNames contains invalid key: Syntax error; key: "x"`},
		{"value key without colon", `{"TableName":"rng","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"},"q":{"S":"a"}}}`, "ValidationException",
			`ExpressionAttributeValues contains invalid key: Syntax error; key: "q"`},
		{"empty name", `{"TableName":"rng",` + kce + `,"ProjectionExpression":"#a","ExpressionAttributeNames":{"#a":""}}`, "ValidationException",
			"ExpressionAttributeNames contains invalid value: Empty attribute name for key #a"},
		{"name key before empty projection", `{"TableName":"rng",` + kce + `,"ProjectionExpression":"","ExpressionAttributeNames":{"x":"a"}}`, "ValidationException",
			`ExpressionAttributeNames contains invalid key: Syntax error; key: "x"`},
		{"name key before start key", `{"TableName":"rng",` + kce + `,"ProjectionExpression":"a","ExpressionAttributeNames":{"x":"a"},"ExclusiveStartKey":{"x":{"S":"1"}}}`, "ValidationException",
			`ExpressionAttributeNames contains invalid key: Syntax error; key: "x"`},
		{"name key before select", `{"TableName":"rng",` + kce + `,"Select":"ALL_PROJECTED_ATTRIBUTES","ProjectionExpression":"a","ExpressionAttributeNames":{"x":"a"}}`, "ValidationException",
			`ExpressionAttributeNames contains invalid key: Syntax error; key: "x"`},
		{"unused before select", `{"TableName":"rng","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"},":q":{"S":"a"}},"Select":"SPECIFIC_ATTRIBUTES"}`, "ValidationException",
			"Value provided in ExpressionAttributeValues unused in expressions: keys: {:q}"},
		{"projection syntax before select", `{"TableName":"rng",` + kce + `,"Select":"COUNT","ProjectionExpression":"a,,"}`, "ValidationException",
			`Invalid ProjectionExpression: Syntax error; token: ",", near: ",,"`},
		{"start key before select", `{"TableName":"rng",` + kce + `,"Select":"SPECIFIC_ATTRIBUTES","ExclusiveStartKey":{"pk":{"S":"a"}}}`, "ValidationException", "The provided starting key is invalid"},
		{"unknown index before name key", `{"TableName":"rng",` + kce + `,"IndexName":"nope","ProjectionExpression":"a","ExpressionAttributeNames":{"x":"a"}}`, "ValidationException",
			"The table does not have the specified index: nope"},
		{"legacy hash NE", `{"TableName":"rng","KeyConditions":{"pk":{"ComparisonOperator":"NE","AttributeValueList":[{"S":"a"}]}}}`, "ValidationException", "Query key condition not supported"},
		{"QueryFilter OR on one", `{"TableName":"rng",` + kc + `,` + qf + `,"ConditionalOperator":"OR"}`, "ValidationException",
			"ConditionalOperator can only be used when Filter or Expected has two or more elements"},
		{"QueryFilter OR on empty", `{"TableName":"rng",` + kc + `,"QueryFilter":{},"ConditionalOperator":"OR"}`, "ValidationException",
			"ConditionalOperator cannot be used without Filter or Expected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r.t = t
			r.wantError("Query", tt.body, tt.typ, tt.msg)
		})
	}
}

func TestQueryResults(t *testing.T) {
	r := newReadEnv(t)
	r.fillRange()
	const vals = `"ExpressionAttributeValues":{":p":{"S":"a"},":lo":{"N":"2"},":hi":{"N":"4"}}`
	tests := []struct {
		name                string
		body                string
		wantKeys            []string
		wantCount, wantScan int
		wantLEK             string // sk of LastEvaluatedKey, "" for none
	}{
		{"whole partition", `"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}`, []string{"1", "2", "3", "4", "5"}, 5, 5, ""},
		{"descending", `"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"ScanIndexForward":false`, []string{"5", "4", "3", "2", "1"}, 5, 5, ""},
		{"between", `"KeyConditionExpression":"pk = :p AND sk BETWEEN :lo AND :hi",` + vals, []string{"2", "3", "4"}, 3, 3, ""},
		{"greater", `"KeyConditionExpression":"pk = :p AND sk > :lo","ExpressionAttributeValues":{":p":{"S":"a"},":lo":{"N":"2"}}`, []string{"3", "4", "5"}, 3, 3, ""},
		{"empty partition", `"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"zz"}}`, []string{}, 0, 0, ""},
		{"limit stops early", `"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Limit":2`, []string{"1", "2"}, 2, 2, "2"},
		// AWS (and DynamoDB Local) return LastEvaluatedKey when Limit is
		// reached even though no item remains.
		{"limit reached at the end", `"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Limit":5`, []string{"1", "2", "3", "4", "5"}, 5, 5, "5"},
		{"limit above count", `"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Limit":6`, []string{"1", "2", "3", "4", "5"}, 5, 5, ""},
		// Limit counts items read before the filter.
		{"limit with filter", `"KeyConditionExpression":"pk = :p","FilterExpression":"v < :x","ExpressionAttributeValues":{":p":{"S":"a"},":x":{"N":"15"}},"Limit":2`, []string{"1"}, 1, 2, "2"},
		{"filter drops all", `"KeyConditionExpression":"pk = :p","FilterExpression":"v > :x","ExpressionAttributeValues":{":p":{"S":"a"},":x":{"N":"1500"}},"Limit":2`, []string{}, 0, 2, "2"},
		{"start key", `"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"ExclusiveStartKey":{"pk":{"S":"a"},"sk":{"N":"2"}}`, []string{"3", "4", "5"}, 3, 3, ""},
		{"start key between items descending", `"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"ScanIndexForward":false,"ExclusiveStartKey":{"pk":{"S":"a"},"sk":{"N":"2.5"}}`, []string{"2", "1"}, 2, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r.t = t
			out := r.ok("Query", `{"TableName":"rng",`+tt.body+`}`)
			if got := sortKeys(t, out, "sk"); !slices.Equal(got, tt.wantKeys) {
				t.Errorf("got items %v, want %v", got, tt.wantKeys)
			}
			if got := out["Count"]; got != float64(tt.wantCount) {
				t.Errorf("got Count %v, want %d", got, tt.wantCount)
			}
			if got := out["ScannedCount"]; got != float64(tt.wantScan) {
				t.Errorf("got ScannedCount %v, want %d", got, tt.wantScan)
			}
			lek, _ := out["LastEvaluatedKey"].(map[string]any)
			gotLEK := ""
			if lek != nil {
				gotLEK = lek["sk"].(map[string]any)["N"].(string)
				if len(lek) != 2 || lek["pk"] == nil {
					t.Errorf("LastEvaluatedKey %v is not the table key", lek)
				}
			}
			if gotLEK != tt.wantLEK {
				t.Errorf("got LastEvaluatedKey sk %q, want %q", gotLEK, tt.wantLEK)
			}
		})
	}
}

func TestQuerySelectAndProjection(t *testing.T) {
	r := newReadEnv(t)
	r.fillRange()
	out := r.ok("Query", `{"TableName":"rng","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Select":"COUNT"}`)
	if _, ok := out["Items"]; ok {
		t.Errorf("Select COUNT returned Items: %v", out)
	}
	if out["Count"] != 5.0 || out["ScannedCount"] != 5.0 {
		t.Errorf("got Count %v ScannedCount %v, want 5 5", out["Count"], out["ScannedCount"])
	}
	out = r.ok("Query", `{"TableName":"rng","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"ProjectionExpression":"#v","ExpressionAttributeNames":{"#v":"v"},"Limit":1}`)
	items := out["Items"].([]any)
	if len(items) != 1 {
		t.Fatalf("got %d items, want 1", len(items))
	}
	if got, _ := json.Marshal(items[0]); string(got) != `{"v":{"N":"10"}}` {
		t.Errorf("got projected item %s, want {\"v\":{\"N\":\"10\"}}", got)
	}
	out = r.ok("Query", `{"TableName":"rng","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"zz"}}}`)
	if items, ok := out["Items"].([]any); !ok || len(items) != 0 {
		t.Errorf("empty result: got Items %v, want []", out["Items"])
	}
}

// TestQueryLegacy runs the legacy parameters; expected answers recorded
// from DynamoDB Local on the same data.
func TestQueryLegacy(t *testing.T) {
	r := newReadEnv(t)
	r.fillRange()
	const kc = `"KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]},"sk":{"ComparisonOperator":"BETWEEN","AttributeValueList":[{"N":"2"},{"N":"4"}]}}`
	tests := []struct {
		name, op, body, want string
	}{
		{"KeyConditions QueryFilter AttributesToGet", "Query",
			`{"TableName":"rng",` + kc + `,"QueryFilter":{"v":{"ComparisonOperator":"NE","AttributeValueList":[{"N":"30"}]}},"AttributesToGet":["sk","v"]}`,
			`{"Count":2,"Items":[{"sk":{"N":"2"},"v":{"N":"20"}},{"sk":{"N":"4"},"v":{"N":"40"}}],"ScannedCount":3}`},
		{"QueryFilter with OR", "Query",
			`{"TableName":"rng",` + kc + `,"QueryFilter":{"v":{"ComparisonOperator":"EQ","AttributeValueList":[{"N":"30"}]},"s":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"x4"}]}},"ConditionalOperator":"OR","AttributesToGet":["sk"]}`,
			`{"Count":2,"Items":[{"sk":{"N":"3"}},{"sk":{"N":"4"}}],"ScannedCount":3}`},
		// AWS accepts KeyConditions beside FilterExpression and ProjectionExpression.
		{"KeyConditions with expressions", "Query",
			`{"TableName":"rng","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"FilterExpression":"v >= :x","ExpressionAttributeValues":{":x":{"N":"40"}},"ProjectionExpression":"sk"}`,
			`{"Count":2,"Items":[{"sk":{"N":"4"}},{"sk":{"N":"5"}}],"ScannedCount":5}`},
		{"begins_with on a string sort key", "Query",
			`{"TableName":"str","KeyConditionExpression":"pk = :p AND begins_with(sk, :s)","ExpressionAttributeValues":{":p":{"S":"a"},":s":{"S":"ab"}}}`,
			`{"Count":2,"Items":[{"pk":{"S":"a"},"sk":{"S":"ab"}},{"pk":{"S":"a"},"sk":{"S":"abc"}}],"ScannedCount":2}`},
		{"ScanFilter", "Scan",
			`{"TableName":"rng","ScanFilter":{"v":{"ComparisonOperator":"BETWEEN","AttributeValueList":[{"N":"20"},{"N":"30"}]}},"AttributesToGet":["sk"]}`,
			`{"Count":2,"Items":[{"sk":{"N":"2"}},{"sk":{"N":"3"}}],"ScannedCount":8}`},
		{"specific attributes", "Query",
			`{"TableName":"rng","KeyConditionExpression":"pk = :p AND sk <= :s","ExpressionAttributeValues":{":p":{"S":"a"},":s":{"N":"2"}},"Select":"SPECIFIC_ATTRIBUTES","ProjectionExpression":"s, v"}`,
			`{"Count":2,"Items":[{"s":{"S":"x1"},"v":{"N":"10"}},{"s":{"S":"x2"},"v":{"N":"20"}}],"ScannedCount":2}`},
	}
	r.createTable("str", "pk", "S", "sk", "S")
	r.putItems("str", []string{`{"pk":{"S":"a"},"sk":{"S":"a"}}`, `{"pk":{"S":"a"},"sk":{"S":"ab"}}`, `{"pk":{"S":"a"},"sk":{"S":"abc"}}`, `{"pk":{"S":"a"},"sk":{"S":"b"}}`})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r.t = t
			out := r.ok(tt.op, tt.body)
			if tt.op == "Scan" {
				// Scan order is the emulator's own; compare as a set.
				items := out["Items"].([]any)
				slices.SortFunc(items, func(a, b any) int {
					x, _ := json.Marshal(a)
					y, _ := json.Marshal(b)
					return strings.Compare(string(x), string(y))
				})
			}
			if got, _ := json.Marshal(out); string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestQueryConsumedCapacity(t *testing.T) {
	r := newReadEnv(t)
	r.fillRange()
	tests := []struct {
		name, extra string
		want        string
	}{
		{"eventually consistent", `"ReturnConsumedCapacity":"TOTAL"`, `{"CapacityUnits":0.5,"TableName":"rng"}`},
		{"consistent", `"ReturnConsumedCapacity":"TOTAL","ConsistentRead":true`, `{"CapacityUnits":1,"TableName":"rng"}`},
		{"indexes", `"ReturnConsumedCapacity":"INDEXES"`, `{"CapacityUnits":0.5,"Table":{"CapacityUnits":0.5},"TableName":"rng"}`},
		{"none", `"ReturnConsumedCapacity":"NONE"`, `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r.t = t
			out := r.ok("Query", `{"TableName":"rng","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}},`+tt.extra+`}`)
			got, _ := json.Marshal(out["ConsumedCapacity"])
			if string(got) != tt.want {
				t.Errorf("got ConsumedCapacity %s, want %s", got, tt.want)
			}
		})
	}
}

// TestQueryPageSize checks the 1 MB page: the page stops after the item
// that brings the data read to 1 MB, and capacity counts every item read.
func TestQueryPageSize(t *testing.T) {
	r := newReadEnv(t)
	r.createTable("big", "pk", "S", "sk", "N")
	pad := strings.Repeat("x", 300*1024)
	var items []string
	for i := 1; i <= 5; i++ {
		items = append(items, fmt.Sprintf(`{"pk":{"S":"p"},"sk":{"N":"%d"},"d":{"S":%q}}`, i, pad))
	}
	r.putItems("big", items)
	// Each item is 307200 + len("d") + pk and sk = 307211 bytes; four reach 1 MB.
	out := r.ok("Query", `{"TableName":"big","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p"}},"ProjectionExpression":"sk","ReturnConsumedCapacity":"TOTAL"}`)
	if got := sortKeys(t, out, "sk"); !slices.Equal(got, []string{"1", "2", "3", "4"}) {
		t.Errorf("got first page %v, want [1 2 3 4]", got)
	}
	if out["LastEvaluatedKey"] == nil {
		t.Errorf("first page has no LastEvaluatedKey")
	}
	// ceil(4*307211/4096) = 301 units, halved.
	if got := out["ConsumedCapacity"].(map[string]any)["CapacityUnits"]; got != 150.5 {
		t.Errorf("got CapacityUnits %v, want 150.5", got)
	}
	out = r.ok("Query", `{"TableName":"big","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p"}},"ProjectionExpression":"sk","ExclusiveStartKey":{"pk":{"S":"p"},"sk":{"N":"4"}}}`)
	if got := sortKeys(t, out, "sk"); !slices.Equal(got, []string{"5"}) || out["LastEvaluatedKey"] != nil {
		t.Errorf("got second page %v (LastEvaluatedKey %v), want [5] and none", got, out["LastEvaluatedKey"])
	}
}

// pageAll walks a Query or Scan to the end with ExclusiveStartKey and
// returns the pk/sk of every item seen, in order.
func pageAll(r *readEnv, op, body string) []string {
	r.t.Helper()
	var seen []string
	start := ""
	for pages := 0; ; pages++ {
		if pages > 1000 {
			r.t.Fatalf("%s did not finish", op)
		}
		out := r.ok(op, body[:len(body)-1]+start+"}")
		for _, it := range out["Items"].([]any) {
			m := it.(map[string]any)
			seen = append(seen, fmt.Sprint(m["pk"].(map[string]any)["S"], "/", m["sk"].(map[string]any)["N"]))
		}
		lek, ok := out["LastEvaluatedKey"]
		if !ok {
			return seen
		}
		b, _ := json.Marshal(lek)
		start = `,"ExclusiveStartKey":` + string(b)
	}
}

// fillPaging fills table "pg" with 7 partitions of 1..13 items.
func (r *readEnv) fillPaging() (all []string) {
	r.createTable("pgs", "pk", "S", "sk", "N")
	var items []string
	for p := 0; p < 7; p++ {
		for s := 1; s <= 1+2*p; s++ {
			items = append(items, fmt.Sprintf(`{"pk":{"S":"p%d"},"sk":{"N":"%d"},"f":{"N":"%d"}}`, p, s, s%3))
			all = append(all, fmt.Sprintf("p%d/%d", p, s))
		}
	}
	r.putItems("pgs", items)
	return all
}

func TestQueryPaging(t *testing.T) {
	r := newReadEnv(t)
	r.fillPaging()
	for _, limit := range []int{1, 2, 3, 13, 14} {
		for _, forward := range []bool{true, false} {
			t.Run(fmt.Sprintf("limit %d forward %v", limit, forward), func(t *testing.T) {
				r.t = t
				got := pageAll(r, "Query", fmt.Sprintf(`{"TableName":"pgs","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p6"}},"Limit":%d,"ScanIndexForward":%v}`, limit, forward))
				var want []string
				for s := 1; s <= 13; s++ {
					want = append(want, fmt.Sprintf("p6/%d", s))
				}
				if !forward {
					slices.Reverse(want)
				}
				if !slices.Equal(got, want) {
					t.Errorf("got %v, want %v", got, want)
				}
			})
		}
	}
}

func TestScanPaging(t *testing.T) {
	r := newReadEnv(t)
	all := r.fillPaging()
	whole := pageAll(r, "Scan", `{"TableName":"pgs"}`)
	for _, limit := range []int{1, 3, 10, 48, 49, 50} {
		t.Run(fmt.Sprintf("limit %d", limit), func(t *testing.T) {
			r.t = t
			got := pageAll(r, "Scan", fmt.Sprintf(`{"TableName":"pgs","Limit":%d}`, limit))
			if !slices.Equal(got, whole) {
				t.Errorf("paged scan %v differs from one-page scan %v", got, whole)
			}
		})
	}
	got := slices.Clone(whole)
	slices.Sort(got)
	want := slices.Clone(all)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("scan saw %v, want each of %v once", got, want)
	}
}

func TestParallelScan(t *testing.T) {
	r := newReadEnv(t)
	all := r.fillPaging()
	var got []string
	for seg := 0; seg < 4; seg++ {
		part := pageAll(r, "Scan", fmt.Sprintf(`{"TableName":"pgs","Segment":%d,"TotalSegments":4,"Limit":4}`, seg))
		got = append(got, part...)
	}
	slices.Sort(got)
	want := slices.Clone(all)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("segments together saw %v, want each of %v once", got, want)
	}
	// A start key from another segment is rejected.
	out := r.ok("Scan", `{"TableName":"pgs","Segment":0,"TotalSegments":4,"Limit":1}`)
	b, _ := json.Marshal(out["LastEvaluatedKey"])
	r.wantError("Scan", `{"TableName":"pgs","Segment":1,"TotalSegments":4,"ExclusiveStartKey":`+string(b)+`}`, "ValidationException",
		"The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. TotalSegments: 4 Segment: 1")
}

func TestScanFilter(t *testing.T) {
	r := newReadEnv(t)
	all := r.fillPaging()
	out := r.ok("Scan", `{"TableName":"pgs","FilterExpression":"f = :z","ExpressionAttributeValues":{":z":{"N":"0"}},"ReturnConsumedCapacity":"TOTAL"}`)
	want := 0
	for _, k := range all {
		var p, s int
		fmt.Sscanf(k, "p%d/%d", &p, &s)
		if s%3 == 0 {
			want++
		}
	}
	if out["Count"] != float64(want) || out["ScannedCount"] != float64(len(all)) {
		t.Errorf("got Count %v ScannedCount %v, want %d %d", out["Count"], out["ScannedCount"], want, len(all))
	}
}

func TestScanValidation(t *testing.T) {
	r := newReadEnv(t)
	r.createTable("hash", "id", "S", "", "")
	tests := []struct {
		name, body, typ, msg string
	}{
		{"missing table", `{"TableName":"nope"}`, "ResourceNotFoundException", "Requested resource not found"},
		{"segment alone", `{"TableName":"hash","Segment":0}`, "ValidationException", apierr.MsgSegmentWithoutTotal},
		{"total alone", `{"TableName":"hash","TotalSegments":2}`, "ValidationException", apierr.MsgTotalWithoutSegment},
		{"segment too large", `{"TableName":"hash","Segment":2,"TotalSegments":2}`, "ValidationException",
			"The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 2 is not less than TotalSegments: 2"},
		{"negative segment", `{"TableName":"hash","Segment":-1,"TotalSegments":2}`, "ValidationException",
			"1 validation error detected: Value '-1' at 'segment' failed to satisfy constraint: Member must have value greater than or equal to 0"},
		{"total zero", `{"TableName":"hash","Segment":0,"TotalSegments":0}`, "ValidationException",
			"1 validation error detected: Value '0' at 'totalSegments' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"total too large", `{"TableName":"hash","Segment":0,"TotalSegments":1000001}`, "ValidationException",
			"1 validation error detected: Value '1000001' at 'totalSegments' failed to satisfy constraint: Member must have value less than or equal to 1000000"},
		{"two constraints", `{"TableName":"hash","Limit":0,"Select":"X"}`, "ValidationException",
			"2 validation errors detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1; Value 'X' at 'select' failed to satisfy constraint: Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]"},
		{"ScanFilter with FilterExpression", `{"TableName":"hash","ScanFilter":{"v":{"ComparisonOperator":"GT","AttributeValueList":[{"N":"1"}]}},"FilterExpression":"v > :p","ExpressionAttributeValues":{":p":{"S":"a"}}}`,
			"ValidationException", "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {ScanFilter} Expression parameters: {FilterExpression}"},
		{"values with projection only", `{"TableName":"hash","ProjectionExpression":"a","ExpressionAttributeValues":{":a":{"S":"x"}}}`, "ValidationException",
			"ExpressionAttributeValues can only be specified when using expressions: FilterExpression is null"},
		{"all projected", `{"TableName":"hash","Select":"ALL_PROJECTED_ATTRIBUTES"}`, "ValidationException", apierr.MsgAllProjectedNoIndex},
		{"unknown index", `{"TableName":"hash","IndexName":"foo"}`, "ValidationException", "The table does not have the specified index: foo"},
		{"start key wrong type", `{"TableName":"hash","ExclusiveStartKey":{"id":{"N":"1"}}}`, "ValidationException",
			"The provided starting key is invalid: The provided key element does not match the schema"},
		{"start key extra", `{"TableName":"hash","ExclusiveStartKey":{"id":{"S":"a"},"b":{"S":"x"}}}`, "ValidationException",
			"The provided starting key is invalid: The provided key element does not match the schema"},
		{"start key empty", `{"TableName":"hash","ExclusiveStartKey":{"id":{"S":""}}}`, "ValidationException",
			"The provided starting key is invalid: One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: id"},
		{"name key before filter syntax", `{"TableName":"hash","FilterExpression":"a = = b","ExpressionAttributeNames":{"x":"a"}}`, "ValidationException",
			`ExpressionAttributeNames contains invalid key: Syntax error; key: "x"`},
		{"value key before unused name", `{"TableName":"hash","FilterExpression":"a = :v","ExpressionAttributeNames":{"#u":"u"},"ExpressionAttributeValues":{":v":{"N":"1"},"w":{"N":"1"}}}`, "ValidationException",
			`ExpressionAttributeValues contains invalid key: Syntax error; key: "w"`},
		{"value key before empty name", `{"TableName":"hash","FilterExpression":"a = :v","ExpressionAttributeNames":{"#x":""},"ExpressionAttributeValues":{"v":{"N":"1"}}}`, "ValidationException",
			`ExpressionAttributeValues contains invalid key: Syntax error; key: "v"`},
		{"empty name before select", `{"TableName":"hash","Select":"SPECIFIC_ATTRIBUTES","FilterExpression":"a = :v","ExpressionAttributeNames":{"#x":""},"ExpressionAttributeValues":{":v":{"N":"1"}}}`, "ValidationException",
			"ExpressionAttributeNames contains invalid value: Empty attribute name for key #x"},
		{"start key before select", `{"TableName":"hash","Select":"SPECIFIC_ATTRIBUTES","ExclusiveStartKey":{"id":{"N":"1"}}}`, "ValidationException",
			"The provided starting key is invalid: The provided key element does not match the schema"},
		{"ScanFilter AND on one", `{"TableName":"hash","ScanFilter":{"v":{"ComparisonOperator":"GT","AttributeValueList":[{"N":"1"}]}},"ConditionalOperator":"AND"}`, "ValidationException",
			"ConditionalOperator can only be used when Filter or Expected has two or more elements"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r.t = t
			r.wantError("Scan", tt.body, tt.typ, tt.msg)
		})
	}
}

func BenchmarkQueryPartition(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			r := newReadEnv(b)
			r.createTable("bqt", "pk", "S", "sk", "N")
			var items []string
			for i := 0; i < n; i++ {
				items = append(items, fmt.Sprintf(`{"pk":{"S":"p"},"sk":{"N":"%d"},"a":{"S":"some text value"},"n":{"N":"%d"}}`, i, i))
				items = append(items, fmt.Sprintf(`{"pk":{"S":"other"},"sk":{"N":"%d"}}`, i))
			}
			r.putItems("bqt", items)
			body := `{"TableName":"bqt","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p"}}}`
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				resp, _ := doService(b, r.e, "DynamoDB_20120810.Query", testkit.DefaultAuth, body)
				if resp.StatusCode != http.StatusOK {
					b.Fatal(resp.Status)
				}
			}
		})
	}
}

func BenchmarkScanFiltered(b *testing.B) {
	r := newReadEnv(b)
	r.createTable("bst", "pk", "S", "", "")
	var items []string
	for i := 0; i < 1000; i++ {
		items = append(items, fmt.Sprintf(`{"pk":{"S":"p%d"},"a":{"S":"some text value"},"n":{"N":"%d"}}`, i, i%10))
	}
	r.putItems("bst", items)
	body := `{"TableName":"bst","FilterExpression":"n = :z","ExpressionAttributeValues":{":z":{"N":"0"}},"Limit":500}`
	b.ReportAllocs()
	for b.Loop() {
		resp, _ := doService(b, r.e, "DynamoDB_20120810.Scan", testkit.DefaultAuth, body)
		if resp.StatusCode != http.StatusOK {
			b.Fatal(resp.Status)
		}
	}
}
