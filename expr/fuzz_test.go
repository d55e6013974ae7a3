package expr

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/storage"
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
