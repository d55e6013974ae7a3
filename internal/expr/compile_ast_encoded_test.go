package expr

import (
	"math/rand/v2"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestCompileTreeMatcher: a condition compiled from a tree (names
// resolved, values in the tree, slots of their own) evaluates on stored
// items (Matcher) as the same condition compiled from its text evaluates
// on decoded ones (Eval), and a ConstExpr decides alone or inside AND, OR
// and NOT.
func TestCompileTreeMatcher(t *testing.T) {
	g := exprGen{r: rand.New(rand.NewPCG(testSeed(t), 2))}
	items := make([]storage.Item, 40)
	for i := range items {
		items[i] = g.item()
	}
	encs := store(t, items)
	compiled := 0
	for range 2000 {
		c := g.condition()
		text, err := NewCompiler(c.names, c.values).Condition("FilterExpression", c.text)
		if err != nil {
			continue
		}
		x, perr := ParseCondition("FilterExpression", c.text)
		if perr != nil {
			t.Fatalf("%q compiles but does not parse: %v", c.text, perr)
		}
		resolver{names: c.names, values: c.values}.expr(x)
		tree, err := NewCompiler(nil, nil).CompileCondition("FilterExpression", x)
		if err != nil {
			t.Fatalf("%q: text compiles, tree: %v", c.text, err)
		}
		compiled++
		m := tree.Matcher()
		for i, it := range items {
			want, _ := text.Eval(it)
			if got := m.Match(encs[i]); got != want {
				t.Fatalf("%q on %v: tree Match = %v, text Eval = %v", c.text, it, got, want)
			}
			if got, _ := tree.Eval(it); got != want {
				t.Fatalf("%q on %v: tree Eval = %v, text Eval = %v", c.text, it, got, want)
			}
		}
	}
	if compiled < 300 {
		t.Fatalf("only %d conditions compiled", compiled)
	}

	path := &PathExpr{Elems: []PathElem{{Name: "a", Resolved: true}}}
	exists := &CallExpr{Fun: fnExists, Args: []Expr{path}}
	for _, tc := range []struct {
		name string
		x    Expr
		want func(storage.Item) bool
	}{
		{"true", &ConstExpr{Value: true}, func(storage.Item) bool { return true }},
		{"false", &ConstExpr{Value: false}, func(storage.Item) bool { return false }},
		{"not false", &NotExpr{X: &ConstExpr{}}, func(storage.Item) bool { return true }},
		{"exists and true", &BinaryExpr{Op: AND, X: exists, Y: &ConstExpr{Value: true}},
			func(it storage.Item) bool { _, ok := it["a"]; return ok }},
		{"false or exists", &BinaryExpr{Op: OR, X: &ConstExpr{}, Y: exists},
			func(it storage.Item) bool { _, ok := it["a"]; return ok }},
	} {
		cond, err := NewCompiler(nil, nil).CompileCondition("", tc.x)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		m := cond.Matcher()
		for i, it := range items {
			if got, want := m.Match(encs[i]), tc.want(it); got != want {
				t.Errorf("%s on %v: Match = %v, want %v", tc.name, it, got, want)
			}
		}
	}
}
