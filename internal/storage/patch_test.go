package storage

import (
	"errors"
	"github.com/dynamoemu/dynamoemu/internal/number"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// patchNames are the attributes the random patches change: the items'
// own (gen.item), the test indexes' keys and the collection tracker's.
var patchNames = []string{"a0", "a1", "a2", "a3", "a4", "g", "h", "i", "lsk"}

// randomPatch returns sorted distinct names and their new values (a name
// without one is removed).
func (g gen) randomPatch() ([]string, Item) {
	var names []string
	set := Item{}
	for _, n := range patchNames {
		if g.r.IntN(3) != 0 {
			continue
		}
		names = append(names, n)
		if g.r.IntN(4) == 0 {
			continue // removed
		}
		switch n {
		case "g":
			set[n] = S([]string{"x", "y"}[g.r.IntN(2)])
		case "h":
			set[n] = N(number.Random(g.r))
		case "i":
			set[n] = BString([]string{"p", "q"}[g.r.IntN(2)])
		default:
			set[n] = g.value(0)
		}
	}
	if g.r.IntN(4) == 0 {
		set["unnamed"] = S("ignored") // not in names: must be ignored
	}
	return names, set
}

// patched is the map form of a patch: old (nil: the key's attributes)
// with names replaced by set's values.
func patched(ks KeySchema, k Key, old Item, names []string, set Item) Item {
	out := ks.KeyItem(k)
	for n, v := range old {
		out[n] = v
	}
	for _, n := range names {
		if v, ok := set[n]; ok {
			out[n] = v
		} else {
			delete(out, n)
		}
	}
	return out
}

// TestWritePatchRandom holds WritePatch to Write: the same random writes
// through each, to twin tables with indexes, item collection sizes and an
// observer, leave the same records, sizes, index entries and Changes.
func TestWritePatchRandom(t *testing.T) {
	seed := seedFromEnv(t)
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	for _, variant := range []string{"plain", "indexes", "collections"} {
		t.Run(variant, func(t *testing.T) {
			ks := schemaSN
			want, got := newTable(t, ks), newTable(t, ks)
			var wantObs, gotObs recordingObserver
			for _, tbl := range []*Table{want, got} {
				switch variant {
				case "indexes":
					for _, def := range testIndexes[:3] {
						if err := tbl.AddIndex(def); err != nil {
							t.Fatal(err)
						}
					}
				case "collections":
					tbl.TrackCollections(lsiExtra, 0)
				}
			}
			want.SetObserver(&wantObs)
			got.SetObserver(&gotObs)
			g := gen{r: r, ks: ks}
			for i := range 400 {
				k := g.key()
				if r.IntN(5) == 0 {
					it := g.item(k)
					put(t, want, it)
					put(t, got, it)
					continue
				}
				names, set := g.randomPatch()
				noWrite := r.IntN(10) == 0
				wch, werr := want.Write(k, func(old Item) (Item, error) {
					if noWrite {
						return nil, ErrNoWrite
					}
					return patched(ks, k, old, names, set), nil
				})
				gch, gerr := got.WritePatch(k, names, func(old EncodedItem, found bool) (Item, error) {
					if wf := wch.OldSize > 0; found != wf && werr == nil {
						t.Fatalf("write %d: found %v, want %v", i, found, wf)
					}
					if noWrite {
						return nil, ErrNoWrite
					}
					return set, nil
				})
				if (werr == nil) != (gerr == nil) {
					t.Fatalf("write %d: WritePatch error %v, Write error %v", i, gerr, werr)
				}
				if wch.OldSize != gch.OldSize || wch.NewSize != gch.NewSize || wch.CollectionSize != gch.CollectionSize {
					t.Fatalf("write %d: WritePatch change sizes %d/%d/%d, Write %d/%d/%d", i,
						gch.OldSize, gch.NewSize, gch.CollectionSize, wch.OldSize, wch.NewSize, wch.CollectionSize)
				}
				we, wok := want.GetEncoded(k)
				ge, gok := got.GetEncoded(k)
				if wok != gok || we.body != ge.body || we.size != ge.size {
					t.Fatalf("write %d: WritePatch stored %q (%d bytes), Write %q (%d bytes)", i, ge.body, ge.size, we.body, we.size)
				}
			}
			if want.ItemCount() != got.ItemCount() || want.SizeBytes() != got.SizeBytes() {
				t.Fatalf("WritePatch table %d items %d bytes, Write table %d items %d bytes",
					got.ItemCount(), got.SizeBytes(), want.ItemCount(), want.SizeBytes())
			}
			if len(wantObs.writes) != len(gotObs.writes) {
				t.Fatalf("observer heard %d writes of WritePatch, %d of Write", len(gotObs.writes), len(wantObs.writes))
			}
		})
	}
}

// recordingObserver keeps what it is told.
type recordingObserver struct{ writes []Committed }

func (o *recordingObserver) Observe(w Committed) { o.writes = append(o.writes, w) }

func TestWritePatchNames(t *testing.T) {
	tests := []struct {
		name    string
		names   []string
		wantErr bool
	}{
		{"sorted", []string{"a", "b"}, false},
		{"none", nil, false},
		{"unsorted", []string{"b", "a"}, true},
		{"repeated", []string{"a", "a"}, true},
		{"partition key", []string{"a", "pk"}, true},
		{"sort key", []string{"sk"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tbl := newTable(t, schemaSN)
			k := Key{Partition: S("p"), Sort: N("1")}
			_, err := tbl.WritePatch(k, tt.names, func(EncodedItem, bool) (Item, error) { return Item{"a": S("v")}, nil })
			if got := err != nil; got != tt.wantErr {
				t.Fatalf("got error %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr && slices.Contains(tt.names, "pk") && !errors.Is(err, ErrKeyMismatch) {
				t.Fatalf("got %v, want ErrKeyMismatch", err)
			}
		})
	}
}

// TestWritePatchManyAttributes crosses the one-byte attribute count.
func TestWritePatchManyAttributes(t *testing.T) {
	tbl := newTable(t, schemaS)
	k := Key{Partition: S("p")}
	for round := range 3 {
		var names []string
		set := Item{}
		for i := range 150 {
			n := string(rune('a'+i%26)) + string(rune('a'+i/26)) + string(rune('0'+round))
			names = append(names, n)
			set[n] = N(MustNumber("1"))
		}
		slices.Sort(names)
		if _, err := tbl.WritePatch(k, names, func(EncodedItem, bool) (Item, error) { return set, nil }); err != nil {
			t.Fatal(err)
		}
	}
	it, _ := tbl.Get(k)
	if got, want := len(it), 1+3*150; got != want {
		t.Fatalf("got %d attributes, want %d", got, want)
	}
}

// BenchmarkUpdateOneAttribute changes one attribute of a 10-attribute
// item: Write (decode the item, change the map, encode it) against
// WritePatch (decode the attribute, copy the rest).
func BenchmarkUpdateOneAttribute(b *testing.B) {
	k := Key{Partition: S("user#0000001"), Sort: N("1")}
	item := Item{"pk": k.Partition, "sk": k.Sort, "count": N("1"), "status": S("active"), "price": N("1234.5"),
		"flag": Bool(true), "tags": SS([]string{"green", "red"}), "email": S("someone.1@example.com"),
		"f0": S("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"), "f1": S("")}
	names := []string{"count"}
	for _, mode := range []string{"Write", "WritePatch"} {
		b.Run(mode, func(b *testing.B) {
			tbl := newTable(b, schemaSN)
			put(b, tbl, item)
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				n++
				v := N(Number(strconv.Itoa(n % 100)))
				var err error
				if mode == "Write" {
					_, err = tbl.Write(k, func(old Item) (Item, error) {
						next := make(Item, len(old))
						for name, w := range old {
							next[name] = w
						}
						next["count"] = v
						return next, nil
					})
				} else {
					_, err = tbl.WritePatch(k, names, func(EncodedItem, bool) (Item, error) { return Item{"count": v}, nil })
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
