package storage

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireSortedLike sorts ents with sortIentries and checks the result
// against slices.SortFunc with ientryCmp: the same entries in the same
// order (entries that compare equal may trade places).
func requireSortedLike(t testing.TB, ents []ientry, msg string) {
	t.Helper()
	want := slices.Clone(ents)
	slices.SortFunc(want, ientryCmp)
	got := slices.Clone(ents)
	sortIentries(got)
	require.Len(t, got, len(want))
	for i := range got {
		if ientryCmp(got[i], want[i]) != 0 {
			require.Failf(t, "out of order", "%s: entry %d: got key %q (%q/%q), want %q (%q/%q)", msg, i,
				got[i].key, got[i].e.pk(), got[i].e.sortKey(), want[i].key, want[i].e.pk(), want[i].e.sortKey())
		}
	}
	require.True(t, slices.IsSortedFunc(got, ientryCmp), msg)
}

// TestSortIentries: sortIentries orders entries as ientryCmp does, for
// keys that share long prefixes, end inside or at the end of a word,
// differ by zero bytes or only by their length, are equal (the table
// keys decide), and for runs sorted, reversed and all equal.
func TestSortIentries(t *testing.T) {
	seed := replaySeed(t)
	r := rand.New(rand.NewPCG(seed, 0))
	// key draws a key: a shared prefix of 0 to 40 bytes, then a tail
	// from a small alphabet with zero bytes, of 0 to 20 bytes.
	shared := string(func() []byte {
		b := make([]byte, 40)
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return b
	}())
	key := func() string {
		tail := make([]byte, r.IntN(21))
		for i := range tail {
			tail[i] = "\x00\x01ab\xff"[r.IntN(5)]
		}
		return shared[:r.IntN(len(shared)+1)] + string(tail)
	}
	entries := func(n int) []ientry {
		ents := make([]ientry, n)
		for i := range ents {
			e := keyPivot(fmt.Sprint("p", r.IntN(50)), fmt.Sprint(r.IntN(50)))
			ents[i] = newIentry(key(), e)
		}
		return ents
	}
	for _, n := range []int{0, 1, 2, 15, 16, 17, 100, 1000, 20_000} {
		requireSortedLike(t, entries(n), fmt.Sprintf("%d random", n))
	}
	ents := entries(5000)
	slices.SortFunc(ents, ientryCmp)
	requireSortedLike(t, ents, "sorted")
	slices.Reverse(ents)
	requireSortedLike(t, ents, "reversed")
	same := make([]ientry, 3000)
	for i := range same {
		same[i] = newIentry(shared+"\x00\x01", keyPivot(fmt.Sprintf("user#%09d", r.IntN(1e9)), ""))
	}
	requireSortedLike(t, same, "one index key")
	// The index keys of a GSI on a city with the table's key as its
	// sort key, as BenchmarkIndexBackfill and the Restart benchmark fill.
	gsi := make([]ientry, 20_000)
	for i := range gsi {
		it := Item{"city": S(fmt.Sprintf("city-%03d", r.IntN(50))), "pk": S(fmt.Sprintf("user#%09d", i))}
		x := newIndex(KeySchema{Partition: KeyAttr{Name: "pk", Kind: KindS}}, IndexDef{Name: "byCity",
			Schema: IndexSchema{Partition: []KeyAttr{{Name: "city", Kind: KindS}}, Sort: []KeyAttr{{Name: "pk", Kind: KindS}}}})
		k, ok := x.indexKey(nil, it)
		require.True(t, ok)
		gsi[i] = newIentry(string(k), keyPivot(it["pk"].Str(), ""))
	}
	requireSortedLike(t, gsi, "gsi")
}

// TestSortIentriesBudget: when pivots split badly and the budget runs
// out, the rest is still sorted.
func TestSortIentriesBudget(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ents := make([]ientry, 500)
	for i := range ents {
		ents[i] = newIentry(fmt.Sprintf("%08d%08d", r.IntN(1000), r.IntN(1000)), keyPivot(fmt.Sprint(i), ""))
	}
	want := slices.Clone(ents)
	slices.SortFunc(want, ientryCmp)
	for _, budget := range []int{0, 1, 2, 3} {
		got := slices.Clone(ents)
		sortIentriesFrom(got, 0, budget)
		require.Equal(t, want, got, "budget %d", budget)
	}
}

// FuzzSortIentries: sortIentries orders any keys as ientryCmp does. The
// input is split into keys at each 0xfe byte; each entry's table key is
// its number modulo 7, so some keys tie and some entries are equal.
func FuzzSortIentries(f *testing.F) {
	f.Add([]byte("a\xfeb\xfeab\xfe\xfe\x00\xfea\x00\xfeaaaaaaaaa\xfeaaaaaaaa\xfeaaaaaaaab"))
	f.Add([]byte("\x00\x00\x00\x00\x00\x00\x00\x00\x00\xfe\x00\x00\x00\x00\x00\x00\x00\x00\xfe"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var ents []ientry
		for i, k := range slices.Collect(func(yield func([]byte) bool) {
			start := 0
			for j, c := range b {
				if c == 0xfe {
					if !yield(b[start:j]) {
						return
					}
					start = j + 1
				}
			}
			yield(b[start:])
		}) {
			ents = append(ents, newIentry(string(k), keyPivot(fmt.Sprint(i%7), "")))
		}
		// Repeated so that runs reach past sortIentriesSmall.
		for len(ents) > 0 && len(ents) < 4*sortIentriesSmall {
			ents = append(ents, ents...)
		}
		requireSortedLike(t, ents, "fuzz")
	})
}
