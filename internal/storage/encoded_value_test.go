package storage

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// randomEncodedItems stores random items (nested values, sets, every
// kind) in tables of every test schema and returns them as stored with
// the items themselves.
func randomEncodedItems(t *testing.T, r *rand.Rand, n int) ([]EncodedItem, []Item) {
	var encs []EncodedItem
	var items []Item
	for _, ks := range []KeySchema{schemaS, schemaSN, schemaNS, schemaBB} {
		tbl := newTable(t, ks)
		g := gen{r: r, ks: ks}
		for range n {
			k := g.key()
			it := g.item(k)
			put(t, tbl, it)
			e, _ := tbl.GetEncoded(k)
			encs = append(encs, e)
			items = append(items, it)
		}
	}
	return encs, items
}

func seedFromEnv(t *testing.T) uint64 {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("STORAGE_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (rerun with STORAGE_SEED=%d)", seed, seed)
	return seed
}

// heavyTestsEnv, set (CI sets it), runs the long versions of the
// randomized tests: more seeds, larger tables. Without it they run a
// short version that covers every path once.
const heavyTestsEnv = "DYNAMOEMU_HEAVY_TESTS"

// heavyTests reports whether heavyTestsEnv is set.
func heavyTests() bool { return os.Getenv(heavyTestsEnv) != "" }

// checkEncodedValue checks every view of v against w, its decoded form.
func checkEncodedValue(t *testing.T, where string, v EncodedValue, w Value, other Value) {
	t.Helper()
	if got := v.Value(); !Equal(got, w) || got.Kind() != w.Kind() {
		t.Fatalf("%s: Value() = %v, want %v", where, got, w)
	}
	if v.Kind() != w.Kind() || v.Str() != w.Str() || v.Bool() != w.Bool() || v.Len() != w.Len() {
		t.Fatalf("%s: kind %s str %q bool %v len %d, want %s %q %v %d", where, v.Kind(), v.Str(), v.Bool(), v.Len(), w.Kind(), w.Str(), w.Bool(), w.Len())
	}
	if !v.Equal(w) || !v.EqualEncoded(v) {
		t.Fatalf("%s: not equal to itself", where)
	}
	if got, want := v.Equal(other), Equal(w, other); got != want {
		t.Fatalf("%s: Equal(%v) = %v, want %v", where, other, got, want)
	}
	// AppendTo round-trips through the decoder.
	d := decoder{s: string(v.AppendTo(nil))}
	if got := d.value(1); d.err != nil || !Equal(got, w) {
		t.Fatalf("%s: AppendTo decodes to %v (%v), want %v", where, got, d.err, w)
	}
	switch w.Kind() {
	case KindM:
		p := v.Parts()
		names := slices.Sorted(func(yield func(string) bool) {
			for k := range w.Map() {
				if !yield(k) {
					return
				}
			}
		})
		for _, name := range names {
			got, ok := v.Field(name)
			if !ok {
				t.Fatalf("%s: Field(%q) missing", where, name)
			}
			checkEncodedValue(t, where+"."+name, got, w.Map()[name], other)
			pn, pv, ok := p.Next()
			if !ok || pn != name || !pv.Equal(w.Map()[name]) {
				t.Fatalf("%s: Parts gave %q %v, want %q", where, pn, pv.Value(), name)
			}
		}
		if _, _, ok := p.Next(); ok {
			t.Fatalf("%s: Parts has more than %d entries", where, len(names))
		}
		if _, ok := v.Field("zzz-missing"); ok {
			t.Fatalf("%s: Field of a missing name found", where)
		}
	case KindL:
		p := v.Parts()
		for i, e := range w.List() {
			got, ok := v.Index(i)
			if !ok {
				t.Fatalf("%s: Index(%d) missing", where, i)
			}
			checkEncodedValue(t, fmt.Sprintf("%s[%d]", where, i), got, e, other)
			if _, pv, ok := p.Next(); !ok || !pv.Equal(e) {
				t.Fatalf("%s: Parts element %d differs", where, i)
			}
		}
		if _, ok := v.Index(w.Len()); ok {
			t.Fatalf("%s: Index past the end found", where)
		}
	case KindSS, KindNS, KindBS:
		for _, m := range w.Members() {
			if !v.HasMember(m) {
				t.Fatalf("%s: HasMember(%q) false", where, m)
			}
		}
		if v.HasMember("not a member \x00") {
			t.Fatalf("%s: HasMember of a non-member", where)
		}
	}
}

func TestEncodedValueRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(seedFromEnv(t), 1))
	encs, items := randomEncodedItems(t, r, 300)
	g := gen{r: r}
	for i, e := range encs {
		it := items[i]
		names := slices.Sorted(func(yield func(string) bool) {
			for k := range it {
				if !yield(k) {
					return
				}
			}
		})
		// Look up every attribute, a missing one, and a random subset.
		all := slices.Clone(names)
		all = append(all, "zz-missing")
		slices.Sort(all)
		dst := make([]EncodedValue, len(all))
		e.Lookup(all, dst)
		for j, name := range all {
			w, ok := it[name]
			if ok != dst[j].IsValid() {
				t.Fatalf("item %d: Lookup(%q) found %v, want %v", i, name, dst[j].IsValid(), ok)
			}
			if !ok {
				continue
			}
			other := g.value(0)
			if r.IntN(4) == 0 {
				other = w
			}
			checkEncodedValue(t, fmt.Sprintf("item %d %s", i, name), dst[j], w, other)
			if v, ok := e.Attr(name); !ok || !v.Equal(w) {
				t.Fatalf("item %d: Attr(%q) differs", i, name)
			}
			// Pairs of attributes of the same item compare as Values do.
			for k, name2 := range all[:j] {
				if !dst[k].IsValid() {
					continue
				}
				if got, want := dst[j].EqualEncoded(dst[k]), Equal(w, it[name2]); got != want {
					t.Fatalf("item %d: %s EqualEncoded %s = %v, want %v", i, name, name2, got, want)
				}
			}
		}
		var sub []string
		for _, n := range all {
			if r.IntN(2) == 0 {
				sub = append(sub, n)
			}
		}
		e.Lookup(sub, dst)
		for j, n := range sub {
			if w, ok := it[n]; ok != dst[j].IsValid() || ok && !dst[j].Equal(w) {
				t.Fatalf("item %d: Lookup(%v)[%d] differs", i, sub, j)
			}
		}
	}
}

// TestEncodingWriters rebuilds items from their stored attributes with the
// Append functions and reads them back through EncodedItemOf.
func TestEncodingWriters(t *testing.T) {
	r := rand.New(rand.NewPCG(seedFromEnv(t), 2))
	encs, items := randomEncodedItems(t, r, 100)
	for i, e := range encs {
		it := items[i]
		names := slices.Sorted(func(yield func(string) bool) {
			for k := range it {
				if !yield(k) {
					return
				}
			}
		})
		vals := make([]EncodedValue, len(names))
		e.Lookup(names, vals)
		buf, mark := AppendItemStart([]byte("prefix"))
		for j, n := range names {
			buf = AppendName(buf, n)
			buf = vals[j].AppendTo(buf)
		}
		buf = FinishCount(buf, mark, len(names))
		got := EncodedItemOf(string(buf[len("prefix"):]))
		if !ItemsEqual(got.Item(), it) {
			t.Fatalf("item %d: rebuilt %v, want %v", i, got.Item(), it)
		}
		rd := got.Reader()
		back, err := readItem(&rd)
		if err != nil || !ItemsEqual(back, it) {
			t.Fatalf("item %d: reader gave %v (%v), want %v", i, back, err, it)
		}
		if v, ok := got.Attr(names[0]); !ok || !v.Equal(it[names[0]]) {
			t.Fatalf("item %d: Attr of a whole item differs", i)
		}
	}
}

// TestFinishCountLong writes maps and lists of many parts, so that counts
// take several bytes and the parts already written move.
func TestFinishCountLong(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 300, 20000} {
		buf, item := AppendItemStart(nil)
		buf = AppendName(buf, "l")
		buf, lm := AppendListStart(buf)
		list := make([]Value, n)
		for i := range list {
			list[i] = S(strings.Repeat("v", i%5))
			buf = encodedScalar(list[i]).AppendTo(buf)
		}
		buf = FinishCount(buf, lm, n)
		buf = AppendName(buf, "m")
		buf, mm := AppendMapStart(buf)
		m := map[string]Value{}
		for i := range n {
			name := fmt.Sprintf("k%06d", i)
			m[name] = N(Number(strconv.Itoa(i)))
			buf = AppendName(buf, name)
			buf = encodedScalar(m[name]).AppendTo(buf)
		}
		buf = FinishCount(buf, mm, n)
		buf = FinishCount(buf, item, 2)
		it, err := decodeItem(string(buf), 0)
		if err != nil {
			t.Fatalf("%d parts: %v", n, err)
		}
		if want := (Item{"l": L(list), "m": M(m)}); !ItemsEqual(it, want) {
			t.Fatalf("%d parts: decoded something else", n)
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	tbl := fillTable(b, schemaSN, 100, 10)
	e, _ := tbl.GetEncoded(schemaSN.KeyOf(benchItem(b, schemaSN, 3, 4)))
	for _, names := range [][]string{{"count"}, {"status"}, {"count", "sk", "tags"}} {
		b.Run(strings.Join(names, ","), func(b *testing.B) {
			dst := make([]EncodedValue, len(names))
			for b.Loop() {
				e.Lookup(names, dst)
			}
			if !dst[0].IsValid() {
				b.Fatal("not found")
			}
		})
	}
}
