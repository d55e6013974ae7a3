package storage

import (
	"fmt"
	"maps"
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
	for _, c := range []struct {
		mode string
		keys int
	}{{"real", 600}, {"crowded", 600}, {"equal", 600}, {"real", 8000}} {
		mode, keys := c.mode, c.keys
		t.Run(fmt.Sprint(mode, keys), func(t *testing.T) {
			var pt ptable
			model := map[string]*partition{}
			// Shared copies (what a snapshot holds) and what each held
			// when it was taken: nothing the table does later shows.
			type shared struct {
				pt    ptable
				model map[string]*partition
			}
			var snaps []shared
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
				pk := fmt.Sprint("k", r.IntN(keys))
				if p, ok := model[pk]; ok && r.IntN(2) == 0 {
					i, found := pt.find(hashOf(pk), pk)
					if !found || pt.part(i) != p {
						t.Fatalf("step %d: %q not found to remove", step, pk)
					}
					pt.removeAt(i)
					delete(model, pk)
				} else if !ok {
					p := &partition{rec: keyRecord(pk), hash: hashOf(pk)}
					pt.insert(p)
					model[pk] = p
				}
				if r.IntN(200) == 0 {
					snaps = append(snaps, shared{pt: pt.share(), model: maps.Clone(model)})
					for i := range pt.slots {
						if pt.ownedAt(i) {
							t.Fatalf("step %d: slot %d owned after a share", step, i)
						}
					}
				}
				if step%(keys/12) != 0 && step != 3999 {
					continue
				}
				for _, sn := range snaps {
					if err := checkPtable(&sn.pt, sn.model, keys, hashOf); err != nil {
						t.Fatalf("step %d: a shared copy: %v", step, err)
					}
				}
				if err := checkPtable(&pt, model, keys, hashOf); err != nil {
					t.Fatalf("step %d: %v", step, err)
				}
			}
		})
	}
}

// checkPtable checks pt's invariants, every lookup of the keys k0..k<keys>
// and the scan order against model.
func checkPtable(pt *ptable, model map[string]*partition, keys int, hashOf func(string) uint32) error {
	if err := pt.check(); err != nil {
		return err
	}
	for i := range keys {
		pk := fmt.Sprint("k", i)
		i, found := pt.find(hashOf(pk), pk)
		if want := model[pk]; found != (want != nil) || found && pt.part(i) != want {
			return fmt.Errorf("find(%q) = %v, want %v", pk, found, want != nil)
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
		return fmt.Errorf("scan order differs from the model's")
	}
	return nil
}
