package wire

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLongLists decodes lists past longList, where the decoder counts the
// elements left and grows once: the values are those of the list, its
// capacity its length (not the quarter more append leaves), and a list malformed after the count gets the
// error it got before.
func TestLongLists(t *testing.T) {
	list := func(n int, elem func(i int) string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = elem(i)
		}
		return strings.Join(parts, ",")
	}
	for _, n := range []int{longList - 1, longList, longList + 1, 3000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var in struct{ Names []string }
			body := `{"Names":[` + list(n, func(i int) string { return fmt.Sprintf(`"a%d"`, i) }) + `]}`
			require.NoError(t, DecodeRequest([]byte(body), &in))
			require.Len(t, in.Names, n)
			require.Equal(t, fmt.Sprint("a", n-1), in.Names[n-1])
			if n > longList { // its length, rounded up to the allocator's size class
				require.LessOrEqual(t, cap(in.Names), n+n/16+64)
			}

			item, err := DecodeItem([]byte(`{"pk":{"S":"a"},"l":{"L":[` + list(n, func(i int) string { return fmt.Sprintf(`{"N":"%d"}`, i) }) + `]}}`))
			require.NoError(t, err)
			l := item["l"].List()
			require.Len(t, l, n)
			require.Equal(t, fmt.Sprint(n-1), l[n-1].Str())
			if n > longList {
				require.LessOrEqual(t, cap(l), n+n/16+64)
			}
		})
	}
	// A list malformed past longList elements gets the error the same
	// fault gets in a short list.
	for _, tc := range []struct{ name, end string }{
		{"trailing comma", `,]}`},
		{"unclosed", ``},
		{"wrong type", `,{"x":1}]}`},
		{"bad value", `,"a]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var short, long struct{ Names []string }
			wantErr := DecodeRequest([]byte(`{"Names":["a","a"`+tc.end), &short)
			require.Error(t, wantErr)
			err := DecodeRequest([]byte(`{"Names":[`+list(longList+5, func(int) string { return `"a"` })+tc.end), &long)
			require.Equal(t, wantErr.Error(), err.Error())
		})
	}
}

// TestLongMaps decodes maps past longList members, where the decoder
// counts the members left and makes the map again at its size: the
// entries are those of the object (a key twice keeps its last value), and
// an object malformed after the count gets the error it got before.
func TestLongMaps(t *testing.T) {
	members := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf(`"k%d":"v%d"`, i, i)
		}
		return strings.Join(parts, ",")
	}
	for _, n := range []int{longList - 1, longList, longList + 1, 3000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var in struct{ Names map[string]string }
			body := `{"Names":{` + members(n) + `,"k0":"again"}}`
			require.NoError(t, DecodeRequest([]byte(body), &in))
			require.Len(t, in.Names, n)
			require.Equal(t, "again", in.Names["k0"])
			require.Equal(t, fmt.Sprint("v", n-1), in.Names[fmt.Sprint("k", n-1)])
		})
	}
	for _, tc := range []struct{ name, end string }{
		{"trailing comma", `,}}`},
		{"unclosed", ``},
		{"wrong type", `,"x":{"y":1}}}`},
		{"bad value", `,"x":"a}}`},
		{"no colon", `,"x"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var short, long struct{ Names map[string]string }
			wantErr := DecodeRequest([]byte(`{"Names":{"a":"b"`+tc.end), &short)
			require.Error(t, wantErr)
			err := DecodeRequest([]byte(`{"Names":{`+members(longList+5)+tc.end), &long)
			require.Equal(t, wantErr.Error(), err.Error())
		})
	}
}
