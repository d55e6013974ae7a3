package wire

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/lease"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

// recycleInput has the members whose maps the decoder may reuse.
type recycleInput struct {
	Key                       WireItem
	ExpressionAttributeNames  ExpressionNames
	ExpressionAttributeValues ExpressionValues
}

// TestRecycleReuse decodes requests one after another, giving each one's
// maps back, and checks every request decodes as it would into new maps:
// nothing of an earlier request shows through.
func TestRecycleReuse(t *testing.T) {
	bodies := []struct {
		name string
		body string
		want recycleInput
	}{
		{"first", `{"Key":{"pk":{"S":"a"},"sk":{"N":"1"}},"ExpressionAttributeNames":{"#c":"count","#d":"d"},"ExpressionAttributeValues":{":one":{"N":"1"},":s":{"S":"x"}}}`,
			recycleInput{
				Key:                       WireItem{"pk": storage.S("a"), "sk": storage.N("1")},
				ExpressionAttributeNames:  ExpressionNames{"#c": "count", "#d": "d"},
				ExpressionAttributeValues: ExpressionValues{":one": storage.N("1"), ":s": storage.S("x")},
			}},
		{"fewer entries", `{"Key":{"pk":{"S":"b"}},"ExpressionAttributeNames":{"#e":"e"},"ExpressionAttributeValues":{":z":{"N":"0"}}}`,
			recycleInput{
				Key:                       WireItem{"pk": storage.S("b")},
				ExpressionAttributeNames:  ExpressionNames{"#e": "e"},
				ExpressionAttributeValues: ExpressionValues{":z": storage.N("0")},
			}},
		{"empty maps", `{"Key":{},"ExpressionAttributeNames":{},"ExpressionAttributeValues":{}}`,
			recycleInput{Key: WireItem{}, ExpressionAttributeNames: ExpressionNames{}, ExpressionAttributeValues: ExpressionValues{}}},
		{"none", `{}`, recycleInput{}},
		{"item map", `{"Key":{"a":{"S":"1"},"b":{"S":"2"},"c":{"S":"3"},"d":{"S":"4"},"e":{"S":"5"},"f":{"S":"6"},"g":{"S":"7"},"h":{"S":"8"},"i":{"N":"9"},"j":{"BOOL":true}}}`,
			recycleInput{Key: WireItem{"a": storage.S("1"), "b": storage.S("2"), "c": storage.S("3"), "d": storage.S("4"), "e": storage.S("5"),
				"f": storage.S("6"), "g": storage.S("7"), "h": storage.S("8"), "i": storage.N("9"), "j": storage.Bool(true)}}},
		{"item map, other names", `{"Key":{"k":{"S":"1"},"b":{"S":"x"},"c":{"S":"3"},"d":{"S":"4"},"e":{"S":"5"},"f":{"S":"6"},"g":{"S":"7"},"h":{"S":"8"},"i":{"N":"10"}}}`,
			recycleInput{Key: WireItem{"k": storage.S("1"), "b": storage.S("x"), "c": storage.S("3"), "d": storage.S("4"), "e": storage.S("5"),
				"f": storage.S("6"), "g": storage.S("7"), "h": storage.S("8"), "i": storage.N("10")}}},
	}
	for round := range 3 {
		for _, tc := range bodies {
			var in recycleInput
			if _, err := DecodeRequestDeferred([]byte(tc.body), &in); err != nil {
				t.Fatalf("round %d %s: %v", round, tc.name, err)
			}
			if !reflect.DeepEqual(in, tc.want) {
				t.Errorf("round %d %s: got %#v, want %#v", round, tc.name, in, tc.want)
			}
			RecycleItem(in.Key)
			RecycleNames(in.ExpressionAttributeNames)
			RecycleValues(in.ExpressionAttributeValues)
		}
	}
}

// TestRecycleKeepsOnlySmall checks a map of more than itemRecycleMax
// entries is not kept for reuse, that an item's map of more than
// recycleMax is (cleared; under the race detector, poisoned: its values
// invalid), and that nil maps are ignored.
func TestRecycleKeepsOnlySmall(t *testing.T) {
	big := make(map[string]storage.Value)
	for i := range itemRecycleMax + 1 {
		big["a"+strconv.Itoa(i)] = storage.N("1")
	}
	RecycleItem(big)
	RecycleItem(nil)
	RecycleNames(nil)
	RecycleValues(nil)
	require.Len(t, big, itemRecycleMax+1, "a map too large to recycle is left as it was")
	given := func(m WireItem, n int) {
		t.Helper()
		if !lease.Checked() {
			require.Empty(t, m, "a recycled map is cleared")
			return
		}
		require.Len(t, m, n, "a recycled map keeps its keys under the race detector")
		for k, v := range m {
			require.False(t, v.IsValid(), "value of %s in a recycled map: got %v, want the invalid Value", k, v)
		}
	}
	item := make(WireItem)
	for i := range recycleMax + 1 {
		item["a"+strconv.Itoa(i)] = storage.N("1")
	}
	RecycleItem(item)
	given(item, recycleMax+1)
	small := WireItem{"a": storage.S("x")}
	RecycleItem(small)
	given(small, 1)
	names := ExpressionNames{"#a": "a"}
	RecycleNames(names)
	if lease.Checked() {
		require.Equal(t, ExpressionNames{"#a": poisonName}, names)
	} else {
		require.Empty(t, names)
	}
}
