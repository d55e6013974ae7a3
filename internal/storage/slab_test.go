package storage

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSlabChurn overwrites and deletes the items of a table with two
// indexes, so that chunks die and are compacted over and over; the table,
// its indexes and the slab's counts stay consistent, and what is read
// back is what was written last.
func TestSlabChurn(t *testing.T) {
	r := rand.New(rand.NewPCG(seedFromEnv(t), 9))
	for _, ks := range []KeySchema{schemaS, schemaSN} {
		t.Run(fmt.Sprint(ks.HasSort()), func(t *testing.T) {
			tbl := newTable(t, ks)
			for _, def := range []IndexDef{
				{Name: "byG", Schema: IndexSchema{Partition: []KeyAttr{{Name: "g", Kind: KindS}}}, Projection: Projection{All: true}},
				{Name: "byH", Schema: IndexSchema{Partition: []KeyAttr{{Name: "h", Kind: KindN}}, Sort: []KeyAttr{{Name: "g", Kind: KindS}}}},
			} {
				if err := tbl.AddIndex(def); err != nil {
					t.Fatal(err)
				}
			}
			model := map[Key]Item{}
			for step := range 6000 {
				k := Key{Partition: S(fmt.Sprint("p", r.IntN(40)))}
				if ks.HasSort() {
					k.Sort = N(Number(fmt.Sprint(r.IntN(8))))
				}
				if r.IntN(4) == 0 {
					if _, err := tbl.Put(k, nil); err != nil {
						t.Fatal(err)
					}
					delete(model, k)
				} else {
					it := ks.KeyItem(k)
					it["v"] = S(strings.Repeat("x", r.IntN(600)))
					if r.IntN(3) > 0 {
						it["g"] = S(fmt.Sprint("g", r.IntN(5)))
					}
					if r.IntN(2) == 0 {
						it["h"] = N(Number(fmt.Sprint(r.IntN(3))))
					}
					if _, err := tbl.Put(k, it); err != nil {
						t.Fatal(err)
					}
					model[k] = it
				}
				if step%200 == 0 {
					check(t, tbl)
				}
			}
			for k, want := range model {
				if got, ok := tbl.Get(k); !ok || !ItemsEqual(got, want) {
					t.Fatalf("Get(%v) = %v, want %v", k, got, want)
				}
			}
			if slabOf(tbl).compactions == 0 {
				t.Fatal("no chunk was compacted")
			}
			t.Logf("%d compactions, %d chunks", slabOf(tbl).compactions, len(slabOf(tbl).chunks))
		})
	}
}

// TestSlabSmallTable: a table of one small item takes one small chunk.
func TestSlabSmallTable(t *testing.T) {
	tbl := newTable(t, schemaS)
	put(t, tbl, Item{"pk": S("a"), "v": S("x")})
	if n := len(slabOf(tbl).chunks); n != 1 || cap(slabOf(tbl).chunks[0].buf) != slabFirstChunk {
		t.Fatalf("got %d chunks, the first of %d bytes; want one of %d", n, cap(slabOf(tbl).chunks[0].buf), slabFirstChunk)
	}
}

// TestSlabOverwriteOne: overwriting one item many times keeps a chunk or
// two, whatever the number of writes (a chunk filled with dead copies is
// compacted when the next one starts).
func TestSlabOverwriteOne(t *testing.T) {
	tbl := newTable(t, schemaS)
	for i := range 50_000 {
		put(t, tbl, Item{"pk": S("a"), "v": S(fmt.Sprint(strings.Repeat("x", 200), i))})
	}
	total := 0
	for _, c := range slabOf(tbl).chunks {
		total += cap(c.buf)
	}
	if len(slabOf(tbl).chunks) > 2 || total > 2*slabMaxChunk {
		t.Fatalf("%d chunks of %d bytes in all after overwriting one item", len(slabOf(tbl).chunks), total)
	}
}

// TestSlabDeadBound overwrites and deletes random items of random sizes:
// after every write the slab's chunks hold at most about one and a half
// times the live records' bytes (dead records past half the live bytes
// start compaction, a chunk a write), and chunks whose records all died
// went without a record looked up.
func TestSlabDeadBound(t *testing.T) {
	r := rand.New(rand.NewPCG(seedFromEnv(t), 10))
	tbl := newTable(t, schemaS)
	for step := range 30_000 {
		k := Key{Partition: S(fmt.Sprint("p", r.IntN(3000)))}
		var it Item
		if r.IntN(8) > 0 {
			it = schemaS.KeyItem(k)
			it["v"] = S(strings.Repeat("x", r.IntN(900)))
		}
		if _, err := tbl.Put(k, it); err != nil {
			t.Fatal(err)
		}
		tbl.mu.Lock()
		held := 0
		for _, c := range slabOf(tbl).chunks {
			held += len(c.buf)
		}
		live := slabOf(tbl).live
		tbl.mu.Unlock()
		if limit := live + live/2 + 2*slabMaxChunk; held > limit {
			t.Fatalf("step %d: chunks hold %d bytes for %d live (limit %d)", step, held, live, limit)
		}
		if step%1000 == 0 {
			check(t, tbl)
		}
	}
	if slabOf(tbl).compactions == 0 {
		t.Fatal("no chunk was compacted: the test tests nothing")
	}
}

// slabOf returns t's slab; empty for a table not written yet.
func slabOf(t *Table) *slab {
	if t.scr == nil {
		return new(slab)
	}
	return &t.scr.slab
}
