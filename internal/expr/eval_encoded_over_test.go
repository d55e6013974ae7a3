package expr

import (
	"math/rand/v2"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

// TestMatcherOverRandom holds a Matcher that sees some attributes
// (MatcherOver, an index entry's) to Eval on the item cut to them:
// random conditions on random items, each under a random visible list.
func TestMatcherOverRandom(t *testing.T) {
	g := exprGen{r: rand.New(rand.NewPCG(testSeed(t), 2))}
	items := make([]storage.Item, 40)
	for i := range items {
		items[i] = g.item()
	}
	encs := store(t, items)
	compiled, hidden, differ := 0, 0, 0
	for range 2000 {
		c := g.condition()
		cond, err := NewCompiler(c.names, c.values).Condition("FilterExpression", c.text)
		if err != nil {
			continue
		}
		compiled++
		visible := []string{"pk", "sk"}
		for _, name := range genTop[:len(genTop)-3] {
			if g.r.IntN(2) == 0 {
				visible = append(visible, name)
			}
		}
		m := cond.MatcherOver(visible)
		if m.hidden != nil {
			hidden++
		}
		for i, it := range items {
			cut := storage.Item{}
			for _, name := range visible {
				if v, ok := it[name]; ok {
					cut[name] = v
				}
			}
			want, _ := cond.Eval(cut)
			whole, _ := cond.Eval(it)
			if want != whole {
				differ++
			}
			require.Equal(t, want, m.Match(encs[i]), "%q names %v values %v visible %v\non %v", c.text, c.names, c.values, visible, it)
		}
	}
	t.Logf("%d conditions compiled, %d with hidden attributes, %d answers the cut changed", compiled, hidden, differ)
	require.Greater(t, compiled, 300, "the generator is off")
	require.Positive(t, differ, "no cut changed an answer: the test tests nothing")
}

// TestMatcherOverAll: a nil visible list hides nothing.
func TestMatcherOverAll(t *testing.T) {
	cond, err := NewCompiler(nil, map[string]storage.Value{":v": storage.S("x")}).Condition("FilterExpression", "NOT (a = :v)")
	require.NoError(t, err)
	encs := store(t, []storage.Item{{"pk": storage.S("p"), "sk": storage.N("1"), "a": storage.S("x")}})
	require.False(t, cond.MatcherOver(nil).Match(encs[0]))
	require.True(t, cond.MatcherOver([]string{"pk", "sk"}).Match(encs[0]), "a hidden a is missing: NOT (a = :v) holds")
}
