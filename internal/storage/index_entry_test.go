package storage

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tidwall/btree"
)

// fullIentryLess is the order of index entries by their strings alone,
// without the inline prefix: what ientryLess must agree with.
func fullIentryLess(a, b ientry) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	if pa, pb := a.e.pk(), b.e.pk(); pa != pb {
		return pa < pb
	}
	return a.e.sortKey() < b.e.sortKey()
}

// randomIndexKey returns a key that often shares a prefix with another
// (bases), is often short (at most 8 bytes, where lengths decide), and
// holds the bytes an order is most easily wrong about: 0x00, 0x01, 0xFF.
func randomIndexKey(r *rand.Rand, bases []string) string {
	alphabet := []byte{0x00, 0x01, 0x7F, 0x80, 0xFF, 'a', 'b'}
	var b []byte
	if r.IntN(3) > 0 {
		b = append(b, bases[r.IntN(len(bases))]...)
	}
	for n := r.IntN(12); n > 0; n-- {
		if r.IntN(4) == 0 {
			b = append(b, byte(r.IntN(256)))
		} else {
			b = append(b, alphabet[r.IntN(len(alphabet))])
		}
	}
	return string(b)
}

func TestIentryOrderRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 8))
	bases := []string{"", "\x00", "\x00\x00\x00\x00", "abcdefg", "abcdefgh", "abcdefghi", "\xff\xff\xff\xff\xff\xff\xff", "someone.", "\x12\x34\x56\x78someone."}
	pks := []string{"", "\x00", "a", "ab", "b"}
	sks := []string{"", "\x00", "\x01", "x"}
	for round := range 50 {
		entries := make([]ientry, 0, 300)
		for range cap(entries) {
			e := keyPivot(pks[r.IntN(len(pks))], sks[r.IntN(len(sks))])
			entries = append(entries, newIentry(randomIndexKey(r, bases), e))
		}
		for _, a := range entries {
			for _, b := range entries {
				if got, want := ientryLess(a, b), fullIentryLess(a, b); got != want {
					t.Fatalf("round %d: ientryLess(%q %q %q, %q %q %q) = %v, want %v",
						round, a.key, a.e.pk(), a.e.sortKey(), b.key, b.e.pk(), b.e.sortKey(), got, want)
				}
			}
		}
		// A tree ordered by ientryLess holds the entries in the full order,
		// and finds each of them again.
		tree := btree.NewBTreeGOptions(ientryLess, btree.Options{NoLocks: true, Degree: 3})
		for _, ie := range entries {
			tree.Set(ie)
		}
		want := slices.Clone(entries)
		slices.SortFunc(want, func(a, b ientry) int {
			switch {
			case fullIentryLess(a, b):
				return -1
			case fullIentryLess(b, a):
				return 1
			}
			return 0
		})
		want = slices.CompactFunc(want, func(a, b ientry) bool { return !fullIentryLess(a, b) && !fullIentryLess(b, a) })
		got := tree.Items()
		if len(got) != len(want) {
			t.Fatalf("round %d: tree holds %d entries, want %d", round, len(got), len(want))
		}
		for i := range got {
			if got[i].key != want[i].key || got[i].e.pk() != want[i].e.pk() || got[i].e.sortKey() != want[i].e.sortKey() {
				t.Fatalf("round %d: entry %d is %q, want %q", round, i, got[i].key, want[i].key)
			}
		}
		for _, ie := range entries {
			if _, ok := tree.Get(newIentry(ie.key, keyPivot(ie.e.pk(), ie.e.sortKey()))); !ok {
				t.Fatalf("round %d: entry %q not found", round, ie.key)
			}
		}
	}
}

func TestKeyPrefix(t *testing.T) {
	tests := []struct {
		key  string
		want uint64
	}{
		{"", 0},
		{"\x01", 0x0100000000000000},
		{"abc", 0x6162630000000000},
		{"\xff\xff\xff\xff\xff\xff\xff\xff", 0xffffffffffffffff},
		{"\x01\x02\x03\x04\x05\x06\x07\x08\x09", 0x0102030405060708},
	}
	for _, tt := range tests {
		if got := keyPrefix(tt.key); got != tt.want {
			t.Errorf("keyPrefix(%q) = %#x, want %#x", tt.key, got, tt.want)
		}
	}
}
