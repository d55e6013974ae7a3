package vector

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

func TestFloat32OfNumber(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float32
		ok   bool
	}{
		{"0", 0, true},
		{"1", 1, true},
		{"-2.5", -2.5, true},
		{"0.1", 0.1, true},
		{"123456789012345678901234567890", 1.2345679e29, true}, // too many digits for the fast path
		{"340282346638528859811704183484516925440", math.MaxFloat32, true},
		{"340282356779733661637539395458142568448", 0, false}, // the midpoint above MaxFloat32 rounds to infinity
		{"10000000000000000000000000000000000000000", 0, false},
		{"-10000000000000000000000000000000000000000", 0, false},
		{"0." + strings.Repeat("0", 44) + "1", 1e-45, true}, // 1e-45: the smallest subnormal
		{"0." + strings.Repeat("0", 50) + "1", 0, true},     // 1e-51: rounds to zero
		{"16777217", 16777216, true},                        // 2^24+1: a float32 midpoint, ties to even
		{"16777219", 16777220, true},                        // a midpoint, ties to even (up)
	} {
		got, ok := Float32OfNumber(storage.Number(tc.in))
		if ok != tc.ok || (ok && math.Float32bits(got) != math.Float32bits(tc.want)) {
			t.Errorf("Float32OfNumber(%s) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestFastFloat32MatchesStrconv compares the fast path with strconv on
// random decimals, float32 midpoints and their neighbours.
func TestFastFloat32MatchesStrconv(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	check := func(s string) {
		t.Helper()
		want, err := strconv.ParseFloat(s, 32)
		got, ok := parseFloat32(s)
		if (err == nil) != ok || (ok && math.Float32bits(got) != math.Float32bits(float32(want))) {
			t.Fatalf("%s: got %v (%v), strconv %v (%v)", s, got, ok, float32(want), err)
		}
	}
	for range 50_000 {
		f := (r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(40)-20))
		check(strconv.FormatFloat(f, 'f', -1, 64))
		check(strconv.FormatFloat(f, 'f', r.IntN(16), 64))
		// A float32 midpoint, exactly, and a hair on either side.
		a := float32(f)
		b := math.Nextafter32(a, float32(math.Inf(1)))
		mid := (float64(a) + float64(b)) / 2
		check(strconv.FormatFloat(mid, 'f', -1, 64))
		check(strconv.FormatFloat(math.Nextafter(mid, 0), 'f', -1, 64))
		check(strconv.FormatFloat(math.Nextafter(mid, math.Inf(1)), 'f', -1, 64))
	}
}

func nums(fs ...string) storage.Value {
	out := make([]storage.Value, len(fs))
	for i, f := range fs {
		out[i] = storage.N(storage.MustNumber(f))
	}
	return storage.L(out)
}

func TestCheckVectorItem(t *testing.T) {
	defs := []storage.VectorIndexDef{{Name: "vx", Attribute: "v", Dimensions: 3, Distance: storage.Cosine,
		Hash: storage.KeyAttr{Name: "h", Kind: storage.KindS}, Filters: []storage.KeyAttr{{Name: "f", Kind: storage.KindN}}}}
	for _, tc := range []struct {
		name string
		item storage.Item
		want *ItemError // nil: fits
	}{
		{"fits", storage.Item{"v": nums("1", "2", "3"), "h": storage.S("a"), "f": storage.N("1")}, nil},
		{"no vector", storage.Item{"h": storage.S("a")}, nil},
		{"no schema attributes", storage.Item{"v": nums("1", "2", "3")}, nil},
		{"vector is a string", storage.Item{"v": storage.S("x")},
			&ItemError{Index: "vx", Attribute: "v", Problem: NotList, Kind: storage.KindS}},
		{"vector is a number set", storage.Item{"v": storage.NS([]storage.Number{"1", "2", "3"})},
			&ItemError{Index: "vx", Attribute: "v", Problem: NotList, Kind: storage.KindNS}},
		{"too short", storage.Item{"v": nums("1", "2")},
			&ItemError{Index: "vx", Attribute: "v", Problem: Dimension, Expected: 3, Actual: 2}},
		{"empty", storage.Item{"v": storage.L(nil)},
			&ItemError{Index: "vx", Attribute: "v", Problem: Dimension, Expected: 3, Actual: 0}},
		{"an element is a string", storage.Item{"v": storage.L([]storage.Value{storage.N("1"), storage.S("2"), storage.N("3")})},
			&ItemError{Index: "vx", Attribute: "v", Problem: ElementNotNumber, Element: 1, Kind: storage.KindS}},
		{"an element beyond float32", storage.Item{"v": nums("1", "2", "1E+39")},
			&ItemError{Index: "vx", Attribute: "v", Problem: ElementRange, Element: 2}},
		{"hash of another kind", storage.Item{"v": nums("1", "2", "3"), "h": storage.N("1")},
			&ItemError{Index: "vx", Attribute: "h", Problem: SchemaKind, Kind: storage.KindN, Want: storage.KindS}},
		{"empty hash", storage.Item{"h": storage.S("")},
			&ItemError{Index: "vx", Attribute: "h", Problem: HashEmpty}},
		{"filter of another kind", storage.Item{"f": storage.S("1")},
			&ItemError{Index: "vx", Attribute: "f", Problem: SchemaKind, Kind: storage.KindS, Want: storage.KindN}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckItem(defs, tc.item)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("got %v, want nil", err)
				}
				return
			}
			var got *ItemError
			if !errors.As(err, &got) || *got != *tc.want {
				t.Fatalf("got %#v, want %#v", err, tc.want)
			}
			if got.Error() == "" {
				t.Fatal("empty message")
			}
		})
	}
}

func TestSearchVectorsQueryErrors(t *testing.T) {
	tbl := newTable(t, schemaS, Options{})
	def := storage.VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: 2, Distance: storage.Euclidean,
		Hash: storage.KeyAttr{Name: "h", Kind: storage.KindS}, Filters: []storage.KeyAttr{{Name: "f", Kind: storage.KindS}}}
	if err := tbl.AddVectorIndex(def); err != nil {
		t.Fatal(err)
	}
	put(t, tbl, storage.Item{"pk": storage.S("a"), "v": nums("1", "0"), "h": storage.S("x"), "f": storage.S("y")})
	good := Query{Vector: []float32{1, 0}, TopK: 1, Hash: storage.S("x")}
	for _, tc := range []struct {
		name string
		edit func(*Query)
		want error // nil: one result
	}{
		{"good", func(*Query) {}, nil},
		{"dimension", func(q *Query) { q.Vector = []float32{1} }, ErrQuery},
		{"TopK 0", func(q *Query) { q.TopK = 0 }, ErrQuery},
		{"TopK 101", func(q *Query) { q.TopK = MaxTopK + 1 }, ErrQuery},
		{"NaN", func(q *Query) { q.Vector = []float32{float32(math.NaN()), 0} }, ErrQuery},
		{"infinity", func(q *Query) { q.Vector = []float32{float32(math.Inf(-1)), 0} }, ErrQuery},
		{"no hash", func(q *Query) { q.Hash = storage.Value{} }, ErrQuery},
		{"filter on a non-filter", func(q *Query) { q.Filters = []Filter{{"h", storage.S("x")}} }, ErrQuery},
		{"filter on the vector", func(q *Query) { q.Filters = []Filter{{"v", storage.S("x")}} }, ErrQuery},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := good
			tc.edit(&q)
			got, err := Search(tbl, "vx", q)
			if !errors.Is(err, tc.want) || (tc.want == nil && len(got) != 1) {
				t.Fatalf("got %d results, %v; want %v", len(got), err, tc.want)
			}
		})
	}
	if _, err := Search(tbl, "nope", good); !errors.Is(err, storage.ErrNoVectorIndex) {
		t.Fatalf("got %v, want ErrNoVectorIndex", err)
	}
}

func TestSearchVectorsMatchesNothing(t *testing.T) {
	tbl := newTable(t, schemaS, Options{})
	def := storage.VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: 2, Distance: storage.DotProduct,
		Hash: storage.KeyAttr{Name: "h", Kind: storage.KindS}, Filters: []storage.KeyAttr{{Name: "f", Kind: storage.KindS}}}
	if err := tbl.AddVectorIndex(def); err != nil {
		t.Fatal(err)
	}
	put(t, tbl, storage.Item{"pk": storage.S("a"), "v": nums("1", "0"), "h": storage.S("x"), "f": storage.S("y")})
	for _, tc := range []struct {
		name string
		q    Query
		want int
	}{
		{"match", Query{Hash: storage.S("x"), Filters: []Filter{{"f", storage.S("y")}}}, 1},
		{"another hash", Query{Hash: storage.S("z")}, 0},
		{"hash of another kind", Query{Hash: storage.N("1")}, 0},
		{"unknown filter value", Query{Hash: storage.S("x"), Filters: []Filter{{"f", storage.S("nope")}}}, 0},
		{"filter of another kind", Query{Hash: storage.S("x"), Filters: []Filter{{"f", storage.N("1")}}}, 0},
		{"two values", Query{Hash: storage.S("x"), Filters: []Filter{{"f", storage.S("y")}, {"f", storage.S("w")}}}, 0},
		{"same value twice", Query{Hash: storage.S("x"), Filters: []Filter{{"f", storage.S("y")}, {"f", storage.S("y")}}}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := tc.q
			q.Vector, q.TopK = []float32{1, 1}, 5
			got, err := Search(tbl, "vx", q)
			if err != nil || len(got) != tc.want || got == nil {
				t.Fatalf("got %v, %v; want %d results (a non-nil slice)", got, err, tc.want)
			}
		})
	}
}

// TestSearchVectorsScores checks each distance function's score and order
// on vectors whose answers are known, AWS's documented example included
// (VECTOR_SPEC.md: [10,0,0,0] scores 0 by COSINE and 9 by EUCLIDEAN
// against [1,0,0,0]).
func TestSearchVectorsScores(t *testing.T) {
	items := map[string]storage.Value{
		"same":     nums("1", "0", "0", "0"),
		"long":     nums("10", "0", "0", "0"),
		"opposite": nums("-1", "0", "0", "0"),
		"ortho":    nums("0", "1", "0", "0"),
		"zero":     nums("0", "0", "0", "0"),
	}
	type hit struct {
		pk    string
		score float64
	}
	for _, tc := range []struct {
		dist storage.DistanceFunction
		want []hit
	}{
		// Equal scores in scan order: partition hash order of the keys.
		{storage.Cosine, []hit{{"long", 0}, {"same", 0}, {"ortho", 1}, {"zero", 1}, {"opposite", 2}}},
		{storage.Euclidean, []hit{{"same", 0}, {"zero", 1}, {"ortho", math.Sqrt2}, {"opposite", 2}, {"long", 9}}},
		{storage.DotProduct, []hit{{"long", 10}, {"same", 1}, {"ortho", 0}, {"zero", 0}, {"opposite", -1}}},
	} {
		t.Run(tc.dist.String(), func(t *testing.T) {
			tbl := newTable(t, schemaS, Options{})
			if err := tbl.AddVectorIndex(storage.VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: 4, Distance: tc.dist}); err != nil {
				t.Fatal(err)
			}
			for pk, v := range items {
				put(t, tbl, storage.Item{"pk": storage.S(pk), "v": v})
			}
			got, err := Search(tbl, "vx", Query{Vector: []float32{1, 0, 0, 0}, TopK: 10})
			if err != nil {
				t.Fatal(err)
			}
			var hits []hit
			for _, r := range got {
				hits = append(hits, hit{r.Item.Key().Partition.Str(), r.Score})
			}
			ranks := scanRanks(tbl)
			rank := func(pk string) int { return ranks[keyString(storage.Key{Partition: storage.S(pk)})] }
			fixTies := func(h []hit) []hit { // equal scores: scan order
				for i := 1; i < len(h); i++ {
					for j := i; j > 0 && h[j].score == h[j-1].score && rank(h[j].pk) < rank(h[j-1].pk); j-- {
						h[j], h[j-1] = h[j-1], h[j]
					}
				}
				return h
			}
			want := fixTies(tc.want)
			if len(hits) != len(want) {
				t.Fatalf("got %v, want %v", hits, want)
			}
			for i := range hits {
				if hits[i].pk != want[i].pk || math.Abs(hits[i].score-want[i].score) > 1e-12 {
					t.Fatalf("got %v, want %v", hits, want)
				}
			}
		})
	}
}

// TestKernelsMatchGo checks the assembly loops against the Go ones at
// every length around their 32-, 8- and 1-element steps.
func TestKernelsMatchGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2/FMA loops on this machine")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for n := 0; n <= 130; n++ {
		a, b := make([]float32, n), make([]float32, n+3)
		for i := range a {
			a[i] = float32(r.NormFloat64())
		}
		for i := range b {
			b[i] = float32(r.NormFloat64())
		}
		var wantDot, wantL2, mag float64
		for i := range a {
			wantDot += float64(a[i]) * float64(b[i])
			mag += math.Abs(float64(a[i]) * float64(b[i]))
			d := float64(a[i]) - float64(b[i])
			wantL2 += d * d
		}
		for _, c := range []struct {
			name      string
			got, want float64
			scale     float64
		}{
			{"dot", float64(dot(a, b)), wantDot, mag},
			{"dot32", float64(dot32(a, b)), wantDot, mag},
			{"l2sq", float64(l2sq(a, b)), wantL2, wantL2},
			{"l2sq32", float64(l2sq32(a, b)), wantL2, wantL2},
		} {
			if math.Abs(c.got-c.want) > 1e-5*c.scale+1e-30 {
				t.Errorf("n=%d %s = %v, want %v", n, c.name, c.got, c.want)
			}
		}
	}
}

func TestVcodes(t *testing.T) {
	var c vcodes
	a := c.intern("a")
	b := c.intern("b")
	if a2 := c.intern("a"); a2 != a || a == 0 || b == 0 || a == b {
		t.Fatalf("codes a=%d a2=%d b=%d", a, a2, b)
	}
	c.release(a)
	if c.value(a) != "a" {
		t.Fatal("a freed while held")
	}
	c.release(a)
	if _, ok := c.ids["a"]; ok || c.value(a) != "" {
		t.Fatal("a not freed")
	}
	if d := c.intern("d"); d != a {
		t.Fatalf("code %d not reused (got %d)", a, d)
	}
	c.release(0) // absent: nothing
}

// FuzzFloat32OfNumber checks the rounding against strconv on any text.
func FuzzFloat32OfNumber(f *testing.F) {
	for _, s := range []string{"0", "1", "-2.5", "0.1", "16777217", "340282356779733661637539395458142568448",
		"0.000000000000000000000000000000000000000000001", "123456789012345678901234567890", "1.", ".5", "-", "", "1e5", "Inf", "NaN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseFloat32(s)
		want, err := strconv.ParseFloat(s, 32)
		if err != nil || math.IsInf(want, 0) || math.IsNaN(want) {
			if ok {
				t.Fatalf("%q: got %v, strconv refuses: %v", s, got, err)
			}
			return
		}
		if !ok || math.Float32bits(got) != math.Float32bits(float32(want)) {
			t.Fatalf("%q: got %v (%v), want %v", s, got, ok, float32(want))
		}
	})
}

// TestSearchVectorsConcurrent runs searches beside writes, for the race detector.
func TestSearchVectorsConcurrent(t *testing.T) {
	tbl := newTable(t, schemaS, Options{})
	def := storage.VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: 8, Distance: storage.Cosine, Filters: []storage.KeyAttr{{Name: "f", Kind: storage.KindS}}}
	if err := tbl.AddVectorIndex(def); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 8))
	g := vgen{r: r, ks: schemaS, dims: 8}
	done := make(chan struct{})
	go func() {
		defer close(done)
		q := Query{Vector: []float32{1, 2, 3, 4, 5, 6, 7, 8}, TopK: 5, Filters: []Filter{{"f", storage.S("a1")}}}
		for range 500 {
			if _, err := Search(tbl, "vx", q); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for i := range 2000 {
		k := storage.Key{Partition: storage.S(strconv.Itoa(i % 50))}
		it := g.item(k)
		it["f"] = storage.S("a" + strconv.Itoa(i%3))
		put(t, tbl, it)
	}
	<-done
}

// TestBilledSizeBytes: a vector an index holds counts four bytes a
// dimension, whatever its numbers; other items, and lists that are not
// a vector of the index's dimensions, count their ItemSize. An attribute
// two indexes share counts once; rewrites and deletes move the total.
func TestBilledSizeBytes(t *testing.T) {
	tbl := newTable(t, schemaS, Options{})
	for _, def := range []storage.VectorIndexDef{
		{Name: "vx", Attribute: "v", Dimensions: 3, Distance: storage.Cosine},
		{Name: "vy", Attribute: "v", Dimensions: 3, Distance: storage.Euclidean},
		{Name: "wx", Attribute: "w", Dimensions: 2, Distance: storage.DotProduct},
	} {
		require.NoError(t, tbl.AddVectorIndex(def))
	}
	long := nums("0.123456789", "1.123456789", "2.123456789")
	items := []storage.Item{
		{"pk": storage.S("a"), "v": long},                                // in vx and vy: 3*4 for v
		{"pk": storage.S("b"), "v": nums("1", "2"), "w": nums("1", "2")}, // v has 2 dims: raw; w in wx: 2*4
		{"pk": storage.S("c"), "x": storage.S("plain")},
	}
	want := int64(0)
	for _, it := range items {
		put(t, tbl, it)
		want += int64(storage.ItemSize(it))
	}
	require.Equal(t, want, tbl.SizeBytes())
	adjust := int64(12-storage.ValueSize(long)) + int64(8-storage.ValueSize(nums("1", "2")))
	require.Equal(t, want+adjust, tbl.BilledSizeBytes())

	// A's vector rewritten with short numbers: still 12 bytes billed.
	short := storage.Item{"pk": storage.S("a"), "v": nums("1", "2", "3")}
	put(t, tbl, short)
	want += int64(storage.ItemSize(short) - storage.ItemSize(items[0]))
	adjust = int64(12-storage.ValueSize(short["v"])) + int64(8-storage.ValueSize(nums("1", "2")))
	require.Equal(t, want+adjust, tbl.BilledSizeBytes())

	// B's vector taken out: B counts its ItemSize.
	noVec := storage.Item{"pk": storage.S("b"), "v": nums("1", "2")}
	put(t, tbl, noVec)
	want += int64(storage.ItemSize(noVec) - storage.ItemSize(items[1]))
	adjust = int64(12 - storage.ValueSize(short["v"]))
	require.Equal(t, want+adjust, tbl.BilledSizeBytes())
}
