package expr

import (
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

func seedFuzz(f *testing.F, kinds ...string) {
	for _, c := range readOracle(f, "testdata/oracle.txt") {
		for _, k := range kinds {
			if c.kind == k {
				f.Add(c.expr)
			}
		}
	}
}

// fuzzCompiler defines the placeholders the corpus uses most.
func fuzzCompiler() *Compiler {
	one := storage.N("1")
	return NewCompiler(map[string]string{"#a": "a", "#b": "b", "#x": "x", "#p": "pk", "#s": "sk"},
		map[string]storage.Value{":a": one, ":b": storage.N("5"), ":v": storage.S("x"), ":n": one, ":p": storage.S("p"),
			":s": storage.S("a"), ":l": storage.L(nil), ":ss": storage.SS([]string{"x"}), ":m": storage.N("2")})
}

var fuzzItem = storage.Item{
	"a": storage.N("1"), "b": storage.S("x"),
	"l": storage.L([]storage.Value{storage.N("1"), storage.M(map[string]storage.Value{"c": storage.S("y")})}),
	"m": storage.M(map[string]storage.Value{"k": storage.S("v")}),
}

func FuzzCondition(f *testing.F) {
	seedFuzz(f, "condition", "filter")
	f.Fuzz(func(t *testing.T, src string) {
		cond, err := fuzzCompiler().Condition("ConditionExpression", src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T", err)
			}
			return
		}
		cond.Eval(fuzzItem)
		cond.Eval(nil)
		if _, err := ParseCondition("ConditionExpression", cond.String()); err != nil {
			t.Fatalf("canonical form %q does not parse: %v", cond.String(), err)
		}
	})
}

func FuzzKeyCondition(f *testing.F) {
	seedFuzz(f, "keycond")
	f.Add("pk = :s AND sk = :n AND #a BETWEEN :n AND :n")
	f.Add("#a = :n AND pk = :s AND begins_with(sk, :s)")
	f.Fuzz(func(t *testing.T, src string) {
		fuzzCompiler().KeyCondition(src, oracleKeySchema)
		// The same text against a multi-attribute key whose attributes
		// the fuzz corpus names (pk, sk and the placeholder #a).
		kc, err := fuzzCompiler().MultiKeyCondition(src, fuzzMultiKey)
		if err != nil {
			return
		}
		if len(kc.Partition) != len(fuzzMultiKey.Partition) || len(kc.SortPrefix) >= len(fuzzMultiKey.Sort)+1 {
			t.Fatalf("%q: %d partition values, %d sort prefix values", src, len(kc.Partition), len(kc.SortPrefix))
		}
	})
}

// fuzzMultiKey is a multi-attribute key over attributes the fuzz corpus uses.
var fuzzMultiKey = MultiKeySchema{
	Partition: []storage.KeyAttr{{Name: "pk", Kind: storage.KindS}},
	Sort:      []storage.KeyAttr{{Name: "sk", Kind: storage.KindN}, {Name: "a", Kind: storage.KindN}},
}

func FuzzUpdate(f *testing.F) {
	seedFuzz(f, "update")
	// List positions against the old item (fuzzItem's l is [1, {c: "y"}]).
	f.Add("SET l[3] = :n REMOVE l[1]")
	f.Add("REMOVE l[0], l[5] SET l[4] = :a, l[2] = :b ADD l[7] :n")
	f.Add("SET l[1].c = :v, l[1].d = l[0] REMOVE l[0] DELETE l[9] :ss")
	f.Add("SET l[2][0] = :n REMOVE l[1].c, m.k")
	f.Fuzz(func(t *testing.T, src string) {
		u, err := fuzzCompiler().Update(src)
		if err != nil {
			return
		}
		before := encodeItem(fuzzItem)
		out, err := u.Apply(fuzzItem)
		if got := encodeItem(fuzzItem); got != before {
			t.Fatalf("%q: Apply modified its input: %s", src, got)
		}
		again, err2 := u.Apply(fuzzItem)
		if (err == nil) != (err2 == nil) || err == nil && encodeItem(out) != encodeItem(again) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("%q: Apply twice differs: %v %v / %v %v", src, encodeItem(out), err, encodeItem(again), err2)
		}
		if err == nil {
			u.UpdatedNew(out)
		}
		u.Apply(nil)
		if _, err := ParseUpdate(u.String()); err != nil {
			t.Fatalf("canonical form %q does not parse: %v", u.String(), err)
		}
	})
}

func FuzzProjection(f *testing.F) {
	seedFuzz(f, "projection")
	f.Fuzz(func(t *testing.T, src string) {
		p, err := fuzzCompiler().Projection(src)
		if err != nil {
			return
		}
		p.Apply(fuzzItem)
	})
}

// FuzzCompileTree: a condition, update or projection compiled from its
// text and from its resolved tree (compile_ast_test.go's resolver) gives
// the same verdict and a result that does the same.
func FuzzCompileTree(f *testing.F) {
	for _, c := range readOracle(f, "testdata/oracle.txt") {
		f.Add(c.kind, c.expr)
	}
	r := resolver{names: fuzzCompiler().names, values: fuzzCompiler().values}
	f.Fuzz(func(t *testing.T, kind, src string) {
		var tree, text any
		var errTree, errText error
		switch kind {
		case "update":
			u, err := ParseUpdate(src)
			if err != nil {
				return
			}
			for _, cl := range u.Clauses {
				for _, a := range cl.Actions {
					r.path(a.Path)
					if a.Value != nil {
						r.expr(a.Value)
					}
				}
			}
			tree, errTree = NewCompiler(nil, nil).CompileUpdate(paramUpdate, u, nil)
			text, errText = fuzzCompiler().Update(src)
			if errText != nil && strings.Contains(errText.Error(), "section can only be used once") {
				return
			}
		case "projection":
			p, err := ParseProjection(src)
			if err != nil {
				return
			}
			for _, x := range p.Paths {
				r.path(x)
			}
			tree, errTree = NewCompiler(nil, nil).CompileProjection(paramProjection, p)
			text, errText = fuzzCompiler().Projection(src)
		default:
			x, err := ParseCondition("ConditionExpression", src)
			if err != nil {
				return
			}
			r.expr(x)
			tree, errTree = NewCompiler(nil, nil).CompileCondition("ConditionExpression", x)
			text, errText = fuzzCompiler().Condition("ConditionExpression", src)
		}
		if (errTree == nil) != (errText == nil) || errTree != nil && errTree.Error() != errText.Error() {
			t.Fatalf("%s %q: tree %v, text %v", kind, src, errTree, errText)
		}
		if errTree == nil && !sameResult(tree, text) {
			t.Fatalf("%s %q: results differ", kind, src)
		}
	})
}

// FuzzCompileTreeShape builds arbitrary trees, well formed or not, from
// the fuzzer's bytes: compiling one never panics, every error is an *Error,
// and a compiled condition evaluates.
func FuzzCompileTreeShape(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{3, 0, 1, 4, 2, 2, 5, 1, 0, 7, 9, 9})
	f.Add([]byte{9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 1})
	f.Fuzz(func(t *testing.T, prog []byte) {
		b := &treeBuilder{prog: prog}
		x := b.node(0)
		cond, err := NewCompiler(nil, nil).CompileCondition("", x)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T", err)
			}
		} else {
			cond.Eval(fuzzItem)
			cond.Eval(nil)
		}
		b.i = 0
		u := &UpdateExpr{}
		for n := 0; n < 3 && b.i < len(prog); n++ {
			op := []Token{SET, REMOVE, ADD, DELETE}[b.next()%4]
			a := &UpdateAction{Op: op, Path: b.path()}
			if op != REMOVE || b.next()%4 == 0 {
				a.Value = b.node(0)
			}
			u.Clauses = append(u.Clauses, &UpdateClause{Op: op, Actions: []*UpdateAction{a}})
		}
		upd, err := NewCompiler(nil, nil).CompileUpdate("", u, nil)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T", err)
			}
			return
		}
		upd.Apply(fuzzItem)
		upd.Apply(nil)
	})
}

// treeBuilder reads a tree from a byte program (each byte picks a node or
// an operand), ending in leaves when the program runs out.
type treeBuilder struct {
	prog []byte
	i    int
}

func (b *treeBuilder) next() byte {
	if b.i >= len(b.prog) {
		return 255
	}
	b.i++
	return b.prog[b.i-1]
}

var treeNames = []string{"a", "b", "l", "m", "size", "", "#a", "k"}
var treeValues = []storage.Value{storage.N("1"), storage.S("x"), storage.Bool(true), storage.L(nil), storage.SS([]string{"x"}), {}}
var treeFuns = []string{fnExists, fnNotExists, fnType, fnBeginsWith, fnContains, fnSize, fnIfNotExists, fnListAppend, "nope"}
var treeOps = []Token{AND, OR, EQ, NE, LT, LE, GT, GE, PLUS, MINUS, SET}

func (b *treeBuilder) path() *PathExpr {
	p := &PathExpr{}
	for n := int(b.next() % 4); n >= 0; n-- {
		c := b.next()
		switch {
		case c%5 == 4:
			p.Elems = append(p.Elems, PathElem{IsIndex: true, Index: int(c) - 128, Lit: "i"})
		default:
			p.Elems = append(p.Elems, PathElem{Name: treeNames[int(c)%len(treeNames)], Resolved: c%3 != 0})
		}
	}
	return p
}

func (b *treeBuilder) node(depth int) Expr {
	c := b.next()
	if depth > 8 || c == 255 {
		return &ValueExpr{Value: treeValues[int(c)%len(treeValues)]}
	}
	switch c % 10 {
	case 0:
		return b.path()
	case 1:
		return &ValueExpr{Value: treeValues[int(b.next())%len(treeValues)]}
	case 2:
		return &BinaryExpr{Op: treeOps[int(b.next())%len(treeOps)], X: b.node(depth + 1), Y: b.node(depth + 1)}
	case 3:
		call := &CallExpr{Fun: treeFuns[int(b.next())%len(treeFuns)]}
		for n := b.next() % 4; n > 0 && n < 4; n-- {
			call.Args = append(call.Args, b.node(depth+1))
		}
		return call
	case 4:
		return &NotExpr{X: b.node(depth + 1)}
	case 5:
		return &ParenExpr{X: b.node(depth + 1)}
	case 6:
		return &BetweenExpr{X: b.node(depth + 1), Lo: b.node(depth + 1), Hi: b.node(depth + 1)}
	case 7:
		in := &InExpr{X: b.node(depth + 1)}
		for n := b.next() % 4; n > 0 && n < 4; n-- {
			in.List = append(in.List, b.node(depth+1))
		}
		return in
	case 8:
		return &ConstExpr{Value: c%2 == 0}
	}
	return nil
}
