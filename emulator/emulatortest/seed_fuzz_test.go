package emulatortest

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeItems: any bytes decode to DynamoDB JSON items or an error,
// never a panic; what decodes is DynamoDB JSON and marshals again.
func FuzzDecodeItems(f *testing.F) {
	for _, s := range []string{
		`[{"pk":{"S":"a"},"n":{"N":"1"}}]`,
		`[{"id":"u1","age":42.0,"admin":true,"tags":["a",1],"address":{"city":"Oslo","zip":null}}]`,
		`[]`, `{}`, `[{"pk":{"S":"a","N":"1"}}]`, `[null]`, `[1]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		items, err := decodeItems(b)
		if err != nil {
			return
		}
		if !isDynamoDBJSON(items) {
			t.Fatalf("decodeItems(%q) = %v: not DynamoDB JSON", b, items)
		}
		if _, err := json.Marshal(items); err != nil {
			t.Fatalf("decodeItems(%q): %v", b, err)
		}
	})
}
