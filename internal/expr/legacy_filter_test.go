package expr

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestLegacyFilterTerms holds legacy filters, kept as lists of conditions
// (legacy_filter.go), to the trees they stand for (legacyBuilder): random
// filters of every operator print the tree's text and answer as the tree
// does, on items (Eval) and on their records (Match).
func TestLegacyFilterTerms(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 7))
	items, encs := fuzzEncodedItems(t)
	items = append(items, nil)
	values := []storage.Value{
		storage.N("0"), storage.N("1"), storage.N("2"), storage.N("5"), storage.S("x"), storage.S("y"), storage.S("a"),
		storage.S("p"), storage.B([]byte("x")), storage.Bool(true), storage.Null(), storage.SS([]string{"x"}),
		storage.L([]storage.Value{storage.N("1")}),
	}
	ops := []struct {
		op   string
		args int // -1: one to three
	}{
		{"EQ", 1}, {"NE", 1}, {"LE", 1}, {"LT", 1}, {"GE", 1}, {"GT", 1}, {"NULL", 0}, {"NOT_NULL", 0},
		{"CONTAINS", 1}, {"NOT_CONTAINS", 1}, {"BEGINS_WITH", 1}, {"IN", -1}, {"BETWEEN", 2},
	}
	names := []string{"a", "b", "l", "m", "x", "pk", "sk", "zz"}
	for i := 0; i < 3000; i++ {
		var conds []NamedCondition
		for _, k := range r.Perm(len(names))[:1+r.IntN(4)] {
			o := ops[r.IntN(len(ops))]
			n := o.args
			if n < 0 {
				n = 1 + r.IntN(3)
			}
			args := make([]storage.Value, n)
			for j := range args {
				args[j] = values[r.IntN(len(values))]
			}
			conds = append(conds, NamedCondition{Name: names[k], ComparisonOperator: o.op, AttributeValueList: args})
		}
		join := []string{"", "AND", "OR"}[r.IntN(3)]
		if len(conds) == 1 {
			join = ""
		}
		got, err := Filter(conds, join)
		if err != nil {
			continue // an operator given values it does not take
		}
		tok, _ := conditionalOp(join)
		var b legacyBuilder
		var exprs []Expr
		for _, c := range conds { // sorted by Filter
			exprs = append(exprs, b.condition(c.Name, c.ComparisonOperator, c.AttributeValueList))
		}
		want := b.cond(combine(exprs, tok))
		require.Equal(t, want.String(), got.String())
		_, err = ParseCondition("FilterExpression", got.String())
		require.NoError(t, err)
		require.Equal(t, want.Attributes(), got.Attributes())
		for j, it := range items {
			w, _ := want.Eval(it)
			g, _ := got.Eval(it)
			require.Equal(t, w, g, "%s on item %d: Eval", got, j)
			if j < len(encs) {
				require.Equal(t, want.Matcher().Match(encs[j]), got.Matcher().Match(encs[j]), "%s on item %d: Match", got, j)
			}
		}
	}
}
