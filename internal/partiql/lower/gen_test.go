package lower

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A generated test: random WHERE clauses and SET/REMOVE actions written
// twice, as PartiQL and as the equivalent DynamoDB expression (with
// :placeholders), lowered and compiled: the same verdict (the lowering's
// message is the expression's without its "Invalid ...Expression: "
// prefix) and, when both compile, the same result on random items. The
// seed is printed; LOWER_SEED=<n> replays one.

// genValue is a value both languages can write.
type genValue struct {
	partiql string
	v       storage.Value
}

var genValues = []genValue{
	{"1", storage.N("1")}, {"2", storage.N("2")}, {"-3.5", storage.N("-3.5")},
	{"'x'", storage.S("x")}, {"'xy'", storage.S("xy")}, {"TRUE", storage.Bool(true)},
	{"NULL", storage.Null()}, {"[1, 'x']", storage.L([]storage.Value{storage.N("1"), storage.S("x")})},
	{"<<'x', 'z'>>", storage.SS([]string{"x", "z"})},
}

var genPaths = []string{"a", "b", "m.k", "l[0]", "l[1]", "m.k.j"}

type gen struct {
	r      *rand.Rand
	values map[string]storage.Value
}

func (g *gen) value() (string, string) {
	v := genValues[g.r.IntN(len(genValues))]
	name := ":v" + strconv.Itoa(len(g.values))
	g.values[name] = v.v
	return v.partiql, name
}

func (g *gen) path() string { return genPaths[g.r.IntN(len(genPaths))] }

// cond returns a condition as PartiQL and as a condition expression.
func (g *gen) cond(depth int) (string, string) {
	if depth > 0 {
		switch g.r.IntN(6) {
		case 0:
			p, e := g.cond(depth - 1)
			return "NOT (" + p + ")", "NOT (" + e + ")"
		case 1, 2:
			op := []string{"AND", "OR"}[g.r.IntN(2)]
			p1, e1 := g.cond(depth - 1)
			p2, e2 := g.cond(depth - 1)
			return "(" + p1 + ") " + op + " (" + p2 + ")", "(" + e1 + ") " + op + " (" + e2 + ")"
		}
	}
	p := g.path()
	switch g.r.IntN(9) {
	case 0:
		pv1, ev1 := g.value()
		pv2, ev2 := g.value()
		return p + " BETWEEN " + pv1 + " AND " + pv2, p + " BETWEEN " + ev1 + " AND " + ev2
	case 1:
		pv1, ev1 := g.value()
		pv2, ev2 := g.value()
		return p + " IN (" + pv1 + ", " + pv2 + ")", p + " IN (" + ev1 + ", " + ev2 + ")"
	case 2:
		f := []string{"attribute_exists", "attribute_not_exists"}[g.r.IntN(2)]
		return f + "(" + p + ")", f + "(" + p + ")"
	case 3:
		pv, ev := g.value()
		f := []string{"begins_with", "contains"}[g.r.IntN(2)]
		return f + "(" + p + ", " + pv + ")", f + "(" + p + ", " + ev + ")"
	case 4:
		t := []string{"S", "N", "L", "M", "NULL", "BOOL", "SS"}[g.r.IntN(7)]
		pv, ev := "'"+t+"'", ":t"+strconv.Itoa(len(g.values))
		g.values[ev] = storage.S(t)
		return "attribute_type(" + p + ", " + pv + ")", "attribute_type(" + p + ", " + ev + ")"
	case 5:
		op := []string{"=", "<>", "<", ">="}[g.r.IntN(4)]
		pv, ev := g.value()
		return "size(" + p + ") " + op + " " + pv, "size(" + p + ") " + op + " " + ev
	}
	op := []string{"=", "<>", "<", "<=", ">", ">="}[g.r.IntN(6)]
	pv, ev := g.value()
	if g.r.IntN(4) == 0 {
		return pv + " " + op + " " + p, ev + " " + op + " " + p
	}
	return p + " " + op + " " + pv, p + " " + op + " " + ev
}

// item is a random item over the generated paths.
func (g *gen) item() storage.Item {
	if g.r.IntN(8) == 0 {
		return nil
	}
	it := storage.Item{"pk": storage.S("p")}
	pick := func() storage.Value { return genValues[g.r.IntN(len(genValues))].v }
	for _, n := range []string{"a", "b"} {
		if g.r.IntN(3) > 0 {
			it[n] = pick()
		}
	}
	if g.r.IntN(3) > 0 {
		inner := map[string]storage.Value{}
		if g.r.IntN(2) == 0 {
			inner["j"] = pick()
		}
		m := map[string]storage.Value{}
		switch g.r.IntN(3) {
		case 0:
			m["k"] = pick()
		case 1:
			m["k"] = storage.M(inner)
		}
		it["m"] = storage.M(m)
	}
	if g.r.IntN(3) > 0 {
		l := make([]storage.Value, g.r.IntN(3))
		for i := range l {
			l[i] = pick()
		}
		it["l"] = storage.L(l)
	}
	return it
}

func genSeed(t *testing.T) uint64 {
	if s := os.Getenv("LOWER_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("LOWER_SEED: %v", err)
		}
		return n
	}
	return rand.Uint64()
}

func TestGeneratedWhere(t *testing.T) {
	seed := genSeed(t)
	t.Logf("seed %d (LOWER_SEED=%d replays it)", seed, seed)
	r := rand.New(rand.NewPCG(seed, seed))
	agreed, failed := 0, 0
	for i := 0; i < 2000; i++ {
		g := &gen{r: r, values: map[string]storage.Value{}}
		pq, ex := g.cond(3)
		src := "SELECT * FROM t WHERE pk = 'p' AND (" + pq + ")"
		text := "pk = :pk AND (" + ex + ")"
		g.values[":pk"] = storage.S("p")
		s, lerr := LowerSelect(Binding{Src: src}, mustParse(t, src).(*partiql.Select), Target{Keys: hashKeys})
		cond, terr := expr.NewCompiler(nil, g.values).Condition("FilterExpression", text)
		if (lerr == nil) != (terr == nil) {
			t.Fatalf("seed %d: %s\n lowered: %v\n text %s: %v", seed, src, lerr, text, terr)
		}
		if lerr != nil {
			if want := strings.TrimPrefix(terr.Error(), "Invalid FilterExpression: "); lerr.Error() != want {
				t.Fatalf("seed %d: %s\n lowered: %v\n text %s: %v", seed, src, lerr, text, terr)
			}
			failed++
			continue
		}
		for j := 0; j < 20; j++ {
			it := g.item()
			a, _ := s.Filter.Eval(it)
			b, _ := cond.Eval(it)
			if a != b {
				t.Fatalf("seed %d: %s on %s: lowered %v, text %s %v", seed, src, renderItem(it), a, text, b)
			}
		}
		agreed++
	}
	if agreed < 200 || failed < 100 {
		t.Errorf("seed %d: %d compiled, %d refused: the generator should give plenty of both", seed, agreed, failed)
	}
}

// setAction returns a SET or REMOVE action on path p as PartiQL and as an
// update expression clause ("SET ..." or "REMOVE ...").
func (g *gen) setAction(p string) (string, string, string) {
	switch g.r.IntN(6) {
	case 0:
		return "REMOVE " + p, "REMOVE", p
	case 1:
		pv, ev := g.value()
		q := g.path()
		return "SET " + p + " = " + q + " + " + pv, "SET", p + " = " + q + " + " + ev
	case 2:
		pv, ev := g.value()
		return "SET " + p + " = list_append(l, [" + pv + "])", "SET", p + " = list_append(l, :lv" + ev[2:] + ")"
	case 3:
		pv, ev := g.value()
		q := g.path()
		return "SET " + p + " = if_not_exists(" + q + ", " + pv + ")", "SET", p + " = if_not_exists(" + q + ", " + ev + ")"
	}
	pv, ev := g.value()
	return "SET " + p + " = " + pv, "SET", p + " = " + ev
}

func TestGeneratedUpdate(t *testing.T) {
	seed := genSeed(t)
	t.Logf("seed %d (LOWER_SEED=%d replays it)", seed, seed)
	r := rand.New(rand.NewPCG(seed, seed+1))
	agreed, failed := 0, 0
	for i := 0; i < 2000; i++ {
		g := &gen{r: r, values: map[string]storage.Value{}}
		// Distinct top-level attributes: no overlapping paths, whose
		// messages name the paths in an order of each language's own.
		tops := []string{"a", "b", "m", "l"}
		r.Shuffle(len(tops), func(i, j int) { tops[i], tops[j] = tops[j], tops[i] })
		n := 1 + r.IntN(3)
		var pq []string
		clauses := map[string][]string{}
		var order []string
		type at struct {
			kw string
			i  int
		}
		var where []at // each action's clause and place in it
		for _, top := range tops[:n] {
			p := top
			switch top {
			case "m":
				p = []string{"m.k", "m.k.j"}[r.IntN(2)]
			case "l":
				p = []string{"l[0]", "l[1]", "l[5]"}[r.IntN(3)]
			}
			a, kw, clause := g.setAction(p)
			pq = append(pq, a)
			if len(clauses[kw]) == 0 {
				order = append(order, kw)
			}
			where = append(where, at{kw, len(clauses[kw])})
			clauses[kw] = append(clauses[kw], clause)
		}
		// The lowering checks the actions in the reverse of the statement's
		// order (DynamoDB Local's, lower.go); the text compiles in that order.
		start := map[string]int{}
		k := 0
		for _, kw := range order {
			start[kw] = k
			k += len(clauses[kw])
		}
		textOrder := make([]int, len(where))
		for i, w := range where {
			textOrder[len(where)-1-i] = start[w.kw] + w.i
		}
		for k, v := range g.values {
			if strings.HasPrefix(k, ":v") {
				g.values[":lv"+k[2:]] = storage.L([]storage.Value{v})
			}
		}
		var text []string
		for _, kw := range order {
			text = append(text, kw+" "+strings.Join(clauses[kw], ", "))
		}
		src := "UPDATE t " + strings.Join(pq, " ") + " WHERE pk = 'p'"
		u, lerr := LowerUpdate(Binding{Src: src}, mustParse(t, src).(*partiql.Update), hashKeys)
		c := expr.NewCompiler(nil, g.values)
		upd, terr := c.UpdateInOrder(strings.Join(text, " "), textOrder)
		if (lerr == nil) != (terr == nil) {
			t.Fatalf("seed %d: %s\n lowered: %v\n text %s: %v", seed, src, lerr, strings.Join(text, " "), terr)
		}
		if lerr != nil {
			if want := strings.TrimPrefix(terr.Error(), "Invalid UpdateExpression: "); lerr.Error() != want {
				t.Fatalf("seed %d: %s\n lowered: %v\n text %s: %v", seed, src, lerr, strings.Join(text, " "), terr)
			}
			failed++
			continue
		}
		for j := 0; j < 20; j++ {
			it := g.item()
			if it == nil {
				continue
			}
			a, errA := u.Update.Apply(it)
			b, errB := upd.Apply(it)
			if renderItem(a) != renderItem(b) || fmt.Sprint(errA) != fmt.Sprint(errB) {
				t.Fatalf("seed %d: %s on %s:\n lowered %s %v\n text %s %s %v", seed, src, renderItem(it),
					renderItem(a), errA, strings.Join(text, " "), renderItem(b), errB)
			}
		}
		agreed++
	}
	if agreed < 200 || failed < 50 {
		t.Errorf("seed %d: %d compiled, %d refused: the generator should give plenty of both", seed, agreed, failed)
	}
}
