package wire

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

func TestDecodeAttributeValue(t *testing.T) {
	nested := func(kind string, levels int) string {
		open, closeS := "", ""
		for range levels {
			if kind == "L" {
				open += `{"L":[`
				closeS += `]}`
			} else {
				open += `{"M":{"k":`
				closeS += `}}`
			}
		}
		return open + `{"S":"x"}` + closeS
	}
	tests := []struct {
		name  string
		in    string
		want  storage.Value // checked when class is nil
		class error
		msg   string
	}{
		{name: "S", in: `{"S":"a"}`, want: storage.S("a")},
		{name: "S empty", in: `{"S":""}`, want: storage.S("")},
		{name: "S escaped", in: `{"S":"a\"\u00e9\n"}`, want: storage.S("a\"é\n")},
		{name: "N canonical", in: `{"N":"1.50e1"}`, want: storage.N("15")},
		{name: "B", in: `{"B":"YQ=="}`, want: storage.BString("a")},
		{name: "B empty", in: `{"B":""}`, want: storage.BString("")},
		{name: "BOOL", in: `{"BOOL":false}`, want: storage.Bool(false)},
		{name: "NULL", in: `{"NULL":true}`, want: storage.Null()},
		{name: "L", in: `{"L":[{"S":"a"},{"N":"1"}]}`, want: storage.L([]storage.Value{storage.S("a"), storage.N("1")})},
		{name: "M", in: `{"M":{"x":{"S":"a"}}}`, want: storage.M(map[string]storage.Value{"x": storage.S("a")})},
		{name: "SS", in: `{"SS":["a","b"]}`, want: storage.SS([]string{"a", "b"})},
		{name: "NS", in: `{"NS":["1","2.0"]}`, want: storage.SetOf(storage.KindNS, []string{"1", "2"})},
		{name: "BS", in: `{"BS":["YQ==","Yg=="]}`, want: storage.SetOf(storage.KindBS, []string{"a", "b"})},
		{name: "null member ignored", in: `{"S":"a","N":null}`, want: storage.S("a")},
		{name: "unknown member ignored", in: `{"S":"a","X":[1,{"y":true}]}`, want: storage.S("a")},
		{name: "depth 32 ok", in: nested("L", 31), want: storage.Value{}},

		{name: "two types", in: `{"S":"a","N":"1"}`, class: apierr.ErrValidation, msg: apierr.MsgAVMultiple},
		{name: "NULL and S", in: `{"NULL":true,"S":"x"}`, class: apierr.ErrValidation, msg: apierr.MsgAVMultiple},
		{name: "empty", in: `{}`, class: apierr.ErrValidation, msg: apierr.MsgAVEmpty},
		{name: "unknown only", in: `{"X":"a"}`, class: apierr.ErrValidation, msg: apierr.MsgAVEmpty},
		{name: "S null", in: `{"S":null}`, class: apierr.ErrValidation, msg: apierr.MsgAVEmpty},
		{name: "SS empty", in: `{"SS":[]}`, class: apierr.ErrValidation, msg: "One or more parameter values were invalid: An string set  may not be empty"},
		{name: "NS empty", in: `{"NS":[]}`, class: apierr.ErrValidation, msg: "One or more parameter values were invalid: An number set  may not be empty"},
		{name: "BS empty", in: `{"BS":[]}`, class: apierr.ErrValidation, msg: "One or more parameter values were invalid: Binary sets should not be empty"},
		{name: "SS dups", in: `{"SS":["b","a","b","a"]}`, class: apierr.ErrValidation, msg: "One or more parameter values were invalid: Input collection [b, a, b, a] contains duplicates."},
		{name: "NS dups", in: `{"NS":["1","1.0"]}`, class: apierr.ErrValidation, msg: "Input collection contains duplicates"}, // the older layer (apierr.ValueFault)
		{name: "BS dups", in: `{"BS":["YQ==","YQ=="]}`, class: apierr.ErrValidation, msg: "One or more parameter values were invalid: Input collection [YQ==, YQ==]of type BS contains duplicates."},
		{name: "NS bad number before dups", in: `{"NS":["1","x","1"]}`, class: apierr.ErrValidation, msg: "The parameter cannot be converted to a numeric value: x"},
		{name: "NS overflow", in: `{"NS":["1e200"]}`, class: apierr.ErrValidation, msg: storage.ErrNumberOverflow.Error()},
		{name: "NS null member", in: `{"NS":["1",null]}`, class: apierr.ErrValidation, msg: "The parameter cannot be converted to a numeric value"},
		{name: "SS null member", in: `{"SS":["a",null]}`, class: apierr.ErrValidation, msg: "One or more parameter values were invalid: An string set may not have a null string as a member"},
		{name: "N empty", in: `{"N":""}`, class: apierr.ErrValidation, msg: "The parameter cannot be converted to a numeric value"},
		{name: "N space", in: `{"N":" 1"}`, class: apierr.ErrValidation, msg: "The parameter cannot be converted to a numeric value:  1"},
		{name: "N overflow", in: `{"N":"1e200"}`, class: apierr.ErrValidation, msg: storage.ErrNumberOverflow.Error()},
		{name: "NULL false", in: `{"NULL":false}`, class: apierr.ErrValidation, msg: "One or more parameter values were invalid: Null attribute value types must have the value of true"},
		{name: "L empty elem", in: `{"L":[{"S":"a"},{}]}`, class: apierr.ErrValidation, msg: apierr.MsgAVEmpty},
		{name: "L null elem", in: `{"L":[null]}`, class: apierr.ErrValidation, msg: "The supplied Item contains a null AttributeValue"},
		{name: "M null value", in: `{"M":{"x":null}}`, class: apierr.ErrValidation, msg: "The supplied Item contains a null AttributeValue: x is null"},
		{name: "M nested set", in: `{"M":{"x":{"SS":[]}}}`, class: apierr.ErrValidation, msg: "One or more parameter values were invalid: An string set  may not be empty"},
		{name: "parent check first", in: `{"S":"a","L":[{}]}`, class: apierr.ErrValidation, msg: apierr.MsgAVMultiple},
		{name: "depth 33 L", in: nested("L", 32), class: apierr.ErrValidation, msg: apierr.MsgNestingExceeded},
		{name: "depth 34 M", in: nested("M", 33), class: apierr.ErrValidation, msg: apierr.MsgNestingExceeded},

		{name: "S number", in: `{"S":5}`, class: apierr.ErrSerialization, msg: "NUMBER_VALUE cannot be converted to String"},
		{name: "S map", in: `{"S":{"S":"a"}}`, class: apierr.ErrSerialization, msg: "Start of structure or map found where not expected"},
		{name: "S list", in: `{"S":["a"]}`, class: apierr.ErrSerialization, msg: "Start of list found where not expected"},
		{name: "BOOL string", in: `{"BOOL":"true"}`, class: apierr.ErrSerialization, msg: "STRING_VALUE cannot be converted to Boolean"},
		{name: "SS not list", in: `{"SS":"a"}`, class: apierr.ErrSerialization, msg: "Expected list or null"},
		{name: "SS number member", in: `{"SS":[1]}`, class: apierr.ErrSerialization, msg: "NUMBER_VALUE cannot be converted to String"},
		{name: "M not map", in: `{"M":"a"}`, class: apierr.ErrSerialization, msg: "Expected map or null"},
		{name: "value list", in: `[]`, class: apierr.ErrSerialization, msg: "Start of list found where not expected"},
		{name: "value string", in: `"x"`, class: apierr.ErrSerialization, msg: "Expected null"},
		{name: "B not base64", in: `{"B":"not base64!!"}`, class: apierr.ErrSerialization, msg: apierr.MsgSerInvalidBase64},
		{name: "B unpadded", in: `{"B":"YQ"}`, class: apierr.ErrSerialization, msg: apierr.MsgSerBase64Length + "2"},
		{name: "B 11 unpadded", in: `{"B":"YWJjZGVmZ2g"}`, class: apierr.ErrSerialization, msg: apierr.MsgSerBase64Length + "11"},
		{name: "serialization beats validation", in: `{"L":[{},{"S":5}]}`, class: apierr.ErrSerialization, msg: "NUMBER_VALUE cannot be converted to String"},
		{name: "truncated", in: `{"S":"a"`, class: apierr.ErrSerialization},
		{name: "trailing", in: `{"S":"a"} x`, class: apierr.ErrSerialization},
		{name: "bad escape", in: `{"S":"\x"}`, class: apierr.ErrSerialization},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var av AttributeValue
			err := av.UnmarshalJSON([]byte(tt.in))
			if tt.class == nil {
				if err != nil {
					t.Fatalf("got error %v, want none", err)
				}
				if tt.want.IsValid() && !storage.Equal(av.Value, tt.want) {
					t.Fatalf("got %s, want %s", AppendValue(nil, av.Value), AppendValue(nil, tt.want))
				}
				return
			}
			if !errors.Is(err, tt.class) {
				t.Fatalf("got error %v, want class %v", err, tt.class)
			}
			if tt.msg != "" && err.Error() != tt.msg {
				t.Fatalf("got message %q, want %q", err.Error(), tt.msg)
			}
		})
	}
}

func TestEncodeValue(t *testing.T) {
	tests := []struct {
		name string
		v    storage.Value
		want string
	}{
		{"S escapes", storage.S("a\"\\\n\x01<é\u2028"), `{"S":"a\"\\\n\u0001<é\u2028"}`},
		{"S invalid utf8", storage.S("a\xff"), `{"S":"a\ufffd"}`},
		{"N", storage.N(storage.MustNumber("1.50")), `{"N":"1.5"}`},
		{"B", storage.BString("ab"), `{"B":"YWI="}`},
		{"BOOL", storage.Bool(true), `{"BOOL":true}`},
		{"NULL", storage.Null(), `{"NULL":true}`},
		{"L empty", storage.L(nil), `{"L":[]}`},
		{"M sorted", storage.M(map[string]storage.Value{"b": storage.S("2"), "a": storage.S("1")}), `{"M":{"a":{"S":"1"},"b":{"S":"2"}}}`},
		{"SS", storage.SS([]string{"x", "y"}), `{"SS":["x","y"]}`},
		{"NS", storage.SetOf(storage.KindNS, []string{"1", "-2.5"}), `{"NS":["-2.5","1"]}` /* by value */},
		{"BS", storage.SetOf(storage.KindBS, []string{"a"}), `{"BS":["YQ=="]}`},
		{"invalid", storage.Value{}, `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(AppendValue(nil, tt.v))
			if got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
			if !json.Valid([]byte(got)) {
				t.Fatalf("not valid JSON: %s", got)
			}
		})
	}
}

func TestWireItemRoundTrip(t *testing.T) {
	in := `{"pk":{"S":"k"},"n":{"N":"007"},"m":{"M":{"l":{"L":[{"BOOL":true},{"NULL":true}]}}},"ss":{"SS":["a"]}}`
	var w WireItem
	if err := json.Unmarshal([]byte(in), &w); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"m":{"M":{"l":{"L":[{"BOOL":true},{"NULL":true}]}}},"n":{"N":"7"},"pk":{"S":"k"},"ss":{"SS":["a"]}}`
	if string(b) != want {
		t.Fatalf("got %s, want %s", b, want)
	}
	if !storage.ItemsEqual(ItemToWire(w.Item()).Item(), w.Item()) {
		t.Fatal("ItemToWire(w.Item()) differs")
	}
	var null WireItem
	if err := json.Unmarshal([]byte(`null`), &null); err != nil || null != nil {
		t.Fatalf("null: got %v, %v", null, err)
	}
	var bad WireItem
	err = json.Unmarshal([]byte(`{"a":null}`), &bad)
	if !errors.Is(err, apierr.ErrValidation) || err.Error() != "The supplied Item contains a null AttributeValue: a is null" {
		t.Fatalf("null attribute: got %v", err)
	}
}

// FuzzDecodeItem: the decoder never panics, and whatever it accepts encodes
// and decodes again to an equal item.
func FuzzDecodeItem(f *testing.F) {
	for _, s := range []string{
		`{"a":{"S":"x"}}`, `{"a":{"N":"1e3"},"b":{"B":"YQ=="}}`, `{"a":{"L":[{"M":{"x":{"NS":["1","2"]}}}]}}`,
		`{"a":{"SS":["a","b"]},"b":{"BS":["YQ=="]},"c":{"NULL":true},"d":{"BOOL":false}}`,
		`{"a":{"S":"\u00e9\ud83d\ude00"}}`, `{"a":{}}`, `{"a":null}`, `[`, `{"a":{"S":"\xff"}}`,
		"{\"a\":{\"S\":\"k\xfe\"}}", "{\"k\xff\":{\"S\":\"a\"}}", `{"a":{"S":"\ud800"}}`, `{"a":{"M":{"\udc00":{"N":"1"}}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		it, err := DecodeItem(data)
		if err != nil {
			if !errors.Is(err, apierr.ErrValidation) && !errors.Is(err, apierr.ErrSerialization) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		enc := AppendItem(nil, it)
		if !json.Valid(enc) {
			t.Fatalf("invalid JSON out: %s", enc)
		}
		again, err := DecodeItem(enc)
		if err != nil {
			t.Fatalf("re-decoding %s: %v", enc, err)
		}
		if !storage.ItemsEqual(it, again) {
			t.Fatalf("round trip changed the item: %s", enc)
		}
		if enc2 := AppendItem(nil, again); string(enc2) != string(enc) {
			t.Fatalf("encoding not stable: %s vs %s", enc, enc2)
		}
	})
}

func BenchmarkWireItemDecodeEncode(b *testing.B) {
	data := []byte(strings.Repeat(" ", 0) + testkit.Item240)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var out []byte
	for b.Loop() {
		it, err := DecodeItem(data)
		if err != nil {
			b.Fatal(err)
		}
		out = AppendItem(out[:0], it)
	}
}

// BenchmarkWireItemDecode decodes Item240 (short strings) and an item of
// the preload's shape (dynamoemu-bench -preload: ten attributes, one of
// them a string of 130 bytes), where the string scan's speed shows.
func BenchmarkWireItemDecode(b *testing.B) {
	long := `{"pk":{"S":"user#0000001"},"sk":{"N":"7"},"status":{"S":"active"},"count":{"N":"7"},` +
		`"price":{"N":"1234.5"},"flag":{"BOOL":false},"tags":{"SS":["red","green"]},` +
		`"email":{"S":"someone.1@example.com"},"f0":{"S":"` + strings.Repeat("x", 130) + `"},"f1":{"S":""}}`
	for _, c := range []struct{ name, item string }{{"Item240", testkit.Item240}, {"LongString", long}} {
		b.Run(c.name, func(b *testing.B) {
			data := []byte(c.item)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := DecodeItem(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkWireItemEncode(b *testing.B) {
	it, err := DecodeItem([]byte(testkit.Item240))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var out []byte
	for b.Loop() {
		out = AppendItem(out[:0], it)
	}
	b.SetBytes(int64(len(out)))
}

// BenchmarkWireItemJSON is the path through encoding/json that operations
// take: a request struct with a WireItem member, and back.
func BenchmarkWireItemJSON(b *testing.B) {
	type req struct {
		TableName string
		Item      WireItem
	}
	data := []byte(`{"TableName":"orders","Item":` + testkit.Item240 + `}`)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var r req
		if err := json.Unmarshal(data, &r); err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(&r); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzParseNumber: the canonical fast path agrees with storage.ParseNumber.
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "1", "-1.5", "0.5", "00.5", "1.50", "1e3", "12345678901234567890123456789012345678", ".5", "5.", "-0.0001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, werr := storage.ParseNumber(s)
		got, gerr := parseNumber(s)
		if got != want || (werr == nil) != (gerr == nil) {
			t.Fatalf("parseNumber(%q) = %q, %v; ParseNumber = %q, %v", s, got, gerr, want, werr)
		}
	})
}

func TestExpressionValues(t *testing.T) {
	tests := []struct{ in, msg string }{
		{`{":v":{"S":"a"},":w":{"N":"01"}}`, ""},
		{`{":v":{}}`, "ExpressionAttributeValues contains invalid value: Supplied AttributeValue is empty, must contain exactly one of the supported datatypes for key :v"},
		{`{":v":{"SS":[]}}`, "ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: An string set  may not be empty for key :v"},
		{`{":v":{"N":"x"}}`, "ExpressionAttributeValues contains invalid value: The parameter cannot be converted to a numeric value: x for key :v"},
		{`{":v":null}`, "ExpressionAttributeValues contains invalid value: The supplied Item contains a null AttributeValue for key :v"},
	}
	for _, tt := range tests {
		var x ExpressionValues
		err := json.Unmarshal([]byte(tt.in), &x)
		if tt.msg == "" {
			if err != nil || !storage.Equal(x.Values()[":w"], storage.N("1")) {
				t.Errorf("%s: got %v, %v", tt.in, x, err)
			}
			continue
		}
		if !errors.Is(err, apierr.ErrValidation) || err.Error() != tt.msg {
			t.Errorf("%s: got %v, want %q", tt.in, err, tt.msg)
		}
	}
}

func TestValidJSONText(t *testing.T) {
	tests := []struct {
		raw  string
		want bool
	}{
		{"", true}, {"abc", true}, {"é😀", true}, {`\ud83d\ude00`, true}, {`\uD83D\uDE00`, true},
		{`\\ud800`, true}, {`\\\\ud800`, true}, {`\u0041\n\"`, true}, {`\ufffd`, true},
		{"\xff", false}, {"a\xc3", false}, {"\xed\xa0\x80", false}, {`\ud800`, false}, {`\udc00`, false},
		{`\\\ud800`, false}, {`\ud800\u0041`, false}, {`\ud800x`, false}, {`\ud800\`, false}, {`\ud83d\ude00\udc00`, false},
	}
	for _, tt := range tests {
		if got := ValidJSONText([]byte(tt.raw)); got != tt.want {
			t.Errorf("validJSONText(%q): got %v, want %v", tt.raw, got, tt.want)
		}
	}
}

// TestValuesOf checks that ValuesOf gives the values themselves, in the
// same array.
func TestValuesOf(t *testing.T) {
	require.Nil(t, ValuesOf(nil))
	avs := []AttributeValue{{storage.S("a")}, {storage.N("1")}, {storage.L([]storage.Value{storage.Bool(true)})}}
	vals := ValuesOf(avs)
	require.Len(t, vals, len(avs))
	for i := range avs {
		require.True(t, storage.Equal(avs[i].Value, vals[i]), "value %d", i)
		require.Same(t, &avs[i].Value, &vals[i], "value %d", i)
	}
}
