package wire

import (
	"bytes"
	"slices"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// FuzzCutItem: an item cut past a small item size limit (64 bytes, so
// that short inputs are cut) decodes with the error of the item read
// whole, is over the limit exactly when that one is, holds it whole when
// it is not, and has its names (ItemNames), and its first names and
// their values (itemHead).
func FuzzCutItem(f *testing.F) {
	for _, s := range []string{
		`{"Item":{"a":{"S":"0123456789"},"b":{"S":"0123456789"},"c":{"S":"0123456789"},"d":{"S":"0123456789"},"e":{"S":"0123456789"},"f":{"N":"1"}}}`,
		`{"Item":{"a":{"S":"0123456789012345678901234567890123456789012345678901234567890123456789"},"b":{"N":"1"},"a":{"N":"2"}}}`,
		`{"Item":{"a":{"S":"0123456789012345678901234567890123456789012345678901234567890123456789"},"b":{"L":[{"N":"1"},{"S":"x"}]},"":{"S":"v"},"n":null}}`,
		`{"Item":{"a":{"S":"01234567890123456789012345678901234567890123456789012345678901234567890"},"b":{"N":"x"},"c":{}}}`,
		`{"Item":{"z":{"S":"0123456789012345678901234567890123456789012345678901234567890123456789"},"y":{"N":"1"},"b":{"N":"2"},"y":{"S":"3"},"a":{"L":[{"N":"1"}]},"b":null}}`,
	} {
		f.Add(s)
	}
	const limit = 64
	whole := &Limits{ItemBytes: limit}
	cut := (&Limits{ItemBytes: limit}).CutItem(&cutInput{}, "Item")
	f.Fuzz(func(t *testing.T, body string) {
		var w, c cutInput
		_, werr := DecodeBody(&Body{R: bytes.NewReader([]byte(body)), Size: int64(len(body))}, &w, whole)
		_, cerr := DecodeBody(&Body{R: bytes.NewReader([]byte(body)), Size: int64(len(body))}, &c, cut)
		if (werr == nil) != (cerr == nil) || werr != nil && werr.Error() != cerr.Error() {
			t.Fatalf("got error %v, want %v", cerr, werr)
		}
		if werr != nil {
			return
		}
		wi, ci := map[string]storage.Value(w.Item), map[string]storage.Value(c.Item)
		if over := storage.ItemSize(wi) > limit; over != (storage.ItemSize(ci) > limit) {
			t.Fatalf("over the limit: got %v, want %v", !over, over)
		}
		if storage.ItemSize(wi) <= limit && len(wi) != len(ci) {
			t.Fatalf("an item under the limit: got %d attributes, want %d", len(ci), len(wi))
		}
		want := make([]string, 0, len(wi))
		for k := range wi {
			want = append(want, k)
		}
		got := slices.Compact(slices.Sorted(slices.Values(ItemNames(ci))))
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("names: got %q, want %q", got, want)
		}
		// The first names and their values, as a batch's echo reads them.
		for _, n := range []int{1, 3, len(want) / 2, len(want) + 1} {
			names, values := itemHead(ci, n, limit)
			if !slices.Equal(names, want[:min(n, len(want))]) {
				t.Fatalf("first %d names: got %q, want %q", n, names, want[:min(n, len(want))])
			}
			for i, k := range names {
				if g, w := AppendValue(nil, values[i]), AppendValue(nil, wi[k]); !bytes.Equal(g, w) {
					t.Fatalf("the value of %q: got %s, want %s", k, g, w)
				}
			}
		}
	})
}
