package wire

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// compactSame decodes body (a request with ExpressionAttributeValues) with
// the request decoder, which may keep the map compact, and again with the
// compact form off, and requires the same answers: the same error or
// deferred fault, the same values, and, compiled against expression (a
// Query's KeyConditionExpression on key pk of type S), the same errors
// from the compiler. It reports whether the map was compact.
func compactSame(t testing.TB, body, expression string) bool {
	var got, want valuesRequest
	gotDef, gotErr := DecodeRequestDeferred([]byte(body), &got)
	on := compactMinEntries
	compactMinEntries = math.MaxInt32
	wantDef, wantErr := DecodeRequestDeferred([]byte(body), &want)
	compactMinEntries = on
	require.Equal(t, errText(wantErr), errText(gotErr), "%.300s", body)
	require.Equal(t, wantDef == nil, gotDef == nil, "%.300s", body)
	if gotDef != nil {
		require.Equal(t, errText(wantDef.Err), errText(gotDef.Err))
		require.Equal(t, wantDef.Index, gotDef.Index)
		require.Equal(t, wantDef.OlderForm, gotDef.OlderForm)
	}
	if gotErr != nil {
		return false
	}
	wantMap, wantOver := WithoutStandIn(map[string]storage.Value(want.ExpressionAttributeValues))
	cv := SplitValues(got.ExpressionAttributeValues)
	m, over, table := cv.Map, cv.Over, cv.Table
	require.Equal(t, wantOver, over)
	require.Equal(t, want.ExpressionAttributeValues == nil, got.ExpressionAttributeValues == nil)
	if table == nil {
		require.True(t, storage.ItemsEqual(wantMap, m), "%.300s", body)
	} else {
		require.Equal(t, len(wantMap), table.Len())
		require.Equal(t, valuesSize(wantMap), table.Size())
		keys := make([]string, table.Len())
		for i := range keys {
			keys[i] = table.Key(i)
		}
		require.Equal(t, slices.Sorted(maps.Keys(wantMap)), keys) // by key
		for k, v := range wantMap {
			if gotV, ok := table.Value(k); !ok || !storage.Equal(v, gotV) {
				require.Failf(t, "values differ", "%s: %v (%v), want %v", k, gotV, ok, v)
			}
		}
		_, ok := table.Value(":" + strings.Repeat("z", 300))
		require.False(t, ok)
	}

	// The compiler's answers over either form.
	ks := storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}}
	compile := func(c *expr.Compiler) string {
		defer c.Release()
		if err := c.Err(); err != nil {
			return "err: " + err.Error()
		}
		if _, err := c.KeyCondition(expression, ks); err != nil {
			return "compile: " + err.Error()
		}
		if err := c.Unused(); err != nil {
			return "unused: " + err.Error()
		}
		return ""
	}
	wantAnswer := compile(expr.NewPooledCompiler(nil, nil, wantMap))
	require.Equal(t, wantAnswer, compile(cv.Compiler(nil, nil)), "%.300s", body)
	return table != nil
}

// manyValues is the JSON object of n values :v0 ... of S strings, each
// entry shaped by entry (nil: plain).
func manyValues(n int, entry func(i int) string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		if entry != nil {
			b.WriteString(entry(i))
		} else {
			fmt.Fprintf(&b, `":v%d":{"S":"s%d"}`, i, i)
		}
	}
	b.WriteByte('}')
	return b.String()
}

func valuesBody(member string) string {
	return `{"TableName":"t","KeyConditionExpression":"pk = :v7","ExpressionAttributeValues":` + member + `,"Key":{"pk":{"S":"k"}}}`
}

// TestCompactValuesSameAnswer: maps of more entries than expressions can
// use are kept compact, and every answer is the Go map's; maps the
// compact form cannot answer for exactly are decoded as maps.
func TestCompactValuesSameAnswer(t *testing.T) {
	n := compactMinEntries + 100
	cases := []struct {
		name    string
		member  string
		expr    string
		compact bool
	}{
		{"plain", manyValues(n, nil), "pk = :v7", true},
		{"missing", manyValues(n, nil), "pk = :nope", true},
		{"wrong type", manyValues(n, func(i int) string {
			if i == 7 {
				return `":v7":{"N":"7"}`
			}
			return fmt.Sprintf(`":v%d":{"S":"s%d"}`, i, i)
		}), "pk = :v7", true},
		{"spaces and kinds", manyValues(n, func(i int) string {
			return fmt.Sprintf("\n \":v%d\" \t: {\"L\":[{\"N\":\"%d\"},{\"M\":{\"a\":{\"SS\":[\"x\",\"y\"]}}}]} ", i, i)
		}), "pk = :v7", true},
		{"twice", manyValues(n, func(i int) string {
			return fmt.Sprintf(`":v%d":{"S":"a%d"}`, i%(n-50), i)
		}), "pk = :v7", true},
		{"too few distinct", manyValues(n, func(i int) string {
			return fmt.Sprintf(`":v%d":{"S":"a%d"}`, i%(compactMinEntries-1), i)
		}), "pk = :v7", false},
		{"escaped key", manyValues(n, func(i int) string {
			if i == 9 {
				return `":\u0076x":{"S":"x"}`
			}
			return fmt.Sprintf(`":v%d":{"S":"s%d"}`, i, i)
		}), "pk = :v7", true},
		{"bad key", manyValues(n, func(i int) string {
			if i == 9 {
				return `"v9":{"S":"x"}`
			}
			return fmt.Sprintf(`":v%d":{"S":"s%d"}`, i, i)
		}), "pk = :v7", true},
		{"value fault", manyValues(n, func(i int) string {
			if i == 9 {
				return `":v9":{"N":"x"}`
			}
			return fmt.Sprintf(`":v%d":{"S":"s%d"}`, i, i)
		}), "pk = :v7", true},
		{"deep", manyValues(n, func(i int) string {
			if i == 9 {
				return `":v9":` + strings.Repeat(`{"L":[`, OlderFormDepth+2) + `{"S":"x"}` + strings.Repeat(`]}`, OlderFormDepth+2)
			}
			return fmt.Sprintf(`":v%d":{"S":"s%d"}`, i, i)
		}), "pk = :v7", true},
		{"syntax", strings.TrimSuffix(manyValues(n, nil), "}") + `,}`, "pk = :v7", false},
		{"over 2 MB", manyValues(n, func(i int) string {
			return fmt.Sprintf(`":v%d":{"S":"%0200d"}`, i, i)
		}), "pk = :v7", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.compact, compactSame(t, valuesBody(tc.member), tc.expr))
		})
	}
}

// TestCompactValuesHoldsLittle: a compact map of 20,000 values holds its
// offsets, not a map: past its first compactMinEntries values (1,024
// here), which the map it lets go had, nothing is kept a value.
func TestCompactValuesHoldsLittle(t *testing.T) {
	defer func(n int) { compactMinEntries = n }(compactMinEntries)
	compactMinEntries = 1024
	body := []byte(valuesBody(manyValues(20000, nil)))
	var in valuesRequest
	allocs := testing.AllocsPerRun(3, func() {
		in = valuesRequest{}
		_, err := DecodeRequestDeferred(body, &in)
		require.NoError(t, err)
	})
	table := SplitValues(in.ExpressionAttributeValues).Table
	require.NotNil(t, table)
	require.Equal(t, 20000, table.Len())
	require.Less(t, allocs, 2*1024+100.0) // a map would be tens of thousands (its values' strings)
}

// FuzzCompactValues: with the compact form tried on maps of two entries
// or more, any member and expression get the answers of the Go map.
func FuzzCompactValues(f *testing.F) {
	defer func(n int) { compactMinEntries = n }(compactMinEntries)
	compactMinEntries = 2
	for _, s := range []string{
		`{":a":{"S":"x"},":b":{"N":"1"}}`, `{":a":{"S":"x"},":a":{"S":"y"},":b":{"S":"z"}}`,
		`{ ":a" : {"S":"x"} , ":b":{"BOOL":true} }`, `{":a":{"S":"x"},"b":{"S":"y"}}`,
		`{":a":{"S":"x"},":\u0062":{"S":"y"}}`, `{":a":{"N":"x"},":b":{"S":"y"}}`, `{":a":{"S":"x"},":b":{}}`,
		`{":a":{"S":"x"},":b":null}`, `{":a":{"S":"x"},":b":{"S":"y"},}`, `null`, `{}`, `[]`,
	} {
		f.Add(s, "pk = :a")
		f.Add(s, "pk = :b")
	}
	f.Fuzz(func(t *testing.T, member, expression string) {
		compactSame(t, valuesBody(member), expression)
	})
}
