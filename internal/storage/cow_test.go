package storage

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// cowTable is a writable table of TestCopyOnWriteRandom and what it
// should hold.
type cowTable struct {
	t     *Table
	model map[Key]Item
}

// cowSnap is a held snapshot and what it should hold.
type cowSnap struct {
	s     *TableSnapshot
	model map[Key]Item
}

// TestCopyOnWriteRandom interleaves, on a table with a secondary and a
// vector index, writes of items of random sizes (so that slab chunks die
// and are compacted), deletions, snapshots held and released, tables
// restored from held snapshots (written, snapshotted and dropped in turn)
// and checks: every snapshot always holds what its table held when it was
// taken (read concurrently with the writes, so -race sees the sharing),
// and every table's invariants hold (partition table, slab counts,
// indexes, vector rows pointing at the stored records). It also requires
// that compactions happened while snapshots were held (in the cases of
// few partitions) and that tables were restored.
func TestCopyOnWriteRandom(t *testing.T) {
	// 5000 steps each took 86 s under -race on a busy 2-core machine: the
	// long run is for heavyTestsEnv.
	steps := 2000
	if heavyTests() {
		steps = 5000
	}
	for _, c := range []struct {
		ks    KeySchema
		parts int
	}{{schemaS, 30}, {schemaSN, 30}, {schemaS, 4000}} {
		// 4000 partitions: the partition table spans pages (ptable.go).
		t.Run(fmt.Sprint("sort=", c.ks.HasSort(), "/partitions=", c.parts), func(t *testing.T) {
			runCopyOnWrite(t, rand.New(rand.NewPCG(seedFromEnv(t), 11)), c.ks, c.parts, steps)
		})
	}
}

func runCopyOnWrite(t *testing.T, r *rand.Rand, ks KeySchema, parts, steps int) {
	db := newDB(t, nil)
	gsi := IndexDef{Name: "byG", Schema: IndexSchema{Partition: []KeyAttr{{Name: "g", Kind: KindS}}}, Projection: Projection{All: true}}
	src, err := db.CreateTable(TableDef{Name: "src", ID: "src", Schema: ks, Indexes: []IndexDef{gsi}})
	if err != nil {
		t.Fatal(err)
	}
	vdef := VectorIndexDef{Name: "vx", Attribute: "vec", Dimensions: 2, Distance: Euclidean, Projection: Projection{All: true}}
	addVector := func(tb *Table) {
		if err := tb.AddVectorIndex(vdef); err != nil {
			t.Fatal(err)
		}
	}
	addVector(src)
	tables := []*cowTable{{t: src, model: map[Key]Item{}}}
	var held []cowSnap
	restored, compactionsHeld := 0, 0
	var readers sync.WaitGroup
	defer readers.Wait() // before the test ends, however it ends
	checkSnaps := func() {
		// Readers run while the writer goes on; joined at the next check.
		readers.Wait()
		for _, h := range held {
			readers.Add(1)
			go func(h cowSnap) {
				defer readers.Done()
				if err := checkSnapshot(h.s, h.model); err != nil {
					t.Error(err)
				}
			}(h)
		}
	}
	key := func() Key {
		k := Key{Partition: S(fmt.Sprint("p", r.IntN(parts)))}
		if ks.HasSort() {
			k.Sort = N(Number(fmt.Sprint(r.IntN(6))))
		}
		return k
	}
	for step := range steps {
		ct := tables[r.IntN(len(tables))]
		before := slabOf(ct.t).compactions
		switch n := r.IntN(100); {
		case n < 60:
			k := key()
			it := ks.KeyItem(k)
			it["v"] = S(strings.Repeat(string(rune('a'+r.IntN(26))), r.IntN(900)))
			if r.IntN(2) == 0 {
				it["g"] = S(fmt.Sprint("g", r.IntN(4)))
			}
			if r.IntN(2) == 0 {
				it["vec"] = L([]Value{N(Number(fmt.Sprint(r.IntN(9)))), N("1")})
			}
			if _, err := ct.t.Put(k, it); err != nil {
				t.Fatal(err)
			}
			ct.model[k] = it
		case n < 80:
			k := key()
			if _, err := ct.t.Put(k, nil); err != nil {
				t.Fatal(err)
			}
			delete(ct.model, k)
		case n < 88:
			held = append(held, cowSnap{s: ct.t.Snapshot(), model: maps.Clone(ct.model)})
		case n < 94:
			if len(held) > 0 {
				i := r.IntN(len(held))
				held = append(held[:i], held[i+1:]...)
			}
		case n < 97:
			if len(held) > 0 && len(tables) < 5 {
				h := held[r.IntN(len(held))]
				restored++
				name := fmt.Sprint("r", restored)
				tb, err := db.RestoreTable(name, name, h.s)
				if err != nil {
					t.Fatal(err)
				}
				if got := tb.VectorIndexes(); len(got) != 1 || got[0].Name != vdef.Name {
					t.Fatalf("restored table's vector indexes: got %+v, want %s", got, vdef.Name)
				}
				tables = append(tables, &cowTable{t: tb, model: maps.Clone(h.model)})
			}
		default:
			if len(tables) > 1 && r.IntN(3) == 0 {
				i := 1 + r.IntN(len(tables)-1)
				if err := db.DropTable(tables[i].t.Name()); err != nil {
					t.Fatal(err)
				}
				tables = append(tables[:i], tables[i+1:]...)
			}
		}
		if len(held) > 0 {
			compactionsHeld += slabOf(ct.t).compactions - before
		}
		if step%250 == 0 || step == steps-1 {
			checkSnaps()
			for _, ct := range tables {
				check(t, ct.t)
				if err := checkSnapshot(ct.t.Snapshot(), ct.model); err != nil {
					t.Fatalf("step %d: table %s: %v", step, ct.t.Name(), err)
				}
			}
		}
		if t.Failed() {
			readers.Wait()
			t.FailNow()
		}
	}
	readers.Wait()
	t.Logf("%d restores, %d compactions with snapshots held", restored, compactionsHeld)
	// With many partitions, chunks die too slowly for compactions to be
	// sure to happen while a snapshot is held; the small cases see many.
	if compactionsHeld == 0 && parts <= 30 || restored == 0 {
		t.Fatalf("%d compactions with snapshots held, %d restores: the workload is off", compactionsHeld, restored)
	}
}

// checkSnapshot compares s with model: counts and sizes, every item by
// Get and by Scan, the secondary index's count.
func checkSnapshot(s *TableSnapshot, model map[Key]Item) error {
	if s.ItemCount() != len(model) {
		return fmt.Errorf("snapshot of %s: %d items, want %d", s.Name(), s.ItemCount(), len(model))
	}
	var size int64
	inG := 0
	for k, want := range model {
		size += int64(ItemSize(want))
		if _, ok := want["g"]; ok {
			inG++
		}
		e, ok := s.GetEncoded(k)
		if !ok || !ItemsEqual(e.Item(), want) {
			return fmt.Errorf("snapshot of %s: Get(%v) = %v, want %v", s.Name(), k, e.Item(), want)
		}
	}
	if s.SizeBytes() != size {
		return fmt.Errorf("snapshot of %s: %d bytes, want %d", s.Name(), s.SizeBytes(), size)
	}
	n := 0
	var err error
	s.ScanEncoded(ScanRange{}, func(e EncodedItem) bool {
		n++
		if want, ok := model[e.Key()]; !ok || !ItemsEqual(e.Item(), want) {
			err = fmt.Errorf("snapshot of %s: Scan gives %v, want %v", s.Name(), e.Item(), want)
		}
		return err == nil
	})
	if err != nil {
		return err
	}
	if n != len(model) {
		return fmt.Errorf("snapshot of %s: Scan gives %d items, want %d", s.Name(), n, len(model))
	}
	if c, _, err := s.IndexStats("byG"); err != nil || c != inG {
		return fmt.Errorf("snapshot of %s: index byG holds %d entries (%v), want %d", s.Name(), c, err, inG)
	}
	return nil
}
