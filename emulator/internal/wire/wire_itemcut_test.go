package wire

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// putRequest has an item to write (cut) and a key (never cut).
type putRequest struct {
	TableName *string
	Item      WireItem
	Key       WireItem
}

// decodeCut decodes body into a putRequest with the cut on or off.
func decodeCut(body string, on bool) (putRequest, *Deferred, error) {
	return decodeCutAs[putRequest](body, on)
}

// decodeCutAs decodes body into a T with the cut on or off.
func decodeCutAs[T any](body string, on bool) (T, *Deferred, error) {
	was := SetItemCut(on)
	defer SetItemCut(was)
	var in T
	def, err := DecodeRequestDeferred([]byte(body), &in)
	return in, def, err
}

// checkCutSameAnswer decodes body with the cut on and off: the same
// error, the same deferred fault and where it was, the same key, and
// items that are equal or both over MaxItemBytes. It reports whether
// the item was cut.
func checkCutSameAnswer(t *testing.T, body string) bool {
	t.Helper()
	got, gotDef, gotErr := decodeCut(body, true)
	want, wantDef, wantErr := decodeCut(body, false)
	requireSameDecode(t, body, gotDef, wantDef, gotErr, wantErr)
	if wantErr != nil {
		return false
	}
	require.Equal(t, want.TableName, got.TableName)
	require.Equal(t, want.Key, got.Key, "%.300s", body)
	require.Equal(t, want.Item == nil, got.Item == nil)
	require.Equal(t, len(want.Item), len(got.Item))
	cut := false
	for name, w := range want.Item {
		g, ok := got.Item[name]
		require.True(t, ok, "%q", name)
		if !storage.Equal(w, g) {
			cut = true
		}
		require.Equal(t, EchoHash(nil, w), EchoHash(nil, g), "%q's echo: %.300s", name, body)
	}
	if cut {
		require.Greater(t, storage.ItemSize(want.Item.Item()), MaxItemBytes, "cut an item within the limit: %.300s", body)
		require.Greater(t, storage.ItemSize(got.Item.Item()), MaxItemBytes, "%.300s", body)
	}
	return cut
}

// cutElems are list elements of an item: small values (size 2 to 5
// with the element's byte), faults of values, nulls, bad syntax.
var cutElems = []string{`{"N":"0000001"}`, `{"S":"abc"}`, `{"BOOL":true}`, `{"N":"12.5"}`, `{"B":"AAAA"}`, `{"S":""}`,
	`{"L":[{"S":"x"},{"N":"2"}]}`, `{"M":{"k":{"S":"v"}}}`, `{"SS":["a","b"]}`, `{"NS":["1","2"]}`,
	`{"N":"x"}`, `{"SS":["a","a"]}`, `{"SS":[]}`, `{"S":"a","N":"1"}`, `{}`, `{"Q":"a"}`, `{"NULL":false}`,
	`null`, `1`, `{"S":1}`, `{"M":{"":{"S":"v"}}}`, `{"L":[]}`, `{"N":"1e999"}`}

// cutList is a list of n elements, most of them elems[0], each other one
// of cutElems one time in rare; nested in a list at times.
func cutList(rng *rand.Rand, n, rare int) string {
	first := cutElems[rng.IntN(6)]
	parts := make([]string, n)
	for i := range parts {
		parts[i] = first
		if rng.IntN(rare) == 0 {
			parts[i] = cutElems[rng.IntN(len(cutElems))]
		}
	}
	list := `{"L":[` + strings.Join(parts, ",") + `]}`
	if rng.IntN(5) == 0 {
		list = `{"L":[{"S":"a"},` + list + `]}`
	}
	if rng.IntN(8) == 0 {
		list = `{"M":{"in":` + list + `}}`
	}
	return list
}

// cutShape is a list's length about the limit (at times a short one)
// and how rare its other elements are, for cutList.
func cutShape(rng *rand.Rand) (n, rare int) {
	n = 100_000 + rng.IntN(110_000)
	if rng.IntN(6) == 0 {
		n = 200 + rng.IntN(400)
	}
	return n, []int{1 << 30, 100_000, 1000, 5}[rng.IntN(4)]
}

// cutBody is a request with an item whose list is about the limit
// (within a few percent either way), with other faults at times.
func cutBody(rng *rand.Rand) string {
	n, rare := cutShape(rng)
	attrs := []string{`"pk":{"S":"k"}`, `"l":` + cutList(rng, n, rare)}
	switch rng.IntN(6) {
	case 0:
		attrs = append(attrs, `"z":{"N":"bad"}`)
	case 1:
		attrs = append(attrs, `"":{"S":"v"}`)
	case 2:
		attrs = append(attrs, `"m":{"L":[`+strings.Repeat(`{"L":[`, 33)+`{"S":"d"}`+strings.Repeat(`]}`, 33)+`]}`)
	case 3:
		attrs = append(attrs, `"l2":`+cutList(rng, n/2, rare))
	}
	rng.Shuffle(len(attrs), func(i, j int) { attrs[i], attrs[j] = attrs[j], attrs[i] })
	body := `{"TableName":"t","Item":{` + strings.Join(attrs, ",") + `}}`
	switch rng.IntN(10) {
	case 0:
		body = `{"Key":{"l":` + cutList(rng, n, rare) + `},` + body[1:]
	case 1:
		body = body[:len(body)-rng.IntN(20)]
	case 2:
		body = strings.Replace(body, `"Item":`, `"Item":null,"Item":`, 1)
	}
	return body
}

// TestItemCutSameAnswer: an item to write whose lists are cut once over
// the limit decodes to the same answer as one held whole (random lists
// about the limit, faults of values before and after the cut, bad
// syntax, keys never cut), and some are cut.
func TestItemCutSameAnswer(t *testing.T) {
	cutRounds(t, 5, 40, func(rng *rand.Rand) int { // 3 of 40 are cut, on average
		if checkCutSameAnswer(t, cutBody(rng)) {
			return 1
		}
		return 0
	})
}

// TestItemCutStandIn: a list of 300,000 small numbers is cut to the
// stand-in, which echoes as the list does; the same list in a key or
// inside a map is not cut, and one within the limit is kept whole.
func TestItemCutStandIn(t *testing.T) {
	list := func(n int) string {
		return `{"L":[` + strings.Repeat(`{"N":"7"},`, n-1) + `{"N":"7"}]}`
	}
	in, def, err := decodeCut(`{"Item":{"pk":{"S":"a"},"l":`+list(300_000)+`},"Key":{"l":`+list(300_000)+`}}`, true)
	require.NoError(t, err)
	require.Nil(t, def)
	require.Len(t, in.Item["l"].List(), 3)
	require.Greater(t, storage.ValueSize(in.Item["l"]), MaxItemBytes)
	require.Len(t, in.Key["l"].List(), 300_000)
	whole, _, err := decodeCut(`{"Item":{"l":`+list(300_000)+`}}`, false)
	require.NoError(t, err)
	require.Equal(t, EchoHash(nil, whole.Item["l"]), EchoHash(nil, in.Item["l"]))
	in, _, err = decodeCut(`{"Item":{"m":{"M":{"l":`+list(300_000)+`}}}}`, true)
	require.NoError(t, err)
	require.Len(t, in.Item["m"].Map()["l"].List(), 300_000, "a list inside a map is not cut")
	in, _, err = decodeCut(`{"Item":{"l":`+list(100_000)+`}}`, true)
	require.NoError(t, err)
	require.Len(t, in.Item["l"].List(), 100_000)
}

// FuzzItemCut: any element, among n strings of 200 bytes (the limit is
// passed at 2,037), decodes to the same answer with the cut on and off.
func FuzzItemCut(f *testing.F) {
	for i, s := range cutElems {
		f.Add(s, 1900+20*i)
	}
	f.Add(`{"N":"x"}`, 300)
	filler := `{"S":"` + strings.Repeat("x", 200) + `"},`
	f.Fuzz(func(t *testing.T, elem string, n int) {
		n = min(max(n, 0), 3000)
		checkCutSameAnswer(t, `{"Item":{"pk":{"S":"a"},"l":{"L":[`+strings.Repeat(filler, n)+elem+`]}}}`)
		checkCutSameAnswer(t, fmt.Sprintf(`{"Item":{"l":{"L":[%s,%s{"N":"1"}]}},"Key":{"pk":%s}}`, elem, strings.Repeat(filler, n), elem))
	})
}

// BenchmarkItemCut decodes a PutItem whose list is within the limit
// but written in more bytes than it (the probe reads it twice), and one
// over it (cut), with the cut on and off.
func BenchmarkItemCut(b *testing.B) {
	for _, bc := range []struct {
		name string
		n    int
	}{{"within", 130_000}, {"over", 262_141}} {
		body := []byte(`{"TableName":"t","Item":{"pk":{"S":"a"},"l":{"L":[` + strings.Repeat(`{"N":"1"},`, bc.n-1) + `{"N":"1"}]}}}`)
		for _, on := range []bool{true, false} {
			b.Run(fmt.Sprintf("%s/cut=%v", bc.name, on), func(b *testing.B) {
				was := SetItemCut(on)
				defer SetItemCut(was)
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				for b.Loop() {
					var in putRequest
					if _, err := DecodeRequestDeferred(body, &in); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
