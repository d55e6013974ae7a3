package wire

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
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
		{"sizes differ", `{"Items":[{"a":{"S":"1"}},{"a":{"S":"1"},"b":{"S":"2"},"c":{"S":"3"},"d":{"S":"4"},"e":{"S":"5"},"f":{"S":"6"},"g":{"S":"7"},"h":{"S":"8"},"i":{"S":"9"},"j":{"S":"10"}},{}],"Key":{"k":{"S":"key"},"l":{"N":"2"}}}`,
			in{Items: []WireItem{{"a": storage.S("1")}, {"a": storage.S("1"), "b": storage.S("2"), "c": storage.S("3"), "d": storage.S("4"), "e": storage.S("5"),
				"f": storage.S("6"), "g": storage.S("7"), "h": storage.S("8"), "i": storage.S("9"), "j": storage.S("10")}, {}},
				Key: WireItem{"k": storage.S("key"), "l": storage.N("2")}}},
		{"malformed after a hint", `{"Items":[{"a":{"S":"1"}},{"a":{"S":"1"},}]}`, in{}},
		{"large", `{"Items":[{"a":{"S":"` + big + `"}},{"a":{"S":"two"}}],"Key":{"k":{"S":"key"}}}`,
			in{Items: []WireItem{{"a": storage.S(big)}, {"a": storage.S("two")}}, Key: WireItem{"k": storage.S("key")}}},
	}
	for _, tc := range cases {
		body := []byte(tc.body)
		var got in
		_, err := DecodeRequestDeferred(body, &got)
		if tc.name == "malformed after a hint" {
			var direct in
			_, want := DecodeRequestDeferred([]byte(`{"Items":[{"a":{"S":"1"},}]}`), &direct)
			if err == nil || want == nil || err.Error() != want.Error() {
				t.Errorf("%s: got error %v, want %v (as without an item before)", tc.name, err, want)
			}
			continue
		}
		if err != nil {
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
