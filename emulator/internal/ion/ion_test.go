package ion

import (
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// ionItems reads text and returns its items (as DynamoDB JSON) and errors.
func ionItems(text string) (items []string, errs []string) {
	ReadItems([]byte(text), func(r Record) bool {
		if r.Err != nil {
			errs = append(errs, r.Err.Error())
		} else {
			items = append(items, string(r.Item))
		}
		return true
	})
	return items, errs
}

// TestIonWrite: the export form of each DynamoDB type, as AWS's example
// writes them (103., 6d2, 2d3, $dynamodb_SS::[...]).
func TestIonWrite(t *testing.T) {
	for _, c := range []struct {
		v    storage.Value
		want string
	}{
		{storage.S("8.5 x 11.0"), `"8.5 x 11.0"`},
		{storage.S("q\"\\\n\t\x01é'"), `"q\"\\\n\t\x01é'"`},
		{storage.N("103"), `103.`},
		{storage.N("600"), `6d2`},
		{storage.N("-2000"), `-2d3`},
		{storage.N("0"), `0.`},
		{storage.N("1.5"), `1.5`},
		{storage.N("-0.001"), `-0.001`},
		{storage.B([]byte{0, 1, 2}), `{{AAEC}}`},
		{storage.Bool(false), `false`},
		{storage.Null(), `null`},
		{storage.SS([]string{"Author1", "Author2"}), `$dynamodb_SS::["Author1","Author2"]`},
		{storage.NS([]storage.Number{"1", "20"}), `$dynamodb_NS::[1.,2d1]`},
		{storage.BS([][]byte{{1}}), `$dynamodb_BS::[{{AQ==}}]`},
		{storage.L([]storage.Value{storage.N("1"), storage.S("x")}), `[1.,"x"]`},
		{storage.M(map[string]storage.Value{"b": storage.N("2"), "a b": storage.Null(), "null": storage.Bool(true), "$7": storage.S("")}),
			`{'$7':"",'a b':null,b:2.,'null':true}`},
	} {
		if got := string(AppendValue(nil, c.v)); got != c.want {
			t.Errorf("AppendValue(%v): got %s, want %s", c.v, got, c.want)
		}
	}
}

// TestIonRead: AWS's two documented forms, and the Ion a writer may add.
func TestIonRead(t *testing.T) {
	for _, c := range []struct {
		name, text string
		items      []string
		errs       int
	}{
		{"export line", `$ion_1_0 {Item:{Authors:$dynamodb_SS::["Author1","Author2"],Id:103.,InPublication:false,PageCount:6d2,Price:2d3}}`,
			[]string{`{"Authors":{"SS":["Author1","Author2"]},"Id":{"N":"103"},"InPublication":{"BOOL":false},"PageCount":{"N":"6E2"},"Price":{"N":"2E3"}}`}, 0},
		{"import list", "$ion_1_0\n[\n  {\n    Item:{\n      Id:103.\n    }\n  },\n  {Item:{Id:104.}}\n]\n",
			[]string{`{"Id":{"N":"103"}}`, `{"Id":{"N":"104"}}`}, 0},
		{"lines", "$ion_1_0 {Item:{a:1}}\n$ion_1_0 {Item:{a:2}}\n", []string{`{"a":{"N":"1"}}`, `{"a":{"N":"2"}}`}, 0},
		{"names and comments", `/* c */ {Item:{'a b':"x", "c":'''lo''' '''ng''', d: null.string, // c
			e:{{ aGk= }}, f:{{"clob"}}, g:[1,2,], h:{i:0x1F, j:-0b11, k:1_000, l:1.5e3, m:7d-1}, n:ann::true}}`,
			[]string{`{"a b":{"S":"x"},"c":{"S":"long"},"d":{"NULL":true},"e":{"B":"aGk="},"f":{"B":"Y2xvYg=="},"g":{"L":[{"N":"1"},{"N":"2"}]},"h":{"M":{"i":{"N":"31"},"j":{"N":"-3"},"k":{"N":"1000"},"l":{"N":"1.5E3"},"m":{"N":"7E-1"}}},"n":{"BOOL":true}}`}, 0},
		{"escapes", `{Item:{s:"\x41\u00e9\U0001F600\uD83D\uDE00\n\"\0"}}`, []string{`{"s":{"S":"Aé😀😀\n\"\u0000"}}`}, 0},
		{"symbol table", `$ion_symbol_table::{symbols:["a"]} {Item:{a:1}}`, []string{`{"a":{"N":"1"}}`}, 0},
		{"no type", `{Item:{a:sym}} {Item:{a:2007-01-01T}} {Item:{a:(x y)}} {Item:{a:nan}} {Item:{a:+inf}}`, nil, 5},
		{"not an item", `{Other:{}} 5 "s" {Item:[]}`, nil, 4},
		{"bad sets", `{Item:{a:$dynamodb_SS::[1]}} {Item:{a:$dynamodb_NS::"x"}}`, nil, 2},
		{"syntax, then the next line", "{Item:{a:01}}\n{Item:{a:\"open\n{Item:{b:1}}", []string{`{"b":{"N":"1"}}`}, 2},
		{"binary", "\xe0\x01\x00\xea\x00", nil, 1},
		{"deep", strings.Repeat("[", 200), nil, 1},
	} {
		items, errs := ionItems(c.text)
		if strings.Join(items, "\n") != strings.Join(c.items, "\n") || len(errs) != c.errs {
			t.Errorf("%s: got items %v, errors %v; want %v and %d errors", c.name, items, errs, c.items, c.errs)
		}
	}
}

// TestIonRoundTrip: every type written and read back is the same item.
func TestIonRoundTrip(t *testing.T) {
	item := storage.Item{
		"s": storage.S("ünï \"cødé\"\n"), "n": storage.N("-12.5"), "big": storage.N(storage.Number("1" + strings.Repeat("0", 125))),
		"small": storage.N(storage.Number("0." + strings.Repeat("0", 129) + "1")), "b": storage.B([]byte{0xff, 0}), "t": storage.Bool(true),
		"nul": storage.Null(), "ss": storage.SS([]string{"a", "b"}), "ns": storage.NS([]storage.Number{"-1", "300"}),
		"bs": storage.BS([][]byte{{1}, {2}}),
		"l":  storage.L([]storage.Value{storage.N("0"), storage.L(nil), storage.M(map[string]storage.Value{})}),
		"m":  storage.M(map[string]storage.Value{"x y": storage.S(""), "true": storage.N("7")}),
	}
	text := "$ion_1_0 {Item:" + string(AppendItem(nil, item)) + "}\n"
	items, errs := ionItems(text)
	if len(errs) != 0 || len(items) != 1 {
		t.Fatalf("%s: got %v, errors %v", text, items, errs)
	}
	got, err := wire.DecodeItem([]byte(items[0]))
	if err != nil {
		t.Fatal(err)
	}
	if !storage.ItemsEqual(got, item) {
		t.Errorf("got %v, want %v", got, item)
	}
}

// FuzzIonItems: any text reads without a panic, and every item read
// that DecodeItem takes writes and reads back as the same item.
func FuzzIonItems(f *testing.F) {
	f.Add([]byte(`$ion_1_0 {Item:{Authors:$dynamodb_SS::["Author1"],Id:103.,PageCount:6d2,b:{{AQ==}},l:[null,{m:true}]}}`))
	f.Add([]byte("[{Item:{a:'''x'''}}, {Item:{b:0x10}}]"))
	f.Add([]byte(`{Item:{'q':"\u00e9\x00", n:-1.5e-3, c:{{"clob"}}}} /* */ // x`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ReadItems(data, func(r Record) bool {
			if r.Err != nil {
				return true
			}
			it, err := wire.DecodeItem(r.Item)
			if err != nil {
				return true
			}
			text := append([]byte("$ion_1_0 {Item:"), AppendItem(nil, it)...)
			text = append(text, "}\n"...)
			var again []byte
			ReadItems(text, func(r2 Record) bool {
				if r2.Err != nil {
					t.Fatalf("%s: %v", text, r2.Err)
				}
				again = r2.Item
				return false
			})
			it2, err := wire.DecodeItem(again)
			if err != nil || !storage.ItemsEqual(it, it2) {
				t.Fatalf("round trip of %s: got %v (%v), want %v", text, it2, err, it)
			}
			return true
		})
	})
}

// benchItem is an item of every type, for the benchmarks.
func benchItem() storage.Item {
	return storage.Item{
		"pk": storage.S("customer#0001"), "sk": storage.N("1700000000"), "name": storage.S("Ünïcode name"),
		"price": storage.N("12.5"), "tags": storage.SS([]string{"a", "b", "c"}), "nums": storage.NS([]storage.Number{"1", "20"}),
		"bin": storage.B([]byte("0123456789")), "ok": storage.Bool(true), "nil": storage.Null(),
		"addr": storage.M(map[string]storage.Value{"city": storage.S("Paris"), "zip": storage.N("75001")}),
		"list": storage.L([]storage.Value{storage.N("1"), storage.S("two")}),
	}
}

// BenchmarkItemText: an item written and read as an export line, Ion
// against DynamoDB JSON (the read includes DecodeItem's checks).
func BenchmarkItemText(b *testing.B) {
	it := benchItem()
	b.Run("ion/write", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			buf = AppendItem(buf[:0], it)
		}
	})
	b.Run("json/write", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			buf = AppendItem(buf[:0], it)
		}
	})
	ion := []byte("$ion_1_0 {Item:" + string(AppendItem(nil, it)) + "}\n")
	js := AppendItem(nil, it)
	b.Run("ion/read", func(b *testing.B) {
		for b.Loop() {
			ReadItems(ion, func(r Record) bool {
				if _, err := wire.DecodeItem(r.Item); err != nil {
					b.Fatal(err)
				}
				return true
			})
		}
	})
	b.Run("json/read", func(b *testing.B) {
		for b.Loop() {
			if _, err := wire.DecodeItem(js); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReadExport: 1,000 export lines of benchItem read to DynamoDB
// JSON (doc.go compares it with amazon-ion/ion-go's reader).
func BenchmarkReadExport(b *testing.B) {
	var data []byte
	for range 1000 {
		data = append(data, "$ion_1_0 {Item:"...)
		data = AppendItem(data, benchItem())
		data = append(data, "}\n"...)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		n := 0
		ReadItems(data, func(r Record) bool {
			if r.Err != nil {
				b.Fatal(r.Err)
			}
			n++
			return true
		})
		if n != 1000 {
			b.Fatalf("read %d items of 1000", n)
		}
	}
}
