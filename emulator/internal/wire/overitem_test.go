package wire

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// cutInput is a request with an item its Limits cut (overitem.go).
type cutInput struct {
	Item WireItem
	Key  WireItem
}

// decodeCut decodes body as it arrives, with Limits that cut Item.
func decodeCut(t *testing.T, body string) (*cutInput, error) {
	t.Helper()
	lim := (&Limits{ItemBytes: MaxItemBytes}).CutItem(&cutInput{}, "Item")
	var in cutInput
	_, err := DecodeBody(&Body{R: bytes.NewReader([]byte(body)), Size: int64(len(body))}, &in, lim)
	return &in, err
}

// TestCutItem: an item of many attributes past the item size limit is
// cut: a map of fewer attributes, over the limit as the whole item, whose
// ItemNames are the whole item's; one under the limit, or taken back
// under it by attributes given again, is whole; Key, not cut, is whole
// too.
func TestCutItem(t *testing.T) {
	attrs := func(n int, val string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf(`"a%06d":{"S":"%s"}`, i, val)
		}
		return out
	}
	names := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("a%06d", i)
		}
		return out
	}
	wide := strings.Join(attrs(40_000, "0123456789"), ",") // 840 KB of size: over
	in, err := decodeCut(t, `{"Item":{`+wide+`},"Key":{`+wide+`}}`)
	require.NoError(t, err)
	item := map[string]storage.Value(in.Item)
	require.Equal(t, MaxItemBytes/17+2, len(item), "cut: the attributes (17 bytes each) up to the one past the limit, and the rest's text")
	require.Greater(t, storage.ItemSize(item), MaxItemBytes)
	got := ItemNames(item)
	slices.Sort(got)
	require.Equal(t, names(40_000), got)
	require.Len(t, in.Key, 40_000, "a member not cut is whole")

	// Taken back under the limit: the first 35,000 given again, small
	// (9 bytes each: 400,000 in all).
	again := make([]string, 35_000)
	for i := range again {
		again[i] = fmt.Sprintf(`"a%06d":{"N":"1"}`, i)
	}
	in, err = decodeCut(t, `{"Item":{`+wide+`,`+strings.Join(again, ",")+`}}`)
	require.NoError(t, err)
	require.Len(t, in.Item, 40_000, "whole")
	require.Equal(t, "1", in.Item["a000000"].Str())
	require.Equal(t, "0123456789", in.Item["a039999"].Str())
	require.LessOrEqual(t, storage.ItemSize(in.Item), MaxItemBytes)
	got = ItemNames(in.Item)
	slices.Sort(got)
	require.Equal(t, names(40_000), got)

	// Under the limit: whole.
	in, err = decodeCut(t, `{"Item":{`+strings.Join(attrs(10_000, "0123456789"), ",")+`}}`)
	require.NoError(t, err)
	require.Len(t, in.Item, 10_000)
}
