package expr

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

// TestAttributesToGetTrie checks the projection AttributesToGet builds in
// bulk (one shared leaf, the names sorted) against the trie newProjTrie
// builds path by path, its source form, and which duplicate it names.
func TestAttributesToGetTrie(t *testing.T) {
	for _, names := range [][]string{
		{"a"},
		{"b", "a", "c"},
		{"z", "y", "x", "w", "v", "u", "t", "s", "r", "q", "p", "o", "n", "m", "l", "k", "j", "i"},
		{"with space", "dots.in.name", "[0]"},
	} {
		p, err := AttributesToGet(names)
		require.NoError(t, err)
		var paths []Path
		src := &ProjectionExpr{}
		for _, n := range names {
			paths = append(paths, Path{{Name: n}})
			src.Paths = append(src.Paths, legacyPath(n))
		}
		require.Equal(t, src.String(), p.String()) // before Paths: from the names
		// Paths are made by the first call, once, whoever calls first.
		fresh, err := AttributesToGet(names)
		require.NoError(t, err)
		got := make([][]Path, 4)
		var wg sync.WaitGroup
		for i := range got {
			wg.Go(func() { got[i] = fresh.Paths() })
		}
		wg.Wait()
		for _, g := range got {
			require.Equal(t, paths, g)
		}
		require.Equal(t, paths, p.Paths())
		require.Equal(t, src.String(), p.String())
		want := newProjTrie(paths)
		require.Equal(t, want.names, p.trie.names)
		require.True(t, p.trie.allLeaves)
		for i := range p.trie.names {
			require.Equal(t, *want.fields[i], *p.trie.field(i), "name %q", p.trie.names[i])
		}
	}
	for _, c := range []struct {
		names []string
		dup   string
	}{
		{[]string{"a", "a"}, "a"},
		{[]string{"b", "a", "c", "a", "b"}, "a"},
		{[]string{"x", "b", "b", "x"}, "b"},
	} {
		_, err := AttributesToGet(c.names)
		require.Error(t, err)
		require.Equal(t, errPlain(sprintf(msgLegacyDupAttr, c.dup)).Error(), err.Error())
	}
}

// BenchmarkAttributesToGet compiles a list of 381,295 names, the most a
// 4 MB GetItem holds. Built a name at a time: 1.9 s, 265 MB and 1.9M
// allocations an op (a map entry, two paths and a trie node a name);
// in bulk 0.25 s, 31 MB and 7 allocations; with the paths made only
// when asked for, 9 MB and 5 allocations (2-core VM).
func BenchmarkAttributesToGet(b *testing.B) {
	names := make([]string, 381295)
	for i := range names {
		names[i] = fmt.Sprintf("a%07d", i)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AttributesToGet(names); err != nil {
			b.Fatal(err)
		}
	}
}

// TestJavaHashOrderMany checks the ordering of many keys against the
// order's definition: by bucket of a table sized for them, then by key.
func TestJavaHashOrderMany(t *testing.T) {
	keys := make([]string, 5000)
	for i := range keys {
		keys[len(keys)-1-i] = fmt.Sprintf(":v%d", i*7919%100003)
	}
	got := javaHashOrder(slices.Clone(keys))
	require.ElementsMatch(t, keys, got)
	bucket := func(s string) uint32 {
		var h uint32
		for _, r := range s {
			h = 31*h + uint32(r)
		}
		h ^= h >> 16
		return h & (8192 - 1) // 5,000 keys: a table of 8,192 at load 0.75
	}
	for i := 1; i < len(got); i++ {
		a, b := got[i-1], got[i]
		require.True(t, bucket(a) < bucket(b) || bucket(a) == bucket(b) && a < b, "%q before %q", a, b)
	}
}

// BenchmarkJavaHashOrder orders 190,646 placeholders, the unused ones of
// a 4 MB Query: 244 ms with the hash in a stable sort's comparator, 70
// ms with each key's bucket computed once (2-core VM). Each run orders
// them from a map's order, as unusedKeys lists them (ordering its own
// answer again measured a sort of sorted keys): 93-131 ms so. Sorting
// (bucket, index) numbers and moving the keys in place took 66-101 ms,
// most of it the hash reading each key: not kept.
func BenchmarkJavaHashOrder(b *testing.B) {
	m := make(map[string]bool, 190646)
	for i := range 190646 {
		m[fmt.Sprintf(":v%07d", i)] = true
	}
	in := slices.Collect(maps.Keys(m)) // in a map's order, as unusedKeys lists them
	keys := make([]string, len(in))
	for b.Loop() {
		copy(keys, in)
		javaHashOrder(keys)
	}
}

// TestLegacyFilterDepth checks that a legacy filter of many conditions is
// a tree of logarithmic depth (a chain recursed once a condition in every
// walk), with the chain's answer and text.
func TestLegacyFilterDepth(t *testing.T) {
	const n = 50000
	filter := map[string]LegacyCondition{}
	item := storage.Item{}
	for i := range n {
		name := fmt.Sprintf("a%06d", i)
		filter[name] = LegacyCondition{ComparisonOperator: "EQ", AttributeValueList: []storage.Value{storage.S("x")}}
		item[name] = storage.S("x")
	}
	var depth func(e Expr) int
	depth = func(e Expr) int {
		switch x := e.(type) {
		case *BinaryExpr:
			return 1 + max(depth(x.X), depth(x.Y))
		case *ParenExpr:
			return 1 + depth(x.X)
		}
		return 1
	}
	for _, op := range []string{"AND", "OR"} {
		cond, err := Filter(named(filter), op)
		require.NoError(t, err)
		require.LessOrEqual(t, depth(cond.legacyTree()), 20)
		got, err := cond.Eval(item)
		require.NoError(t, err)
		require.True(t, got, op)
		require.True(t, strings.HasPrefix(cond.String(), `(a000000 = `), cond.String()[:40])
		require.Equal(t, n-1, strings.Count(cond.String(), " "+op+" "))
	}
	item["a049999"] = storage.S("y")
	cond, err := Filter(named(filter), "AND")
	require.NoError(t, err)
	got, err := cond.Eval(item)
	require.NoError(t, err)
	require.False(t, got)
}

// TestAttributesToGetOwnedSameAnswer checks AttributesToGetOwned against
// AttributesToGet on random lists (names from a small alphabet, so that
// some repeat): the same error, or the same paths, source form, trie and
// projection of an item.
func TestAttributesToGetOwnedSameAnswer(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for round := range 2000 {
		names := make([]string, 1+rng.IntN(40))
		alphabet := 2 + rng.IntN(60)
		for i := range names {
			names[i] = fmt.Sprintf("n%d", rng.IntN(alphabet))
		}
		if round%10 == 0 {
			names[rng.IntN(len(names))] = ""
		}
		checkOwnedSameAnswer(t, names)
	}
}

func checkOwnedSameAnswer(t *testing.T, names []string) {
	t.Helper()
	want, wantErr := AttributesToGet(names)
	given := slices.Clone(names)
	got, gotErr := AttributesToGetOwned(given)
	if !sameProjection(t, names, want, wantErr, got, gotErr) {
		return
	}
	require.Equal(t, want.trie.names, got.trie.names, "%q", names)
	item := storage.Item{}
	for i, n := range names {
		if i%2 == 0 {
			item[n] = storage.S(n)
		}
	}
	item["other"] = storage.S("x")
	require.Equal(t, want.Apply(item), got.Apply(item), "%q", names)
}

// sameProjection checks a projection of names (got) against
// AttributesToGet's (want): the same error, or the same source form and
// paths. It reports whether want compiled.
func sameProjection(t *testing.T, names []string, want *Projection, wantErr error, got *Projection, gotErr error) bool {
	t.Helper()
	if wantErr != nil {
		require.Error(t, gotErr, "%q", names)
		require.Equal(t, wantErr.Error(), gotErr.Error(), "%q", names)
		return false
	}
	require.NoError(t, gotErr, "%q", names)
	require.Equal(t, want.String(), got.String(), "%q", names)
	require.Equal(t, want.Paths(), got.Paths(), "%q", names)
	return true
}

// FuzzAttributesToGetOwned checks AttributesToGetOwned against
// AttributesToGet on lists split from the input at commas.
func FuzzAttributesToGetOwned(f *testing.F) {
	f.Add("a,b,a")
	f.Add("b,a,c,b,a")
	f.Add("x,,y")
	f.Fuzz(func(t *testing.T, s string) {
		checkOwnedSameAnswer(t, strings.Split(s, ","))
	})
}

// TestInvertInPlace checks invertInPlace against the inverse made in a
// second array, on random permutations of 0 to 300 places.
func TestInvertInPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for n := range 301 {
		p := make([]int32, n)
		for i, j := range rng.Perm(n) {
			p[i] = int32(j)
		}
		want := make([]int32, n)
		for i, j := range p {
			want[j] = int32(i)
		}
		invertInPlace(p)
		require.Equal(t, want, p, "n=%d", n)
	}
}
