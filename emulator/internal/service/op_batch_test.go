package service

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// getKeys returns the id (S) or pk/sk of every item BatchGetItem returned
// for table, sorted.
func responseIDs(t testing.TB, out map[string]any, table string) []string {
	t.Helper()
	items, _ := out["Responses"].(map[string]any)[table].([]any)
	ids := []string{}
	for _, it := range items {
		b, _ := json.Marshal(it)
		ids = append(ids, string(b))
	}
	slices.Sort(ids)
	return ids
}

func TestBatchGetItem(t *testing.T) {
	r := newReadEnv(t)
	r.fillRange()
	r.createTable("hash", "id", "S", "", "")
	r.putItems("hash", []string{`{"id":{"S":"h1"},"a":{"N":"1"},"b":{"N":"2"}}`, `{"id":{"S":"h2"},"a":{"N":"3"}}`})

	out := r.ok("BatchGetItem", `{"RequestItems":{
		"hash":{"Keys":[{"id":{"S":"h1"}},{"id":{"S":"h2"}},{"id":{"S":"missing"}}],"ProjectionExpression":"#a","ExpressionAttributeNames":{"#a":"a"}},
		"rng":{"Keys":[{"pk":{"S":"a"},"sk":{"N":"1"}}],"ConsistentRead":true,"ProjectionExpression":"v"}},
		"ReturnConsumedCapacity":"TOTAL"}`)
	if got, want := responseIDs(t, out, "hash"), []string{`{"a":{"N":"1"}}`, `{"a":{"N":"3"}}`}; !slices.Equal(got, want) {
		t.Errorf("hash: got %v, want %v", got, want)
	}
	if got, want := responseIDs(t, out, "rng"), []string{`{"v":{"N":"10"}}`}; !slices.Equal(got, want) {
		t.Errorf("rng: got %v, want %v", got, want)
	}
	if u, _ := out["UnprocessedKeys"].(map[string]any); u == nil || len(u) != 0 {
		t.Errorf("got UnprocessedKeys %v, want {}", out["UnprocessedKeys"])
	}
	// Per item, rounded up to 4 KB each: 3 eventually consistent reads on
	// hash (1.5), one consistent read on rng (1).
	cc, _ := json.Marshal(out["ConsumedCapacity"])
	if want := `[{"CapacityUnits":1.5,"TableName":"hash"},{"CapacityUnits":1,"TableName":"rng"}]`; string(cc) != want {
		t.Errorf("got ConsumedCapacity %s, want %s", cc, want)
	}
}

func TestBatchGetItemValidation(t *testing.T) {
	r := newReadEnv(t)
	r.createTable("hash", "id", "S", "", "")
	keys := func(n int) string {
		ks := make([]string, n)
		for i := range ks {
			ks[i] = fmt.Sprintf(`{"id":{"S":"k%d"}}`, i)
		}
		return strings.Join(ks, ",")
	}
	tests := []struct {
		name, body, typ, msg string
	}{
		{"no request items", `{}`, "ValidationException",
			"1 validation error detected: Value null at 'requestItems' failed to satisfy constraint: Member must not be null"},
		{"empty request items", `{"RequestItems":{}}`, "ValidationException", "1 validation error detected: Value at 'RequestItems' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"empty keys", `{"RequestItems":{"hash":{"Keys":[]}}}`, "ValidationException",
			"1 validation error detected: Value at 'RequestItems.hash.member.Keys' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"too many in one table", `{"RequestItems":{"hash":{"Keys":[` + keys(101) + `]}}}`, "ValidationException",
			"1 validation error detected: Value at 'RequestItems.hash.member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100"},
		{"too many over tables", `{"RequestItems":{"hash":{"Keys":[` + keys(60) + `]},"nope":{"Keys":[` + keys(41) + `]}}}`, "ValidationException", apierr.MsgBatchGetTooMany},
		{"duplicates", `{"RequestItems":{"hash":{"Keys":[{"id":{"S":"a"}},{"id":{"S":"a"}}]}}}`, "ValidationException", apierr.MsgBatchDuplicates},
		{"missing table", `{"RequestItems":{"nope":{"Keys":[{"id":{"S":"a"}}]}}}`, "ResourceNotFoundException", "Requested resource not found"},
		{"wrong key type", `{"RequestItems":{"hash":{"Keys":[{"id":{"N":"1"}}]}}}`, "ValidationException", "The provided key element does not match the schema"},
		{"extra key attribute", `{"RequestItems":{"hash":{"Keys":[{"id":{"S":"1"},"x":{"S":"1"}}]}}}`, "ValidationException", "The provided key element does not match the schema"},
		{"projection and AttributesToGet", `{"RequestItems":{"hash":{"Keys":[{"id":{"S":"1"}}],"ProjectionExpression":"a","AttributesToGet":["a"]}}}`, "ValidationException",
			"Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"},
		// As DynamoDB Local: across tables too, before tables, keys or the
		// total number of keys are looked at.
		{"projection and AttributesToGet in other tables", `{"RequestItems":{"hash":{"Keys":[{"id":{"S":"1"}}],"ProjectionExpression":"a"},"nope":{"Keys":[{"id":{"N":"1"}}],"AttributesToGet":["a"]}}}`, "ValidationException",
			"Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"},
		{"mixed before too many keys", `{"RequestItems":{"hash":{"Keys":[` + keys(60) + `],"ProjectionExpression":"a"},"nope":{"Keys":[` + keys(41) + `],"AttributesToGet":["a"]}}}`, "ValidationException",
			"Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"},
		{"name key without hash", `{"RequestItems":{"hash":{"Keys":[{"id":{"S":"1"}}],"ProjectionExpression":"a,,","ExpressionAttributeNames":{"x":"a"}}}}`, "ValidationException",
			`ExpressionAttributeNames contains invalid key: Syntax error; key: "x"`},
		{"names without projection", `{"RequestItems":{"hash":{"Keys":[{"id":{"S":"1"}}],"ExpressionAttributeNames":{"#a":"a"}}}}`, "ValidationException",
			"ExpressionAttributeNames can only be specified when using expressions"},
		{"bad capacity mode", `{"RequestItems":{"hash":{"Keys":[{"id":{"S":"1"}}]}},"ReturnConsumedCapacity":"ALL"}`, "ValidationException",
			"1 validation error detected: Value 'ALL' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r.t = t
			r.wantError("BatchGetItem", tt.body, tt.typ, tt.msg)
		})
	}
}

// TestBatchGetItemUnprocessed fills a table with 45 items of almost 400 KB:
// reading them all would pass 16 MB, so the rest come back as
// UnprocessedKeys, with the table's projection parameters.
func TestBatchGetItemUnprocessed(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 18 MB")
	}
	r := newReadEnv(t)
	r.createTable("bigs", "id", "N", "", "")
	pad := strings.Repeat("x", 399*1024)
	var items, keys []string
	for i := 0; i < 45; i++ {
		items = append(items, fmt.Sprintf(`{"id":{"N":"%d"},"d":{"S":%q}}`, i, pad))
		keys = append(keys, fmt.Sprintf(`{"id":{"N":"%d"}}`, i))
	}
	r.putItems("bigs", items)
	out := r.ok("BatchGetItem", `{"RequestItems":{"bigs":{"Keys":[`+strings.Join(keys, ",")+`],"ProjectionExpression":"id"}}}`)
	got := len(out["Responses"].(map[string]any)["bigs"].([]any))
	u := out["UnprocessedKeys"].(map[string]any)["bigs"].(map[string]any)
	left := len(u["Keys"].([]any))
	// 16 MB / (399 KB + 6 bytes) holds 41 items.
	if got != 41 || left != 4 {
		t.Errorf("got %d items and %d unprocessed keys, want 41 and 4", got, left)
	}
	if u["ProjectionExpression"] != "id" {
		t.Errorf("UnprocessedKeys lost the projection: %v", u)
	}
	// AttributesToGet comes back in the request's order, though the
	// projection sorted the request's list in place.
	out = r.ok("BatchGetItem", `{"RequestItems":{"bigs":{"Keys":[`+strings.Join(keys, ",")+`],"AttributesToGet":["id","zz","d","a"]}}}`)
	u = out["UnprocessedKeys"].(map[string]any)["bigs"].(map[string]any)
	require.Len(t, u["Keys"], 4)
	require.Equal(t, []any{"id", "zz", "d", "a"}, u["AttributesToGet"])
	require.Len(t, out["Responses"].(map[string]any)["bigs"], 41)
}

func TestBatchWriteItem(t *testing.T) {
	r := newReadEnv(t)
	r.fillRange()
	r.createTable("hash", "id", "S", "", "")
	out := r.ok("BatchWriteItem", `{"RequestItems":{
		"hash":[{"PutRequest":{"Item":{"id":{"S":"w1"},"a":{"S":"x"}}}},{"PutRequest":{"Item":{"id":{"S":"w2"}}}}],
		"rng":[{"DeleteRequest":{"Key":{"pk":{"S":"a"},"sk":{"N":"1"}}}},{"DeleteRequest":{"Key":{"pk":{"S":"zz"},"sk":{"N":"1"}}}}]},
		"ReturnConsumedCapacity":"INDEXES"}`)
	if got, _ := json.Marshal(out["UnprocessedItems"]); string(got) != `{}` {
		t.Errorf("got UnprocessedItems %s, want {}", got)
	}
	cc, _ := json.Marshal(out["ConsumedCapacity"])
	if want := `[{"CapacityUnits":2,"Table":{"CapacityUnits":2},"TableName":"hash"},{"CapacityUnits":2,"Table":{"CapacityUnits":2},"TableName":"rng"}]`; string(cc) != want {
		t.Errorf("got ConsumedCapacity %s, want %s", cc, want)
	}
	scan := r.ok("Scan", `{"TableName":"hash"}`)
	if scan["Count"] != 2.0 {
		t.Errorf("hash holds %v items, want 2", scan["Count"])
	}
	q := r.ok("Query", `{"TableName":"rng","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}}`)
	if got := sortKeys(t, q, "sk"); !slices.Equal(got, []string{"2", "3", "4", "5"}) {
		t.Errorf("after delete partition a holds %v, want [2 3 4 5]", got)
	}
}

func TestBatchWriteItemValidation(t *testing.T) {
	r := newReadEnv(t)
	r.createTable("hash", "id", "S", "", "")
	puts := func(n int, table string) string {
		ps := make([]string, n)
		for i := range ps {
			ps[i] = fmt.Sprintf(`{"PutRequest":{"Item":{"id":{"S":"%s%d"}}}}`, table, i)
		}
		return strings.Join(ps, ",")
	}
	const ok = `{"PutRequest":{"Item":{"id":{"S":"ok"}}}}`
	big := strings.Repeat("x", 400*1024)
	tests := []struct {
		name, body, typ, msg string
	}{
		{"no request items", `{}`, "ValidationException",
			"1 validation error detected: Value null at 'requestItems' failed to satisfy constraint: Member must not be null"},
		{"empty request items", `{"RequestItems":{}}`, "ValidationException", "The requestItems parameter is required for BatchWriteItem"},
		{"empty list", `{"RequestItems":{"hash":[]}}`, "ValidationException", "1 validation error detected: Value '{hash=[]}' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]"},
		// More than 25 for one table: TestBatchWriteTableConstraint.
		{"too many over tables", `{"RequestItems":{"hash":[` + puts(13, "h") + `],"nope":[` + puts(13, "n") + `]}}`, "ValidationException", apierr.MsgBatchWriteTooMany},
		{"empty write request", `{"RequestItems":{"hash":[` + ok + `,{}]}}`, "ValidationException", apierr.MsgWriteRequestNotOne},
		{"put and delete in one", `{"RequestItems":{"hash":[{"PutRequest":{"Item":{"id":{"S":"a"}}},"DeleteRequest":{"Key":{"id":{"S":"a"}}}}]}}`, "ValidationException", apierr.MsgWriteRequestNotOne},
		{"duplicate put and delete", `{"RequestItems":{"hash":[{"PutRequest":{"Item":{"id":{"S":"a"}}}},{"DeleteRequest":{"Key":{"id":{"S":"a"}}}}]}}`, "ValidationException", apierr.MsgBatchDuplicates},
		{"missing table", `{"RequestItems":{"hash":[` + ok + `],"nope":[` + ok + `]}}`, "ResourceNotFoundException", "Requested resource not found"},
		{"put wrong key type", `{"RequestItems":{"hash":[` + ok + `,{"PutRequest":{"Item":{"id":{"N":"1"}}}}]}}`, "ValidationException",
			"The provided key element does not match the schema"},
		{"put missing key", `{"RequestItems":{"hash":[` + ok + `,{"PutRequest":{"Item":{"x":{"S":"1"}}}}]}}`, "ValidationException",
			"The provided key element does not match the schema"},
		{"put empty key", `{"RequestItems":{"hash":[` + ok + `,{"PutRequest":{"Item":{"id":{"S":""}}}}]}}`, "ValidationException",
			"One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: id"},
		{"delete extra attribute", `{"RequestItems":{"hash":[` + ok + `,{"DeleteRequest":{"Key":{"id":{"S":"1"},"b":{"S":"x"}}}}]}}`, "ValidationException",
			"The provided key element does not match the schema"},
		{"item too large", `{"RequestItems":{"hash":[` + ok + `,{"PutRequest":{"Item":{"id":{"S":"b"},"d":{"S":"` + big + `"}}}}]}}`, "ValidationException", apierr.MsgBatchItemTooLarge},
		{"bad metrics", `{"RequestItems":{"hash":[` + ok + `]},"ReturnItemCollectionMetrics":"ALL"}`, "ValidationException",
			"1 validation error detected: Value 'ALL' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member must satisfy enum value set: [SIZE, NONE]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r.t = t
			r.wantError("BatchWriteItem", tt.body, tt.typ, tt.msg)
		})
	}
	// No failed batch wrote anything, not even its valid first entry.
	r.t = t
	if out := r.ok("Scan", `{"TableName":"hash"}`); out["Count"] != 0.0 {
		t.Errorf("failed batches wrote %v items: %v", out["Count"], out["Items"])
	}
}
