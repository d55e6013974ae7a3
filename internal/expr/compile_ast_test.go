package expr

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// resolveTree rewrites a parsed tree as a caller that resolves names and
// values itself would build it: every defined #name becomes a resolved
// name, every defined :value a value of the tree. Undefined placeholders
// stay, so their errors stay too.
type resolver struct {
	names  map[string]string
	values map[string]storage.Value
}

func (r resolver) path(p *PathExpr) {
	for i, e := range p.Elems {
		if n, ok := r.names[e.Name]; ok && strings.HasPrefix(e.Name, "#") {
			p.Elems[i].Name, p.Elems[i].Resolved = n, true
		}
	}
}

func (r resolver) expr(x Expr) {
	walk(x, func(n Expr) bool {
		switch n := n.(type) {
		case *PathExpr:
			r.path(n)
		case *ValueExpr:
			if v, ok := r.values[n.Name]; ok {
				n.Name, n.Value = "", v
			}
		}
		return true
	})
}

// treeVerdict compiles c's expression through the tree entry points:
// parsed, resolved as a caller would, then compiled with no placeholder
// maps. It returns the compiled result (or nil) and "ok" or the message;
// ok is false when the text does not parse (nothing to compare).
func treeVerdict(t *testing.T, c oracleCase, param string) (any, string, bool) {
	var names map[string]string
	if c.names != "" {
		if err := json.Unmarshal([]byte(c.names), &names); err != nil {
			t.Fatal(err)
		}
	}
	r := resolver{names: names, values: decodeValues(t, c.values)}
	comp := NewCompiler(nil, nil)
	var out any
	var err error
	switch c.kind {
	case "condition", "filter", "keycond":
		x, perr := ParseCondition(c.param(), c.expr)
		if perr != nil {
			return nil, "", false
		}
		r.expr(x)
		if c.kind == "keycond" {
			out, err = comp.CompileKeyCondition(param, x, oracleKeySchema)
		} else {
			out, err = comp.CompileCondition(param, x)
		}
	case "update":
		u, perr := ParseUpdate(c.expr)
		if perr != nil {
			return nil, "", false
		}
		for _, cl := range u.Clauses {
			for _, a := range cl.Actions {
				r.path(a.Path)
				if a.Value != nil {
					r.expr(a.Value)
				}
			}
		}
		out, err = comp.CompileUpdate(param, u, nil)
	case "projection":
		p, perr := ParseProjection(c.expr)
		if perr != nil {
			return nil, "", false
		}
		for _, x := range p.Paths {
			r.path(x)
		}
		out, err = comp.CompileProjection(param, p)
	}
	if err != nil {
		if errors.Is(err, ErrMalformedTree) {
			t.Fatalf("line %d: a parsed tree is malformed: %v", c.line, err)
		}
		return nil, err.Error(), true
	}
	return out, "ok", true
}

func (c oracleCase) param() string {
	switch c.kind {
	case "condition":
		return "ConditionExpression"
	case "filter":
		return "FilterExpression"
	case "keycond":
		return paramKeyCondition
	case "update":
		return paramUpdate
	}
	return paramProjection
}

// textVerdict compiles c through the text entry points, without the
// Unused check (a resolved tree uses no placeholders).
func textVerdict(t *testing.T, c oracleCase) (any, string) {
	var names map[string]string
	if c.names != "" {
		json.Unmarshal([]byte(c.names), &names)
	}
	comp := NewCompiler(names, decodeValues(t, c.values))
	var out any
	var err error
	switch c.kind {
	case "condition", "filter":
		out, err = comp.Condition(c.param(), c.expr)
	case "keycond":
		out, err = comp.KeyCondition(c.expr, oracleKeySchema)
	case "update":
		out, err = comp.Update(c.expr)
	case "projection":
		out, err = comp.Projection(c.expr)
	}
	if err != nil {
		return nil, err.Error()
	}
	return out, "ok"
}

// sameResult compares two compiled results of one expression by what they
// do: a condition's verdict on sample items, an update's result, a
// projection's, a key condition's range.
func sameResult(a, b any) bool {
	items := []storage.Item{nil, fuzzItem, {"a": storage.N("5"), "b": storage.S("x"), "pk": storage.S("p"), "sk": storage.N("1")}}
	switch a := a.(type) {
	case *Condition:
		for _, it := range items {
			x, _ := a.Eval(it)
			y, _ := b.(*Condition).Eval(it)
			if x != y {
				return false
			}
		}
	case *Update:
		for _, it := range items {
			x, errX := a.Apply(it)
			y, errY := b.(*Update).Apply(it)
			if encodeItem(x) != encodeItem(y) || (errX == nil) != (errY == nil) || errX != nil && errX.Error() != errY.Error() {
				return false
			}
		}
	case *Projection:
		for _, it := range items {
			if encodeItem(a.Apply(it)) != encodeItem(b.(*Projection).Apply(it)) {
				return false
			}
		}
	case *KeyCondition:
		k := b.(*KeyCondition)
		return storage.Equal(a.Partition, k.Partition) && a.Sort.Op == k.Sort.Op &&
			storage.Equal(a.Sort.Values[0], k.Sort.Values[0]) && storage.Equal(a.Sort.Values[1], k.Sort.Values[1])
	}
	return true
}

// TestCompileTreeMatchesText: every expression of the DynamoDB Local
// corpus, compiled from its text and from its resolved tree, gives the same
// error or a result that does the same, except for the rules of the text
// alone (each update section once) and the placeholder maps' own errors.
func TestCompileTreeMatchesText(t *testing.T) {
	compared := 0
	for _, c := range readOracle(t, "testdata/oracle.txt") {
		var names map[string]string
		json.Unmarshal([]byte(c.names), &names)
		if NewCompiler(names, decodeValues(t, c.values)).Err() != nil {
			continue
		}
		treeOut, tree, ok := treeVerdict(t, c, c.param())
		if !ok {
			continue
		}
		textOut, text := textVerdict(t, c)
		if strings.Contains(text, "section can only be used once") {
			if tree != "ok" && !strings.Contains(tree, "overlap") && !strings.Contains(tree, "conflict") {
				t.Errorf("line %d: %q: a section twice is fine in a tree, got %s", c.line, c.expr, tree)
			}
			continue
		}
		compared++
		if tree != text {
			t.Errorf("line %d: %s %q\n tree %s\n text %s", c.line, c.kind, c.expr, tree, text)
			continue
		}
		if tree == "ok" && !sameResult(treeOut, textOut) {
			t.Errorf("line %d: %s %q: the tree's result differs from the text's", c.line, c.kind, c.expr)
		}
		// Without a param, the same message without its prefix.
		if _, plain, _ := treeVerdict(t, c, ""); plain != strings.TrimPrefix(text, "Invalid "+c.param()+": ") {
			t.Errorf("line %d: %q with param \"\": got %s, want %s", c.line, c.expr, plain, text)
		}
	}
	if compared < 300 {
		t.Fatalf("compared %d cases, want the corpus (300 or more)", compared)
	}
}

// TestCompileTreeResolvedNames: a resolved name is never a reserved word
// or a placeholder, a tree's value needs no map, and the tree's own rules.
func TestCompileTreeResolvedNames(t *testing.T) {
	path := func(names ...string) *PathExpr {
		p := &PathExpr{}
		for _, n := range names {
			p.Elems = append(p.Elems, PathElem{Name: n, Resolved: true})
		}
		return p
	}
	val := func(v storage.Value) *ValueExpr { return &ValueExpr{Value: v} }
	item := storage.Item{"size": storage.N("3"), "#a": storage.S("x"), "m": storage.M(map[string]storage.Value{"k.j": storage.S("y")})}
	tests := []struct {
		name string
		x    Expr
		want string // "true", "false" or the error
	}{
		{"reserved word", &BinaryExpr{Op: EQ, X: path("size"), Y: val(storage.N("3"))}, "true"},
		{"name like a placeholder", &BinaryExpr{Op: EQ, X: path("#a"), Y: val(storage.S("x"))}, "true"},
		{"name with a dot", &CallExpr{Fun: fnExists, Args: []Expr{path("m", "k.j")}}, "true"},
		{"constant", &BinaryExpr{Op: OR, X: &ConstExpr{Value: false}, Y: &NotExpr{X: &ConstExpr{Value: false}}}, "true"},
		{"double parentheses", &ParenExpr{X: &ParenExpr{X: &ConstExpr{Value: true}}}, "true"},
		{"checks still run", &BinaryExpr{Op: LT, X: path("size"), Y: val(storage.Bool(true))},
			"Incorrect operand type for operator or function; operator or function: <, operand type: BOOL"},
		{"function placement", &CallExpr{Fun: fnSize, Args: []Expr{path("size")}},
			"The function is not allowed to be used this way in an expression; function: size"},
		{"no operands", &CallExpr{Fun: fnExists},
			"Incorrect number of operands for operator or function; operator or function: attribute_exists, number of operands: 0"},
		{"undefined placeholder", &BinaryExpr{Op: EQ, X: path("a"), Y: &ValueExpr{Name: ":v"}},
			"An expression attribute value used in expression is not defined; attribute value: :v"},
		{"operand as condition", path("a"), "malformed"},
		{"condition as operand", &BinaryExpr{Op: EQ, X: &ConstExpr{}, Y: val(storage.N("1"))}, "malformed"},
		{"arithmetic in a condition", &BinaryExpr{Op: EQ, X: &BinaryExpr{Op: PLUS, X: path("a"), Y: path("b")}, Y: path("c")}, "malformed"},
		{"empty path", &CallExpr{Fun: fnExists, Args: []Expr{&PathExpr{}}}, "malformed"},
		{"index first", &CallExpr{Fun: fnExists, Args: []Expr{&PathExpr{Elems: []PathElem{{IsIndex: true}}}}}, "malformed"},
		{"empty name", &CallExpr{Fun: fnExists, Args: []Expr{path("")}}, "malformed"},
		{"nil", nil, "malformed"},
		{"IN without operands", &InExpr{X: path("a")}, "malformed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cond, err := NewCompiler(nil, nil).CompileCondition("", tt.x)
			got := ""
			switch {
			case errors.Is(err, ErrMalformedTree):
				got = "malformed"
			case err != nil:
				got = err.Error()
			default:
				ok, _ := cond.Eval(item)
				got = map[bool]string{true: "true", false: "false"}[ok]
			}
			if got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestCompileTreeUpdate: actions in clauses of their own, checked in the
// order given; the shape rules of an update tree.
func TestCompileTreeUpdate(t *testing.T) {
	p := func(n string) *PathExpr { return &PathExpr{Elems: []PathElem{{Name: n, Resolved: true}}} }
	one := &ValueExpr{Value: storage.N("1")}
	set := func(n string, v Expr) *UpdateClause {
		return &UpdateClause{Op: SET, Actions: []*UpdateAction{{Op: SET, Path: p(n), Value: v}}}
	}
	u := &UpdateExpr{Clauses: []*UpdateClause{
		set("a", one),
		{Op: REMOVE, Actions: []*UpdateAction{{Op: REMOVE, Path: p("b")}}},
		set("c", &BinaryExpr{Op: PLUS, X: &BinaryExpr{Op: PLUS, X: one, Y: one}, Y: one}),
		{Op: ADD, Actions: []*UpdateAction{{Op: ADD, Path: p("s"), Value: &ValueExpr{Value: storage.SS([]string{"x"})}}}},
	}}
	upd, err := NewCompiler(nil, nil).CompileUpdate("", u, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := upd.Apply(storage.Item{"b": one.Value})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a":{"N":"1"},"c":{"N":"3"},"s":{"SS":["x"]}}`; encodeItem(got) != want {
		t.Errorf("got %s, want %s", encodeItem(got), want)
	}
	// Overlaps are reported in the order given.
	over := &UpdateExpr{Clauses: []*UpdateClause{set("a", one), {Op: REMOVE, Actions: []*UpdateAction{{Op: REMOVE, Path: p("a")}}}}}
	_, err = NewCompiler(nil, nil).CompileUpdate("", over, []int{1, 0})
	if want := "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]"; err == nil || err.Error() != want {
		t.Errorf("overlap: got %v, want %s", err, want)
	}
	bad := []*UpdateExpr{
		nil,
		{},
		{Clauses: []*UpdateClause{{Op: SET, Actions: []*UpdateAction{{Op: REMOVE, Path: p("a")}}}}},
		{Clauses: []*UpdateClause{{Op: ADD, Actions: []*UpdateAction{{Op: ADD, Path: p("a"), Value: p("b")}}}}},
		{Clauses: []*UpdateClause{{Op: REMOVE, Actions: []*UpdateAction{{Op: REMOVE, Path: p("a"), Value: one}}}}},
		{Clauses: []*UpdateClause{{Op: SET, Actions: []*UpdateAction{{Op: SET, Path: p("a"), Value: &ConstExpr{}}}}}},
	}
	for i, u := range bad {
		if _, err := NewCompiler(nil, nil).CompileUpdate("", u, nil); !errors.Is(err, ErrMalformedTree) {
			t.Errorf("bad update %d: got %v, want a malformed tree", i, err)
		}
	}
	if _, err := NewCompiler(nil, nil).CompileUpdate("", over, []int{0, 0}); !errors.Is(err, ErrMalformedTree) {
		t.Errorf("bad order: got %v, want a malformed tree", err)
	}
}

// TestCompileTreeMultiKey: a multi-attribute key condition from a tree.
func TestCompileTreeMultiKey(t *testing.T) {
	p := func(n string) *PathExpr { return &PathExpr{Elems: []PathElem{{Name: n, Resolved: true}}} }
	v := func(s string) *ValueExpr { return &ValueExpr{Value: storage.S(s)} }
	ks := MultiKeySchema{
		Partition: []storage.KeyAttr{{Name: "h1", Kind: storage.KindS}, {Name: "h2", Kind: storage.KindS}},
		Sort:      []storage.KeyAttr{{Name: "r1", Kind: storage.KindS}},
	}
	x := &BinaryExpr{Op: AND, X: &BinaryExpr{Op: EQ, X: p("h1"), Y: v("a")},
		Y: &BinaryExpr{Op: AND, X: &BinaryExpr{Op: EQ, X: v("b"), Y: p("h2")}, Y: &CallExpr{Fun: fnBeginsWith, Args: []Expr{p("r1"), v("m")}}}}
	kc, err := NewCompiler(nil, nil).CompileMultiKeyCondition("", x, ks)
	if err != nil {
		t.Fatal(err)
	}
	if len(kc.Partition) != 2 || kc.Partition[1].Str() != "b" || kc.Sort.Op != storage.SortBeginsWith {
		t.Errorf("got %+v", kc)
	}
	_, err = NewCompiler(nil, nil).CompileMultiKeyCondition("", &BinaryExpr{Op: EQ, X: p("h1"), Y: v("a")}, ks)
	if want := "HASH key attributes h2 must have equality conditions specified in the query"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
