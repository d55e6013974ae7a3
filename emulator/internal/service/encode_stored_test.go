package service

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// storedSchemas are key schemas whose key names sort before, between and
// after the attributes of the test items.
var storedSchemas = []storage.KeySchema{
	{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}},
	{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}, Sort: storage.KeyAttr{Name: "sk", Kind: storage.KindN}},
	{Partition: storage.KeyAttr{Name: "\x00", Kind: storage.KindB}, Sort: storage.KeyAttr{Name: "\xff", Kind: storage.KindS}},
	{Partition: storage.KeyAttr{Name: "m", Kind: storage.KindN}, Sort: storage.KeyAttr{Name: "a", Kind: storage.KindB}},
}

// storeItem stores it, with key attributes added for ks (replacing any of
// the same names), and returns the stored item and the item as stored.
func storeItem(t testing.TB, ks storage.KeySchema, it storage.Item) (storage.EncodedItem, storage.Item) {
	t.Helper()
	full := make(storage.Item, len(it)+2)
	for k, v := range it {
		full[k] = v
	}
	keyValue := func(k storage.Kind) storage.Value {
		switch k {
		case storage.KindN:
			return storage.N("-1.5")
		case storage.KindB:
			return storage.BString("\x00<\xff")
		}
		return storage.S("key \"<&>\"")
	}
	key := storage.Key{Partition: keyValue(ks.Partition.Kind)}
	full[ks.Partition.Name] = key.Partition
	if ks.HasSort() {
		key.Sort = keyValue(ks.Sort.Kind)
		full[ks.Sort.Name] = key.Sort
	}
	tbl := storage.NewTable(ks)
	if _, err := tbl.Put(key, full); err != nil {
		t.Fatalf("Put: %v", err)
	}
	e, ok := tbl.GetEncoded(key)
	if !ok {
		t.Fatal("GetEncoded: not found")
	}
	return e, full
}

func TestAppendStoredItem(t *testing.T) {
	items := []storage.Item{
		{},
		{
			"s":    storage.S("a<b>&c\u2028d\xffe\"\\\n"),
			"n":    storage.N("-12.5"),
			"b":    storage.BString("\x00\xff<"),
			"t":    storage.Bool(true),
			"f":    storage.Bool(false),
			"null": storage.Null(),
			"l":    storage.L([]storage.Value{storage.S("x"), storage.L(nil), storage.M(nil)}),
			"m":    storage.M(map[string]storage.Value{"z": storage.N("1"), "a&": storage.SS([]string{"<", ">"}), "": storage.M(map[string]storage.Value{"y": storage.Null(), "x": storage.BS([][]byte{{1}})})}),
			"ns":   storage.NS([]storage.Number{"1", "2.5"}),
			"bs":   storage.BS([][]byte{{1}, {2, 3}}),
			"<k>":  storage.S(""),
			"é":    storage.S("€"),
		},
	}
	for _, ks := range storedSchemas {
		for i, it := range items {
			e, full := storeItem(t, ks, it)
			got, want := string(wire.AppendStoredItem([]byte("x"), e)), "x"+string(wire.AppendItem(nil, full))
			if got != want {
				t.Errorf("schema %v item %d:\n got %s\nwant %s", ks, i, got, want)
			}
		}
	}
}

// FuzzAppendStoredItem: for any item DecodeItem accepts, stored under each
// test key schema, AppendStoredItem writes what AppendItem writes for the
// decoded item; and a filter or projection given by expr, evaluated on the
// attributes decoded for it, gives what it gives on the whole item.
func FuzzAppendStoredItem(f *testing.F) {
	for _, s := range []struct{ item, expr string }{
		{`{"a":{"S":"x"}}`, `a = :v`},
		{`{"a":{"N":"1e3"},"b":{"B":"YQ=="}}`, `attribute_exists(b) AND a > :n`},
		{`{"a":{"L":[{"M":{"x":{"NS":["1","2"]}}}]}}`, `a[0].x`},
		{`{"a":{"SS":["a","b"]},"b":{"BS":["YQ=="]},"c":{"NULL":true},"d":{"BOOL":false}}`, `size(#a) > :n OR d = :v`},
		{`{"pk":{"S":"\u00e9\ud83d\ude00"},"m":{"M":{"b":{"S":"1"},"a":{"S":"2"}}}}`, `m.a, #a, pk`},
		{`{"zz":{}}`, `attribute_not_exists(zz)`},
	} {
		f.Add([]byte(s.item), s.expr)
	}
	names := map[string]string{"#a": "a"}
	values := map[string]storage.Value{":v": storage.S("x"), ":n": storage.N("1")}
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		it, err := wire.DecodeItem(data)
		if err != nil {
			return
		}
		cond, cerr := expr.NewCompiler(names, values).Condition("FilterExpression", text)
		proj, perr := expr.NewCompiler(names, values).Projection(text)
		for _, ks := range storedSchemas {
			e, full := storeItem(t, ks, it)
			if got, want := wire.AppendStoredItem(nil, e), wire.AppendItem(nil, full); string(got) != string(want) {
				t.Fatalf("schema %v:\n got %s\nwant %s", ks, got, want)
			}
			if cerr == nil {
				got, gerr := cond.Eval(e.Attributes(cond.Attributes()))
				want, werr := cond.Eval(full)
				if got != want || (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
					t.Fatalf("filter %s on schema %v: %v, %v on the attributes read; %v, %v on the item", text, ks, got, gerr, want, werr)
				}
			}
			if perr == nil {
				got, want := projectStored(proj, e), proj.Apply(full)
				if !storage.ItemsEqual(got, want) {
					t.Fatalf("projection %s on schema %v: %v, want %v", text, ks, got, want)
				}
			}
		}
	})
}
