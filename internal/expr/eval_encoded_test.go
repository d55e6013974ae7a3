package expr

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestMatchRandom holds the encoded evaluation (Matcher) to the map
// evaluation (Eval): random conditions (every operator and function,
// nested paths through maps and lists, sets, missing attributes, wrong
// types) on random items stored by a table.
func TestMatchRandom(t *testing.T) {
	g := exprGen{r: rand.New(rand.NewPCG(testSeed(t), 1))}
	items := make([]storage.Item, 60)
	for i := range items {
		items[i] = g.item()
	}
	encs := store(t, items)
	compiled, matched := 0, 0
	for range 3000 {
		c := g.condition()
		cond, err := NewCompiler(c.names, c.values).Condition("FilterExpression", c.text)
		if err != nil {
			continue
		}
		compiled++
		m := cond.Matcher()
		for i, it := range items {
			want, _ := cond.Eval(it)
			if got := m.Match(encs[i]); got != want {
				t.Fatalf("%q names %v values %v\non %v\nMatch = %v, Eval = %v", c.text, c.names, c.values, it, got, want)
			}
			if want {
				matched++
			}
		}
	}
	t.Logf("%d conditions compiled, %d matches", compiled, matched)
	if compiled < 500 || matched == 0 {
		t.Fatalf("only %d of 3000 conditions compiled, %d matches: the generator is off", compiled, matched)
	}
}

// TestMatchEvalOracle runs the evaluations recorded from DynamoDB Local
// (testdata/eval.txt) through the Matcher as well.
func TestMatchEvalOracle(t *testing.T) {
	n := 0
	for _, c := range readEvalCases(t, "testdata/eval.txt") {
		if c.kind != "eval" || c.item == "null" {
			continue
		}
		var names map[string]string
		if c.names != "" {
			json.Unmarshal([]byte(c.names), &names)
		}
		cond, err := NewCompiler(names, decodeValues(t, c.values)).Condition("FilterExpression", c.expr)
		if err != nil {
			continue
		}
		item := decodeItem(t, c.item)
		// The recorded items have no key attributes of their own: add ours.
		item["pk"], item["sk"] = storage.S("k"), storage.N("1")
		enc := store(t, []storage.Item{item})[0]
		want, _ := cond.Eval(item)
		got := cond.Matcher().Match(enc)
		if got != want || (c.want == "true") != got {
			t.Errorf("line %d: %q: Match %v, Eval %v, recorded %s", c.line, c.expr, got, want, c.want)
		}
		n++
	}
	if n < 100 {
		t.Fatalf("only %d evaluations replayed", n)
	}
}

// TestProjectorRandom holds the encoded projection (Projector) to the map
// projection (Apply) on random items.
func TestProjectorRandom(t *testing.T) {
	g := exprGen{r: rand.New(rand.NewPCG(testSeed(t), 2))}
	items := make([]storage.Item, 60)
	for i := range items {
		items[i] = g.item()
	}
	encs := store(t, items)
	compiled := 0
	var buf []byte
	for range 2000 {
		c := g.projection()
		proj, err := NewCompiler(c.names, nil).Projection(c.text)
		if err != nil {
			continue
		}
		compiled++
		pr := proj.Projector()
		for i, it := range items {
			checkProjected(t, c.text, pr, &buf, encs[i], proj.Apply(it))
		}
	}
	// AttributesToGet, and paths that overlap (UpdatedPaths may).
	for range 300 {
		names := []string{g.pick(genTop)}
		for range g.r.IntN(4) {
			if n := g.pick(genTop); !contains1(names, n) {
				names = append(names, n)
			}
		}
		proj, err := AttributesToGet(names)
		if err != nil {
			t.Fatal(err)
		}
		pr := proj.Projector()
		for i, it := range items {
			checkProjected(t, "AttributesToGet", pr, &buf, encs[i], proj.Apply(it))
		}
	}
	if compiled < 500 {
		t.Fatalf("only %d of 2000 projections compiled", compiled)
	}
}

func contains1(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkProjected appends e's projection (after some bytes, as a page
// buffer holds earlier items) and compares it with want.
func checkProjected(t *testing.T, what string, pr *Projector, buf *[]byte, e storage.EncodedItem, want storage.Item) {
	t.Helper()
	*buf = append((*buf)[:0], "earlier items"...)
	*buf = pr.Append(*buf, e)
	got := storage.EncodedItemOf(string((*buf)[len("earlier items"):]))
	if !storage.ItemsEqual(got.Item(), want) {
		t.Fatalf("%s on %v:\nProjector %v\nApply     %v", what, e.Item(), got.Item(), want)
	}
	r := got.Reader()
	for {
		if _, ok := r.Next(); !ok {
			break
		}
		r.Skip()
	}
	if err := r.Err(); err != nil {
		t.Fatalf("%s: the projected record does not read: %v", what, err)
	}
}

// TestProjectorOverlapping projects paths that overlap, which only
// ProjectPaths is given (a projection expression refuses them): the
// shorter path takes the whole value.
func TestProjectorOverlapping(t *testing.T) {
	item := storage.Item{
		"pk": storage.S("k"), "sk": storage.N("1"),
		"m": storage.M(map[string]storage.Value{"a": storage.N("1"), "b": storage.S("x")}),
		"l": storage.L([]storage.Value{storage.N("1"), storage.N("2"), storage.N("3")}),
	}
	enc := store(t, []storage.Item{item})[0]
	for _, paths := range [][]Path{
		{{{Name: "m"}, {Name: "a"}}, {{Name: "m"}}},
		{{{Name: "m"}}, {{Name: "m"}, {Name: "b"}}},
		{{{Name: "l"}, {Index: 2, IsIndex: true}}, {{Name: "l"}, {Index: 0, IsIndex: true}}},
		{{{Name: "l"}, {Index: 5, IsIndex: true}}, {{Name: "pk"}}},
	} {
		p := &Projection{paths: paths, trie: newProjTrie(paths)}
		var buf []byte
		checkProjected(t, Path(paths[0]).String(), p.Projector(), &buf, enc, ProjectPaths(item, paths))
	}
}

// fuzzEncodedItems are the items the encoded fuzz targets evaluate on.
func fuzzEncodedItems(t testing.TB) ([]storage.Item, []storage.EncodedItem) {
	g := exprGen{r: rand.New(rand.NewPCG(1, 2))}
	items := []storage.Item{{"pk": storage.S("p"), "sk": storage.N("1")}}
	for range 8 {
		items = append(items, g.item())
	}
	items = append(items, storage.Item{"pk": storage.S("q"), "sk": storage.N("2"), "a": storage.N("1"), "b": storage.S("x"),
		"l": fuzzItem["l"], "m": fuzzItem["m"], "x": storage.SS([]string{"x"})})
	return items, store(t, items)
}

// FuzzMatch compiles the input as a condition and as a projection with
// fixed placeholders and holds the encoded forms to the map forms.
func FuzzMatch(f *testing.F) {
	seedFuzz(f, "condition", "filter", "projection")
	f.Add("size(l) = :m AND contains(#x, :v) OR l[1].c = :v")
	f.Add("m.k = :v, l[0], #a")
	items, encs := fuzzEncodedItems(f)
	f.Fuzz(func(t *testing.T, src string) {
		if cond, err := fuzzCompiler().Condition("FilterExpression", src); err == nil {
			m := cond.Matcher()
			for i, it := range items {
				want, _ := cond.Eval(it)
				if got := m.Match(encs[i]); got != want {
					t.Fatalf("%q on %v: Match %v, Eval %v", src, it, got, want)
				}
			}
		}
		if proj, err := fuzzCompiler().Projection(src); err == nil {
			pr := proj.Projector()
			var buf []byte
			for i, it := range items {
				checkProjected(t, src, pr, &buf, encs[i], proj.Apply(it))
			}
		}
	})
}
