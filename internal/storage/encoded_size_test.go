package storage

import (
	"math/rand/v2"
	"testing"
)

// TestSizeOf holds SizeOf to ItemSize of Attributes on random items and
// random name lists (key attributes, absent names, every attribute).
func TestSizeOf(t *testing.T) {
	seed := seedFromEnv(t)
	r := rand.New(rand.NewPCG(seed, seed))
	encs, _ := randomEncodedItems(t, r, 60)
	pool := []string{"pk", "sk", "a0", "a1", "a2", "a3", "a4", "nope", ""}
	for i, e := range encs {
		for range 4 {
			var names []string
			for _, n := range pool {
				if r.IntN(2) == 0 {
					names = append(names, n)
				}
			}
			r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
			if got, want := e.SizeOf(names), ItemSize(e.Attributes(names)); got != want {
				t.Fatalf("item %d, names %q: got size %d, want %d", i, names, got, want)
			}
		}
		if got, want := e.SizeOf(pool), ItemSize(e.Item()); got != want && !hasOther(e.Item(), pool) {
			t.Fatalf("item %d: got whole size %d, want %d", i, got, want)
		}
	}
}

// hasOther reports whether it has an attribute not in names.
func hasOther(it Item, names []string) bool {
	for n := range it {
		if !contains(names, n) {
			return true
		}
	}
	return false
}
