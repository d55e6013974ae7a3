package storage

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// lsiExtra counts, like the emulator, an index entry for items with an
// "lsk" attribute: the whole item plus 100 bytes.
func lsiExtra(it Item) int64 {
	if _, ok := it["lsk"]; !ok {
		return 0
	}
	return int64(ItemSize(it)) + 100
}

func TestCollectionSizes(t *testing.T) {
	a1 := Item{"pk": S("a"), "sk": N("1")}                    // 2+1 + 2+2 = 7
	a1big := Item{"pk": S("a"), "sk": N("1"), "x": S("0123")} // 7 + 1+4 = 12
	a2 := Item{"pk": S("a"), "sk": N("2"), "lsk": S("q")}     // 7 + 3+1 = 11, + 11+100 extra = 122
	b1 := Item{"pk": S("b"), "sk": N("1")}                    // 7
	type step struct {
		name   string
		key    Item // key of the write
		item   Item // nil: delete
		noop   bool // the callback returns ErrNoWrite
		want   int64
		wantPK map[string]int64 // CollectionSize per partition afterwards
	}
	steps := []step{
		{name: "first item", key: a1, item: a1, want: 7, wantPK: map[string]int64{"a": 7}},
		{name: "second partition", key: b1, item: b1, want: 7, wantPK: map[string]int64{"a": 7, "b": 7}},
		{name: "item with index entry", key: a2, item: a2, want: 129, wantPK: map[string]int64{"a": 129, "b": 7}},
		{name: "replace grows", key: a1, item: a1big, want: 134, wantPK: map[string]int64{"a": 134, "b": 7}},
		{name: "no write", key: a1, noop: true, want: 134, wantPK: map[string]int64{"a": 134, "b": 7}},
		{name: "replace shrinks", key: a1big, item: a1, want: 129, wantPK: map[string]int64{"a": 129, "b": 7}},
		{name: "delete absent", key: Item{"pk": S("a"), "sk": N("9")}, want: 129, wantPK: map[string]int64{"a": 129, "b": 7}},
		{name: "delete indexed", key: a2, want: 7, wantPK: map[string]int64{"a": 7, "b": 7}},
		{name: "delete last of partition", key: b1, want: 0, wantPK: map[string]int64{"a": 7, "b": 0}},
		{name: "delete in empty partition", key: Item{"pk": S("c"), "sk": N("1")}, want: 0, wantPK: map[string]int64{"a": 7, "c": 0}},
	}
	tbl := newTable(t, schemaSN)
	tbl.TrackCollections(lsiExtra, 0)
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			ch, err := tbl.Write(schemaSN.KeyOf(s.key), func(Item) (Item, error) {
				if s.noop {
					return nil, ErrNoWrite
				}
				return s.item, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if ch.CollectionSize != s.want {
				t.Errorf("Change.CollectionSize = %d, want %d", ch.CollectionSize, s.want)
			}
			for pk, want := range s.wantPK {
				if got := tbl.CollectionSize(S(pk)); got != want {
					t.Errorf("CollectionSize(%q) = %d, want %d", pk, got, want)
				}
			}
		})
	}
}

func TestCollectionLimit(t *testing.T) {
	item := func(sk, x string) Item { return Item{"pk": S("a"), "sk": N(Number(sk)), "x": S(x)} }
	// Each item: 2+1 + 2+2 + 1+len(x) = 8 + len(x).
	tests := []struct {
		name    string
		limit   int64
		before  []Item
		write   Item // the refused or accepted write
		del     bool // delete write's key instead
		wantErr bool
		want    int64 // collection size after
	}{
		{name: "under", limit: 30, before: []Item{item("1", "aa")}, write: item("2", "bb"), want: 20},
		{name: "exactly at the limit", limit: 20, before: []Item{item("1", "aa")}, write: item("2", "bb"), want: 20},
		{name: "one byte over", limit: 19, before: []Item{item("1", "aa")}, write: item("2", "bb"), wantErr: true, want: 10},
		{name: "grow an item past", limit: 12, before: []Item{item("1", "aa")}, write: item("1", "aaaaa"), wantErr: true, want: 10},
		{name: "other partitions do not count", limit: 12, before: []Item{{"pk": S("b"), "sk": N("1"), "x": S("bbbb")}}, write: item("1", "aaaa"), want: 12},
		{name: "no limit", limit: 0, before: []Item{item("1", strings.Repeat("a", 1000))}, write: item("2", "bb"), want: 1008 + 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tbl := newTable(t, schemaSN)
			for _, it := range tt.before {
				put(t, tbl, it)
			}
			tbl.TrackCollections(nil, tt.limit)
			ch, err := tbl.Write(schemaSN.KeyOf(tt.write), func(Item) (Item, error) { return tt.write, nil })
			if tt.wantErr != errors.Is(err, ErrCollectionTooLarge) || (!tt.wantErr && err != nil) {
				t.Fatalf("Write error = %v, want too large %v", err, tt.wantErr)
			}
			if !tt.wantErr && ch.CollectionSize != tt.want {
				t.Errorf("Change.CollectionSize = %d, want %d", ch.CollectionSize, tt.want)
			}
			if got := tbl.CollectionSize(S("a")); got != tt.want {
				t.Errorf("CollectionSize = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestCollectionOverLimitShrinks: a collection already over the limit (the
// limit was lowered) refuses growth but allows writes that shrink it or
// keep its size.
func TestCollectionOverLimitShrinks(t *testing.T) {
	tbl := newTable(t, schemaSN)
	big := Item{"pk": S("a"), "sk": N("1"), "x": S("0123456789")} // 18
	put(t, tbl, big)
	put(t, tbl, Item{"pk": S("a"), "sk": N("2")}) // 7
	tbl.TrackCollections(nil, 10)
	write := func(it Item) error {
		_, err := tbl.Write(schemaSN.KeyOf(it), func(Item) (Item, error) { return it, nil })
		return err
	}
	if err := write(Item{"pk": S("a"), "sk": N("3")}); !errors.Is(err, ErrCollectionTooLarge) {
		t.Fatalf("growing write: %v, want ErrCollectionTooLarge", err)
	}
	if err := write(big); err != nil {
		t.Fatalf("same-size write: %v", err)
	}
	if err := write(Item{"pk": S("a"), "sk": N("1"), "x": S("0")}); err != nil {
		t.Fatalf("shrinking write: %v", err)
	}
	if _, err := tbl.Write(schemaSN.KeyOf(big), func(Item) (Item, error) { return nil, nil }); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if got := tbl.CollectionSize(S("a")); got != 7 {
		t.Errorf("CollectionSize = %d, want 7", got)
	}
}

func TestCollectionSizeUntracked(t *testing.T) {
	tbl := newTable(t, schemaSN)
	ch := put(t, tbl, Item{"pk": S("a"), "sk": N("1")})
	if ch.CollectionSize != 0 || tbl.CollectionSize(S("a")) != 0 {
		t.Fatalf("untracked table reports %d / %d", ch.CollectionSize, tbl.CollectionSize(S("a")))
	}
}

// TestCollectionRandom runs random writes and checks the kept sizes
// against the stored items after each.
func TestCollectionRandom(t *testing.T) {
	for _, ks := range []KeySchema{schemaS, schemaSN, schemaBB} {
		t.Run(ks.Partition.Kind.String()+"_"+ks.Sort.Name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			g := gen{r: r, ks: ks}
			tbl := newTable(t, ks)
			for range 50 { // some items before tracking starts
				k := g.key()
				put(t, tbl, g.item(k))
			}
			tbl.TrackCollections(lsiExtra, 400)
			refused := 0
			for step := range 1500 {
				k := g.key()
				var it Item
				if r.IntN(3) > 0 {
					it = g.item(k)
					if r.IntN(2) == 0 {
						it["lsk"] = S("x")
					}
				}
				before := tbl.CollectionSize(k.Partition)
				_, err := tbl.Write(k, func(Item) (Item, error) { return it, nil })
				after := tbl.CollectionSize(k.Partition)
				switch {
				case errors.Is(err, ErrCollectionTooLarge):
					if after != before {
						t.Fatalf("refused write changed the size from %d to %d", before, after)
					}
					refused++
				case err != nil:
					t.Fatal(err)
				case after > 400 && after > before:
					t.Fatalf("write grew a collection from %d to %d, past the limit", before, after)
				}
				if step%100 == 0 {
					check(t, tbl)
				}
			}
			if ks.HasSort() && refused == 0 {
				t.Error("no write reached the limit")
			}
		})
	}
}

// TestCollectionSizesThroughPut: Put, which does not hand the old item to a
// callback, still takes a replaced item's weight (index entries included)
// out of its collection.
func TestCollectionSizesThroughPut(t *testing.T) {
	withIndex := Item{"pk": S("a"), "sk": N("1"), "lsk": S("q")} // 11 + 111 extra = 122
	plain := Item{"pk": S("a"), "sk": N("1")}                    // 7
	tbl := newTable(t, schemaSN)
	tbl.TrackCollections(lsiExtra, 0)
	for i, s := range []struct {
		item Item
		want int64
	}{{withIndex, 122}, {withIndex, 122}, {plain, 7}, {withIndex, 122}} {
		ch, err := tbl.Put(schemaSN.KeyOf(s.item), s.item)
		if err != nil {
			t.Fatal(err)
		}
		if ch.CollectionSize != s.want || tbl.CollectionSize(S("a")) != s.want {
			t.Errorf("put %d: Change.CollectionSize %d, CollectionSize %d, want %d", i, ch.CollectionSize, tbl.CollectionSize(S("a")), s.want)
		}
		check(t, tbl)
	}
}
