package expr

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A generator of random items and expressions over them, for the tests
// that hold two implementations together: map and encoded evaluation,
// map and encoded projection, compiling with and without the cache.

// testSeed returns the seed of a randomized test, from EXPR_SEED when set.
func testSeed(t testing.TB) uint64 {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("EXPR_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (rerun with EXPR_SEED=%d)", seed, seed)
	return seed
}

// exprGen draws items and expressions from small name spaces, so that
// paths often exist, often do not, and often reach the wrong type.
type exprGen struct {
	r *rand.Rand
}

var (
	genTop    = []string{"a", "b", "c", "m", "l", "s", "ns", "bs", "pk", "sk", "zz", "x_y"}
	genInner  = []string{"a", "b", "k", "m", "l"}
	genStrs   = []string{"", "a", "ab", "abc", "b", "é", "x\x00y", "\xff", "abd", "ba"}
	genNums   = []string{"-1.5", "-1", "0", "0.5", "1", "2", "3", "10", "100", "1E+30"}
	genKinds  = []string{"S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS", "X"}
	genSizes  = []string{"0", "1", "2", "3", "4"}
	testKeySN = storage.KeySchema{
		Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS},
		Sort:      storage.KeyAttr{Name: "sk", Kind: storage.KindN},
	}
)

func (g exprGen) pick(list []string) string { return list[g.r.IntN(len(list))] }

func (g exprGen) scalar() storage.Value {
	switch g.r.IntN(6) {
	case 0, 1:
		return storage.S(g.pick(genStrs))
	case 2, 3:
		return storage.N(storage.MustNumber(g.pick(genNums)))
	case 4:
		return storage.BString(g.pick(genStrs))
	}
	if g.r.IntN(2) == 0 {
		return storage.Null()
	}
	return storage.Bool(g.r.IntN(2) == 0)
}

func (g exprGen) value(depth int) storage.Value {
	n := g.r.IntN(10)
	if depth >= 3 {
		n %= 6
	}
	switch n {
	case 6:
		l := make([]storage.Value, g.r.IntN(4))
		for i := range l {
			l[i] = g.value(depth + 1)
		}
		return storage.L(l)
	case 7:
		m := map[string]storage.Value{}
		for range g.r.IntN(4) {
			m[g.pick(genInner)] = g.value(depth + 1)
		}
		return storage.M(m)
	case 8, 9:
		return g.set()
	}
	return g.scalar()
}

func (g exprGen) set() storage.Value {
	kind := []storage.Kind{storage.KindSS, storage.KindNS, storage.KindBS}[g.r.IntN(3)]
	pool := genStrs[1:]
	if kind == storage.KindNS {
		pool = genNums
	}
	var members []string
	for _, i := range g.r.Perm(len(pool))[:1+g.r.IntN(3)] {
		m := pool[i]
		if kind == storage.KindNS {
			m = string(storage.MustNumber(m))
		}
		members = append(members, m)
	}
	return storage.SetOf(kind, members)
}

// item returns an item with key attributes pk (S) and sk (N).
func (g exprGen) item() storage.Item {
	it := storage.Item{
		"pk": storage.S(g.pick(genStrs[1:])),
		"sk": storage.N(storage.MustNumber(g.pick(genNums))),
	}
	for _, name := range genTop {
		if name != "pk" && name != "sk" && g.r.IntN(3) > 0 {
			it[name] = g.value(0)
		}
	}
	// Equal composites in different places, for comparisons of two paths.
	if v, ok := it["a"]; ok && g.r.IntN(3) == 0 {
		it["b"] = v
		it["c"] = storage.L([]storage.Value{v, v})
	}
	return it
}

// exprCase is an expression with the placeholder maps of its request.
type exprCase struct {
	text   string
	names  map[string]string
	values map[string]storage.Value
}

// placeholders builds one request's placeholder maps as an expression is
// generated: a name or value is sometimes a placeholder, and sometimes a
// placeholder is left out or given the wrong type, so that compilation
// fails in every way it can.
type placeholders struct {
	g      exprGen
	names  map[string]string
	values map[string]storage.Value
}

func (p *placeholders) name(n string) string {
	if p.g.r.IntN(3) > 0 {
		return n
	}
	key := "#" + n
	if p.g.r.IntN(20) > 0 {
		p.names[key] = n
	}
	return key
}

func (p *placeholders) val(v storage.Value) string {
	key := ":v" + strconv.Itoa(len(p.values))
	if p.g.r.IntN(30) > 0 {
		p.values[key] = v
	}
	return key
}

func (g exprGen) path(p *placeholders) string {
	var b strings.Builder
	b.WriteString(p.name(g.pick(genTop)))
	for range g.r.IntN(3) {
		if g.r.IntN(2) == 0 {
			b.WriteString("[" + strconv.Itoa(g.r.IntN(4)) + "]")
		} else {
			b.WriteString("." + p.name(g.pick(genInner)))
		}
	}
	return b.String()
}

// operand is a path, a value or size(path).
func (g exprGen) operand(p *placeholders) string {
	switch g.r.IntN(5) {
	case 0, 1:
		return g.path(p)
	case 2:
		return "size(" + g.path(p) + ")"
	case 3:
		if g.r.IntN(2) == 0 {
			return p.val(storage.N(storage.MustNumber(g.pick(genSizes))))
		}
	}
	if g.r.IntN(4) == 0 {
		return p.val(g.value(1))
	}
	return p.val(g.scalar())
}

func (g exprGen) cond(p *placeholders, depth int) string {
	n := g.r.IntN(12)
	if depth >= 3 {
		n = 4 + n%8
	}
	switch n {
	case 0:
		return g.cond(p, depth+1) + " AND " + g.cond(p, depth+1)
	case 1:
		return g.cond(p, depth+1) + " OR " + g.cond(p, depth+1)
	case 2:
		return "NOT " + g.cond(p, depth+1)
	case 3:
		return "(" + g.cond(p, depth+1) + ")"
	case 4, 5:
		op := []string{"=", "<>", "<", "<=", ">", ">="}[g.r.IntN(6)]
		if g.r.IntN(3) == 0 {
			// Two places that often hold equal values (item).
			same := []string{"a", "b", "c[0]", "c[1]"}
			x, y := g.r.IntN(4), g.r.IntN(3)
			if y >= x {
				y++
			}
			return same[x] + " " + op + " " + same[y]
		}
		return g.operand(p) + " " + op + " " + g.operand(p)
	case 6:
		return g.operand(p) + " BETWEEN " + g.operand(p) + " AND " + g.operand(p)
	case 7:
		list := []string{g.operand(p)}
		for range g.r.IntN(3) {
			list = append(list, g.operand(p))
		}
		return g.operand(p) + " IN (" + strings.Join(list, ", ") + ")"
	case 8:
		fn := []string{"attribute_exists", "attribute_not_exists"}[g.r.IntN(2)]
		return fn + "(" + g.path(p) + ")"
	case 9:
		return "attribute_type(" + g.path(p) + ", " + p.val(storage.S(g.pick(genKinds))) + ")"
	case 10:
		return "begins_with(" + g.operand(p) + ", " + g.operand(p) + ")"
	}
	if g.r.IntN(2) == 0 {
		// A collection of the item and a scalar it may well hold.
		coll := [][]string{{"l"}, {"s"}, {"ns"}, {"bs"}, {"m", "l"}, {"m", "m", "l"}, {"a"}}[g.r.IntN(7)]
		for i, n := range coll {
			coll[i] = p.name(n)
		}
		return "contains(" + strings.Join(coll, ".") + ", " + p.val(g.scalar()) + ")"
	}
	return "contains(" + g.operand(p) + ", " + g.operand(p) + ")"
}

// condition returns a random condition with its placeholder maps.
func (g exprGen) condition() exprCase {
	p := &placeholders{g: g, names: map[string]string{}, values: map[string]storage.Value{}}
	text := g.cond(p, 0)
	return exprCase{text: text, names: p.names, values: p.values}
}

// projection returns a random projection of one to four paths.
func (g exprGen) projection() exprCase {
	p := &placeholders{g: g, names: map[string]string{}, values: map[string]storage.Value{}}
	paths := []string{g.path(p)}
	for range g.r.IntN(4) {
		paths = append(paths, g.path(p))
	}
	return exprCase{text: strings.Join(paths, ", "), names: p.names}
}

// store returns items as a table stores them (schema testKeySN).
func store(t testing.TB, items []storage.Item) []storage.EncodedItem {
	t.Helper()
	tbl := storage.NewTable(testKeySN)
	out := make([]storage.EncodedItem, len(items))
	for i, it := range items {
		k := testKeySN.KeyOf(it)
		if _, err := tbl.Put(k, it); err != nil {
			t.Fatal(err)
		}
		e, ok := tbl.GetEncoded(k)
		if !ok {
			t.Fatal("stored item not found")
		}
		out[i] = e
	}
	return out
}
