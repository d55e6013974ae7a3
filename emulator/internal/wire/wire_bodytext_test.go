package wire

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/storage"
)

// TestItemsShareBodyText decodes requests of several items, small (their
// strings share one string of the body) and past maxBodyText (each item's
// text copied on its own), and checks every item decodes as it reads,
// escapes and a body reused afterwards included.
func TestItemsShareBodyText(t *testing.T) {
	type in struct {
		Items []WireItem
		Key   WireItem
	}
	big := strings.Repeat("x", maxBodyText)
	cases := []struct {
		name string
		body string
		want in
	}{
		{"small", `{"Items":[{"a":{"S":"one"},"n":{"N":"1"}},{"a":{"S":"t\u0077o"},"b":{"SS":["p","q"]}}],"Key":{"k":{"S":"key"}}}`,
			in{Items: []WireItem{{"a": storage.S("one"), "n": storage.N("1")}, {"a": storage.S("two"), "b": storage.SS([]string{"p", "q"})}},
				Key: WireItem{"k": storage.S("key")}}},
		{"large", `{"Items":[{"a":{"S":"` + big + `"}},{"a":{"S":"two"}}],"Key":{"k":{"S":"key"}}}`,
			in{Items: []WireItem{{"a": storage.S(big)}, {"a": storage.S("two")}}, Key: WireItem{"k": storage.S("key")}}},
	}
	for _, tc := range cases {
		body := []byte(tc.body)
		var got in
		if _, err := DecodeRequestDeferred(body, &got); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for i := range body {
			body[i] = '#' // the request's buffer reused: nothing decoded may change
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %.200v, want %.200v", tc.name, got, tc.want)
		}
	}
}
