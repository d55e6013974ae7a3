package storage

import "testing"

// A write that keeps an item's index key updates the index with one
// search (a replacing Set), and a write that stores the item as it was
// touches neither its partition nor its index entries. Both must leave a
// snapshot taken before them as it was, and the table, its indexes and
// their sizes as a full rebuild gives them.
func TestIndexSameKeyWrites(t *testing.T) {
	def := testIndexes[0] // g_h: g S, sort h N, ALL
	item := func(v string) Item {
		return Item{"pk": S("p"), "sk": N("1"), "g": S("x"), "h": N("7"), "v": S(v)}
	}
	indexV := func(tb testing.TB, tbl *Table) string {
		tb.Helper()
		var vs []string
		err := tbl.QueryIndex(def.Name, IndexQuery{Partition: []Value{S("x")}, Forward: true}, func(e EncodedItem) bool {
			vs = append(vs, e.Attributes([]string{"v"})["v"].Str())
			return true
		})
		if err != nil {
			tb.Fatal(err)
		}
		if len(vs) != 1 {
			tb.Fatalf("index holds %d entries of g=x, want 1", len(vs))
		}
		return vs[0]
	}
	getV := func(tb testing.TB, tbl *Table) string {
		tb.Helper()
		e, ok := tbl.GetEncoded(schemaSN.KeyOf(item("")))
		if !ok {
			tb.Fatal("item missing")
		}
		return e.Attributes([]string{"v"})["v"].Str()
	}
	writes := []struct {
		name  string
		write func(tb testing.TB, tbl *Table, it Item)
	}{
		{"Put", func(tb testing.TB, tbl *Table, it Item) {
			if _, err := tbl.Put(schemaSN.KeyOf(it), it); err != nil {
				tb.Fatal(err)
			}
		}},
		{"Write", func(tb testing.TB, tbl *Table, it Item) { put(tb, tbl, it) }},
		{"WriteTx", func(tb testing.TB, tbl *Table, it Item) {
			tx := Begin(tbl)
			if _, err := tx.Put(tbl, schemaSN.KeyOf(it), it); err != nil {
				tb.Fatal(err)
			}
			if _, err := tx.Commit(); err != nil {
				tb.Fatal(err)
			}
		}},
	}
	for _, w := range writes {
		t.Run(w.name, func(t *testing.T) {
			tbl := newTable(t, schemaSN)
			if err := tbl.AddIndex(def); err != nil {
				t.Fatal(err)
			}
			w.write(t, tbl, item("old"))
			_, size0, _ := tbl.IndexStats(def.Name)
			snap := tbl.Snapshot()

			w.write(t, tbl, item("new")) // same index key, another record
			w.write(t, tbl, item("new")) // the same record again
			check(t, tbl)
			if got, want := indexV(t, tbl), "new"; got != want {
				t.Errorf("table's index: got v=%q, want %q", got, want)
			}
			if got, want := getV(t, tbl), "new"; got != want {
				t.Errorf("table: got v=%q, want %q", got, want)
			}
			if n, size, _ := tbl.IndexStats(def.Name); n != 1 || size != size0 {
				t.Errorf("index stats: got %d entries of %d bytes, want 1 of %d", n, size, size0)
			}

			old := snap.newTable()
			checkAtEnd(t, old.Check)
			if got, want := indexV(t, old), "old"; got != want {
				t.Errorf("snapshot's index: got v=%q, want %q", got, want)
			}
			if got, want := getV(t, old), "old"; got != want {
				t.Errorf("snapshot: got v=%q, want %q", got, want)
			}

			// An aborted transaction that writes the item as it is, then
			// changes it, leaves it and its entry as they were.
			tx := Begin(tbl)
			for _, v := range []string{"new", "other"} {
				if _, err := tx.Put(tbl, schemaSN.KeyOf(item(v)), item(v)); err != nil {
					t.Fatal(err)
				}
			}
			tx.Abort()
			if got, want := indexV(t, tbl), "new"; got != want {
				t.Errorf("after an abort: got v=%q in the index, want %q", got, want)
			}
		})
	}
}
