package storage

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPtableRandom inserts and removes partitions against a model, with
// hashes drawn three ways: real (partitionHash), crowded into a few home
// slots (long runs, growth past the spare slots) and all equal (order by
// key alone); it checks the invariants, every lookup and the scan order
// after each step.
func TestPtableRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(seedFromEnv(t), 3))
	for _, mode := range []string{"real", "crowded", "equal"} {
		t.Run(mode, func(t *testing.T) {
			var pt ptable
			model := map[string]*partition{}
			hashOf := func(pk string) uint32 {
				switch mode {
				case "crowded":
					return partitionHash(pk)&0xff | 0x7fff0000
				case "equal":
					return 42
				}
				return partitionHash(pk)
			}
			for step := range 4000 {
				pk := fmt.Sprint("k", r.IntN(600))
				if p, ok := model[pk]; ok && r.IntN(2) == 0 {
					i, found := pt.find(hashOf(pk), pk)
					if !found || pt.parts[i] != p {
						t.Fatalf("step %d: %q not found to remove", step, pk)
					}
					pt.removeAt(i)
					delete(model, pk)
				} else if !ok {
					p := &partition{rec: keyRecord(pk), hash: hashOf(pk)}
					pt.insert(p)
					model[pk] = p
				}
				if step%50 != 0 && step != 3999 {
					continue
				}
				if err := pt.check(); err != nil {
					t.Fatalf("step %d: %v", step, err)
				}
				for i := range 600 {
					pk := fmt.Sprint("k", i)
					i, found := pt.find(hashOf(pk), pk)
					if want := model[pk]; found != (want != nil) || found && pt.parts[i] != want {
						t.Fatalf("step %d: find(%q) = %v, want %v", step, pk, found, want != nil)
					}
				}
				var got, want []*partition
				pt.ascend(0, "", func(p *partition) bool { got = append(got, p); return true })
				for _, p := range model {
					want = append(want, p)
				}
				slices.SortFunc(want, func(a, b *partition) int {
					if partitionLess(a, b) {
						return -1
					}
					return 1
				})
				if !slices.Equal(got, want) {
					t.Fatalf("step %d: scan order differs from the model's", step)
				}
			}
		})
	}
}
