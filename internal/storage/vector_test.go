package storage

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
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
		got, ok := Float32OfNumber(Number(tc.in))
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

func TestVectorIndexDefValidate(t *testing.T) {
	ok := VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: 3, Distance: Cosine,
		Hash: KeyAttr{"h", KindS}, Filters: []KeyAttr{{"f", KindN}}}
	filters := make([]KeyAttr, MaxVectorInlineFilters+1)
	for i := range filters {
		filters[i] = KeyAttr{"f" + strconv.Itoa(i), KindS}
	}
	for _, tc := range []struct {
		name string
		edit func(*VectorIndexDef)
		ok   bool
	}{
		{"valid", func(*VectorIndexDef) {}, true},
		{"no name", func(d *VectorIndexDef) { d.Name = "" }, false},
		{"no attribute", func(d *VectorIndexDef) { d.Attribute = "" }, false},
		{"zero dimensions", func(d *VectorIndexDef) { d.Dimensions = 0 }, false},
		{"max dimensions", func(d *VectorIndexDef) { d.Dimensions = MaxVectorDimensions }, true},
		{"too many dimensions", func(d *VectorIndexDef) { d.Dimensions = MaxVectorDimensions + 1 }, false},
		{"no distance", func(d *VectorIndexDef) { d.Distance = 0 }, false},
		{"unknown distance", func(d *VectorIndexDef) { d.Distance = DotProduct + 1 }, false},
		{"no schema", func(d *VectorIndexDef) { d.Hash, d.Filters = KeyAttr{}, nil }, true},
		{"filters only", func(d *VectorIndexDef) { d.Hash = KeyAttr{} }, true},
		{"hash of kind BOOL", func(d *VectorIndexDef) { d.Hash.Kind = KindBOOL }, false},
		{"filter without a name", func(d *VectorIndexDef) { d.Filters = []KeyAttr{{"", KindS}} }, false},
		{"filter is the hash", func(d *VectorIndexDef) { d.Filters = []KeyAttr{{"h", KindS}} }, false},
		{"filter is the vector", func(d *VectorIndexDef) { d.Filters = []KeyAttr{{"v", KindN}} }, false},
		{"hash is the vector", func(d *VectorIndexDef) { d.Hash.Name = "v" }, false},
		{"max filters", func(d *VectorIndexDef) { d.Filters = filters[:MaxVectorInlineFilters] }, true},
		{"too many filters", func(d *VectorIndexDef) { d.Filters = filters }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := ok.clone()
			tc.edit(&d)
			err := d.Validate()
			if got := err == nil; got != tc.ok {
				t.Fatalf("Validate() = %v, want ok %v", err, tc.ok)
			}
			if err != nil && !errors.Is(err, ErrInvalidVectorIndex) {
				t.Fatalf("got %v, want ErrInvalidVectorIndex", err)
			}
		})
	}
}

func TestDistanceFunctionNames(t *testing.T) {
	for _, d := range []DistanceFunction{Cosine, Euclidean, DotProduct} {
		got, ok := ParseDistanceFunction(d.String())
		if !ok || got != d {
			t.Errorf("ParseDistanceFunction(%q) = %v, %v", d.String(), got, ok)
		}
	}
	if _, ok := ParseDistanceFunction("cosine"); ok {
		t.Error("distance names are case-sensitive")
	}
}

func nums(fs ...string) Value {
	out := make([]Value, len(fs))
	for i, f := range fs {
		out[i] = N(MustNumber(f))
	}
	return L(out)
}

func TestCheckVectorItem(t *testing.T) {
	defs := []VectorIndexDef{{Name: "vx", Attribute: "v", Dimensions: 3, Distance: Cosine,
		Hash: KeyAttr{"h", KindS}, Filters: []KeyAttr{{"f", KindN}}}}
	for _, tc := range []struct {
		name string
		item Item
		want *VectorItemError // nil: fits
	}{
		{"fits", Item{"v": nums("1", "2", "3"), "h": S("a"), "f": N("1")}, nil},
		{"no vector", Item{"h": S("a")}, nil},
		{"no schema attributes", Item{"v": nums("1", "2", "3")}, nil},
		{"vector is a string", Item{"v": S("x")},
			&VectorItemError{Index: "vx", Attribute: "v", Problem: VectorNotList, Kind: KindS}},
		{"vector is a number set", Item{"v": NS([]Number{"1", "2", "3"})},
			&VectorItemError{Index: "vx", Attribute: "v", Problem: VectorNotList, Kind: KindNS}},
		{"too short", Item{"v": nums("1", "2")},
			&VectorItemError{Index: "vx", Attribute: "v", Problem: VectorDimension, Expected: 3, Actual: 2}},
		{"empty", Item{"v": L(nil)},
			&VectorItemError{Index: "vx", Attribute: "v", Problem: VectorDimension, Expected: 3, Actual: 0}},
		{"an element is a string", Item{"v": L([]Value{N("1"), S("2"), N("3")})},
			&VectorItemError{Index: "vx", Attribute: "v", Problem: VectorElementNotNumber, Element: 1, Kind: KindS}},
		{"an element beyond float32", Item{"v": nums("1", "2", "1E+39")},
			&VectorItemError{Index: "vx", Attribute: "v", Problem: VectorElementRange, Element: 2}},
		{"hash of another kind", Item{"v": nums("1", "2", "3"), "h": N("1")},
			&VectorItemError{Index: "vx", Attribute: "h", Problem: VectorSchemaKind, Kind: KindN, Want: KindS}},
		{"empty hash", Item{"h": S("")},
			&VectorItemError{Index: "vx", Attribute: "h", Problem: VectorHashEmpty}},
		{"filter of another kind", Item{"f": S("1")},
			&VectorItemError{Index: "vx", Attribute: "f", Problem: VectorSchemaKind, Kind: KindS, Want: KindN}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckVectorItem(defs, tc.item)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("got %v, want nil", err)
				}
				return
			}
			var got *VectorItemError
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
	tbl := NewTable(schemaS)
	def := VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: 2, Distance: Euclidean,
		Hash: KeyAttr{"h", KindS}, Filters: []KeyAttr{{"f", KindS}}}
	if err := tbl.AddVectorIndex(def); err != nil {
		t.Fatal(err)
	}
	put(t, tbl, Item{"pk": S("a"), "v": nums("1", "0"), "h": S("x"), "f": S("y")})
	good := VectorQuery{Vector: []float32{1, 0}, TopK: 1, Hash: S("x")}
	for _, tc := range []struct {
		name string
		edit func(*VectorQuery)
		want error // nil: one result
	}{
		{"good", func(*VectorQuery) {}, nil},
		{"dimension", func(q *VectorQuery) { q.Vector = []float32{1} }, ErrVectorQuery},
		{"TopK 0", func(q *VectorQuery) { q.TopK = 0 }, ErrVectorQuery},
		{"TopK 101", func(q *VectorQuery) { q.TopK = MaxTopK + 1 }, ErrVectorQuery},
		{"NaN", func(q *VectorQuery) { q.Vector = []float32{float32(math.NaN()), 0} }, ErrVectorQuery},
		{"infinity", func(q *VectorQuery) { q.Vector = []float32{float32(math.Inf(-1)), 0} }, ErrVectorQuery},
		{"no hash", func(q *VectorQuery) { q.Hash = Value{} }, ErrVectorQuery},
		{"filter on a non-filter", func(q *VectorQuery) { q.Filters = []VectorFilter{{"h", S("x")}} }, ErrVectorQuery},
		{"filter on the vector", func(q *VectorQuery) { q.Filters = []VectorFilter{{"v", S("x")}} }, ErrVectorQuery},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := good
			tc.edit(&q)
			got, err := tbl.SearchVectors("vx", q)
			if !errors.Is(err, tc.want) || (tc.want == nil && len(got) != 1) {
				t.Fatalf("got %d results, %v; want %v", len(got), err, tc.want)
			}
		})
	}
	if _, err := tbl.SearchVectors("nope", good); !errors.Is(err, ErrNoVectorIndex) {
		t.Fatalf("got %v, want ErrNoVectorIndex", err)
	}
}

func TestSearchVectorsMatchesNothing(t *testing.T) {
	tbl := NewTable(schemaS)
	def := VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: 2, Distance: DotProduct,
		Hash: KeyAttr{"h", KindS}, Filters: []KeyAttr{{"f", KindS}}}
	if err := tbl.AddVectorIndex(def); err != nil {
		t.Fatal(err)
	}
	put(t, tbl, Item{"pk": S("a"), "v": nums("1", "0"), "h": S("x"), "f": S("y")})
	for _, tc := range []struct {
		name string
		q    VectorQuery
		want int
	}{
		{"match", VectorQuery{Hash: S("x"), Filters: []VectorFilter{{"f", S("y")}}}, 1},
		{"another hash", VectorQuery{Hash: S("z")}, 0},
		{"hash of another kind", VectorQuery{Hash: N("1")}, 0},
		{"unknown filter value", VectorQuery{Hash: S("x"), Filters: []VectorFilter{{"f", S("nope")}}}, 0},
		{"filter of another kind", VectorQuery{Hash: S("x"), Filters: []VectorFilter{{"f", N("1")}}}, 0},
		{"two values", VectorQuery{Hash: S("x"), Filters: []VectorFilter{{"f", S("y")}, {"f", S("w")}}}, 0},
		{"same value twice", VectorQuery{Hash: S("x"), Filters: []VectorFilter{{"f", S("y")}, {"f", S("y")}}}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := tc.q
			q.Vector, q.TopK = []float32{1, 1}, 5
			got, err := tbl.SearchVectors("vx", q)
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
	items := map[string]Value{
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
		dist DistanceFunction
		want []hit
	}{
		// Equal scores in scan order: partition hash order of the keys.
		{Cosine, []hit{{"long", 0}, {"same", 0}, {"ortho", 1}, {"zero", 1}, {"opposite", 2}}},
		{Euclidean, []hit{{"same", 0}, {"zero", 1}, {"ortho", math.Sqrt2}, {"opposite", 2}, {"long", 9}}},
		{DotProduct, []hit{{"long", 10}, {"same", 1}, {"ortho", 0}, {"zero", 0}, {"opposite", -1}}},
	} {
		t.Run(tc.dist.String(), func(t *testing.T) {
			tbl := NewTable(schemaS)
			if err := tbl.AddVectorIndex(VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: 4, Distance: tc.dist}); err != nil {
				t.Fatal(err)
			}
			for pk, v := range items {
				put(t, tbl, Item{"pk": S(pk), "v": v})
			}
			got, err := tbl.SearchVectors("vx", VectorQuery{Vector: []float32{1, 0, 0, 0}, TopK: 10})
			if err != nil {
				t.Fatal(err)
			}
			var hits []hit
			for _, r := range got {
				hits = append(hits, hit{r.Item.Key().Partition.Str(), r.Score})
			}
			fixTies := func(h []hit) []hit { // equal scores: scan order
				m := &model{ks: schemaS}
				for i := 1; i < len(h); i++ {
					for j := i; j > 0 && h[j].score == h[j-1].score &&
						m.compareScan(Key{Partition: S(h[j].pk)}, Key{Partition: S(h[j-1].pk)}) < 0; j-- {
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
	tbl := NewTable(schemaS)
	def := VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: 8, Distance: Cosine, Filters: []KeyAttr{{"f", KindS}}}
	if err := tbl.AddVectorIndex(def); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 8))
	g := vgen{r: r, ks: schemaS, dims: 8}
	done := make(chan struct{})
	go func() {
		defer close(done)
		q := VectorQuery{Vector: []float32{1, 2, 3, 4, 5, 6, 7, 8}, TopK: 5, Filters: []VectorFilter{{"f", S("a1")}}}
		for range 500 {
			if _, err := tbl.SearchVectors("vx", q); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for i := range 2000 {
		k := Key{Partition: S(strconv.Itoa(i % 50))}
		it := g.item(k)
		it["f"] = S("a" + strconv.Itoa(i%3))
		put(t, tbl, it)
	}
	<-done
	checkTable(t, tbl)
}

// TestBilledSizeBytes: a vector an index holds counts four bytes a
// dimension, whatever its numbers; other items, and lists that are not
// a vector of the index's dimensions, count their ItemSize. An attribute
// two indexes share counts once; rewrites and deletes move the total.
func TestBilledSizeBytes(t *testing.T) {
	tbl := NewTable(schemaS)
	for _, def := range []VectorIndexDef{
		{Name: "vx", Attribute: "v", Dimensions: 3, Distance: Cosine},
		{Name: "vy", Attribute: "v", Dimensions: 3, Distance: Euclidean},
		{Name: "wx", Attribute: "w", Dimensions: 2, Distance: DotProduct},
	} {
		require.NoError(t, tbl.AddVectorIndex(def))
	}
	long := nums("0.123456789", "1.123456789", "2.123456789")
	items := []Item{
		{"pk": S("a"), "v": long},                                // in vx and vy: 3*4 for v
		{"pk": S("b"), "v": nums("1", "2"), "w": nums("1", "2")}, // v has 2 dims: raw; w in wx: 2*4
		{"pk": S("c"), "x": S("plain")},
	}
	want := int64(0)
	for _, it := range items {
		put(t, tbl, it)
		want += int64(ItemSize(it))
	}
	require.Equal(t, want, tbl.SizeBytes())
	adjust := int64(12-ValueSize(long)) + int64(8-ValueSize(nums("1", "2")))
	require.Equal(t, want+adjust, tbl.BilledSizeBytes())

	// A's vector rewritten with short numbers: still 12 bytes billed.
	short := Item{"pk": S("a"), "v": nums("1", "2", "3")}
	put(t, tbl, short)
	want += int64(ItemSize(short) - ItemSize(items[0]))
	adjust = int64(12-ValueSize(short["v"])) + int64(8-ValueSize(nums("1", "2")))
	require.Equal(t, want+adjust, tbl.BilledSizeBytes())

	// B's vector taken out: B counts its ItemSize.
	noVec := Item{"pk": S("b"), "v": nums("1", "2")}
	put(t, tbl, noVec)
	want += int64(ItemSize(noVec) - ItemSize(items[1]))
	adjust = int64(12 - ValueSize(short["v"]))
	require.Equal(t, want+adjust, tbl.BilledSizeBytes())
	tbl.mu.RLock()
	defer tbl.mu.RUnlock()
	require.NoError(t, tbl.checkVectorIndexesLocked())
}
