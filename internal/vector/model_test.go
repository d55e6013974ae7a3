package vector

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The randomized test of vector indexes: random puts, updates, deletes,
// TTL deletions, transactions committed and aborted, and a second index
// added and dropped, against a model (the items by key); after each step
// some searches compare Search with a brute-force search of the
// model in float64, and the table's invariants (storage's Check, which
// rebuilds every vector index from the items) are checked.
//
// In "exact" runs every vector holds small integers, so the float32 sums
// of the search are exact and the reference (the same formulas in
// float64) gives bit-identical scores: the answer must match exactly,
// order and tie-break included. In "real" runs vectors hold arbitrary
// decimals: scores must match within a tolerance, ranks by score, and
// equal scores must come in scan order.

// model is the reference: the items, by keyString.
type model struct {
	ks    storage.KeySchema
	items map[string]storage.Item
}

func newModel(ks storage.KeySchema) *model { return &model{ks: ks, items: map[string]storage.Item{}} }

func (m *model) put(it storage.Item) { m.items[keyString(m.ks.KeyOf(it))] = it }

func (m *model) delete(k storage.Key) { delete(m.items, keyString(k)) }

// inScanOrder returns the model's items in the order ranks (scanRanks of
// the table) gives their keys.
func (m *model) inScanOrder(ranks map[string]int) []storage.Item {
	keys := slices.Collect(maps.Keys(m.items))
	slices.SortFunc(keys, func(a, b string) int { return ranks[a] - ranks[b] })
	out := make([]storage.Item, len(keys))
	for i, k := range keys {
		out[i] = m.items[k]
	}
	return out
}

// vecRef is the reference search over the model, whose items' scan order
// ranks gives.
func vecRef(m *model, ranks map[string]int, def storage.VectorIndexDef, q Query) []vecHit {
	var hits []vecHit
	for _, it := range m.inScanOrder(ranks) { // scan order: a stable sort keeps it among ties
		x, ok := refVector(it, def)
		if !ok || !refInSearch(it, def, q) {
			continue
		}
		score, mag := refScore(def.Distance, q.Vector, x)
		hits = append(hits, vecHit{key: m.ks.KeyOf(it), score: score, mag: mag})
	}
	slices.SortStableFunc(hits, func(a, b vecHit) int {
		sa, sb := a.score, b.score
		if def.Distance == storage.DotProduct {
			sa, sb = -sa, -sb
		}
		switch {
		case sa < sb:
			return -1
		case sa > sb:
			return 1
		}
		return 0
	})
	return hits[:min(q.TopK, len(hits))]
}

type vecHit struct {
	key   storage.Key
	score float64
	mag   float64 // the scale of the score's rounding error (refScore)
}

// refVector is the item's vector by the rules, parsed with strconv.
func refVector(it storage.Item, def storage.VectorIndexDef) ([]float32, bool) {
	v, ok := it[def.Attribute]
	if !ok || v.Kind() != storage.KindL || len(v.List()) != def.Dimensions {
		return nil, false
	}
	out := make([]float32, def.Dimensions)
	for i, e := range v.List() {
		if e.Kind() != storage.KindN {
			return nil, false
		}
		f, err := strconv.ParseFloat(e.Str(), 32)
		if err != nil {
			return nil, false
		}
		out[i] = float32(f)
	}
	if def.HasHash() {
		if h, ok := it[def.Hash.Name]; !ok || h.Kind() != def.Hash.Kind {
			return nil, false
		}
	}
	return out, true
}

// refInSearch reports whether an indexed item passes q's HASH value and filters.
func refInSearch(it storage.Item, def storage.VectorIndexDef, q Query) bool {
	if def.HasHash() && !storage.Equal(it[def.Hash.Name], q.Hash) {
		return false
	}
	for _, f := range q.Filters {
		if !storage.Equal(it[f.Name], f.Value) {
			return false
		}
	}
	return true
}

// refScore is the documented score in float64, and the scale of the
// rounding error a float32 sum of the same terms may make (the sum of the
// terms' magnitudes, scaled as the score is).
func refScore(d storage.DistanceFunction, q, x []float32) (score, mag float64) {
	var dotp, abs, qq, xx, l2 float64
	for i := range q {
		a, b := float64(q[i]), float64(x[i])
		dotp += a * b
		abs += math.Abs(a * b)
		qq += a * a
		xx += b * b
		l2 += (a - b) * (a - b)
	}
	switch d {
	case storage.Euclidean:
		return math.Sqrt(l2), math.Sqrt(l2)
	case storage.DotProduct:
		return dotp, abs
	}
	var qinv, xinv float64
	if qq > 0 {
		qinv = 1 / math.Sqrt(qq)
	}
	if xx > 0 {
		xinv = 1 / math.Sqrt(xx)
	}
	return min(max(1-dotp*qinv*xinv, 0), 2), abs * qinv * xinv
}

// vgen makes the random items and queries of one run.
type vgen struct {
	r     *rand.Rand
	ks    storage.KeySchema
	dims  int
	exact bool
}

func (g vgen) number() storage.Value {
	if g.exact {
		return storage.N(storage.MustNumber(strconv.Itoa(g.r.IntN(7) - 3)))
	}
	f := (g.r.Float64()*2 - 1) * math.Pow(10, float64(g.r.IntN(5)-2))
	return storage.N(storage.MustNumber(strconv.FormatFloat(f, 'f', g.r.IntN(12)+1, 64)))
}

func (g vgen) floats() []float32 {
	out := make([]float32, g.dims)
	for i := range out {
		f, _ := Float32OfNumber(g.number().Number())
		out[i] = f
	}
	return out
}

// vector returns a vector attribute, usually a fitting one.
func (g vgen) vector() (storage.Value, bool) {
	elems := func(n int) []storage.Value {
		out := make([]storage.Value, n)
		for i := range out {
			out[i] = g.number()
		}
		return out
	}
	switch g.r.IntN(20) {
	case 0:
		return storage.Value{}, false // missing
	case 1:
		return storage.L(elems(g.dims + 1)), true // too long
	case 2:
		return storage.L(elems(max(g.dims-1, 0))), true // too short
	case 3:
		return storage.S("not a vector"), true
	case 4:
		return storage.NS([]storage.Number{"1", "2"}), true
	case 5:
		e := elems(g.dims)
		e[g.r.IntN(len(e))] = storage.S("x") // an element of another kind
		return storage.L(e), true
	case 6:
		e := elems(g.dims)
		e[g.r.IntN(len(e))] = storage.N("10000000000000000000000000000000000000000") // 1e40: beyond float32
		return storage.L(e), true
	case 7:
		return storage.L(make([]storage.Value, 0)), true
	}
	return storage.L(elems(g.dims)), true
}

func (g vgen) key() storage.Key {
	k := storage.Key{Partition: storage.S(fmt.Sprintf("p%d", g.r.IntN(6)))}
	if g.ks.HasSort() {
		k.Sort = storage.N(storage.MustNumber(strconv.Itoa(g.r.IntN(6))))
	}
	return k
}

func (g vgen) item(k storage.Key) storage.Item {
	it := g.ks.KeyItem(k)
	if v, ok := g.vector(); ok {
		it["v"] = v
	}
	switch g.r.IntN(8) {
	case 0: // no HASH value: not indexed by the schema index
	case 1:
		it["h"] = storage.N("1") // another kind
	default:
		it["h"] = storage.S(fmt.Sprintf("h%d", g.r.IntN(3)))
	}
	if g.r.IntN(4) > 0 {
		it["f1"] = storage.S(fmt.Sprintf("a%d", g.r.IntN(3)))
	}
	switch g.r.IntN(5) {
	case 0:
	case 1:
		it["f2"] = storage.S("wrong kind")
	default:
		it["f2"] = storage.N(storage.MustNumber(strconv.Itoa(g.r.IntN(3))))
	}
	it["pad"] = storage.S("x")
	return it
}

func (g vgen) query(def storage.VectorIndexDef) Query {
	q := Query{Vector: g.floats(), TopK: 1 + g.r.IntN(12)}
	if g.r.IntN(10) == 0 {
		q.TopK = MaxTopK
	}
	if def.HasHash() {
		q.Hash = storage.S(fmt.Sprintf("h%d", g.r.IntN(4)))
		if g.r.IntN(20) == 0 {
			q.Hash = storage.N("1") // another kind: nothing
		}
	}
	if len(def.Filters) > 0 {
		if g.r.IntN(2) == 0 {
			q.Filters = append(q.Filters, Filter{"f1", storage.S(fmt.Sprintf("a%d", g.r.IntN(4)))})
		}
		if g.r.IntN(3) == 0 {
			q.Filters = append(q.Filters, Filter{"f2", storage.N(storage.MustNumber(strconv.Itoa(g.r.IntN(3))))})
		}
	}
	return q
}

func TestVectorModelRandom(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("VECTOR_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (rerun with VECTOR_SEED=%d)", seed, seed)
	n := uint64(0)
	for _, dist := range []storage.DistanceFunction{storage.Cosine, storage.Euclidean, storage.DotProduct} {
		for _, schema := range []bool{false, true} {
			for _, exact := range []bool{true, false} {
				for _, ks := range []storage.KeySchema{schemaS, schemaSN} {
					n++
					approx := n%3 == 0 // some runs keep an approximate index (Options) in step too
					name := fmt.Sprintf("%s/schema=%v/exact=%v/sort=%v/approx=%v", dist, schema, exact, ks.HasSort(), approx)
					t.Run(name, func(t *testing.T) {
						r := rand.New(rand.NewPCG(seed, n))
						dims := []int{1, 3, 8, 13, 40}[r.IntN(5)]
						def := storage.VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: dims, Distance: dist, Projection: storage.Projection{All: true}}
						if schema {
							def.Hash = storage.KeyAttr{Name: "h", Kind: storage.KindS}
							def.Filters = []storage.KeyAttr{{Name: "f1", Kind: storage.KindS}, {Name: "f2", Kind: storage.KindN}}
							def.Projection = storage.Projection{NonKey: []string{"pad"}}
						}
						runVectorModel(t, seed, vgen{r: r, ks: ks, dims: dims, exact: exact}, def, Options{Approximate: approx, M: 4}, 400)
					})
				}
			}
		}
	}
}

func runVectorModel(t *testing.T, seed uint64, g vgen, def storage.VectorIndexDef, opts Options, steps int) {
	tbl := newTable(t, g.ks, opts)
	m := newModel(g.ks)
	if err := tbl.AddVectorIndex(def); err != nil {
		t.Fatal(err)
	}
	defs := []storage.VectorIndexDef{def}
	second := storage.VectorIndexDef{Name: "second", Attribute: "v", Dimensions: def.Dimensions,
		Distance: []storage.DistanceFunction{storage.Cosine, storage.Euclidean, storage.DotProduct}[g.r.IntN(3)], Projection: storage.Projection{All: true}}
	results, searches := 0, 0
	defer func() {
		// Not vacuous: searches found half a result each at least.
		if 2*results < searches {
			t.Errorf("seed %d: %d searches found only %d results", seed, searches, results)
		}
	}()
	fail := func(step int, op string, err error) {
		t.Helper()
		t.Fatalf("seed %d step %d %s: %v", seed, step, op, err)
	}
	for step := range steps {
		op := ""
		switch c := g.r.IntN(20); {
		case c < 8:
			op = "put"
			k := g.key()
			it := g.item(k)
			if _, err := tbl.Put(k, it); err != nil {
				fail(step, op, err)
			}
			m.put(it)
		case c < 11:
			op = "update"
			k := g.key()
			nu := g.item(k)
			if _, err := tbl.Write(k, func(old storage.Item) (storage.Item, error) {
				if old != nil && g.r.IntN(2) == 0 {
					nu["v"] = old["v"] // keep the vector, change the rest
					if _, ok := old["v"]; !ok {
						delete(nu, "v")
					}
				}
				return nu, nil
			}); err != nil {
				fail(step, op, err)
			}
			m.put(nu)
		case c < 13:
			op = "delete"
			k := g.key()
			if _, err := tbl.Put(k, nil); err != nil {
				fail(step, op, err)
			}
			m.delete(k)
		case c < 14:
			op = "ttl delete"
			k := g.key()
			if _, err := tbl.WriteFrom(storage.OriginService, k, func(storage.Item) (storage.Item, error) { return nil, nil }); err != nil {
				fail(step, op, err)
			}
			m.delete(k)
		case c < 18:
			commit := g.r.IntN(2) == 0
			op = fmt.Sprintf("transaction (commit %v)", commit)
			tx := storage.Begin(tbl)
			var pending []func()
			for range 1 + g.r.IntN(4) {
				k := g.key()
				if g.r.IntN(4) == 0 {
					if _, err := tx.Put(tbl, k, nil); err != nil {
						fail(step, op, err)
					}
					pending = append(pending, func() { m.delete(k) })
					continue
				}
				it := g.item(k)
				if _, err := tx.Write(tbl, k, func(storage.Item) (storage.Item, error) { return it, nil }); err != nil {
					fail(step, op, err)
				}
				pending = append(pending, func() { m.put(it) })
			}
			if commit {
				tx.Commit()
				for _, p := range pending {
					p()
				}
			} else {
				tx.Abort()
			}
		default:
			if len(defs) == 1 {
				op = "add index"
				if err := tbl.AddVectorIndex(second); err != nil {
					fail(step, op, err)
				}
				defs = append(defs, second)
			} else {
				op = "drop index"
				if err := tbl.DropVectorIndex(second.Name); err != nil {
					fail(step, op, err)
				}
				defs = defs[:1]
			}
		}
		if step%10 == 0 || step == steps-1 {
			if err := tbl.Check(); err != nil {
				fail(step, op, err)
			}
		}
		for _, d := range defs {
			for range 2 {
				q := g.query(d)
				q.Exact = true // approximate answers are checked by TestVectorApproximateRecall
				n, err := compareSearch(tbl, m, d, q, g.exact)
				results, searches = results+n, searches+1
				if err != nil {
					fail(step, fmt.Sprintf("after %s, search %q %+v", op, d.Name, q), err)
				}
			}
		}
	}
}

// compareSearch runs q on the table and on the model.
func compareSearch(tbl *storage.Table, m *model, def storage.VectorIndexDef, q Query, exact bool) (int, error) {
	got, err := Search(tbl, def.Name, q)
	if err != nil {
		return 0, err
	}
	ranks := scanRanks(tbl)
	want := vecRef(m, ranks, def, q)
	if len(got) != len(want) {
		return 0, fmt.Errorf("%d results, want %d", len(got), len(want))
	}
	return len(got), compareHits(m, ranks, def, q, exact, got, want)
}

func compareHits(m *model, ranks map[string]int, def storage.VectorIndexDef, q Query, exact bool, got []Result, want []vecHit) error {
	for i, g := range got {
		k := g.Item.Key()
		// The item is the stored one, whole.
		mi, found := m.items[keyString(k)]
		if !found || !storage.ItemsEqual(g.Item.Item(), mi) {
			return fmt.Errorf("result %d: item %v is not the stored item", i, g.Item.Item())
		}
		own, mag := refScore(def.Distance, q.Vector, mustRefVector(mi, def))
		if exact {
			if g.Score != want[i].score || !storage.Equal(k.Partition, want[i].key.Partition) || !storage.Equal(k.Sort, want[i].key.Sort) {
				return fmt.Errorf("result %d: %v score %v, want %v score %v", i, k, g.Score, want[i].key, want[i].score)
			}
			continue
		}
		tol := 1e-5*max(mag, want[i].mag) + 1e-9
		if math.Abs(g.Score-own) > tol {
			return fmt.Errorf("result %d: %v scored %v, its score is %v", i, k, g.Score, own)
		}
		if math.Abs(g.Score-want[i].score) > tol {
			return fmt.Errorf("result %d: score %v, want the rank's %v", i, g.Score, want[i].score)
		}
		if i > 0 {
			prev := got[i-1]
			worse := g.Score < prev.Score
			if def.Distance != storage.DotProduct {
				worse = g.Score > prev.Score
			}
			if !worse && g.Score != prev.Score {
				return fmt.Errorf("result %d: score %v ranked after %v", i, g.Score, prev.Score)
			}
			if g.Score == prev.Score && ranks[keyString(prev.Item.Key())] >= ranks[keyString(k)] {
				return fmt.Errorf("result %d: equal scores not in scan order", i)
			}
		}
	}
	return nil
}

func mustRefVector(it storage.Item, def storage.VectorIndexDef) []float32 {
	x, ok := refVector(it, def)
	if !ok {
		panic("result not indexable")
	}
	return x
}
