package service

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// pageEvalSeeds are items and expressions (each compiled as a filter and
// as a projection) for TestPageEval and FuzzPageEval.
var pageEvalSeeds = []struct{ item, expr string }{
	{`{"a":{"S":"x"}}`, `a = :v`},
	{`{"a":{"N":"1e3"},"b":{"B":"YQ=="}}`, `attribute_exists(b) AND a > :n`},
	{`{"a":{"L":[{"M":{"x":{"NS":["1","2"]}}}]}}`, `a[0].x`},
	{`{"a":{"L":[{"M":{"x":{"NS":["1","2"]}}}]}}`, `contains(a[0].x, :n) OR size(a) = :n`},
	{`{"a":{"SS":["a","b"]},"b":{"BS":["YQ=="]},"c":{"NULL":true},"d":{"BOOL":false}}`, `size(#a) > :n OR d = :v`},
	{`{"a":{"SS":["a","b"]},"b":{"BS":["YQ=="]},"c":{"NULL":true},"d":{"BOOL":false}}`, `c, d, b, #a`},
	{`{"pk":{"S":"\u00e9\ud83d\ude00"},"m":{"M":{"b":{"S":"1"},"a":{"S":"2"}}}}`, `m.a, #a, pk`},
	{`{"m":{"M":{"b":{"S":"x"},"a":{"L":[{"S":"2"},{"N":"1"}]}}}}`, `m.a[1], m.b, m.zz`},
	{`{"m":{"M":{"b":{"S":"x"}}}}`, `begins_with(m.b, :v) AND NOT attribute_type(m, :v)`},
	{`{"zz":{"NULL":true}}`, `attribute_not_exists(zz) OR zz = :v`},
	{`{"a":{"N":"5"}}`, `a BETWEEN :n AND :n5 OR a IN (:n, :v)`},
}

var (
	pageEvalCache  = expr.NewCache(0, 0)
	pageEvalNames  = map[string]string{"#a": "a"}
	pageEvalValues = map[string]storage.Value{":v": storage.S("x"), ":n": storage.N("1"), ":n5": storage.N("5")}
)

// checkPageEval stores it under every test key schema and checks that a
// page's filter (expr.Matcher on the record) keeps the item exactly when
// Condition.Eval holds on the decoded item, and that its projection
// (expr.Projector into the page's buffer) writes what Projection.Apply's
// item writes.
func checkPageEval(t *testing.T, it storage.Item, text string) {
	compiler := func() *expr.Compiler { return expr.NewCachedCompiler(pageEvalCache, pageEvalNames, pageEvalValues) }
	cond, cerr := compiler().Condition("FilterExpression", text)
	proj, perr := compiler().Projection(text)
	for _, ks := range storedSchemas {
		e, full := storeItem(t, ks, it)
		if cerr == nil {
			pe := newPageEval(&readRequest{filter: cond})
			want, _ := cond.Eval(full)
			if got := pe.keep(e); got != want {
				t.Fatalf("filter %s on %v (schema %v): page keeps %v, Eval %v", text, full, ks, got, want)
			}
		}
		if perr == nil {
			pe := newPageEval(&readRequest{projection: proj})
			pe.project(e)
			pe.project(e)
			got := pe.projected()
			want := wire.AppendItem(nil, proj.Apply(full))
			if len(got) != 2 {
				t.Fatalf("projection %s: %d items, want 2", text, len(got))
			}
			for _, g := range got {
				if g := wire.AppendStoredItem(nil, g); string(g) != string(want) {
					t.Fatalf("projection %s on %v (schema %v):\n got %s\nwant %s", text, full, ks, g, want)
				}
			}
			if g := wire.AppendStoredItem(nil, projectEncoded(proj, e)); string(g) != string(want) {
				t.Fatalf("GetItem projection %s on %v (schema %v):\n got %s\nwant %s", text, full, ks, g, want)
			}
		}
	}
}

func TestPageEval(t *testing.T) {
	for _, s := range pageEvalSeeds {
		it, err := wire.DecodeItem([]byte(s.item))
		if err != nil {
			t.Fatalf("item %s: %v", s.item, err)
		}
		checkPageEval(t, it, s.expr)
	}
}

// FuzzPageEval: for any item DecodeItem accepts and any expression, the
// page's filter and projection on the stored record answer what Eval and
// Apply answer on the decoded item.
func FuzzPageEval(f *testing.F) {
	for _, s := range pageEvalSeeds {
		f.Add([]byte(s.item), s.expr)
	}
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		it, err := wire.DecodeItem(data)
		if err != nil {
			return
		}
		checkPageEval(t, it, text)
	})
}
